import type { FileResult } from '../fingerprint-file';
import type { LanguageItem } from '../types';

/** What a fingerprint worker is started with: whether it optimises the parser runtime (tokenize/treesitter.ts: optimiseParser). */
export interface WorkerSetup {
  optimiseParser: { lock: SharedArrayBuffer } | null;
}

/**
 * How fingerprint results cross the worker boundary. A structured clone of a
 * plain array of 53-bit hashes arrives as an array of boxed numbers: 24 bytes a
 * hash on the receiving heap, each box an object the collector has to move,
 * and per-element serialising on both threads. The worker sends each file's
 * arrays as typed arrays whose buffers are transferred (no copy), and the pool
 * turns them back into plain arrays of unboxed elements (8 bytes each): the
 * same values, so the same JSON and the same fingerprints.
 */
export interface WireFingerprints {
  hashes: Float64Array;
  startLines: Uint32Array;
  endLines: Uint32Array;
  lowEntropy: Uint8Array;
}

export type WireResult = Omit<FileResult, 'fp'> & { fp: Omit<FileResult['fp'], keyof WireFingerprints> & WireFingerprints };

/** Worker side: the results with typed arrays, and the buffers to transfer. */
export function toWire(results: FileResult[]): { results: WireResult[]; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const out = results.map((r): WireResult => {
    const fp = {
      ...r.fp,
      hashes: Float64Array.from(r.fp.hashes),
      startLines: Uint32Array.from(r.fp.startLines),
      endLines: Uint32Array.from(r.fp.endLines),
      lowEntropy: Uint8Array.from(r.fp.lowEntropy),
    };
    transfer.push(
      fp.hashes.buffer as ArrayBuffer,
      fp.startLines.buffer as ArrayBuffer,
      fp.endLines.buffer as ArrayBuffer,
      fp.lowEntropy.buffer as ArrayBuffer,
    );
    return { ...r, fp };
  });
  return { results: out, transfer };
}

/**
 * Pool side: plain arrays again, filled by index (unboxed double or small-integer elements).
 * A structured clone gives every string its own copy: each of a file's (up to 1,200) language
 * items arrived with its own copy of the path and of the kind's name. They point at one string
 * again (redis x valkey: about 300k items, some 20 MB of duplicate strings).
 */
export function fromWire(results: WireResult[]): FileResult[] {
  return results.map((r) => ({
    language: shareStrings(r.language, r.fp.path),
    tests: shareStrings(r.tests, r.fp.path),
    fp: {
      ...r.fp,
      hashes: plain(r.fp.hashes),
      startLines: plain(r.fp.startLines),
      endLines: plain(r.fp.endLines),
      lowEntropy: plain(r.fp.lowEntropy),
    },
  }));
}

function plain(a: ArrayLike<number>): number[] {
  const out = new Array<number>(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]!;
  return out;
}

const KINDS: Record<LanguageItem['kind'], LanguageItem['kind']> = { IDENTIFIER: 'IDENTIFIER', COMMENT: 'COMMENT', STRING: 'STRING' };

function shareStrings(items: LanguageItem[], path: string): LanguageItem[] {
  for (const it of items) {
    if (it.path === path) it.path = path;
    it.kind = KINDS[it.kind] ?? it.kind;
  }
  return items;
}
