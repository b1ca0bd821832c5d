import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// Common English misspellings (cspell's list, compiled from Wikipedia's list
// of common misspellings; pinned to one version so manifests stay stable).
// Locale variants (colour/color) are in separate lists and not loaded: they
// are spellings, not typos. The list leaves out programmers' abbreviations
// (impl, args, util), so what it finds in code is a real misspelling.
// The list is @cspell/dict-en-common-misspellings, pinned in libs/engine/package.json.

interface List {
  buf: Buffer;
  /**
   * Byte range of the `"typo->correction",` lines of the sorted array, one
   * entry per line, sorted by lower-cased typo (a test checks the pinned
   * version) except a few with non-ASCII letters, collated by locale. Words
   * are ASCII letters only, so those can never match; the search steps over them.
   */
  from: number;
  to: number;
  /** the short unsorted array (flagWords) */
  extra: Map<string, string>;
}
let list: List | null = null;

const QUOTE = 0x22;
const NL = 0x0a;
const SPACE = 0x20;

/**
 * The list is read as bytes and binary-searched where it lies, by byte
 * offset, without an index of its lines: loading and the first lookup take
 * 4-6 ms in a fresh process, where parsing its 2.6 MB of JSON into a map took
 * 90 ms and indexing its 89k lines 20 ms.
 * The layout (one entry per line, `flagWords` then the sorted `suggestWords`)
 * is that of the pinned version; a test checks that every entry JSON.parse
 * sees is found.
 */
function load(): List {
  if (list) return list;
  // The package exports only its cspell manifest; the word list sits next to it.
  const dir = dirname(require.resolve('@cspell/dict-en-common-misspellings/cspell-ext.json'));
  const buf = readFileSync(join(dir, 'dict', 'dict-en.json'));
  /** The lines of a named array: from its first entry line to the line of its closing bracket. */
  const section = (name: string): { from: number; to: number } => {
    const head = buf.indexOf(`"${name}": [`);
    if (head < 0) return { from: 0, to: 0 };
    const from = buf.indexOf(NL, head) + 1;
    // The closing bracket is the first `]` with nothing but spaces before it on its line.
    for (let at = buf.indexOf(']', from); at >= 0; at = buf.indexOf(']', at + 1)) {
      let q = at - 1;
      while (buf[q] === SPACE) q--;
      if (buf[q] === NL) return { from, to: q + 1 };
    }
    return { from, to: from };
  };
  const extra = new Map<string, string>();
  const flags = section('flagWords');
  for (let p = flags.from; p < flags.to; p = nextLine(buf, p)) extra.set(keyAt(buf, quoteAt(buf, p)), valueAt(buf, quoteAt(buf, p)));
  list = { buf, ...section('suggestWords'), extra };
  return list;
}

// Lines are a few dozen bytes: scanning them in JS is cheaper than a native indexOf call per step.

/** Start of the line after the one holding `p`. */
function nextLine(buf: Buffer, p: number): number {
  while (p < buf.length && buf[p] !== NL) p++;
  return Math.min(buf.length, p + 1);
}

/** Start of the line holding `p`, not before `lo`. */
function lineStart(buf: Buffer, p: number, lo: number): number {
  while (p > lo && buf[p - 1] !== NL) p--;
  return p;
}

/** The opening quote of the entry on the line starting at `p`. */
function quoteAt(buf: Buffer, p: number): number {
  while (buf[p] === SPACE) p++;
  return p;
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

/**
 * The entry whose opening quote is at `q`, lower-cased, against an ASCII
 * word: negative when the entry sorts first, 0 when equal, positive after;
 * NaN when the entry has non-ASCII letters (out of order: stepped over).
 * Compares bytes in place: a lookup allocates nothing.
 */
function compareEntry(buf: Buffer, q: number, word: string): number {
  let end = q + 1;
  while (end < buf.length && !(buf[end] === 0x2d && buf[end + 1] === 0x3e)) {
    if (buf[end]! >= 0x80) return NaN;
    end++;
  }
  for (let i = q + 1, j = 0; ; i++, j++) {
    if (i === end) return j === word.length ? 0 : -1;
    if (j === word.length) return 1;
    let c = buf[i]!;
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    const w = word.charCodeAt(j);
    if (c !== w) return c - w;
  }
}

/** The correction for a lower-cased word, or undefined when it is not a listed misspelling. */
export function lookup(word: string): string | undefined {
  const l = load();
  // Invariant: lo and hi are line starts; a match, if any, starts in [lo, hi).
  let lo = l.from;
  let hi = l.to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const line = lineStart(l.buf, mid, lo);
    let at = line;
    let c = compareEntry(l.buf, quoteAt(l.buf, at), word);
    while (Number.isNaN(c) && nextLine(l.buf, at) < hi) {
      at = nextLine(l.buf, at);
      c = compareEntry(l.buf, quoteAt(l.buf, at), word);
    }
    if (Number.isNaN(c)) {
      hi = line;
      continue;
    }
    if (c === 0) return valueAt(l.buf, quoteAt(l.buf, at));
    if (c < 0) lo = nextLine(l.buf, at);
    else hi = line;
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
