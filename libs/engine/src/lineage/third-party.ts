// A third party's code that both sides embed. Two unrelated projects that each copied one library into their tree
// (orjson and libmseed both carry ibireme's yyjson.c; dew and lua_sandbox both carry PUC-Rio's Lua under src/lua/)
// share a great deal of rare code, and the one that embedded it first looks like the original. The files say whose
// the code is: their headers keep the library's copyright notice, naming someone who is neither side's author, in
// files that are a minority of either side. Pure functions of the file heads, the trees and the two histories' authors.
import type { Side } from '../types';
import { copyrightHolders, PRINCIPAL_SHARE, type SideAuthors } from './licence';
import { isBot, normName } from './maintainers';

/** A file's head, where a copyright notice stands: at most this many lines are read. */
export const HEAD_LINES = 40;
/** The holder's files hold at least this share of each side's matched code (by fingerprints), */
export const THIRD_PARTY_MATCHED_SHARE = 0.8;
/** and less than this share of each side's code (by tokens): the rest of each side is its own. */
export const THIRD_PARTY_CODE_SHARE = 0.5;
/**
 * For a library's own kind of notice, that names no holder (a public-domain dedication, a pointer to the notice in
 * another file), less than this share: a small project built around an embedded interpreter is mostly that
 * interpreter (dew and lua_sandbox: 57% and 55% Lua), and no company's notice on an original's files reads so; the
 * library itself, every file of which says so, stays above it.
 */
export const LIBRARY_CODE_SHARE = 0.8;

export interface SideThirdPartyInput {
  /** heads (first HEAD_LINES lines) of the side's matched code files */
  heads: { path: string; blobId: string; text: string }[];
  /** matched fingerprints per path: how much of the matched code each file holds */
  matched: ReadonlyMap<string, number>;
  /** every fingerprinted code file of the side, with its size in tokens */
  code: readonly { path: string; tokens: number }[];
  /** the side's root licence files */
  licences: readonly { text: string }[];
  authors: SideAuthors;
}

export interface ThirdParty {
  /** the holder as the origin's file spells it; for a dedication "the public domain", for a pointer the file named */
  holder: string;
  /** how the files say whose the code is: a holder's notice, a public-domain dedication, a pointer to a notice elsewhere */
  notice: 'holder' | 'dedication' | 'pointer';
  /** where each side's notice stands */
  origin: { path: string; line: number; blobId: string };
  target: { path: string; line: number; blobId: string };
  /** the holder's files' share of each side's matched fingerprints and of its code bytes */
  matchedShare: Record<Side, number>;
  codeShare: Record<Side, number>;
  /** the holder's files are under the code share bound on both sides (a library embedded), not only two uploads of it */
  embedded: boolean;
}

/**
 * A public-domain dedication: SQLite's "The author disclaims copyright to this source code", "placed in the public
 * domain", "released into the public domain". Code so dedicated is no one's: heading the matched files on both sides it
 * marks a library both embed (go-sqlite3 and rusqlite both carry SQLite's sqlite3.h) unless a side's root licence
 * dedicates that side's own code so. Read as one more holder, PUBLIC_DOMAIN, under the same shares as a named one.
 */
const DEDICATION = /\b(?:disclaims?\s+(?:all\s+)?copyright|(?:placed|released|dedicated)\s+(?:in|into|to)\s+the\s+public\s+domain)\b/i;
const PUBLIC_DOMAIN = 'pd:';
/** Keys of pointers to a notice: this prefix and the file named. */
const POINTER = 'ref:';

/**
 * A head that points at the notice instead of holding it: every file of PUC-Rio's Lua says "See Copyright Notice in
 * lua.h" (the notice stands at the end of lua.h, which lua_sandbox keeps in another directory than its Lua sources),
 * LuaJIT's "See Copyright Notice in luajit.h". The same pointer on both sides is read as one holder, named by the file.
 */
const NOTICE_POINTER = /\bsee\s+(?:the\s+)?copyright\s+notice\s+in\s+([A-Za-z0-9_][\w.-]*[A-Za-z0-9_])/i;

/** The holders a file head names; a public-domain dedication and a pointer to a notice elsewhere as holders too. */
function holdersIn(head: string): { line: number; holder: string; keys: string[] }[] {
  const out = copyrightHolders(head).map((c) => ({ line: c.line, holder: c.holder, keys: keysOf(c) }));
  const lineAt = (i: number): number => head.slice(0, i).split('\n').length;
  const d = DEDICATION.exec(head);
  if (d) out.push({ line: lineAt(d.index), holder: 'the public domain', keys: [PUBLIC_DOMAIN] });
  const p = NOTICE_POINTER.exec(head);
  if (p) out.push({ line: lineAt(p.index), holder: p[1]!, keys: [`${POINTER}${p[1]!.toLowerCase()}`] });
  return out;
}

/**
 * A side's own names as holder keys: the holders of its root licences (and PUBLIC_DOMAIN when one dedicates its code
 * so), its founder, and the makers of PRINCIPAL_SHARE of its commits (bots left out).
 */
