import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, type AnalysisResult, type Direction } from '@lineage/engine';
import { LINEAGE_SCENARIOS } from '../../../test/fixtures/lineage-scenarios';
import { SCENARIOS } from '../../../test/fixtures/scenarios';
import type { BuiltPair, Scenario } from '../../../test/fixtures/scenarios';

jest.setTimeout(120_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-shared-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const flip = (d: Direction): Direction =>
  d === 'ORIGIN_TO_TARGET' ? 'TARGET_TO_ORIGIN' : d === 'TARGET_TO_ORIGIN' ? 'ORIGIN_TO_TARGET' : 'NONE';
const built = new Map<string, BuiltPair>();
async function pairOf(s: Scenario): Promise<BuiltPair> {
  if (!built.has(s.name)) built.set(s.name, await s.build(base));
  return built.get(s.name)!;
}

function expectHistoryItemsLocated(r: AnalysisResult): void {
  // Every lineage signal is an evidence item of the HISTORY layer; names and declarations carry file:line.
  for (const e of r.manifest.evidence.filter((x) => x.kind === 'IDENTITY_KEPT' || x.kind === 'DECLARED_UPSTREAM')) {
    const locs = [e.origin, e.target].filter((l) => l !== null);
    expect(locs.length).toBeGreaterThan(0);
    for (const l of locs) {
      expect(l!.path.length).toBeGreaterThan(0);
      expect(l!.startLine).toBeGreaterThanOrEqual(1);
      expect(l!.blobId).toMatch(/^[0-9a-f]{40}$/);
    }
  }
}

// The synthetic cases of shared history, plus the two older fork scenarios, each as built and with roles swapped.
const cases = [...LINEAGE_SCENARIOS, ...SCENARIOS.filter((s) => s.name === 'fork-declared' || s.name === 'shared-upstream')];

describe.each(cases.map((s) => [s.name, s] as [string, Scenario]))('%s', (_name, s) => {
  it(`is ${s.verdicts.join(' or ')} with direction ${s.directions.join(' or ')}`, async () => {
    const p = await pairOf(s);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    expect(r.manifest.metrics.sharedCommits).toBeGreaterThan(0);
    expect(r.manifest.lineage).not.toBeNull();
    expect(s.verdicts).toContain(r.manifest.verdict);
    expect(s.directions).toContain(r.manifest.direction);
    expect(r.manifest.evidence.some((e) => e.layer === 'HISTORY' && e.kind === 'SHARED_COMMITS')).toBe(true);
    expectHistoryItemsLocated(r);
  });

  it('with roles swapped: the same verdict, the direction flipped', async () => {
    const p = await pairOf(s);
    const r = await analyze({ origin: p.target, target: p.origin, workers: 1 });
    expect(s.verdicts).toContain(r.manifest.verdict);
    expect(s.directions.map(flip)).toContain(r.manifest.direction);
  });
});

describe('lineage signals on synthetic histories', () => {
  const signal = (r: AnalysisResult, kind: string) => r.manifest.lineage!.signals.find((x) => x.kind === kind);

  it('ancestry is certain: HIGH confidence, and the fork point is the origin commit', async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-ancestor-ahead')!);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    expect(r.manifest.confidence).toBe('HIGH');
    expect(signal(r, 'ANCESTRY')).toMatchObject({ original: 'origin' });
    expect(r.manifest.lineage!.forkPoints.map((f) => f.commit)).toEqual([p.origin.commit]);
    expect(r.manifest.lineage!.originOnlyCommits).toBe(0);
    expect(r.manifest.lineage!.targetOnlyCommits).toBe(4);
  });

  it('a declaration by a former name is matched against the name the other side had at the fork point', async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-declared-by-former-name')!);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    const decl = r.manifest.evidence.find((e) => e.kind === 'DECLARED_UPSTREAM')!;
    expect(decl.target).toMatchObject({ path: 'README.md', startLine: 3 });
    expect(decl.detail).toContain('"alpha-lib"');
    expect(r.manifest.metrics.declaredBy).toBe('target');
  });

  it('a side renamed at the fork point is the new project, whoever went with it', async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-maintainers-follow-a-renamed-fork')!);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    expect(signal(r, 'RENAMED_AT_FORK')).toMatchObject({ original: 'origin', weight: '3.0000' });
    expect(signal(r, 'RENAMED_AT_FORK')!.detail).toContain('"alpha-next" in place of "alpha-lib" (package.json)');
    expect(signal(r, 'RENAMED_AT_FORK')!.detail).toContain('2 days after the fork point');
    // The maintainer went with the target: recorded, but it carries no weight for the renamed side.
    expect(signal(r, 'MAINTAINERS')).toMatchObject({ original: 'none', weight: '0.0000' });
    expect(signal(r, 'MAINTAINERS')!.detail).toContain('they went on with the target, which took a new name at the fork point');
    expect(r.manifest.evidence.some((e) => e.kind === 'RENAMED_AT_FORK' && e.layer === 'HISTORY')).toBe(true);
  });

  it('a rename long after the fork point is not a rename at the fork', async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-upstream-renamed-later')!);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    expect(signal(r, 'RENAMED_AT_FORK')).toBeUndefined();
    expect(signal(r, 'MAINTAINERS')).toMatchObject({ original: 'origin' });
    expect(r.manifest.direction).not.toBe('TARGET_TO_ORIGIN');
  });

  it("a side's own commits dated before the fork point are not work after it (history held under other ids)", async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-fork-holds-old-history-under-other-ids')!);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    expect(r.manifest.lineage!.targetOnlyCommits).toBe(14);
    // Counted: the merge and three commits by the newcomer; the maintainer's ten old commits are not.
    expect(signal(r, 'MAINTAINERS')).toMatchObject({ original: 'origin' });
    expect(signal(r, 'MAINTAINERS')!.detail).toContain("of the origin's 3 later commits (by share) and 0.0000 of the target's 4");
  });

  it('sync merges: the side that keeps merging the common line is the fork', async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-sync-merges')!);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    expect(signal(r, 'SYNC_MERGES')).toMatchObject({ original: 'origin' });
    expect(r.manifest.evidence.find((e) => e.kind === 'SYNC_MERGES')!.detail).toContain('the target 10 times');
  });

  it('two forks of a third project: the declarations point at the shared project, not at each other', async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-two-forks-of-a-third')!);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    expect(r.manifest.lineage!.thirdLine).toBe(true);
    expect(r.manifest.lineage!.signals.filter((x) => x.kind === 'DECLARATION').every((x) => x.original === 'none')).toBe(true);
    expect(r.manifest.metrics.declaredUpstream).toBe(false);
  });

  it('two forks that both merge a third line: neither pulls from the other, neither keeps its maintainers', async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-two-forks-merging-a-third')!);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    // The target merged r0..r3, which the origin holds too (through its merge of r3): the fork point is r3.
    expect(r.manifest.lineage!.targetOnlyCommits).toBe(15); // t0-t5, tm0-tm5, r4, r5, x0
    // The maintainer's r4 and r5 reach the target through its merges only: not its mainline, so not its maintainers.
    expect(signal(r, 'MAINTAINERS')).toMatchObject({ original: 'none' });
    expect(signal(r, 'MAINTAINERS')!.detail).toContain("0.0000 of the origin's 5 later commits (by share) and 0.0000 of the target's 13");
    // Its merges of r0..r3 brought in commits off the origin's mainline: no sync with the origin.
    expect(r.manifest.evidence.find((e) => e.kind === 'SYNC_MERGES')).toBeUndefined();
    expect(r.manifest.lineage!.signals.filter((x) => x.kind === 'DECLARATION').every((x) => x.original === 'none')).toBe(true);
    expect(r.manifest.verdict).toBe('SHARED_UPSTREAM');
  });

  it('commits both sides hold under other ids (same author time and subject) are shared history, not later work', async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-history-converted-apart')!);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    expect(r.manifest.lineage!.targetOnlyCommits).toBe(13); // b0-b9 and t0-t2
    expect(signal(r, 'MAINTAINERS')).toMatchObject({ original: 'origin' });
    expect(signal(r, 'MAINTAINERS')!.detail).toContain('and of the 10 commits both sides hold under other ids');
    expect(signal(r, 'MAINTAINERS')!.detail).toContain(
      "made 0.9375 of the origin's 3 later commits (by share) and 0.0000 of the target's 3",
    );
  });

  it('material first seen in shared commits is never evidence of direction', async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-maintainers-on-one-side')!);
    const r = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    // All matched code comes from the shared project: dated in shared commits on both sides, a tie.
    expect(r.manifest.metrics.originFirstWeight).toBe(0);
    expect(r.manifest.metrics.targetFirstWeight).toBe(0);
    expect(r.manifest.evidence.filter((e) => e.layer === 'CODE').every((e) => e.detail.includes('inherited from shared history'))).toBe(
      true,
    );
  });

  it('manifests are byte-identical across runs and worker counts', async () => {
    const p = await pairOf(LINEAGE_SCENARIOS.find((s) => s.name === 'lineage-sync-merges')!);
    const a = await analyze({ origin: p.origin, target: p.target, workers: 1 });
    const b = await analyze({ origin: p.origin, target: p.target, workers: 2, forceWorkers: true });
    expect(b.hash).toBe(a.hash);
    expect(b.bytes.equals(a.bytes)).toBe(true);
  });
});
