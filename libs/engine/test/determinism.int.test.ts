import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@lineage/engine';
import { SCENARIOS } from '../../../test/fixtures/scenarios';
import { NPM_SCENARIOS } from '../../../test/fixtures/npm-packages';

jest.setTimeout(300_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-determinism-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function numbersAreIntegers(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v);
  if (Array.isArray(v)) return v.every(numbersAreIntegers);
  if (v && typeof v === 'object') return Object.values(v).every(numbersAreIntegers);
  return true;
}

describe.each([
  ['renamed-copy', SCENARIOS.find((s) => s.name === 'renamed-copy')!],
  ['npm-uglify-terser', NPM_SCENARIOS.find((s) => s.name === 'npm-uglify-terser')!],
])('manifest determinism (%s)', (_n, scenario) => {
  it('is byte-identical across three runs and across 1 vs 2 worker threads', async () => {
    const pair = await scenario.build(base);
    const runs = [];
    for (const workers of [1, 2, 2]) runs.push(await analyze({ origin: pair.origin, target: pair.target, workers, forceWorkers: true }));
    const [a, b, c] = runs;
    expect(b!.bytes.equals(a!.bytes)).toBe(true);
    expect(c!.bytes.equals(a!.bytes)).toBe(true);
    expect(b!.hash).toBe(a!.hash);
    const text = a!.bytes.toString('utf8');
    // nothing machine-dependent: no absolute paths, no float noise
    expect(text).not.toContain(base);
    expect(text).not.toContain(tmpdir());
    expect(numbersAreIntegers(JSON.parse(text))).toBe(true);
    expect(a!.hash).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
