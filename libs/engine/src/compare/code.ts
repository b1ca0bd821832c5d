import { isCommonFingerprint } from '../corpus';
import type { Fingerprints, FileFingerprints } from '../types';

export interface Fragment {
  originFile: number;
  targetFile: number;
  /** fingerprint indices matched, in target order */
  originFps: number[];
  targetFps: number[];
  origin: { startLine: number; endLine: number };
  target: { startLine: number; endLine: number };
}

export interface CodeMatch {
  fragments: Fragment[];
  targetContainment: number;
  originContainment: number;
  /** weighted (rare) fingerprints per side */
  originWeighted: number;
  targetWeighted: number;
}

/** A fingerprint found in more than this many files of one repository is common there: no weight. */
export const MAX_FILES_PER_FINGERPRINT = 3;
/** A fragment needs at least this many matched fingerprints: single hits are noise. */
export const MIN_FRAGMENT_FINGERPRINTS = 3;
/**
 * Matches one target file's matching holds at once. A file of repeated table rows makes matches by the million
 * against the few origin files holding the same rows, every repetition against every other (crispy-doom x
 * chocolate-doom: hexen/info.c, 17.5 million; holding them took the analysis to 1 GB). Past this many, that file's
 * matches are taken again origin file by origin file, straight into the runs, and none are held: the same fragments.
 */
export const MAX_MATCHES_HELD = 1 << 20;
/** Consecutive matches join one fragment when both sides advance by at most this many fingerprints. */
const MAX_GAP = 4;

/**
 * Fingerprint -> locations, as typed arrays rather than Maps: a Map entry with
 * a 53-bit key costs a boxed number and a hash-table slot, and a large pair
 * (hundreds of thousands of fingerprints a side) spent over 100 MB of
 * transient heap on them. Lookups go through an open-addressing table over
 * the distinct hashes (numbered in order of first appearance); each hash's
 * locations keep insertion order (file, then position).
 */
interface Index {
  /** distinct hashes, in order of first appearance */
  keys: Float64Array;
  /** locations of keys[k] are locs[start[k] .. start[k + 1]) */
  start: Uint32Array;
  /** packed (file, fp) locations, file * PACK + fp; empty when built without locations */
  locs: Float64Array;
  /** distinct files holding keys[k] */
  df: Uint32Array;
  /** slot -> key number or -1, linear probing from the hash's low bits; a power of two at least twice the keys */
  table: Int32Array;
  mask: number;
}

const PACK = 0x100000; // fp index < 2^20 (files are bounded by maxFileBytes)

function buildIndex(files: FileFingerprints[], withLocations: boolean): Index {
  let n = 0;
  for (const file of files) for (let i = 0; i < file.hashes.length; i++) if (!file.lowEntropy[i]) n++;
  let size = 2;
  while (size < 2 * n) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const keys = new Float64Array(n);
  const start = new Uint32Array(n + 1);
  const df = new Uint32Array(n);
  const last = new Int32Array(n).fill(-1);
  // Pass 1: key numbers, counts per key, and distinct files (files come in ascending order, so a change of file is a new one).
  const slotOf = new Uint32Array(n);
  let u = 0;
  let j = 0;
  for (let f = 0; f < files.length; f++) {
    const file = files[f]!;
    for (let i = 0; i < file.hashes.length; i++) {
      if (file.lowEntropy[i]) continue;
      const h = file.hashes[i]!;
      let s = (h >>> 0) & mask;
      let k: number;
      for (;;) {
        k = table[s]!;
        if (k < 0) {
          k = u++;
          table[s] = k;
          keys[k] = h;
          break;
        }
        if (keys[k] === h) break;
        s = (s + 1) & mask;
      }
      slotOf[j++] = k;
      start[k + 1]!++;
      if (last[k] !== f) {
        last[k] = f;
        df[k]!++;
      }
    }
  }
  for (let k = 0; k < u; k++) start[k + 1]! += start[k]!;
  const locs = new Float64Array(withLocations ? n : 0);
  if (withLocations) {
    const fill = start.slice(0, u);
    j = 0;
    for (let f = 0; f < files.length; f++) {
      const file = files[f]!;
      for (let i = 0; i < file.hashes.length; i++) if (!file.lowEntropy[i]) locs[fill[slotOf[j++]!]!++] = f * PACK + i;
    }
  }
  return { keys, start, locs, df, table, mask };
}

