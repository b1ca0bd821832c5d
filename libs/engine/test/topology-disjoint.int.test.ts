// histories() asks git for the merge bases beside its walks; when there are none, it hands topology() what its walks
// read of each side's own commits (authors, founders, rewritten-history keys) instead of topology() walking both again.
// Either way it must give what topology() gives when asked alone, and walks cut short must never stand in for git.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Deadline, histories, inventory, resolveLimits, topology } from '@lineage/engine';
import { OwnWalkBuilder } from '../src/lineage/topology';
import { buildDagRepo, buildRepo, type CommitSpec, type DagCommit } from '../../../test/fixtures/git-builder';

const base = mkdtempSync(join(tmpdir(), 'lineage-topology-disjoint-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const commits = (tag: string, from: number, n: number): CommitSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    time: 1_600_000_000 + (from + i) * 3600,
    message: `${tag} ${from + i}`,
    files: { [`src/${tag}.js`]: `export const v${from + i} = ${from + i};\n` },
  }));
// The same first commits give the same ids: `fork` holds upstream's first five.
const shared = commits('shared', 0, 5);
const upstream = buildRepo(join(base, 'upstream.git'), { commits: [...shared, ...commits('up', 5, 5)] });
const fork = buildRepo(join(base, 'fork.git'), { commits: [...shared, ...commits('fork', 5, 5)] });
const other = buildRepo(join(base, 'other.git'), { commits: commits('other', 0, 6) });

// A history and its replay into another layout (the same author times, authors and subjects under other ids), with
// several authors, subjects that are not plain ASCII, and a .mailmap that git must not apply to either walk.
const AUTHORS = ['Ada Ölund <ada@example.invalid>', 'Bob Stone <bob@example.invalid>', 'Cy Rao <cy@example.invalid>'];
const solo: DagCommit[] = Array.from({ length: 12 }, (_, i) => ({
  id: `s${i}`,
  parents: i ? [`s${i - 1}`] : [],
  author: AUTHORS[i === 0 ? 2 : i % 2]!,
  time: 1_600_000_000 + i * 3600,
  message: `fix: 100% of «case ${i}»\ttabbed\n\nbody ${i}\n`,
  files: {
    [`src/m${i}.js`]: `export const m${i} = ${i};\n`,
    ...(i === 11 ? { '.mailmap': 'Robert <rob@example.invalid> <bob@example.invalid>\n' } : {}),
  },
}));
const replayed: DagCommit[] = [
  ...solo.map((c) => ({
    ...c,
    id: `r${c.id}`,
    parents: c.parents.map((p) => `r${p}`),
    files: { [`packages/solo/${Object.keys(c.files!)[0]}`]: 'x\n' },
  })),
  ...[0, 1, 2].map((i) => ({
    id: `own${i}`,
    parents: [i ? `own${i - 1}` : 'rs11'],
    author: 'Dee <dee@example.invalid>',
    time: 1_700_000_000 + i,
    message: `own ${i}\n`,
    files: { [`own${i}.js`]: `${i}\n` },
  })),
];
const soloHead = buildDagRepo(join(base, 'solo.git'), solo, 's11');
const replayedHead = buildDagRepo(join(base, 'replayed.git'), replayed, 'own2');

async function pair(o: string, oc: string, t: string, tc: string, maxCommits?: number) {
  const limits = resolveLimits(maxCommits ? { maxCommits } : {});
  const origin = { dir: join(base, o), commit: oc };
  const target = { dir: join(base, t), commit: tc };
  const inv = { origin: await inventory(origin, { limits }), target: await inventory(target, { limits }) };
  const h = await histories(origin, target, inv, { limits });
  const asked = await topology(
    { origin: origin.dir, target: target.dir },
    { origin: oc, target: tc },
    { limits, deadline: new Deadline(60_000) },
  );
  return { h, asked };
}

