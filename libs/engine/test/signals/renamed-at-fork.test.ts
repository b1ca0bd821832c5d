import { lineageSignals } from '../../src/lineage/signals/index';
import { namesKept } from '../../src/lineage/signals/identity';
import { renamedAtFork } from '../../src/lineage/signals/renamed-at-fork';
import { EMPTY_TOPOLOGY } from '../../src/lineage/topology';
import type { Rename, Topology } from '../../src/types';
import { FORK, forked, name, side } from './fixtures';

const rename = (to: string, over: Partial<Rename> = {}): Rename => ({
  key: 'url:readme',
  kind: 'url',
  from: 'form-data/form-data',
  to,
  commit: 'a'.repeat(40),
  time: 1_543_000_000,
  path: 'README.md',
  ...over,
});

/** A fork point whose README cites form-data/form-data most and whose package is `request`; the origin's README then cites `to`. */
function signalsWithReadmeRepo(to: string): string[] {
  const topo: Topology = {
    ...EMPTY_TOPOLOGY(),
    forkPoints: [{ commit: FORK, time: 1_545_000_000 }],
    sharedCommits: 2263,
    originOnly: 436,
    targetOnly: 300,
    forkPointNames: [name('package', 'request', 'package:package.json'), name('url', 'form-data/form-data', 'url:readme')],
    renames: { origin: [rename(to)], target: [] },
  };
  const s = (url: string) => side([name('package', 'request', 'package:package.json'), name('url', url, 'url:readme')]);
  const out = lineageSignals(topo, { origin: s(to), target: s('form-data/form-data') }, { origin: 0, target: 0 });
  return out.result.signals.filter((x) => Number(x.weight) > 0).map((x) => x.kind);
}

describe('a side renamed at the fork point', () => {
  it("took a name that is new, not the shared project's own (postman-request came to cite request/request most)", () => {
    expect(signalsWithReadmeRepo('request/request')).not.toContain('RENAMED_AT_FORK');
    expect(signalsWithReadmeRepo('cypress-io/request')).not.toContain('RENAMED_AT_FORK');
    expect(signalsWithReadmeRepo('placeholdermc/placeholdermc')).toContain('RENAMED_AT_FORK');
  });
});

describe('renamedAtFork', () => {
  const pkg = (n: string) => name('package', n, 'package:package.json');
  const topo = (renames: Topology['renames']) =>
    forked({ forkPoints: [{ commit: FORK, time: 1_600_000_000 }], forkPointNames: [pkg('polymc')], renames });
  const kept = (t: Topology, origin: string, target: string) => namesKept(t, { origin: side([pkg(origin)]), target: side([pkg(target)]) });

  it('votes for the side that kept the name, three days after the fork point', () => {
    const t = topo({
      origin: [],
      target: [rename('prismlauncher', { key: 'package:package.json', kind: 'package', from: 'polymc', time: 1_600_259_200 })],
    });
    const r = renamedAtFork(t, kept(t, 'polymc', 'prismlauncher'));
    expect(r.renamed).toBe('target');
    expect(r.votes).toEqual([expect.objectContaining({ kind: 'RENAMED_AT_FORK', original: 'origin', weight: 3 })]);
    expect(r.votes[0]!.detail).toContain('3 days after the fork point');
    expect(r.evidence.map((e) => [e.kind, e.strength, e.score])).toEqual([['RENAMED_AT_FORK', 'STRONG', '1.0000']]);
  });

  it("weighs nothing when neither side keeps the shared history's authors: the name was kept without the people", () => {
    const t = topo({
      origin: [],
      target: [rename('cgminer', { key: 'package:package.json', kind: 'package', from: 'polymc', time: 1_604_752_000 })],
    });
    const r = renamedAtFork(t, kept(t, 'polymc', 'cgminer'), true);
    expect(r.renamed).toBe('target');
    expect(r.votes).toEqual([expect.objectContaining({ kind: 'RENAMED_AT_FORK', original: 'origin', weight: 0 })]);
    expect(r.votes[0]!.detail).toContain('kept the name without the people');
    expect(r.evidence.map((e) => e.score)).toEqual(['0.0000']);
  });

  it('counts no title, and neither side when both renamed', () => {
    const title = forked({
      forkPointNames: [name('title', 'polymc', 'title:readme')],
      renames: { origin: [], target: [rename('prism', { key: 'title:readme', kind: 'title' })] },
    });
    const titles = namesKept(title, {
      origin: side([name('title', 'polymc', 'title:readme')]),
      target: side([name('title', 'prism', 'title:readme')]),
    });
    expect(renamedAtFork(title, titles).renamed).toBeNull();
    // The origin renamed its module and kept its package; the target did the opposite.
    const mod = (n: string) => name('module', n, 'module:go.mod');
    const both = forked({
      forkPointNames: [pkg('polymc'), mod('polymc')],
      renames: {
        origin: [rename('a', { key: 'module:go.mod', kind: 'module', from: 'polymc' })],
        target: [rename('b', { key: 'package:package.json', kind: 'package', from: 'polymc' })],
      },
    });
    const crossed = namesKept(both, { origin: side([pkg('polymc'), mod('a')]), target: side([pkg('b'), mod('polymc')]) });
    expect(crossed.map((k) => k.keeper)).toEqual(['origin', 'target']);
    expect(renamedAtFork(both, crossed)).toMatchObject({ renamed: null, votes: [], evidence: [] });
  });
});
