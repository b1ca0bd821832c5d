import type { Strength } from '../types';

/** Fixed-precision decimal (4 places) from a ratio, computed on integers so no float noise leaks out. */
export function dec(x: number): string {
  if (!Number.isFinite(x) || x <= 0) return '0.0000';
  const n = Math.min(10000, Math.round(x * 10000));
  return `${Math.floor(n / 10000)}.${String(n % 10000).padStart(4, '0')}`;
}

export function num(d: string): number {
  return Number(d);
}

export function strengthOf(score: number, moderate: number, strong: number): Strength {
  return score >= strong ? 'STRONG' : score >= moderate ? 'MODERATE' : 'WEAK';
}

export const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Keys both maps hold, in sorted order, with each side's value: the deterministic walk every layer makes. */
export function sharedKeys<A, B>(a: Map<string, A>, b: Map<string, B>): [string, A, B][] {
  const out: [string, A, B][] = [];
  // Only the shared keys are sorted (the same order as sorting all of a's and skipping the rest).
  const keys: string[] = [];
  for (const k of a.keys()) if (b.get(k) !== undefined) keys.push(k);
  for (const k of keys.sort(cmp)) out.push([k, a.get(k)!, b.get(k)!]);
  return out;
}

/** Unix seconds as an ISO 8601 UTC time (`2020-09-13T12:26:40Z`) for evidence text people read; `unknown` when absent. */
export function isoTime(seconds: number | null): string {
  return seconds === null ? 'unknown' : new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}
