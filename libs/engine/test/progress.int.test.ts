import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, EngineError, type Progress } from '@lineage/engine';
import { SCENARIOS } from '../../../test/fixtures/scenarios';

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

  it('stops at a stage boundary when the signal is aborted', async () => {
    const p = await SCENARIOS.find((s) => s.name === 'renamed-copy')!.build(base);
    const ac = new AbortController();
    const run = analyze({ origin: p.origin, target: p.target, workers: 1, signal: ac.signal, onProgress: (e) => e.stage === 'fingerprint' && ac.abort() });
    await expect(run).rejects.toBeInstanceOf(EngineError);
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
  });
});
