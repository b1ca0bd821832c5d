import type { FileResult } from '../fingerprint-file';

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

/** Pool side: plain arrays again, filled by index (unboxed double or small-integer elements). */
export function fromWire(results: WireResult[]): FileResult[] {
  return results.map((r) => ({
    ...r,
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
