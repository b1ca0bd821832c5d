import type { EvidenceItem, Fingerprints, LanguageItem } from '../types';
import { lookup, words } from '../typos';
import { COMMON_IDENTIFIERS, LICENCE_TEXT } from './common';
import { dec, sharedKeys } from './format';
import { Pacer } from './pace';

/** Parts of a compound identifier: fooBarBaz / foo_bar_baz → 3. */
function parts(id: string): number {
  return id.split(/[_\-.$]+|(?<=[a-z0-9])(?=[A-Z])/).filter((p) => p.length > 0).length;
}

function weight(it: LanguageItem): number {
  if (it.kind === 'IDENTIFIER') {
    if (COMMON_IDENTIFIERS.has(it.text) || it.text.length < 8) return 0;
    const n = parts(it.text);
    return n >= 3 ? 1 : n === 2 && it.text.length >= 12 ? 0.5 : 0;
  }
  if (LICENCE_TEXT.test(it.text)) return 0;
  if (it.kind === 'COMMENT') return it.text.split(' ').length >= 4 ? 2 : 0;
  // strings: skip paths, urls, format-only strings
  if (/^(https?:\/\/|\.{0,2}\/)/.test(it.text) || !/[a-z]{3}.*\s.*[a-z]{3}/i.test(it.text)) return it.text.length >= 24 ? 0.5 : 0;
  return 1.5;
}

/** A misspelling both repositories make is a habit or a copy, rarely a coincidence: it weighs more than any verbatim item. */
const TYPO_WEIGHT = 2;

/** Each word of 4+ letters in a repository's identifiers, comments and strings (licence text aside), with its first occurrence. */
async function wordsOf(fp: Fingerprints, pace: Pacer): Promise<Map<string, LanguageItem>> {
  const out = new Map<string, LanguageItem>();
  for (const it of fp.language) {
    const turn = pace.step();
    if (turn) await turn;
    if (it.kind !== 'IDENTIFIER' && LICENCE_TEXT.test(it.text)) continue;
    for (const w of words(it.text)) if (!out.has(w)) out.set(w, it);
  }
  return out;
}

/**
 * Rare identifiers, comments and string literals shared by both repositories,
 * weighted by rarity: an item present in more than 3 files of its own
 * repository is common there and weighs nothing, as do licence texts. Shared
 * misspellings (from a published list of common English misspellings) count
 * separately, whatever their frequency, as material both sides have. Gives
 * the event loop a turn now and then (`pace`): it runs beside the dating.
 */
export async function compareLanguage(
  o: Fingerprints,
  t: Fingerprints,
  pace = new Pacer(),
): Promise<{ score: number; items: EvidenceItem[] }> {
  const collect = async (fp: Fingerprints): Promise<Map<string, { it: LanguageItem; w: number }>> => {
    // Items arrive grouped by file, so distinct files are counted by comparing with the last path seen.
    const seen = new Map<string, { it: LanguageItem; files: number; last: string }>();
    for (const it of fp.language) {
      const turn = pace.step();
      if (turn) await turn;
      const key = it.kind + '\0' + it.text;
      const s = seen.get(key);
      if (!s) seen.set(key, { it, files: 1, last: it.path });
      else if (s.last !== it.path) {
        s.files++;
        s.last = it.path;
      }
    }
    const out = new Map<string, { it: LanguageItem; w: number }>();
    for (const [key, s] of seen) {
      const turn = pace.step();
      if (turn) await turn;
      const w = s.files > 3 ? 0 : weight(s.it);
      if (w > 0) out.set(key, { it: s.it, w });
    }
    return out;
  };
  const oi = await collect(o);
  const ti = await collect(t);
  let total = 0;
  let shared = 0;
  let tTotal = 0;
  for (const v of oi.values()) total += v.w;
  for (const v of ti.values()) tTotal += v.w;
  const items: EvidenceItem[] = [];
  for (const [, a, b] of sharedKeys(oi, ti)) {
    shared += a.w;
    items.push({
      id: '',
      layer: 'LANGUAGE',
      kind: `SHARED_${a.it.kind}`,
      strength: a.w >= 2 ? 'MODERATE' : 'WEAK',
      score: dec(a.w / 2),
      origin: { path: a.it.path, startLine: a.it.line, endLine: a.it.line, blobId: '' },
      target: { path: b.it.path, startLine: b.it.line, endLine: b.it.line, blobId: '' },
      detail:
        a.it.kind === 'IDENTIFIER'
          ? `rare identifier ${a.it.text.slice(0, 80)}`
          : `identical ${a.it.kind.toLowerCase()} (${a.it.text.length} chars)`,
    });
  }
  // Only words both sides use are looked up: a shared misspelling counts as shared material on both sides.
  const oWords = await wordsOf(o, pace);
  const tWords = await wordsOf(t, pace);
  for (const [word, a, b] of sharedKeys(oWords, tWords)) {
    const correction = lookup(word);
    if (correction === undefined) continue;
    shared += TYPO_WEIGHT;
    total += TYPO_WEIGHT;
    tTotal += TYPO_WEIGHT;
    items.push({
      id: '',
      layer: 'LANGUAGE',
      kind: 'SHARED_TYPO',
      strength: 'MODERATE',
      score: dec(TYPO_WEIGHT / 2),
      origin: { path: a.path, startLine: a.line, endLine: a.line, blobId: '' },
      target: { path: b.path, startLine: b.line, endLine: b.line, blobId: '' },
      detail: `same misspelling "${word}" (for "${correction.slice(0, 40)}") in both`,
    });
  }
  const denom = Math.min(total, tTotal);
  return { score: denom ? Math.min(1, shared / denom) : 0, items };
}
