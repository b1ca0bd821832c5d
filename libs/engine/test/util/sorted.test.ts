import { sortedIncludes } from '../../src/util/sorted';

describe('sortedIncludes', () => {
  it('finds every member and no other value, at both ends, in the middle and between members', () => {
    const sorted = Float64Array.from([-5, 0, 1, 3, 8, 13, 2 ** 53 - 1]);
    for (const v of sorted) expect(sortedIncludes(sorted, v)).toBe(true);
    for (const v of [-6, -1, 2, 4, 12, 14, 2 ** 53 - 2, 2 ** 53]) expect(sortedIncludes(sorted, v)).toBe(false);
  });

  it('agrees with a Set over every length from 0 to 64 (odd and even halves)', () => {
    for (let n = 0; n <= 64; n++) {
      const values = Array.from({ length: n }, (_, i) => i * 3 + 1);
      const sorted = Float64Array.from(values);
      const set = new Set(values);
      for (let v = -1; v <= n * 3 + 2; v++) expect(sortedIncludes(sorted, v)).toBe(set.has(v));
    }
  });

  it('is false for an empty array', () => {
    expect(sortedIncludes(new Float64Array(0), 0)).toBe(false);
  });
});
