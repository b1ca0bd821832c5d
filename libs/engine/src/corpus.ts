import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sortedIncludes } from './util/sorted';

/**
 * Code fingerprints common across unrelated code: those found in at least 3 of
 * a pinned corpus of 46 popular, mutually unrelated npm packages and 37 Go
 * modules (module wrappers, require chains, constructor boilerplate, compiler
 * helpers, Go's error returns). Built
 * by `scripts/common-fingerprints.ts`; the package list and counts are in
 * `data/common-fingerprints.json`. Sorted float64 (exact 53-bit integers), so a
 * lookup is a binary search over the file as it lies. Part of the engine's
 * version: regenerating it changes manifests.
 */
let common: Float64Array | null = null;

function load(): Float64Array {
  if (common) return common;
  // data/ sits beside src/ and dist/ in the package.
  const buf = readFileSync(join(__dirname, '..', 'data', 'common-fingerprints.bin'));
  const copy = new ArrayBuffer(buf.length); // aligned for the typed array
  new Uint8Array(copy).set(buf);
  common = new Float64Array(copy);
  return common;
}

/** Whether a fingerprint is common across unrelated code (then it carries no weight). */
export function isCommonFingerprint(h: number): boolean {
  return sortedIncludes(load(), h);
}

/** The whole set, for tests. */
export function commonFingerprints(): Float64Array {
  return load();
}
