import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, EngineError, type Progress } from '@lineage/engine';
import { SCENARIOS } from '../../../test/fixtures/scenarios';
import { buildRepo } from '../../../test/fixtures/git-builder';

jest.setTimeout(120_000);
const base = mkdtempSync(join(tmpdir(), 'lineage-progress-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('progress and cancellation', () => {
  it('reports real counts per stage and side', async () => {
    const p = await SCENARIOS.find((s) => s.name === 'fork-declared')!.build(base);
    const events: Progress[] = [];
    const r = await analyze({ origin: p.origin, target: p.target, workers: 2, forceWorkers: true, onProgress: (e) => events.push(e) });
    const last = (stage: string, side: string): Progress | undefined => events.filter((e) => e.stage === stage && e.side === side).pop();
    for (const side of ['origin', 'target'] as const) {
      const inv = r.inventories[side];
      expect(last('inventory', side)).toMatchObject({ done: inv.files.length, total: inv.files.length, unit: 'files' });
      const code = inv.files.filter((f) => f.class === 'source' || f.class === 'test').length;
      expect(last('fingerprint', side)).toMatchObject({ done: code, total: code, unit: 'files' });
      expect(last('history', side)!.unit).toBe('commits');
    }
    expect(last('history', 'target')!.done).toBe(4);
    for (const e of events) expect(e.done).toBeLessThanOrEqual(e.total);
    expect(events.some((e) => e.stage === 'compare')).toBe(true);
  });

  it('history progress counts toward the real number of commits, not the commit limit', async () => {
    // 2,500 commits: progress fires every 1,000, each time out of the history's real size.
    const commits = Array.from({ length: 2500 }, (_, i) => ({
      time: 1_600_000_000 + i * 60,
      message: `c${i}`,
      files: { 'src/a.js': `export const v = ${i};\n` },
    }));
    const dir = join(base, 'long.git');
    const commit = buildRepo(dir, { commits });
    const events: Progress[] = [];
    await analyze({ origin: { dir, commit }, target: { dir, commit }, workers: 1, onProgress: (e) => events.push(e) });
    const history = events.filter((e) => e.stage === 'history' && e.side === 'origin');
    expect(history.map((e) => [e.done, e.total])).toEqual([
      [1000, 2500],
      [2000, 2500],
      [2500, 2500],
    ]);
    // and never more than the limit when the history is longer than it
    const capped: Progress[] = [];
    await analyze({
      origin: { dir, commit },
      target: { dir, commit },
      workers: 1,
      limits: { maxCommits: 1500 },
      onProgress: (e) => capped.push(e),
    });
    expect(capped.filter((e) => e.stage === 'history' && e.side === 'origin').map((e) => [e.done, e.total])).toEqual([
      [1000, 1500],
      [1500, 1500],
    ]);
  });

  it('stops at a stage boundary when the signal is aborted', async () => {
    const p = await SCENARIOS.find((s) => s.name === 'renamed-copy')!.build(base);
    const ac = new AbortController();
    const run = analyze({
      origin: p.origin,
      target: p.target,
      workers: 1,
      signal: ac.signal,
      onProgress: (e) => e.stage === 'fingerprint' && ac.abort(),
    });
    await expect(run).rejects.toBeInstanceOf(EngineError);
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
