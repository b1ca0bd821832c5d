import { DatingCache, MaterialDater } from '../src/compare/history-layer';
import type { BlobReader } from '../src/git/catfile';
import type { History, PathVersion } from '../src/types';
import type { FingerprintPool } from '../src/workers/pool';

// Pure logic: a blob is a list of numbers, and its fingerprints are those numbers.
const blobs: Record<string, string> = { b1: '1 2', b2: '1 2 3 4 5 6', b3: '7 8 9' };
const reader = { readBlob: async (oid: string) => Buffer.from(blobs[oid] ?? '') } as unknown as BlobReader;
const pool = {
  run: async (jobs: { text: string }[]) => jobs.map((j) => ({ fp: { hashes: j.text.split(' ').map(Number) } })),
} as unknown as FingerprintPool;

function dater(versions: PathVersion[], shared: string[] = []): MaterialDater {
  const hist = { commits: [], pathVersions: { 'a.c': versions } } as unknown as History;
  return new MaterialDater(reader, hist, new DatingCache(pool, 1 << 20), (c) => shared.includes(c));
}
const v = (commit: string, time: number, blobId: string): PathVersion => ({ commit, time, blobId });

describe('dating matched material in one history', () => {
  it('finds the oldest version holding the material, and marks it inherited when that version is shared', async () => {
    const versions = [v('c1', 100, 'b1'), v('c2', 200, 'b2')];
    expect(await dater(versions).firstAppearance('a.c', null, [3, 4, 5])).toEqual({ version: versions[1], shared: false });
    expect(await dater(versions, ['c1', 'c2']).firstAppearance('a.c', null, [3, 4, 5])).toEqual({ version: versions[1], shared: true });
  });

  it('leaves material undated when no recorded version holds it (it came through a merge the walk does not record)', async () => {
    // openresty/luajit2: the newest recorded version of a file is a shared one from LuaJIT's master; the pinned blob
    // was made by merges. Dating it to that shared version credited luajit2 with "first" material it inherited.
    expect(await dater([v('c1', 100, 'b1')], ['c1']).firstAppearance('a.c', null, [7, 8, 9])).toBeNull();
    expect(await dater([v('c1', 100, 'b1'), v('c2', 200, 'b2')], ['c1']).firstAppearance('a.c', null, [7, 8, 9])).toBeNull();
    expect(await dater([], []).firstAppearance('a.c', null, [7, 8, 9])).toBeNull();
  });
});
