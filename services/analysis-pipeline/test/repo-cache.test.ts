import { mkdtempSync, rmSync, writeFileSync, existsSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RepoCache } from '../src/intake/repo-cache';

describe('repository cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lineage-cache-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates one bare repository per URL and evicts the least recently used beyond the budget', async () => {
    const cache = new RepoCache(dir, 150_000);
    const urls = ['https://github.com/a/one', 'https://github.com/a/two', 'https://github.com/a/three'];
    let t = Date.now() / 1000 - 1000;
    for (const u of urls) {
      await cache.withRepo(u, async (gitDir) => {
        expect(existsSync(join(gitDir, 'HEAD'))).toBe(true);
        writeFileSync(join(gitDir, 'objects', 'pad'), Buffer.alloc(100_000));
      });
      utimesSync(`${cache.pathFor(u)}.lock-target`, t, t);
      t += 100;
    }
    const removed = await cache.evict();
    expect(removed).toEqual([cache.pathFor(urls[0]!), cache.pathFor(urls[1]!)]);
    expect(existsSync(cache.pathFor(urls[2]!))).toBe(true);
  });

  it('serialises work on one repository and never evicts one in use', async () => {
    const cache = new RepoCache(dir, 1);
    const order: string[] = [];
    let inside = 0;
    let maxInside = 0;
    const job = (name: string) =>
      cache.withRepo('https://github.com/a/same', async () => {
        inside++;
        maxInside = Math.max(maxInside, inside);
        order.push(`start ${name}`);
        if (name === 'a') expect(await cache.evict()).toEqual([]); // held by us: not evicted
        await new Promise((r) => setTimeout(r, 50));
        order.push(`end ${name}`);
        inside--;
      });
    await Promise.all([job('a'), job('b')]);
    expect(maxInside).toBe(1);
    expect(order).toHaveLength(4);
  });
});
