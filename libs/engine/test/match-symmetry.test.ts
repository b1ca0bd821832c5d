import { matchCode, runsFirst, type Fragment } from '../src/compare/code';
import type { FileFingerprints, Fingerprints } from '../src/types';
import { Rng } from '../../../test/fixtures/codegen';

function file(path: string, hashes: number[]): FileFingerprints {
  return {
    path,
    blobId: '0'.repeat(40),
    language: 'generic',
    tokens: hashes.length * 4,
    hashes,
    startLines: hashes.map((_, i) => i + 1),
    endLines: hashes.map((_, i) => i + 1),
    lowEntropy: hashes.map(() => 0),
  };
}

/** The fixtures' seeded generator (mulberry32) as a function: the same "random" files on every run. */
function rngOf(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

function repo(files: FileFingerprints[]): Fingerprints {
  return { commit: '0'.repeat(40), k: 5, window: 4, files, language: [], tests: [], manifests: [], totalTokens: 0 };
}

/** Repetitive material over a small alphabet (markup, tables), with a copied stretch in the middle. */
function repetitive(next: () => number, n: number, alphabet: number, copied: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(1000 + Math.floor(next() * alphabet));
  out.splice(Math.floor(n / 2), 0, ...copied);
  return out;
}

const key = (f: Fragment, mirrored: boolean): string =>
  mirrored
    ? `${f.targetFile}|${f.originFile}|${f.targetFps.join(',')}|${f.originFps.join(',')}`
    : `${f.originFile}|${f.targetFile}|${f.originFps.join(',')}|${f.targetFps.join(',')}`;

describe('code matching does not depend on which side is the origin', () => {
  it('gives the mirrored fragments and swapped containments when the roles are exchanged', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = rngOf(seed);
      const copied = Array.from({ length: 12 }, (_, i) => 5000 + seed * 100 + i);
      const a = repo([file('a/one.html', repetitive(next, 120, 6, copied)), file('a/two.html', repetitive(next, 80, 5, []))]);
      const b = repo([file('b/one.html', repetitive(next, 150, 6, copied)), file('b/two.html', repetitive(next, 60, 5, []))]);
      const ab = matchCode(a, b, () => false);
      const ba = matchCode(b, a, () => false);
      const listed = ab.fragments.map((f) => key(f, false)).sort();
      const swapped = ba.fragments.map((f) => key(f, true)).sort();
      expect(swapped).toEqual(listed);
      expect(ba.originContainment).toBe(ab.targetContainment);
      expect(ba.targetContainment).toBe(ab.originContainment);
      // The copied stretch is found whichever way round.
      expect(ab.fragments.some((f) => f.originFps.length >= 10)).toBe(true);
    }
  });

  it('picks the orientation it runs in from the trees alone', () => {
    const next = rngOf(3);
    const x = [file('a.js', repetitive(next, 50, 30, [])), file('b.js', repetitive(next, 50, 30, []))];
    const y = [file('a.js', repetitive(next, 50, 30, [])), file('c.js', repetitive(next, 50, 30, []))];
    y[0]!.blobId = '1'.repeat(40);
    const one = { ...repo(x), commit: 'a'.repeat(40) };
    const two = { ...repo(y), commit: 'b'.repeat(40) };
    expect(runsFirst(one, two)).toBe(true); // a.js: blob 000… before 111…
    expect(runsFirst(two, one)).toBe(false);
    // The same trees under other commits (one-commit copies of them) keep it.
    expect(runsFirst({ ...one, commit: 'f'.repeat(40) }, { ...two, commit: '0'.repeat(40) })).toBe(true);
    // A tree that is a prefix of the other (fewer files, the same first ones) comes first.
    expect(runsFirst(repo(x.slice(0, 1)), repo(x))).toBe(true);
    expect(runsFirst(repo(x), repo(x.slice(0, 1)))).toBe(false);
  });

  it('keeps every fragment advancing on both sides (its fingerprints in target and in origin order)', () => {
    const next = rngOf(7);
    // Every fourth fingerprint of the copy is one the files repeat elsewhere: runs with other ways to go on.
    const copied = Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? 1000 + (i % 20) : 7000 + i));
    const a = repo([file('a.html', repetitive(next, 300, 20, copied))]);
    const b = repo([file('b.html', repetitive(next, 300, 20, copied))]);
    const { fragments } = matchCode(a, b, () => false);
    expect(fragments.length).toBeGreaterThan(0);
    for (const f of fragments)
      for (let i = 1; i < f.originFps.length; i++) {
        expect(f.originFps[i]!).toBeGreaterThan(f.originFps[i - 1]!);
        expect(f.targetFps[i]!).toBeGreaterThan(f.targetFps[i - 1]!);
      }
  });
});

describe('code matching holds a bounded number of matches', () => {
  // Table rows repeated through a file (Doom's info.c) match every repetition of them in the other side's files; past
  // the bound, a target file's matches are taken again origin file by origin file and go straight into the runs.
  const tables = (seed: number): { a: Fingerprints; b: Fingerprints } => {
    const next = rngOf(seed);
    const rows = (n: number, copied: number[]): number[] => repetitive(next, n, 9, copied);
    const copied = Array.from({ length: 30 }, (_, i) => 9000 + seed * 100 + i);
    return {
      a: repo([file('a/info.c', rows(400, copied)), file('a/more.c', rows(200, [])), file('a/tail.c', rows(50, copied.slice(0, 10)))]),
      b: repo([file('b/info.c', rows(500, copied)), file('b/other.c', rows(300, copied.slice(5, 20)))]),
    };
  };
  const all = (fs: Fragment[]): string[] =>
    fs.map((f) => `${key(f, false)}|${f.origin.startLine}-${f.origin.endLine}|${f.target.startLine}-${f.target.endLine}`);

  it('finds the same fragments, in the same order, however few matches it may hold', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const { a, b } = tables(seed);
      const held = matchCode(a, b, () => false);
      // The fixture makes thousands of matches a file: each bound below is crossed, at the first match or midway.
      expect(held.fragments.length).toBeGreaterThan(10);
      for (const bound of [0, 1, 7, 500]) {
        const bounded = matchCode(a, b, () => false, bound);
        expect(all(bounded.fragments)).toEqual(all(held.fragments));
        expect(bounded.targetContainment).toBe(held.targetContainment);
        expect(bounded.originContainment).toBe(held.originContainment);
      }
    }
  });
});
