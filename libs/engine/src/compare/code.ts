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
 * Fingerprint -> locations, as sorted typed arrays rather than Maps: a Map
 * entry with a 53-bit key costs a boxed number and a hash-table slot, and a
 * large pair (hundreds of thousands of fingerprints a side) spent over 100 MB
 * of transient heap on them. Lookups are binary searches over the distinct
 * hashes; each hash's locations keep insertion order (file, then position).
 */
interface Index {
  /** distinct hashes, ascending */
  keys: Float64Array;
  /** locations of keys[k] are locs[start[k] .. start[k + 1]) */
  start: Uint32Array;
  /** packed (file, fp) locations, file * PACK + fp; empty when built without locations */
  locs: Float64Array;
  /** distinct files holding keys[k] */
  df: Uint32Array;
}

const PACK = 0x100000; // fp index < 2^20 (files are bounded by maxFileBytes)

function buildIndex(files: FileFingerprints[], withLocations: boolean): Index {
  let n = 0;
  for (const file of files) for (let i = 0; i < file.hashes.length; i++) if (!file.lowEntropy[i]) n++;
  const sorted = new Float64Array(n);
  let j = 0;
  for (const file of files) for (let i = 0; i < file.hashes.length; i++) if (!file.lowEntropy[i]) sorted[j++] = file.hashes[i]!;
  sorted.sort();
  let u = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[u++] = sorted[i]!;
  const keys = sorted.slice(0, u);
  const start = new Uint32Array(u + 1);
  const df = new Uint32Array(u);
  const last = new Int32Array(u).fill(-1);
  // Pass 1: counts per key, and distinct files (files come in ascending order, so a change of file is a new one).
  const slotOf = new Uint32Array(n);
  j = 0;
  for (let f = 0; f < files.length; f++) {
    const file = files[f]!;
    for (let i = 0; i < file.hashes.length; i++) {
      if (file.lowEntropy[i]) continue;
      const k = find(keys, file.hashes[i]!);
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
  return { keys, start, locs, df };
}

/** Index of h in the ascending keys, or -1. */
function find(keys: Float64Array, h: number): number {
  let lo = 0;
  let hi = keys.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = keys[mid]!;
    if (v < h) lo = mid + 1;
    else if (v > h) hi = mid - 1;
    else return mid;
  }
  return -1;
}

const dfOf = (idx: Index, h: number): number => {
  const k = find(idx.keys, h);
  return k < 0 ? 0 : idx.df[k]!;
};

/**
 * Repository-vs-repository matching through one index (fingerprint ->
 * locations): no file-pair enumeration. Rarity: fingerprints common within
 * either repository, common across unrelated code (corpus.ts), or low-entropy
 * ones weigh nothing. Matches are merged
 * into fragments (ordered runs on both sides); only runs count.
 */
export function matchCode(o: Fingerprints, t: Fingerprints, isCommon: (h: number) => boolean = isCommonFingerprint): CodeMatch {
  const oi = buildIndex(o.files, true);
  const ti = buildIndex(t.files, false);
  const rare = (h: number): boolean => dfOf(oi, h) <= MAX_FILES_PER_FINGERPRINT && dfOf(ti, h) <= MAX_FILES_PER_FINGERPRINT && !isCommon(h);

  // Matches grouped by file pair: key -> flat [oFp, tFp, ...] in target order.
  const byPair = new Map<number, number[]>();
  const nO = o.files.length;
  for (let tf = 0; tf < t.files.length; tf++) {
    const file = t.files[tf]!;
    for (let q = 0; q < file.hashes.length; q++) {
      if (file.lowEntropy[q]) continue;
      const h = file.hashes[q]!;
      const k = find(oi.keys, h);
      if (k < 0 || !rare(h)) continue;
      for (let li = oi.start[k]!; li < oi.start[k + 1]!; li++) {
        const packed = oi.locs[li]!;
        const of = Math.floor(packed / PACK);
        const p = packed - of * PACK;
        const key = tf * nO + of;
        let arr = byPair.get(key);
        if (!arr) byPair.set(key, (arr = []));
        arr.push(p, q);
      }
    }
  }

  const fragments: Fragment[] = [];
  const keys = [...byPair.keys()].sort((a, b) => a - b);
  for (const key of keys) {
    const tf = Math.floor(key / nO);
    const of = key - tf * nO;
    const arr = byPair.get(key)!;
    const oFile = o.files[of]!;
    const tFile = t.files[tf]!;
    const open: { lp: number; lq: number; frag: Fragment }[] = [];
    for (let i = 0; i < arr.length; i += 2) {
      const p = arr[i]!;
      const q = arr[i + 1]!;
      let target: (typeof open)[number] | undefined;
      for (let j = open.length - 1; j >= 0 && j >= open.length - 16; j--) {
        const c = open[j]!;
        const dp = p - c.lp;
        const dq = q - c.lq;
        if (dp > 0 && dp <= MAX_GAP && dq > 0 && dq <= MAX_GAP) {
          target = c;
          break;
        }
      }
      if (target) {
        target.lp = p;
        target.lq = q;
        target.frag.originFps.push(p);
        target.frag.targetFps.push(q);
      } else {
        open.push({ lp: p, lq: q, frag: { originFile: of, targetFile: tf, originFps: [p], targetFps: [q], origin: { startLine: 0, endLine: 0 }, target: { startLine: 0, endLine: 0 } } });
      }
    }
    for (const c of open) {
      const f = c.frag;
      if (f.originFps.length < MIN_FRAGMENT_FINGERPRINTS) continue;
      f.origin = span(oFile, f.originFps);
      f.target = span(tFile, f.targetFps);
      fragments.push(f);
    }
  }

  const weighted = (fp: Fingerprints, idx: Index): number => {
    let n = 0;
    for (const f of fp.files) {
      for (let i = 0; i < f.hashes.length; i++) if (!f.lowEntropy[i] && dfOf(idx, f.hashes[i]!) <= MAX_FILES_PER_FINGERPRINT && !isCommon(f.hashes[i]!)) n++;
    }
    return n;
  };
  const originWeighted = weighted(o, oi);
  const targetWeighted = weighted(t, ti);
  const coveredO = covered(o.files, fragments.map((f) => [f.originFile, f.originFps] as const));
  const coveredT = covered(t.files, fragments.map((f) => [f.targetFile, f.targetFps] as const));
  return {
    fragments,
    originWeighted,
    targetWeighted,
    originContainment: originWeighted ? coveredO / originWeighted : 0,
    targetContainment: targetWeighted ? coveredT / targetWeighted : 0,
  };
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
