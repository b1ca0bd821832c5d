// Jest reads `testTimeout` from the root configuration only, never from a project's: the three projects of
// jest.config.js once each set their own there and all ran at Jest's default of 5 s (a test that took longer on a
// slow machine failed). Each project now names its timeout in `globals.testTimeoutMs`, applied here before its tests.
jest.setTimeout((globalThis as { testTimeoutMs?: number }).testTimeoutMs ?? 5_000);
