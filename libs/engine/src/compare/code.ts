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
export function matchCode(o: Fingerprints, t: Fingerprints, isCommon: (h: number) => boolean = isCommonFingerprint): CodeMatch {
  return runsFirst(o, t) ? matchOriented(o, t, isCommon) : mirror(matchOriented(t, o, isCommon));
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

function matchOriented(o: Fingerprints, t: Fingerprints, isCommon: (h: number) => boolean): CodeMatch {
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
  const count = new Int32Array(nO);
  const at = new Int32Array(nO);
  const runs = new Runs();
  for (let tf = 0; tf < t.files.length; tf++) {
    const file = t.files[tf]!;
    let n = 0;
    const touched: number[] = [];
    for (let q = 0; q < file.hashes.length; q++) {
      if (file.lowEntropy[q]) continue;
      const h = file.hashes[q]!;
      const k = find(oi, h);
      if (k < 0 || oi.df[k]! > MAX_FILES_PER_FINGERPRINT || dfOf(ti, h) > MAX_FILES_PER_FINGERPRINT || isCommon(h)) continue; // not rare
      for (let li = oi.start[k]!; li < oi.start[k + 1]!; li++) {
        const packed = oi.locs[li]!;
        const of = Math.floor(packed / PACK);
        if (n === mo.length) {
          mo = grow(mo);
          mp = grow(mp);
          mq = grow(mq);
        }
        mo[n] = of;
        mp[n] = packed - of * PACK;
        mq[n] = q;
        n++;
        if (count[of]!++ === 0) touched.push(of);
      }
    }
    if (n === 0) continue;
    touched.sort((a, b) => a - b);
    let off = 0;
    for (const of of touched) {
      at[of] = off;
      off += count[of]!;
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
    const tFile = t.files[tf]!;
    let begin = 0;
    for (const of of touched) {
      const end = begin + count[of]!;
      count[of] = 0;
      runs.build(sp, sq, begin, end);
      const oFile = o.files[of]!;
      for (let r = 0; r < runs.n; r++) {
        if (runs.len[r]! < MIN_FRAGMENT_FINGERPRINTS) continue;
        const { originFps, targetFps } = runs.members(r, sp, sq);
        fragments.push({
          originFile: of,
          targetFile: tf,
          originFps,
          targetFps,
          origin: span(oFile, originFps),
          target: span(tFile, targetFps),
        });
      }
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

/**
 * Ordered runs of one file pair's matches (in target order): a match extends
 * the most recently started run among the last 16 whose last match is behind
 * it by 1..MAX_GAP fingerprints on both sides, else it starts a run. Runs are
 * kept in start order as linked lists over the match indices, in typed arrays
 * reused from pair to pair.
 */
class Runs {
  n = 0;
  len = new Int32Array(256);
  private lp = new Int32Array(256);
  private lq = new Int32Array(256);
  private head = new Int32Array(256);
  private tail = new Int32Array(256);
  private next = new Int32Array(256);

  build(p: Int32Array, q: Int32Array, begin: number, end: number): void {
    const m = end - begin;
    if (this.next.length < m) {
      const size = Math.max(m, this.next.length * 2);
      this.len = new Int32Array(size);
      this.lp = new Int32Array(size);
      this.lq = new Int32Array(size);
      this.head = new Int32Array(size);
      this.tail = new Int32Array(size);
      this.next = new Int32Array(size);
    }
    const { len, lp, lq, head, tail, next } = this;
    let n = 0;
    for (let i = 0; i < m; i++) {
      const pi = p[begin + i]!;
      const qi = q[begin + i]!;
      let target = -1;
      for (let j = n - 1; j >= 0 && j >= n - 16; j--) {
        const dp = pi - lp[j]!;
        const dq = qi - lq[j]!;
        if (dp > 0 && dp <= MAX_GAP && dq > 0 && dq <= MAX_GAP) {
          target = j;
          break;
        }
      }
      next[i] = -1;
      if (target >= 0) {
        lp[target] = pi;
        lq[target] = qi;
        next[tail[target]!] = i;
        tail[target] = i;
        len[target]!++;
      } else {
        lp[n] = pi;
        lq[n] = qi;
        head[n] = i;
        tail[n] = i;
        len[n] = 1;
        n++;
      }
    }
    this.n = n;
    this.begin = begin;
  }

  private begin = 0;

  /** Run r's origin and target fingerprint indices, in order. */
  members(r: number, p: Int32Array, q: Int32Array): { originFps: number[]; targetFps: number[] } {
    const originFps: number[] = [];
    const targetFps: number[] = [];
    for (let i = this.head[r]!; i >= 0; i = this.next[i]!) {
      originFps.push(p[this.begin + i]!);
      targetFps.push(q[this.begin + i]!);
    }
    return { originFps, targetFps };
  }
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
