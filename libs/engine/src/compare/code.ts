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

interface Index {
  /** hash -> first packed (file, fp) location; further locations in `more` */
  first: Map<number, number>;
  more: Map<number, number[]>;
  /** hash -> df * 2^24 + last file seen (distinct-file count without a Set per file) */
  df: Map<number, number>;
}

const PACK = 0x100000; // fp index < 2^20 (files are bounded by maxFileBytes)
const DF_UNIT = 0x1000000;

function countDf(df: Map<number, number>, h: number, f: number): void {
  const v = df.get(h);
  if (v === undefined) df.set(h, DF_UNIT + f);
  else if (v % DF_UNIT !== f) df.set(h, (Math.floor(v / DF_UNIT) + 1) * DF_UNIT + f);
}

function buildIndex(files: FileFingerprints[], withLocations: boolean): Index {
  const first = new Map<number, number>();
  const more = new Map<number, number[]>();
  const df = new Map<number, number>();
  for (let f = 0; f < files.length; f++) {
    const file = files[f]!;
    for (let i = 0; i < file.hashes.length; i++) {
      if (file.lowEntropy[i]) continue;
      const h = file.hashes[i]!;
      countDf(df, h, f);
      if (!withLocations) continue;
      const loc = f * PACK + i;
      if (!first.has(h)) first.set(h, loc);
      else {
        const m = more.get(h);
        if (m) m.push(loc);
        else more.set(h, [loc]);
      }
    }
  }
  return { first, more, df };
}

const dfOf = (idx: Index, h: number): number => Math.floor((idx.df.get(h) ?? 0) / DF_UNIT);

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
      const firstLoc = oi.first.get(h);
      if (firstLoc === undefined || !rare(h)) continue;
      const extra = oi.more.get(h);
      for (let li = -1; li < (extra ? extra.length : 0); li++) {
        const packed = li < 0 ? firstLoc : extra![li]!;
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
  const coveredO = new Set<number>();
  const coveredT = new Set<number>();
  for (const f of fragments) {
    for (const p of f.originFps) coveredO.add(f.originFile * PACK + p);
    for (const q of f.targetFps) coveredT.add(f.targetFile * PACK + q);
  }
  return {
    fragments,
    originWeighted,
    targetWeighted,
    originContainment: originWeighted ? coveredO.size / originWeighted : 0,
    targetContainment: targetWeighted ? coveredT.size / targetWeighted : 0,
  };
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
