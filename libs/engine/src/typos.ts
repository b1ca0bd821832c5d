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
  buf: Buffer;
  /**
   * Byte offsets of the `"typo->correction",` lines of the sorted array,
   * sorted by lower-cased typo (a test checks the pinned version) except a few
   * with non-ASCII letters, collated by locale. Words are ASCII letters only,
   * so those can never match; the search steps over them.
   */
  lines: number[];
  /** the short unsorted array (flagWords) */
  extra: Map<string, string>;
}
let list: List | null = null;

const QUOTE = 0x22;
const NL = 0x0a;

/**
 * The list is read as bytes and binary-searched where it lies: in a fresh
 * process, parsing its 2.6 MB of JSON into a map took 90 ms, this takes
 * about 20 ms. The layout (one entry per line, `flagWords` then the sorted
 * `suggestWords`) is that of the pinned version; a test checks that every
 * entry JSON.parse sees is found.
 */
function load(): List {
  if (list) return list;
  // The package exports only its cspell manifest; the word list sits next to it.
  const dir = dirname(require.resolve('@cspell/dict-en-common-misspellings/cspell-ext.json'));
  const buf = readFileSync(join(dir, 'dict', 'dict-en.json'));
  const section = (name: string): number[] => {
    const head = buf.indexOf(`"${name}": [`);
    if (head < 0) return [];
    const out: number[] = [];
    for (let p = buf.indexOf(NL, head) + 1; p > 0 && p < buf.length; ) {
      let q = p;
      while (buf[q] === 0x20) q++;
      if (buf[q] !== QUOTE) break; // the closing bracket
      out.push(q);
      const nl = buf.indexOf(NL, q);
      p = nl < 0 ? buf.length : nl + 1;
    }
    return out;
  };
  const extra = new Map<string, string>();
  for (const at of section('flagWords')) extra.set(keyAt(buf, at), valueAt(buf, at));
  list = { buf, lines: section('suggestWords'), extra };
  return list;
}

/** The lower-cased typo of the entry whose opening quote is at `at`. */
function keyAt(buf: Buffer, at: number): string {
  const arrow = buf.indexOf('->', at);
  return buf.toString('latin1', at + 1, arrow < 0 ? at + 1 : arrow).toLowerCase();
}

function valueAt(buf: Buffer, at: number): string {
  const nl = buf.indexOf(NL, at);
  const end = buf.lastIndexOf(QUOTE, nl < 0 ? buf.length : nl);
  const entry = JSON.parse(buf.toString('utf8', at, end + 1)) as string;
  return entry.slice(entry.indexOf('->') + 2).trim();
}

// eslint-disable-next-line no-control-regex
const nonAscii = (key: string): boolean => /[^\x00-\x7f]/.test(key);

/** The correction for a lower-cased word, or undefined when it is not a listed misspelling. */
export function lookup(word: string): string | undefined {
  const l = load();
  let lo = 0;
  let hi = l.lines.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    let j = mid;
    let k = keyAt(l.buf, l.lines[j]!);
    while (nonAscii(k) && j < hi) k = keyAt(l.buf, l.lines[++j]!);
    if (nonAscii(k)) {
      hi = mid - 1;
      continue;
    }
    if (k === word) return valueAt(l.buf, l.lines[j]!);
    if (k < word) lo = j + 1;
    else hi = mid - 1;
  }
  return l.extra.get(word);
}

/** Words of at least 4 letters: identifiers split at camelCase and separators, prose at non-letters; lower-cased. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .filter((w) => w.length >= 4)
    .map((w) => w.toLowerCase());
}
