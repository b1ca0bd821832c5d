import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Common English misspellings (cspell's list, compiled from Wikipedia's list
 * of common misspellings; pinned to one version so manifests stay stable).
 * Locale variants (colour/color) are in separate lists and not loaded: they
 * are spellings, not typos. The list leaves out programmers' abbreviations
 * (impl, args, util), so what it finds in code is a real misspelling.
 */
export const TYPO_LIST = '@cspell/dict-en-common-misspellings@2.2.6';

interface List {
  /**
   * "typo->correction" entries, sorted by lower-cased typo (checked by a test)
   * except a few with non-ASCII letters, which are collated by locale. Words
   * are ASCII letters only, so those can never match; the search steps over them.
   */
  sorted: string[];
  /** a handful of unsorted entries */
  extra: string[];
}
let list: List | null = null;

// Parsing the JSON and binary-searching its sorted array costs a third of building a map of 89k entries.
function load(): List {
  if (list) return list;
  // The package exports only its cspell manifest; the word list sits next to it.
  const dir = dirname(require.resolve('@cspell/dict-en-common-misspellings/cspell-ext.json'));
  const defs = (JSON.parse(readFileSync(join(dir, 'dict', 'dict-en.json'), 'utf8')) as { dictionaryDefinitions: { flagWords?: string[]; suggestWords?: string[] }[] }).dictionaryDefinitions;
  list = { sorted: defs[0]?.suggestWords ?? [], extra: [...(defs[0]?.flagWords ?? []), ...defs.slice(1).flatMap((d) => [...(d.flagWords ?? []), ...(d.suggestWords ?? [])])] };
  return list;
}

const keyOf = (e: string): string => e.slice(0, Math.max(0, e.indexOf('->'))).toLowerCase();
// eslint-disable-next-line no-control-regex
const nonAscii = (e: string): boolean => /[^\x00-\x7f]/.test(keyOf(e));
const valueOf = (e: string): string => e.slice(e.indexOf('->') + 2).trim();

/** The correction for a lower-cased word, or undefined when it is not a listed misspelling. */
export function lookup(word: string): string | undefined {
  const l = load();
  let lo = 0;
  let hi = l.sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    let j = mid;
    while (j <= hi && nonAscii(l.sorted[j]!)) j++;
    if (j > hi) {
      hi = mid - 1;
      continue;
    }
    const k = keyOf(l.sorted[j]!);
    if (k === word) return valueOf(l.sorted[j]!);
    if (k < word) lo = j + 1;
    else hi = mid - 1;
  }
  const e = l.extra.find((x) => keyOf(x) === word);
  return e === undefined ? undefined : valueOf(e);
}

/** Whether the list is in the order lookup relies on (a test checks the pinned version). */
export function listIsSorted(): boolean {
  const s = load().sorted.filter((e) => !nonAscii(e));
  for (let i = 1; i < s.length; i++) if (keyOf(s[i - 1]!) > keyOf(s[i]!)) return false;
  return s.length > 0;
}

/** Words of at least 4 letters: identifiers split at camelCase and separators, prose at non-letters; lower-cased. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length >= 4)
    .map((w) => w.toLowerCase());
}

/** The misspelt words in a text, each with the spelling the list suggests. */
export function misspellings(text: string): { word: string; correction: string }[] {
  const out: { word: string; correction: string }[] = [];
  for (const w of words(text)) {
    const c = lookup(w);
    if (c !== undefined) out.push({ word: w, correction: c });
  }
  return out;
}
