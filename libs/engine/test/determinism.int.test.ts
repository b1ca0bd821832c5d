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

describe('exchanging origin and target', () => {
  it('mirrors the code evidence, the containments and the dated weights (npm-uglify-terser)', async () => {
    const pair = await NPM_SCENARIOS.find((s) => s.name === 'npm-uglify-terser')!.build(base);
    const listed = JSON.parse((await analyze({ origin: pair.origin, target: pair.target, workers: 1 })).bytes.toString('utf8'));
    const swapped = JSON.parse((await analyze({ origin: pair.target, target: pair.origin, workers: 1 })).bytes.toString('utf8'));
    type Side = { path: string; startLine: number; endLine: number; blobId: string };
    type Item = { kind: string; origin: Side; target: Side };
    const place = (s: Side): string => `${s.path}:${s.startLine}-${s.endLine}@${s.blobId}`;
    const code = (m: { evidence: Item[] }, mirrored: boolean): string[] =>
      m.evidence
        .filter((e) => e.kind === 'CODE_FRAGMENT')
        .map((e) => (mirrored ? `${place(e.target)} ${place(e.origin)}` : `${place(e.origin)} ${place(e.target)}`))
        .sort();
    const fragments = code(listed, false);
    expect(fragments.length).toBeGreaterThan(50);
    expect(code(swapped, true)).toEqual(fragments);
    expect(swapped.metrics.originContainment).toBe(listed.metrics.targetContainment);
    expect(swapped.metrics.targetContainment).toBe(listed.metrics.originContainment);
    expect(swapped.metrics.originFirstWeight).toBe(listed.metrics.targetFirstWeight);
    expect(swapped.metrics.targetFirstWeight).toBe(listed.metrics.originFirstWeight);
  });
});
