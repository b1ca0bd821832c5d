// Copyright attribution: a licence that names the other project's author as a copyright holder. MIT, BSD and the
// like oblige whoever copies the work to keep its copyright notice, so a hard fork that starts a history of its own
// still carries the original author's name in its LICENSE (cakephp/chronos: "Copyright (C) Brian Nesbitt", Carbon's
// author). The notice is the copier's statement of where the work came from, written before any later change. Pure
// functions of the licence texts and of the two histories' authors.
import type { AuthorCount, Side } from '../types';
import { isBot, normName } from './maintainers';
import { lineOf } from './names';

/** Root licence files: LICENSE, LICENCE, COPYING, COPYRIGHT, with a licence's name or a text extension (LICENSE.md, LICENSE-MIT, COPYING.LIB, MIT-LICENSE). */
export const LICENCE_FILE =
  /^(?:(?:mit|bsd|apache|isc)[-_.])?(?:licen[cs]e|copying|copyright)(?:[-_.](?:mit|bsd|isc|apache(?:-?2(?:\.0)?)?|[al]?gpl(?:-?[23])?|lib))?(?:\.(?:md|txt|rst|markdown))?$/i;

/** The authors of one side's history: commits per (name, e-mail), and who made its oldest commit when the walk reached it. */
export interface SideAuthors {
  authors: AuthorCount[];
  founder: { name: string; email: string } | null;
  /** the author of the newest commit walked (absent in a topology persisted by an engine before 0.7.16) */
  latest?: { name: string; email: string } | null;
}

export interface Attribution {
  /** the side whose licence names the other side's author: the side that copied */
  by: Side;
  path: string;
  line: number;
  blobId: string;
  /** the holder as the licence spells it */
  holder: string;
  /** that author's commits on the other side, of how many counted, and whether they made its oldest commit */
  commits: number;
  of: number;
  founder: boolean;
}

/** An author with this share of the other side's commits (or its founder) is one of its authors, not a passer-by. */
export const PRINCIPAL_SHARE = 0.1;
/** Names shorter than this (normalised) match too much by chance. */
const MIN_NAME = 5;

const COPYRIGHT = /^[ \t#*/;!-]*copyright\b(.*)$/gim;
const EMAIL = /<?\b([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})\b>?/g;
const YEARS = /\b(?:19|20)\d{2}\b(?:\s*(?:[-–—,]|to)\s*(?:(?:19|20)\d{2}\b|present\b))*/gi;

/** The holders of each copyright line: names (split at commas, "and", "&") and e-mail addresses. */
export function copyrightHolders(text: string): { line: number; holder: string; names: string[]; emails: string[] }[] {
  const out: { line: number; holder: string; names: string[]; emails: string[] }[] = [];
  for (const m of text.matchAll(COPYRIGHT)) {
    const rest = m[1]!;
    const emails = [...rest.matchAll(EMAIL)].map((e) => e[1]!.toLowerCase());
    const holder = rest
      .replace(EMAIL, ' ')
      .replace(/\([^)]*\)|\[[^\]]*\]|https?:\/\/\S+/gi, ' ') // (c), (https://…), [year]
      .replace(/©/g, ' ')
      .replace(YEARS, ' ')
      .replace(/\ball rights reserved\b.*$/i, ' ')
      .replace(/^[\s,.:;-]*(?:by\b)?/i, '')
      .replace(/\s+/g, ' ')
      .replace(/[\s.,;:]+$/, '')
      .trim();
    const names = holder
      .split(/\s*(?:,|;|&|\band\b|\bet al\.?)\s*/i)
      .map((n) => n.replace(/[.\s]+$/, '').trim())
      .filter((n) => normName(n).length >= MIN_NAME);
    if (names.length || emails.length) out.push({ line: lineOf(text, m.index), holder, names, emails });
  }
  return out;
}

const other = (s: Side): Side => (s === 'origin' ? 'target' : 'origin');

/**
 * The side whose licence names, as a copyright holder, a principal author of the other side (its founder, or the
 * maker of PRINCIPAL_SHARE of its commits) who made none of its own commits: that side kept the other's notice, so it
 * copied from it. Null when neither side does, or both do.
 */
export function licenceAttribution(
  licences: Record<Side, { path: string; blobId: string; text: string }[]>,
  authors: Record<Side, SideAuthors>,
): Attribution | null {
  const found: Attribution[] = [];
  for (const by of ['origin', 'target'] as const) {
    const them = authors[other(by)];
    const mine = authors[by].authors.filter((a) => !isBot(a));
    const theirs = them.authors.filter((a) => !isBot(a));
    const total = theirs.reduce((n, a) => n + a.commits, 0);
    const isMine = (name: string, email: string): boolean =>
      mine.some((a) => (name !== '' && normName(a.name) === name) || (email !== '' && a.email.toLowerCase() === email));
    let best: Attribution | null = null;
    for (const f of [...licences[by]].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
      for (const h of copyrightHolders(f.text)) {
        const keys = [...h.names.map((n) => ({ name: normName(n), email: '' })), ...h.emails.map((e) => ({ name: '', email: e }))];
        for (const k of keys) {
          if (isMine(k.name, k.email)) continue;
          const same = (a: { name: string; email: string }): boolean =>
            (k.name !== '' && normName(a.name) === k.name) || (k.email !== '' && a.email.toLowerCase() === k.email);
          const commits = theirs.filter(same).reduce((n, a) => n + a.commits, 0);
          const founder = them.founder !== null && same(them.founder);
          if (!commits || (!founder && commits < PRINCIPAL_SHARE * total)) continue;
          if (!best || commits > best.commits)
            best = { by, path: f.path, line: h.line, blobId: f.blobId, holder: h.holder, commits, of: total, founder };
        }
      }
    if (best) found.push(best);
  }
  return found.length === 1 ? found[0]! : null;
}