/** Key number of h in the index, or -1. */
function find(idx: Index, h: number): number {
  const { table, keys, mask } = idx;
  let s = (h >>> 0) & mask;
  for (;;) {
    const k = table[s]!;
    if (k < 0) return -1;
    if (keys[k] === h) return k;
    s = (s + 1) & mask;
  }
}

const dfOf = (idx: Index, h: number): number => {
  const k = find(idx, h);
  return k < 0 ? 0 : idx.df[k]!;
};

/**
 * Repository-vs-repository matching through one index (fingerprint ->
 * locations): no file-pair enumeration. Rarity: fingerprints common within
 * either repository, common across unrelated code (corpus.ts), or low-entropy
 * ones weigh nothing. Matches are merged
 * into fragments (ordered runs on both sides); only runs count.
 *
 * The outcome does not depend on which side is called the origin. Runs are built greedily in one side's order,
 * and where a fingerprint repeats within a file (markup, tables) the runs found depend on that order: highlight.js
 * x prism gave 89 fragments one way round and 21 the other (engine 0.6.4). So the matching always runs in the
 * orientation that `runsFirst` picks from the two trees' contents alone, and the result is mirrored when that is
 * the other one: analysing (A, B) and (B, A) gives the same fragments, sides exchanged.
 */
export function matchCode(
  o: Fingerprints,
  t: Fingerprints,
  isCommon: (h: number) => boolean = isCommonFingerprint,
  maxHeld = MAX_MATCHES_HELD,
): CodeMatch {
  return runsFirst(o, t) ? matchOriented(o, t, isCommon, maxHeld) : mirror(matchOriented(t, o, isCommon, maxHeld));
}

/**
 * Whether the matching runs with `a` as its origin: the side whose first differing file, in path order (path, then
 * blob id), comes first; the shorter list when one is a prefix of the other. Content only, never the roles, commit ids
 * or URLs: the same trees compared as one-commit copies match as they do in their full histories. Two identical
 * trees give the same result either way.
 */
export function runsFirst(a: Fingerprints, b: Fingerprints): boolean {
  const n = Math.min(a.files.length, b.files.length);
  for (let i = 0; i < n; i++) {
    const x = a.files[i]!;
    const y = b.files[i]!;
    if (x.path !== y.path) return x.path < y.path;
    if (x.blobId !== y.blobId) return x.blobId < y.blobId;
  }
  return a.files.length <= b.files.length;
}

function mirror(m: CodeMatch): CodeMatch {
  return {
    fragments: m.fragments.map((f) => ({
      originFile: f.targetFile,
      targetFile: f.originFile,
      originFps: f.targetFps,
      targetFps: f.originFps,
      origin: f.target,
      target: f.origin,
    })),
    targetContainment: m.originContainment,
    originContainment: m.targetContainment,
    originWeighted: m.targetWeighted,
    targetWeighted: m.originWeighted,
  };
}

