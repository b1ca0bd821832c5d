import { identity, namesKept } from '../../src/lineage/signals/identity';
import { forked, name, side } from './fixtures';

describe('identity', () => {
  const topo = forked({
    forkPointNames: [
      name('package', 'request', 'package:package.json'),
      name('title', 'request', 'title:readme'),
      name('url', 'request/request', 'url:readme'),
    ],
  });

  it('lists per fork-point name the side that kept it and the side that changed it', () => {
    const kept = namesKept(topo, {
      origin: side([name('package', 'request', 'package:package.json'), name('title', 'request', 'title:readme')]),
      target: side([name('package', '@postman/request', 'package:package.json'), name('title', 'postman request', 'title:readme')]),
    });
    // The URL key is missing on both sides: nothing to compare.
    expect(kept.map((k) => [k.f.key, k.keeper])).toEqual([
      ['package:package.json', 'origin'],
      ['title:readme', 'origin'],
    ]);
    const id = identity(kept);
    expect(id.weight).toEqual({ origin: 2.5, target: 0 });
    expect(id.keptStrong).toEqual({ origin: true, target: false });
    expect(id.evidence.map((e) => [e.kind, e.origin?.path, e.target?.path])).toEqual([
      ['IDENTITY_KEPT', 'package.json', 'package.json'],
      ['IDENTITY_KEPT', 'README.md', 'README.md'],
    ]);
    expect(id.votes).toEqual([
      { kind: 'IDENTITY', original: 'origin', weight: 2.5, detail: 'the origin kept names of the shared project that the target changed' },
    ]);
  });

  it('caps a side at IDENTITY_MAX, and a repository or a title alone is not a strong keep', () => {
    const kept = namesKept(topo, {
      origin: side([
        name('package', 'request', 'package:package.json'),
        name('url', 'request/request', 'url:readme'),
        name('title', 'x', 'title:readme'),
      ]),
      target: side([
        name('package', 'other', 'package:package.json'),
        name('url', 'other/other', 'url:readme'),
        name('title', 'request', 'title:readme'),
      ]),
    });
    const id = identity(kept);
    expect(id.votes.map((v) => [v.original, v.weight])).toEqual([
      ['origin', 2.5],
      ['target', 0.5],
    ]);
    expect(id.keptStrong).toEqual({ origin: true, target: false });
  });

  it("gives names kept without the shared history's people no weight (a third line), and keeps their evidence", () => {
    const kept = namesKept(topo, {
      origin: side([name('package', 'request', 'package:package.json')]),
      target: side([name('package', '@postman/request', 'package:package.json')]),
    });
    const id = identity(kept, true);
    expect(id.votes).toEqual([
      {
        kind: 'IDENTITY',
        original: 'origin',
        weight: 0,
        detail:
          "the origin kept names of the shared project that the target changed, but neither side keeps the shared history's authors: names kept without the people do not make the original",
      },
    ]);
    expect(id.weight).toEqual({ origin: 2, target: 0 });
    expect(id.keptStrong.origin).toBe(true);
    expect(id.evidence).toHaveLength(1);
    expect(identity(kept, false).votes[0]!.weight).toBe(2);
  });

  it('says nothing when both sides kept a name or both changed it', () => {
    const kept = namesKept(topo, {
      origin: side([name('package', 'request', 'package:package.json'), name('title', 'a', 'title:readme')]),
      target: side([name('package', 'request', 'package:package.json'), name('title', 'b', 'title:readme')]),
    });
    expect(kept).toEqual([]);
    expect(identity(kept).votes).toEqual([]);
  });
});
