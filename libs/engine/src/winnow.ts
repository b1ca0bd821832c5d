// k-gram hashing with winnowing (Schleimer, Wilkerson & Aiken 2003): hash
// every run of k normalised tokens, keep the minimum hash of each window of w
// consecutive k-grams (rightmost on ties). Any shared run of at least
// w + k - 1 tokens yields at least one shared fingerprint.

export const DEFAULT_K = 15;
export const DEFAULT_WINDOW = 8;

export interface Winnowed {
  hashes: number[];
  /** token index where each selected k-gram starts */
  positions: number[];
  /** k-grams with fewer than minDistinct distinct kinds (idioms, lists): carry no weight */
  lowEntropy: number[];
}

const MIN_DISTINCT = 5;

/**
 * 31-bit hash of kinds[i..i+k) (kept below 2^31 so it is a safe, exact JSON integer). The kinds come as int32: a
 * kind is a uint32, and both uses below (`^`, and `+` under Math.imul) see it modulo 2^32, so the hash is the same
 * as over the uint32 values, in integer arithmetic only (redis x valkey: about a third less time in this function).
 */
function kgramHash(kinds: Int32Array, i: number, k: number): number {
  let h1 = 0x12345;
  let h2 = 0x9e3779b9 | 0;
  for (let j = 0; j < k; j++) {
    const x = kinds[i + j]!;
    h1 = Math.imul(h1 ^ x, 0x01000193);
    h2 = Math.imul(h2 + x, 0x85ebca6b) ^ (h2 >>> 13);
  }
  // 31 bits from h1, mixed with 22 bits from h2 → 53-bit integer
  return ((h1 >>> 0) & 0x7fffffff) * 0x400000 + ((h2 >>> 0) & 0x3fffff);
}

const seenBuf = new Float64Array(8);
function distinctAtLeast(kinds: Int32Array, i: number, k: number, min: number): boolean {
  let n = 0;
  for (let j = 0; j < k; j++) {
    const x = kinds[i + j]!;
    let dup = false;
    for (let q = 0; q < n; q++) if (seenBuf[q] === x) dup = true;
    if (!dup) {
      seenBuf[n++] = x;
      if (n >= min) return true;
    }
  }
  return false;
}

export function winnow(kinds: readonly number[], k = DEFAULT_K, w = DEFAULT_WINDOW): Winnowed {
  const n = kinds.length - k + 1;
  const out: Winnowed = { hashes: [], positions: [], lowEntropy: [] };
  if (n <= 0) return out;
  const ks = Int32Array.from(kinds);
  const grams = new Float64Array(n);
  for (let i = 0; i < n; i++) grams[i] = kgramHash(ks, i, k);
  let lastPicked = -1;
  const pick = (idx: number): void => {
    if (idx === lastPicked) return;
    lastPicked = idx;
    out.hashes.push(grams[idx]!);
    out.positions.push(idx);
    out.lowEntropy.push(distinctAtLeast(ks, idx, k, MIN_DISTINCT) ? 0 : 1);
  };
  if (n < w) {
    let m = 0;
    for (let i = 1; i < n; i++) if (grams[i]! <= grams[m]!) m = i;
    pick(m);
    return out;
  }
  // Monotone deque of indices with increasing hash values.
  const dq = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < n; i++) {
    const g = grams[i]!;
    while (tail > head && grams[dq[tail - 1]!]! >= g) tail--;
    dq[tail++] = i;
    if (dq[head]! <= i - w) head++;
    if (i >= w - 1) pick(dq[head]!);
  }
  return out;
}
