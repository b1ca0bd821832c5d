// Normalised token kinds are interned as 32-bit FNV-1a hashes.
const cache = new Map<string, number>();

export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function kindHash(kind: string): number {
  let h = cache.get(kind);
  if (h === undefined) {
    h = fnv1a(kind);
    cache.set(kind, h);
  }
  return h;
}
