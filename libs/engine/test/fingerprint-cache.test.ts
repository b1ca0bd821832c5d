import { FingerprintCache, resultBytes } from '../src/fingerprint-cache';
import type { FileResult } from '../src/fingerprint-file';

/** A result with n fingerprints and no items: 200 + 32 n bytes as the cache counts it. */
function result(path: string, n: number): FileResult {
  const zeros = Array.from({ length: n }, () => 0);
  return {
    fp: {
      path,
      blobId: '0'.repeat(40),
      language: 'javascript',
      tokens: n,
      hashes: zeros,
      startLines: zeros,
      endLines: zeros,
      lowEntropy: zeros,
    },
    language: [],
    tests: [],
  };
}

describe('the fingerprint cache', () => {
  it('gives back what it was given, and counts hits and misses', () => {
    const c = new FingerprintCache(1_000_000);
    const r = result('a.js', 10);
    expect(c.get('a')).toBeUndefined();
    c.set('a', r);
    expect(c.get('a')).toBe(r);
    expect([c.hits, c.misses, c.size, c.bytes]).toEqual([1, 1, 1, resultBytes(r)]);
  });

  it('lets the least recently used go first once over its bound', () => {
    const one = resultBytes(result('x', 25)); // 1,000 bytes
    const c = new FingerprintCache(4 * one + 10); // four fit, and each is under a quarter of the bound
    for (const k of ['a', 'b', 'c', 'd']) c.set(k, result(k, 25));
    expect(c.get('a')).toBeDefined(); // a is now the most recently used, b the least
    c.set('e', result('e', 25));
    expect(c.get('b')).toBeUndefined();
    expect(['a', 'c', 'd', 'e'].every((k) => c.get(k) !== undefined)).toBe(true);
    expect(c.evictions).toBe(1);
    expect(c.bytes).toBeLessThanOrEqual(c.maxBytes);
  });

  it('does not keep a result over a quarter of its bound, nor a key twice', () => {
    const c = new FingerprintCache(4000);
    c.set('big', result('big', 40)); // 1,480 bytes > 1,000
    expect(c.size).toBe(0);
    c.set('k', result('k', 1));
    c.set('k', result('k', 2));
    expect(c.size).toBe(1);
    expect(c.get('k')!.fp.hashes.length).toBe(1);
  });
});
