import { winnow } from '@lineage/engine';

describe('winnow', () => {
  const seq = (n: number, seed: number): number[] => Array.from({ length: n }, (_, i) => ((i * 2654435761 + seed) >>> 0) % 1000);

  it('is deterministic and returns ordered positions', () => {
    const s = seq(500, 1);
    const a = winnow(s, 8, 4);
    const b = winnow(s, 8, 4);
    expect(a).toEqual(b);
    for (let i = 1; i < a.positions.length; i++) expect(a.positions[i]!).toBeGreaterThan(a.positions[i - 1]!);
  });

  it('guarantees a shared fingerprint for any shared run of w + k - 1 tokens', () => {
    const k = 8;
    const w = 4;
    const shared = seq(k + w - 1, 7);
    const a = [...seq(100, 2), ...shared, ...seq(100, 3)];
    const b = [...seq(57, 4), ...shared, ...seq(80, 5)];
    const ha = new Set(winnow(a, k, w).hashes);
    const hb = winnow(b, k, w).hashes;
    expect(hb.some((h) => ha.has(h))).toBe(true);
  });

  it('keeps hashes as exact JSON integers', () => {
    for (const h of winnow(seq(300, 9), 15, 8).hashes) {
      expect(Number.isSafeInteger(h)).toBe(true);
      expect(JSON.parse(JSON.stringify(h))).toBe(h);
    }
  });

  it('marks low-entropy k-grams (repetitive lists) so they weigh nothing', () => {
    const list = Array.from({ length: 60 }, (_, i) => (i % 2 ? 1 : 2));
    const r = winnow(list, 15, 8);
    expect(r.hashes.length).toBeGreaterThan(0);
    expect(r.lowEntropy.every((x) => x === 1)).toBe(true);
  });

  it('returns nothing for streams shorter than k', () => {
    expect(winnow([1, 2, 3], 15, 8).hashes).toEqual([]);
  });
});
