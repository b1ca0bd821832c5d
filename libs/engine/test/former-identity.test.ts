import { MIN_COMMITS_AFTER, departureAfter, formerIdentities, madeUnderFormerIdentity } from '../src/lineage/former-identity';
import type { CommitInfo, History, NameRef } from '../src/types';

const DAY = 86400;
const pinnedName = (name: string, key = 'package:package.json'): NameRef => ({
  name,
  kind: 'package',
  key,
  path: 'package.json',
  line: 2,
  blobId: 'b'.repeat(40),
  commit: 'head',
});

/** A mainline of `before` commits by `old` then `after` commits by `next`, one a day, newest first as the walk lists them. */
function history(before: number, after: number, old: string, next: string): Pick<History, 'commit' | 'commits' | 'names'> {
  const commits: CommitInfo[] = [];
  for (let i = 0; i < before + after; i++) {
    const who = i < before ? old : next;
    commits.push({ id: `c${i}`, time: i * DAY, parents: i ? [`c${i - 1}`] : [], email: `${who}@example.invalid`, author: who });
  }
  commits[commits.length - 1]!.id = 'head';
  commits.reverse();
  if (commits[1]) commits[0]!.parents = [commits[1].id];
  const renamedAt = before * DAY;
  return {
    commit: 'head',
    commits,
    names: {
      pinned: [pinnedName('quartz-ng')],
      past: [],
      samples: [
        { key: 'package:package.json', name: 'quartz', time: 0 },
        { key: 'package:package.json', name: 'quartz', time: (before - 1) * DAY },
        { key: 'package:package.json', name: 'quartz-ng', time: renamedAt },
      ],
    },
  };
}

describe('formerIdentities', () => {
  it('finds the rename, when it came and who made the mainline since', () => {
    const [f, ...rest] = formerIdentities(history(20, 15, 'ana', 'bo'));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      key: 'package:package.json',
      former: 'quartz',
      current: 'quartz-ng',
      formerUntil: 19 * DAY,
      renamedAt: 20 * DAY,
    });
    expect([...f!.after].sort()).toEqual(['e:bo@example.invalid', 'n:bo']);
  });

  it('needs MIN_COMMITS_AFTER mainline commits under the present name', () => {
    expect(formerIdentities(history(20, MIN_COMMITS_AFTER, 'ana', 'bo'))).toHaveLength(1);
    expect(formerIdentities(history(20, MIN_COMMITS_AFTER - 1, 'ana', 'bo'))).toEqual([]);
  });

  it('reads nothing without a sample carrying the present name, nor from a walk without authors', () => {
    const h = history(20, 15, 'ana', 'bo');
    expect(formerIdentities({ ...h, names: { ...h.names, samples: h.names.samples!.slice(0, 2) } })).toEqual([]);
    expect(formerIdentities({ ...h, commits: h.commits.map(({ email: _e, author: _a, ...c }) => c) })).toEqual([]);
    // a name that only changed its spelling is no rename
    expect(formerIdentities({ ...h, names: { ...h.names, pinned: [pinnedName('Quartz')] } })).toEqual([]);
  });

  it('reads a repository that moved to another owner as the same project, and no README title as a rename', () => {
    const h = history(20, 15, 'ana', 'bo');
    const samples = (key: string, before: string, after: string) => [
      { key, name: before, time: 0 },
      { key, name: after, time: 20 * DAY },
    ];
    const url = { ...pinnedName('quartz-org/quartz', 'url:readme'), kind: 'url' as const };
    // antirez/redis became redis/redis when its author handed it over: the same project
    expect(
      formerIdentities({ ...h, names: { pinned: [url], past: [], samples: samples('url:readme', 'ana/quartz', 'quartz-org/quartz') } }),
    ).toEqual([]);
    expect(
      formerIdentities({ ...h, names: { pinned: [url], past: [], samples: samples('url:readme', 'ana/slate', 'quartz-org/quartz') } }),
    ).toHaveLength(1);
    const title = { ...pinnedName('quartz-ng', 'title:readme'), kind: 'title' as const };
    expect(
      formerIdentities({ ...h, names: { pinned: [title], past: [], samples: samples('title:readme', 'quartz', 'quartz-ng') } }),
    ).toEqual([]);
  });
});

describe('madeUnderFormerIdentity', () => {
  const formers = formerIdentities(history(20, 15, 'ana', 'bo'));

  it('is material made before the rename by someone who made nothing since', () => {
    expect(madeUnderFormerIdentity(formers, { email: 'ana@example.invalid', author: 'ana' }, 5 * DAY)).toBe(formers[0]);
  });

  it('is not material made after the last former name, nor by someone who went on', () => {
    expect(madeUnderFormerIdentity(formers, { email: 'ana@example.invalid', author: 'ana' }, 20 * DAY)).toBeNull();
    expect(madeUnderFormerIdentity(formers, { email: 'bo@example.invalid', author: 'bo' }, 5 * DAY)).toBeNull();
    // the same person under another address, by name
    expect(madeUnderFormerIdentity(formers, { email: 'bo@elsewhere.invalid', author: 'Bo' }, 5 * DAY)).toBeNull();
    expect(madeUnderFormerIdentity(formers, undefined, 5 * DAY)).toBeNull();
  });

  it('a rename by the people who made the project keeps their material theirs', () => {
    const kept = formerIdentities(history(20, 15, 'ana', 'ana'));
    expect(kept).toHaveLength(1);
    expect(madeUnderFormerIdentity(kept, { email: 'ana@example.invalid', author: 'ana' }, 5 * DAY)).toBeNull();
  });
});

describe('departureAfter', () => {
  const [f] = formerIdentities(history(20, 15, 'ana', 'bo'));

  it('is the rename of a side that still carried its former name after the fork point', () => {
    expect(departureAfter([f!], 10 * DAY)).toBe(f);
  });

  it('is none when the side had its present name by the fork point, or never changed it', () => {
    expect(departureAfter([f!], 19 * DAY + 1)).toBeNull();
    expect(departureAfter([], 10 * DAY)).toBeNull();
  });

  it('is the latest of several renames', () => {
    const later = { ...f!, key: 'title:README.md', renamedAt: f!.renamedAt + DAY };
    expect(departureAfter([f!, later], 10 * DAY)).toBe(later);
  });
});