describe('topology of walks that share no commit', () => {
  it('unrelated histories: no merge base, the same topology git gives when asked', async () => {
    const { h, asked } = await pair('upstream.git', upstream, 'other.git', other);
    expect(h.topology.forkPoints).toEqual([]);
    expect(h.topology).toEqual(asked);
  });

  it('a fork: the fork point is found, as git finds it', async () => {
    const { h, asked } = await pair('upstream.git', upstream, 'fork.git', fork);
    expect(h.topology.forkPoints).toHaveLength(1);
    expect(h.topology.sharedCommits).toBe(5);
    expect(h.topology).toEqual(asked);
  });

  it('walks cut at maxCommits that share nothing are not taken as unrelated', async () => {
    // Three commits a side reach only each side's own commits; the fork point lies below the cut.
    const { h, asked } = await pair('upstream.git', upstream, 'fork.git', fork, 3);
    expect(h.origin.truncated && h.target.truncated).toBe(true);
    expect(h.origin.commits.some((c) => h.target.commits.some((d) => d.id === c.id))).toBe(false);
    expect(h.topology.forkPoints).toHaveLength(1);
    expect(h.topology).toEqual(asked);
  });

  it("a history replayed apart: its rewritten commits, each side's authors and founder, through histories() as when asked", async () => {
    const { h, asked } = await pair('solo.git', soloHead, 'replayed.git', replayedHead);
    // The replay runs commit after commit (the same author time, e-mail and subject): a common line under other ids,
    // on which the origin's pinned commit stands, and the target's three commits after it.
    expect(h.topology.forkPoints).toEqual([{ commit: soloHead, time: expect.any(Number) }]);
    expect(h.topology.commonLine).toMatchObject({ commits: 12, sameTree: 0, origin: { commit: soloHead } });
    expect(h.topology).toMatchObject({ sharedCommits: 0, originIsAncestor: true, targetIsAncestor: false, originOnly: 0, targetOnly: 3 });
    expect(h.topology.rewritten).toMatchObject({ commits: 12, origin: 12, target: 15 });
    const authors = h.topology.sideAuthors!;
    expect(authors.origin.founder).toEqual({ name: 'Cy Rao', email: 'cy@example.invalid' });
    expect(authors.target.founder).toEqual({ name: 'Cy Rao', email: 'cy@example.invalid' });
    expect(authors.origin.authors.map((a) => [a.name, a.commits])).toEqual([
      ['Bob Stone', 6], // under the name the commits carry: the .mailmap at HEAD is not applied
      ['Ada Ölund', 5],
      ['Cy Rao', 1],
    ]);
    expect(authors.target.authors.find((a) => a.name === 'Dee')?.commits).toBe(3);
    expect(h.topology).toEqual(asked);
  });

  it('topology() reads the walks it is given instead of walking the histories again', async () => {
    const limits = resolveLimits({});
    // Given walks that share twelve keys: a rewritten history git's own walks of these two histories do not show.
    const walk = (extra: string): OwnWalkBuilder => {
      const b = new OwnWalkBuilder();
      for (let i = 0; i < 12; i++) b.add(String(1_600_000_000 + i), 'x@example.invalid', `shared ${i}`, 'X');
      b.add('1700000000', 'y@example.invalid', extra, 'Y');
      return b;
    };
    const dirs = { origin: join(base, 'upstream.git'), target: join(base, 'other.git') };
    const commits = { origin: upstream, target: other };
    const opts = { limits, deadline: new Deadline(60_000) };
    expect((await topology(dirs, commits, opts)).rewritten).toBeUndefined();
    const given = await topology(dirs, commits, {
      ...opts,
      bases: [],
      walks: { origin: walk('o').finish(limits.maxCommits), target: walk('t').finish(limits.maxCommits) },
    });
    expect(given.rewritten).toMatchObject({ commits: 12, origin: 13, target: 13 });
    expect(given.sideAuthors!.origin.founder).toEqual({ name: 'Y', email: 'y@example.invalid' });
  });
});