export function ownKeys(s: Pick<SideThirdPartyInput, 'licences' | 'authors'>): Set<string> {
  const own = new Set<string>();
  for (const l of s.licences) {
    for (const c of copyrightHolders(l.text)) for (const k of keysOf(c)) own.add(k);
    if (DEDICATION.test(l.text)) own.add(PUBLIC_DOMAIN);
  }
  const people = s.authors.authors.filter((a) => !isBot(a));
  const total = people.reduce((n, a) => n + a.commits, 0);
  for (const a of people)
    if (a.commits >= PRINCIPAL_SHARE * total) {
      own.add(`n:${normName(a.name)}`);
      own.add(`e:${a.email.toLowerCase()}`);
    }
  if (s.authors.founder) {
    own.add(`n:${normName(s.authors.founder.name)}`);
    own.add(`e:${s.authors.founder.email.toLowerCase()}`);
  }
  return own;
}

const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
export const keysOf = (h: { names: string[]; emails: string[] }): string[] => [
  ...h.names.map((n) => `n:${normName(n)}`),
  ...h.emails.map((e) => `e:${e}`),
];

/**
 * The copyright holder whose notice heads the matched code on both sides, when that holder is neither side's own:
 * not named in either side's root licence, neither side's founder, nor the maker of PRINCIPAL_SHARE of either side's
 * commits. A holder's files are those whose head names it and, in a directory below the root, the files beside them
 * (Lua's notice stands in lua.h alone; its other files say "See Copyright Notice in lua.h"). On each side those files
 * must hold THIRD_PARTY_MATCHED_SHARE of the matched fingerprints and less than THIRD_PARTY_CODE_SHARE of the code
 * (LIBRARY_CODE_SHARE for a dedication or a pointer to a notice):
 * an original whose every file carries its company's notice (id Software's) is that side's own code, not a library
 * both embed. When both sides are `uploads` (snapshots of a few commits: neither history shows the code being made),
 * the code share is not bounded: two uploads of one holder's release hold it whole (two imports of the Lua 5.4.6
 * tarball), and neither upload's date says that it, rather than the holder, is where the other took it from. Null
 * when no holder qualifies.
 */
export function thirdPartyCode(sides: Record<Side, SideThirdPartyInput>, uploads = false): ThirdParty | null {
  type Found = { holder: string; path: string; line: number; blobId: string };
  const perSide = {} as Record<Side, { notices: Map<string, Found[]>; own: Set<string> }>;
  // The keys a notice gives together (a name and an e-mail address): one of them being a side's own makes all of them so.
  const together = new Map<string, Set<string>>();
  for (const side of ['origin', 'target'] as const) {
    const s = sides[side];
    const notices = new Map<string, Found[]>();
    for (const h of [...s.heads].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
      for (const c of holdersIn(h.text.split('\n', HEAD_LINES).join('\n')))
        for (const k of c.keys) {
          const with_ = together.get(k) ?? together.set(k, new Set()).get(k)!;
          for (const j of c.keys) with_.add(j);
          const list = notices.get(k) ?? notices.set(k, []).get(k)!;
          if (!list.some((f) => f.path === h.path)) list.push({ holder: c.holder, path: h.path, line: c.line, blobId: h.blobId });
        }
    perSide[side] = { notices, own: ownKeys(s) };
  }

  let best: { key: string; least: number; found: ThirdParty } | null = null;
  for (const [key, oFound] of perSide.origin.notices) {
    const tFound = perSide.target.notices.get(key);
    if (!tFound || key === 'n:' || [...together.get(key)!].some((k) => perSide.origin.own.has(k) || perSide.target.own.has(k))) continue;
    const notice: ThirdParty['notice'] = key === PUBLIC_DOMAIN ? 'dedication' : key.startsWith(POINTER) ? 'pointer' : 'holder';
    const maxCodeShare = notice === 'holder' ? THIRD_PARTY_CODE_SHARE : LIBRARY_CODE_SHARE;
    const matchedShare = {} as Record<Side, number>;
    const codeShare = {} as Record<Side, number>;
    for (const [side, found] of [
      ['origin', oFound],
      ['target', tFound],
    ] as const) {
      const s = sides[side];
      const paths = new Set(found.map((f) => f.path));
      const dirs = new Set(found.map((f) => dirOf(f.path)).filter((d) => d !== ''));
      const theirs = (p: string): boolean => paths.has(p) || dirs.has(dirOf(p));
      let inMatched = 0;
      let allMatched = 0;
      for (const [p, n] of s.matched) {
        allMatched += n;
        if (theirs(p)) inMatched += n;
      }
      let inCode = 0;
      let allCode = 0;
      for (const f of s.code) {
        allCode += f.tokens;
        if (theirs(f.path)) inCode += f.tokens;
      }
      matchedShare[side] = allMatched ? inMatched / allMatched : 0;
      codeShare[side] = allCode ? inCode / allCode : 1;
    }
    const embedded = (['origin', 'target'] as const).every((side) => codeShare[side] < maxCodeShare);
    const ok = (embedded || uploads) && (['origin', 'target'] as const).every((side) => matchedShare[side] >= THIRD_PARTY_MATCHED_SHARE);
    if (!ok) continue;
    const least = Math.min(matchedShare.origin, matchedShare.target);
    if (best && (least < best.least || (least === best.least && key >= best.key))) continue;
    const at = (f: Found): ThirdParty['origin'] => ({ path: f.path, line: f.line, blobId: f.blobId });
    best = {
      key,
      least,
      found: {
        holder: oFound[0]!.holder,
        notice,
        origin: at(oFound[0]!),
        target: at(tFound[0]!),
        matchedShare,
        codeShare,
        embedded,
      },
    };
  }
  return best?.found ?? null;
}
