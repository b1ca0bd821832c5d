import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, FingerprintCache } from '@lineage/engine';
import { SCENARIOS } from '../../../test/fixtures/scenarios';

jest.setTimeout(300_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-fp-cache-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const scenario = (name: string) => SCENARIOS.find((s) => s.name === name)!;

describe('analyses that share a fingerprint cache', () => {
  it('give the manifests of analyses without one, and take a shared side from it', async () => {
    const copy = await scenario('renamed-copy').build(join(base, 'copy'));
    const rewrite = await scenario('heavy-rewrite').build(join(base, 'rewrite'));
    // The pairs a service meets one after the other: the same side against another, and a pair the other way round.
    const pairs = [
      { origin: copy.origin, target: copy.target },
      { origin: copy.origin, target: rewrite.target },
      { origin: copy.target, target: copy.origin },
    ];
    const fresh = [];
    for (const p of pairs) fresh.push(await analyze({ ...p, workers: 1 }));
    for (const maxBytes of [64 * 1024 ** 2, 20_000]) {
      // 20 kB holds a few files at a time: results are evicted between the analyses and during them.
      const cache = new FingerprintCache(maxBytes);
      const hitsBefore: number[] = [];
      for (const [i, p] of pairs.entries()) {
        hitsBefore.push(cache.hits);
        const r = await analyze({ ...p, workers: 1, fingerprintCache: cache });
        expect(r.hash).toBe(fresh[i]!.hash);
        expect(r.bytes.equals(fresh[i]!.bytes)).toBe(true);
      }
      if (maxBytes > 20_000) {
        // The first pair finds nothing; the second finds the origin it shares with the first; the third finds both sides.
        expect(hitsBefore[0]).toBe(0);
        expect(hitsBefore[2]! - hitsBefore[1]!).toBeGreaterThan(0);
        expect(cache.hits - hitsBefore[2]!).toBeGreaterThan(hitsBefore[2]! - hitsBefore[1]!);
        expect(cache.evictions).toBe(0);
      } else expect(cache.evictions).toBeGreaterThan(0);
    }
  });
});
