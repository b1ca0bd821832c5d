// Histories with no commit id in common that hold the same commits under other ids (a history replayed into a
// monorepo, or a directory extracted with its history) are shared history all the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@lineage/engine';
import { SCENARIOS } from '../../../test/fixtures/scenarios';

jest.setTimeout(120_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-rewritten-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const run = async (name: string) => {
  const pair = await SCENARIOS.find((s) => s.name === name)!.build(base);
  return (await analyze({ origin: pair.origin, target: pair.target, workers: 1 })).manifest;
};

describe('a history rewritten apart', () => {
  it('is found from author times, e-mails and subjects, and shown as history evidence and a chronology fact', async () => {
    const m = await run('history-replayed-into-monorepo');
    expect(m.metrics.sharedCommits).toBe(0);
    const e = m.evidence.find((x) => x.kind === 'REWRITTEN_COMMITS');
    expect(e?.layer).toBe('HISTORY');
    expect(e?.detail).toMatch(/^12 commits are in both histories under other ids .*the origin's walk has 12 commits, the target's 15; /);
    // A replay keeps the content of every commit it replays: not two slices of one history.
    expect(e?.detail).toMatch(
      /of the newest 7 that changed content on both sides, 14 of 14 blobs written \(the smaller side's\) are the same$/,
    );
  });

  it("tells two slices of one history from a copy: each side's copies of the commits changed different content", async () => {
    const m = await run('splits-of-one-project');
    const e = m.evidence.find((x) => x.kind === 'REWRITTEN_COMMITS');
    expect(e?.detail).toMatch(
      /, 1 of 8 blobs written \(the smaller side's\) are the same: each side kept its own part of the same commits, two slices of one history$/,
    );
    expect(m.verdict).toBe('SHARED_UPSTREAM');
    expect(m.chronology.some((c) => c.kind === 'REWRITTEN_COMMITS')).toBe(true);
  });

  it('is not found between histories that merely share code', async () => {
    for (const name of ['same-spec-independent', 'target-older']) {
      const m = await run(name);
      expect(m.evidence.some((x) => x.kind === 'REWRITTEN_COMMITS')).toBe(false);
    }
  });
});