function matchOriented(o: Fingerprints, t: Fingerprints, isCommon: (h: number) => boolean, maxHeld: number): CodeMatch {
  const oi = buildIndex(o.files, true);
  const ti = buildIndex(t.files, false);
  // Matches are taken file pair by file pair in ascending (target file, origin file) order, each pair's
  // in target order: the target files are walked in order, and one target file's matches are grouped by
  // origin file (a stable counting sort) before the next file is read. Only flat typed buffers are
  // allocated here; a large pair makes hundreds of thousands of matches and runs, almost all too short
  // to become fragments, and a Map of arrays and an object per run cost over 200 MB of garbage.
  const fragments: Fragment[] = [];
  const nO = o.files.length;
  let mo: Int32Array = new Int32Array(1024); // origin file of each match of the current target file
  let mp: Int32Array = new Int32Array(1024); // origin fingerprint index
  let mq: Int32Array = new Int32Array(1024); // target fingerprint index
  let sp: Int32Array = new Int32Array(1024); // the same matches grouped by origin file
  let sq: Int32Array = new Int32Array(1024);
  let keyAt: Int32Array = new Int32Array(1024); // the origin index's key of each target fingerprint, -1 when not rare
  const count = new Int32Array(nO);
  const at = new Int32Array(nO);
  let of = 0; // the file pair whose runs are being built
  let tf = 0;
  const runs = new Runs((originFps, targetFps) =>
    fragments.push({
      originFile: of,
      targetFile: tf,
      originFps,
      targetFps,
      origin: span(o.files[of]!, originFps),
      target: span(t.files[tf]!, targetFps),
    }),
  );
  for (tf = 0; tf < t.files.length; tf++) {
    const file = t.files[tf]!;
    if (keyAt.length < file.hashes.length) keyAt = new Int32Array(file.hashes.length);
    let n = 0;
    let held = true;
    const touched: number[] = [];
    for (let q = 0; q < file.hashes.length; q++) {
      keyAt[q] = -1;
      if (file.lowEntropy[q]) continue;
      const h = file.hashes[q]!;
      const k = find(oi, h);
      if (k < 0 || oi.df[k]! > MAX_FILES_PER_FINGERPRINT || dfOf(ti, h) > MAX_FILES_PER_FINGERPRINT || isCommon(h)) continue; // not rare
      keyAt[q] = k;
      for (let li = oi.start[k]!; li < oi.start[k + 1]!; li++) {
        const packed = oi.locs[li]!;
        const f = Math.floor(packed / PACK);
        if (count[f]!++ === 0) touched.push(f);
        if (n === maxHeld) held = false;
        if (!held) continue;
        if (n === mo.length) {
          mo = grow(mo);
          mp = grow(mp);
          mq = grow(mq);
        }
        mo[n] = f;
        mp[n] = packed - f * PACK;
        mq[n] = q;
        n++;
      }
    }
    if (touched.length === 0) continue;
    touched.sort((a, b) => a - b);
    if (!held) {
      // Too many to hold: each origin file's matches again, in target order, straight into the runs.
      for (const f of touched) {
        of = f;
        count[f] = 0;
        const lo = f * PACK;
        for (let q = 0; q < file.hashes.length; q++) {
          const k = keyAt[q]!;
          if (k < 0) continue;
          const last = oi.start[k + 1]!;
          for (let li = firstAtLeast(oi.locs, oi.start[k]!, last, lo); li < last && oi.locs[li]! < lo + PACK; li++)
            runs.add(oi.locs[li]! - lo, q);
        }
        runs.finish();
      }
      continue;
    }
    let off = 0;
    for (const f of touched) {
      at[f] = off;
      off += count[f]!;
    }
    if (sp.length < n) {
      sp = new Int32Array(mo.length);
      sq = new Int32Array(mo.length);
    }
    for (let i = 0; i < n; i++) {
      const j = at[mo[i]!]!++;
      sp[j] = mp[i]!;
      sq[j] = mq[i]!;
    }
    let begin = 0;
    for (const f of touched) {
      of = f;
      const end = begin + count[f]!;
      count[f] = 0;
      for (let i = begin; i < end; i++) runs.add(sp[i]!, sq[i]!);
      runs.finish();
      begin = end;
    }
  }

  const weighted = (fp: Fingerprints, idx: Index): number => {
    let n = 0;
    for (const f of fp.files) {
      for (let i = 0; i < f.hashes.length; i++)
        if (!f.lowEntropy[i] && dfOf(idx, f.hashes[i]!) <= MAX_FILES_PER_FINGERPRINT && !isCommon(f.hashes[i]!)) n++;
    }
    return n;
  };
  const originWeighted = weighted(o, oi);
  const targetWeighted = weighted(t, ti);
  const coveredO = covered(
    o.files,
    fragments.map((f) => [f.originFile, f.originFps] as const),
  );
  const coveredT = covered(
    t.files,
    fragments.map((f) => [f.targetFile, f.targetFps] as const),
  );
  return {
    fragments,
    originWeighted,
    targetWeighted,
    originContainment: originWeighted ? coveredO / originWeighted : 0,
    targetContainment: targetWeighted ? coveredT / targetWeighted : 0,
  };
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/** A match extends one of the last this many runs started, or starts its own (a power of two: a ring of them). */
const RUN_WINDOW = 16;

/**
 * Ordered runs of one file pair's matches, fed in target order: a match extends the most recently started run among
 * the last RUN_WINDOW whose last match is behind it by 1..MAX_GAP fingerprints on both sides, else it starts a run. A
 * run that has left that window can grow no more: it is handed on then (when long enough to be a fragment), so only
 * RUN_WINDOW runs are held however many matches a file pair makes, and fragments come out in the order runs started.
 */
class Runs {
  private n = 0;
  private readonly lp = new Int32Array(RUN_WINDOW);
  private readonly lq = new Int32Array(RUN_WINDOW);
  /** each held run's matches, in typed buffers reused from run to run */
  private readonly len = new Int32Array(RUN_WINDOW);
  private readonly ps: Int32Array[] = Array.from({ length: RUN_WINDOW }, () => new Int32Array(64));
  private readonly qs: Int32Array[] = Array.from({ length: RUN_WINDOW }, () => new Int32Array(64));

  constructor(private readonly emit: (originFps: number[], targetFps: number[]) => void) {}

  add(p: number, q: number): void {
    const { lp, lq } = this;
    let s = -1;
    for (let j = this.n - 1; j >= 0 && j >= this.n - RUN_WINDOW; j--) {
      const dp = p - lp[j & (RUN_WINDOW - 1)]!;
      const dq = q - lq[j & (RUN_WINDOW - 1)]!;
      if (dp > 0 && dp <= MAX_GAP && dq > 0 && dq <= MAX_GAP) {
        s = j & (RUN_WINDOW - 1);
        break;
      }
    }
    if (s < 0) {
      s = this.n & (RUN_WINDOW - 1);
      if (this.n >= RUN_WINDOW) this.close(s); // run n - RUN_WINDOW leaves the window
      this.n++;
    }
    lp[s] = p;
    lq[s] = q;
    const i = this.len[s]!++;
    if (i === this.ps[s]!.length) {
      this.ps[s] = grow(this.ps[s]!);
      this.qs[s] = grow(this.qs[s]!);
    }
    this.ps[s]![i] = p;
    this.qs[s]![i] = q;
  }

  /** The file pair's last runs, in the order they started. */
  finish(): void {
    for (let j = Math.max(0, this.n - RUN_WINDOW); j < this.n; j++) this.close(j & (RUN_WINDOW - 1));
    this.n = 0;
  }

  private close(s: number): void {
    const n = this.len[s]!;
    this.len[s] = 0;
    if (n >= MIN_FRAGMENT_FINGERPRINTS) this.emit(Array.from(this.ps[s]!.subarray(0, n)), Array.from(this.qs[s]!.subarray(0, n)));
  }
}

/** The first index in sorted a[from, to) holding at least x (to when none does). */
function firstAtLeast(a: Float64Array, from: number, to: number, x: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Distinct (file, fingerprint) positions the fragments cover: one bit per fingerprint of a file, not a Set entry. */
function covered(files: FileFingerprints[], parts: (readonly [number, number[]])[]): number {
  const bits = new Map<number, Uint8Array>();
  let n = 0;
  for (const [file, fps] of parts) {
    let b = bits.get(file);
    if (!b) bits.set(file, (b = new Uint8Array(files[file]!.hashes.length)));
    for (const i of fps) {
      if (!b[i]) {
        b[i] = 1;
        n++;
      }
    }
  }
  return n;
}

function span(file: FileFingerprints, fps: number[]): { startLine: number; endLine: number } {
  let s = Infinity;
  let e = 0;
  for (const i of fps) {
    s = Math.min(s, file.startLines[i]!);
    e = Math.max(e, file.endLines[i]!);
  }
  return { startLine: s, endLine: e };
}
