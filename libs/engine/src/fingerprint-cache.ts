// What one analysis tokenised, kept for the next ones in the same process. A service that analyses fifty forks of one
// project tokenises that project's files once: a file's fingerprints and items depend on its bytes (the blob id), its
// language, whether it is a test, k and the window, and the engine's code, nothing else (its path is only recorded,
// and fingerprint() relabels a result taken for another path). So a result found here is the result the analysis
// would have computed, and the manifest's bytes do not change (fingerprint-cache.int.test.ts). Dating's fingerprints
// of old file versions are kept here too, as sorted hash lists (compare/history-layer.ts): one budget for both.
import type { FileResult } from './fingerprint-file';

/** Bytes a result is counted at: its four arrays per fingerprint, and an item's object and text (a measured average). */
const BYTES_PER_FINGERPRINT = 32;
const BYTES_PER_ITEM = 100;
const BYTES_PER_RESULT = 200;

export function resultBytes(r: FileResult): number {
  return BYTES_PER_RESULT + BYTES_PER_FINGERPRINT * r.fp.hashes.length + BYTES_PER_ITEM * (r.language.length + r.tests.length);
}

/**
 * Tokenised files by key (fingerprint.ts's memo key: k, window, language, test or not, blob id), least recently used
 * first out, at most `maxBytes` counted. A result larger than a quarter of the bound is not kept: one vendored
 * monster would push out everything else. Results are shared, never copied: nothing downstream changes them.
 */
export class FingerprintCache {
  private readonly entries = new Map<string, { r: FileResult | Float64Array; bytes: number }>();
  private held = 0;
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string): FileResult | undefined {
    return this.take(key) as FileResult | undefined;
  }

  /** An old version's fingerprints for dating, sorted (key: `version` + k, window, language, blob id). */
  getVersion(key: string): Float64Array | undefined {
    return this.take(`v\0${key}`) as Float64Array | undefined;
  }

  setVersion(key: string, sorted: Float64Array): void {
    this.put(`v\0${key}`, sorted, BYTES_PER_RESULT + sorted.byteLength);
  }

  private take(key: string): FileResult | Float64Array | undefined {
    const e = this.entries.get(key);
    if (!e) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Most recently used goes last: a Map iterates in insertion order.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.r;
  }

  set(key: string, r: FileResult): void {
    this.put(key, r, resultBytes(r));
  }

  private put(key: string, r: FileResult | Float64Array, bytes: number): void {
    if (bytes > this.maxBytes / 4 || this.entries.has(key)) return;
    this.entries.set(key, { r, bytes });
    this.held += bytes;
    for (const [k, e] of this.entries) {
      if (this.held <= this.maxBytes) break;
      this.entries.delete(k);
      this.held -= e.bytes;
      this.evictions++;
    }
  }
}
