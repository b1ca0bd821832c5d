// Rewritten history is still shared history: a history converted twice (no commit id in common, the same trees,
// commit after commit) has a common line, a fork point on each side and each side's departure from it, and its
// direction comes from the usual lineage signals. Two histories that merely share files, empty trees or one imported
// release have none.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, type AnalysisResult, type Direction } from '@lineage/engine';
import { humanReport } from '../src/report';
import { EQUIVALENT_SCENARIOS, type EquivalentScenario } from '../../../test/fixtures/equivalent-history';
import type { BuiltPair } from '../../../test/fixtures/scenarios';

jest.setTimeout(120_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-equivalent-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const flip = (d: Direction): Direction =>
  d === 'ORIGIN_TO_TARGET' ? 'TARGET_TO_ORIGIN' : d === 'TARGET_TO_ORIGIN' ? 'ORIGIN_TO_TARGET' : 'NONE';
const built = new Map<string, BuiltPair>();
async function pairOf(s: EquivalentScenario): Promise<BuiltPair> {
  if (!built.has(s.name)) built.set(s.name, await s.build(base));
  return built.get(s.name)!;
}
/** The commit `n` commits below the head of a repository's main line. */
const below = (dir: string, n: number): string =>
  execFileSync('git', ['--git-dir', dir, 'rev-parse', `main~${n}`], { env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } })
    .toString()
    .trim();
const run = async (s: EquivalentScenario, swapped = false): Promise<AnalysisResult> => {
  const p = await pairOf(s);
  return analyze({ origin: swapped ? p.target : p.origin, target: swapped ? p.origin : p.target, workers: 1 });
};

const positives = EQUIVALENT_SCENARIOS.filter((s) => s.line !== null);
const negatives = EQUIVALENT_SCENARIOS.filter((s) => s.line === null);

describe.each(positives.map((s) => [s.name, s] as [string, EquivalentScenario]))('a common line under other ids: %s', (_n, s) => {
  it('has a fork point on each side, each side departs from it, and the usual signals give the direction', async () => {
    const r = await run(s);
    const m = r.manifest;
    const want = s.line!;
    const p = await pairOf(s);
    expect(m.metrics.sharedCommits).toBe(0);
    const cl = m.lineage?.commonLine;
    expect(cl).toMatchObject({ commits: want.commits, sameTree: want.sameTree });
    expect(cl!.origin.commit).toBe(below(p.origin.dir, want.originAfter));
    expect(cl!.target.commit).toBe(below(p.target.dir, want.targetAfter));
    expect(m.lineage!.forkPoints).toEqual([{ commit: cl!.origin.commit, time: expect.any(String) }]);
    expect(m.lineage!.originOnlyCommits).toBe(want.originAfter);
    expect(m.lineage!.targetOnlyCommits).toBe(want.targetAfter);
    expect(s.verdicts).toContain(m.verdict);
    expect(s.directions).toContain(m.direction);
    const e = m.evidence.find((x) => x.kind === 'EQUIVALENT_COMMITS');
    expect(e?.layer).toBe('HISTORY');
    expect(e?.detail).toContain(
      `0 commit ids in common, but ${want.commits} commits are the same under other ids, commit after commit (identical trees)`,
    );
    expect(e?.detail).toContain(`the common line ends at the origin's ${cl!.origin.commit} and the target's ${cl!.target.commit}`);
    expect(e?.detail).toContain(`after it the origin made ${want.originAfter} commits, the target ${want.targetAfter}`);
    expect(m.chronology.filter((c) => c.kind === 'FORK_POINT').map((c) => [c.side, c.commit])).toEqual([
      ['origin', cl!.origin.commit],
      ['target', cl!.target.commit],
    ]);
    expect(m.summary).toContain(`0 commit ids appear in both histories, but ${want.commits} commits are the same under other ids`);
    const report = humanReport({ manifest: m, hash: r.hash, names: { origin: 'origin', target: 'target' } });
    expect(report).toContain(`No commit id appears in both histories, but ${want.commits} commits are the same under other ids`);
    expect(report).toContain(
      `The common line ends at the origin's ${cl!.origin.commit.slice(0, 12)} and the target's ${cl!.target.commit.slice(0, 12)}`,
    );
  });

  it('with roles swapped: the same verdict and line, the direction flipped', async () => {
    const m = (await run(s, true)).manifest;
    expect(m.lineage?.commonLine?.commits).toBe(s.line!.commits);
    expect(m.lineage!.originOnlyCommits).toBe(s.line!.targetAfter);
    expect(m.lineage!.targetOnlyCommits).toBe(s.line!.originAfter);
    expect(s.verdicts).toContain(m.verdict);
    expect(s.directions.map(flip)).toContain(m.direction);
  });
});

describe('the signals on a common line under other ids', () => {
  const signal = (r: AnalysisResult, kind: string) => r.manifest.lineage!.signals.find((x) => x.kind === kind);
  it('a renamed fork of a history converted twice is the new project; the maintainer stays with the original', async () => {
    const r = await run(positives.find((s) => s.name === 'converted-twice-renamed-fork')!);
    expect(signal(r, 'RENAMED_AT_FORK')?.original).toBe('origin');
    expect(signal(r, 'IDENTITY')?.original).toBe('origin');
    expect(signal(r, 'MAINTAINERS')?.original).toBe('origin');
    expect(r.manifest.lineage!.certain).toBe(false);
  });

  it('trees alone make the line; the maintainers say who went on', async () => {
    const r = await run(positives.find((s) => s.name === 'converted-twice-trees-only')!);
    expect(signal(r, 'MAINTAINERS')?.original).toBe('origin');
    expect(r.manifest.evidence.some((x) => x.kind === 'REWRITTEN_COMMITS')).toBe(false);
  });

  it('a pinned commit on the line is held by the other side, which continues it: ancestry', async () => {
    const r = await run(positives.find((s) => s.name === 'converted-twice-origin-stopped')!);
    expect(signal(r, 'ANCESTRY')?.original).toBe('origin');
    expect(r.manifest.lineage!.certain).toBe(true);
    expect(r.manifest.confidence).toBe('HIGH');
  });
});

describe.each(negatives.map((s) => [s.name, s] as [string, EquivalentScenario]))('no common line: %s', (_n, s) => {
  it('has no lineage, no common line and no commits held under other ids', async () => {
    for (const swapped of [false, true]) {
      const m = (await run(s, swapped)).manifest;
      expect(m.metrics.sharedCommits).toBe(0);
      expect(m.lineage).toBeNull();
      expect(m.evidence.some((x) => x.kind === 'EQUIVALENT_COMMITS' || x.kind === 'REWRITTEN_COMMITS')).toBe(false);
      expect(s.verdicts).toContain(m.verdict);
      expect(s.directions).toContain(m.direction);
    }
  });
});
