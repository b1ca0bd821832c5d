// The one cat-file process per repository answers requests strictly in order. readBlobs and readListed send many
// requests in one write; each must still get its own answer, the same one readBlob gives, and a request refused
// before it reaches git (an invalid id) must not put the answers out of step.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BlobReader } from '../src/git/catfile';
import { buildRepo } from '../../../test/fixtures/git-builder';

const base = mkdtempSync(join(tmpdir(), 'lineage-catfile-'));
const dir = join(base, 'repo.git');
const head = buildRepo(dir, {
  commits: [
    {
      time: 1_600_000_000,
      message: 'files',
      files: { 'a.txt': 'alpha\n', 'b.txt': 'bravo\n', 'big.txt': 'x'.repeat(5000), 'src/c.txt': 'charlie\n' },
    },
  ],
});
const id = (rev: string): string => execFileSync('git', ['--git-dir', dir, 'rev-parse', rev]).toString().trim();
const a = id(`${head}:a.txt`);
const b = id(`${head}:b.txt`);
const big = id(`${head}:big.txt`);
const c = id(`${head}:src/c.txt`);
const tree = id(`${head}:src`);
const missing = '0123456789abcdef0123456789abcdef01234567';

let reader: BlobReader;
beforeEach(() => (reader = new BlobReader(dir)));
afterEach(() => reader.close());
afterAll(() => rmSync(base, { recursive: true, force: true }));

const text = (bs: (Buffer | null)[]): (string | null)[] => bs.map((x) => x?.toString('utf8') ?? null);

describe('BlobReader.readBlobs', () => {
  it('answers in the order asked, with null for a blob over the bound, a missing object and a tree', async () => {
    const got = text(await reader.readBlobs([big, a, missing, tree, c, a], 100));
    expect(got).toEqual([null, 'alpha\n', null, null, 'charlie\n', 'alpha\n']);
  });

  it('gives what readBlob gives one by one, across several batches', async () => {
    const ids = [a, big, b, missing, c, tree, b, a, big];
    const one: (Buffer | null)[] = [];
    for (const x of ids) one.push(await reader.readBlob(x, 1000));
    expect(text(await reader.readBlobs(ids, 1000, 2))).toEqual(text(one));
    expect(text(await reader.readBlobs(ids, 10_000, 4))[1]).toHaveLength(5000);
  });

  it('rejects an invalid id without putting later answers out of step', async () => {
    await expect(reader.readBlobs([a, 'not-an-object-id', b], 100)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(text(await reader.readBlobs([b, a], 100))).toEqual(['bravo\n', 'alpha\n']);
    expect((await reader.readBlob(c, 100))?.toString('utf8')).toBe('charlie\n');
  });

  it('runs beside readListed and readBlob on the same process, each getting its own answers', async () => {
    const listed = (async () => {
      const out: (Buffer | null)[] = [];
      for await (const x of reader.readListed(
        [
          { oid: a, size: 6 },
          { oid: big, size: 5000 },
          { oid: c, size: 8 },
          { oid: b, size: 6 },
        ],
        1000,
        10,
      ))
        out.push(x);
      return text(out);
    })();
    const [l, many, single] = await Promise.all([listed, reader.readBlobs([c, b, a], 100), reader.readBlob(b, 100)]);
    expect(l).toEqual(['alpha\n', null, 'charlie\n', 'bravo\n']);
    expect(text(many)).toEqual(['charlie\n', 'bravo\n', 'alpha\n']);
    expect(single?.toString('utf8')).toBe('bravo\n');
  });
});
