import { HashSet } from '../src/compare/history-layer';
import { fromWire, toWire } from '../src/workers/wire';

describe("HashSet (a dated version's fingerprints)", () => {
  it('answers membership exactly as a Set does, for 53-bit hashes present and absent', () => {
    let x = 12345;
    const next = (): number => {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      return x * 2 ** 22 + (x % 4096);
    };
    const hashes = Array.from({ length: 5000 }, next);
    hashes.push(hashes[0]!, 0, 2 ** 53 - 1); // a duplicate and both ends of the range
    const set = new Set(hashes);
    const hs = new HashSet(hashes);
    const probes = [...hashes, ...Array.from({ length: 5000 }, next), 1, 2 ** 53 - 2, -1];
    for (const p of probes) expect(hs.has(p)).toBe(set.has(p));
    expect(probes.filter((p) => hs.has(p)).length).toBeGreaterThan(5000);
  });

  it('is empty for a version with no fingerprints', () => {
    expect(new HashSet([]).has(0)).toBe(false);
  });
});

describe('fingerprint results across the worker boundary', () => {
  it('arrive with the same values after the language items share their path and kind strings again', () => {
    const result = {
      fp: {
        path: 'src/a.c',
        blobId: 'b'.repeat(40),
        language: 'c',
        tokens: 3,
        hashes: [2 ** 40 + 1, 7],
        startLines: [1, 2],
        endLines: [2, 3],
        lowEntropy: [0, 1],
      },
      language: [
        { kind: 'IDENTIFIER' as const, text: 'counter', path: 'src/a.c', line: 1 },
        { kind: 'COMMENT' as const, text: 'a comment long enough', path: 'src/a.c', line: 2 },
      ],
      tests: [{ kind: 'IDENTIFIER' as const, text: 'test_counter', path: 'src/a.c', line: 3 }],
    };
    const wire = toWire([structuredClone(result)]);
    expect(fromWire(structuredClone(wire.results))).toEqual([result]);
  });
});
