// A derivation's own copyright line added under the original's. Whoever modifies a file under GPL, BSD or MIT terms
// keeps the notice it came with and commonly adds one of their own: Chocolate Doom's files say "Copyright(C) 1993-1996
// Id Software, Inc." and then "Copyright(C) 2005-2014 Simon Howard", where id's release of the same files has only the
// first. When two histories share no commit and one side's matched files add its own people's notice to a holder both
// sides' files name, that side took the files and went on from them, whatever the commit dates say (id's source release
// was uploaded to git in 2012, seven years after Chocolate Doom began). Pure functions of the file heads and the two
// histories' authors.
import type { Side } from '../types';
import { copyrightHolders } from './licence';
import { HEAD_LINES, keysOf, ownKeys, type SideThirdPartyInput } from './third-party';

/** The files that add a notice hold at least this share of the copier's matched fingerprints, */
export const ADDED_NOTICE_SHARE = 0.2;

export interface AddedNotice {
  /** the side whose files add its own notice: the side that took them */
  by: Side;
  /** the holder both sides' files name, as the copier's file spells it */
  holder: string;
  /** the notice the copier added, as its file spells it */
  added: string;
  /** a file of the copier's holding both notices, the line of the added one */
  path: string;
  line: number;
  blobId: string;
  /** share of the copier's matched fingerprints in files that add its notice */
  share: number;
}

type Notice = { holder: string; line: number; keys: string[] };

const other = (s: Side): Side => (s === 'origin' ? 'target' : 'origin');

/**
 * The side whose matched files name, in their heads, a holder that both sides' matched files name and that is not
 * that side's own (a third party's, or the other side's author's), together with a holder that is its own (its
 * licence's, its founder, a principal author) and that no matched file of the other side names; those files hold
 * ADDED_NOTICE_SHARE of its matched fingerprints. Null otherwise, or when both sides do so.
 */
export function addedNotice(sides: Record<Side, SideThirdPartyInput>): AddedNotice | null {
  const notices = {} as Record<Side, Map<string, Notice[]>>; // path -> the notices its head gives
  const named = {} as Record<Side, Set<string>>; // every holder key a side's heads give
  for (const side of ['origin', 'target'] as const) {
    notices[side] = new Map();
    named[side] = new Set();
    for (const h of sides[side].heads) {
      const list = copyrightHolders(h.text.split('\n', HEAD_LINES).join('\n')).map((c) => ({
        holder: c.holder,
        line: c.line,
        keys: keysOf(c),
      }));
      notices[side].set(h.path, list);
      for (const n of list) for (const k of n.keys) named[side].add(k);
    }
  }
  const found: AddedNotice[] = [];
  for (const by of ['origin', 'target'] as const) {
    const them = other(by);
    const own = ownKeys(sides[by]);
    const s = sides[by];
    let total = 0;
    for (const n of s.matched.values()) total += n;
    let adding = 0;
    let first: AddedNotice | null = null;
    for (const h of [...s.heads].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
      const list = notices[by].get(h.path)!;
      // A holder both sides' files name that is not this side's own (it may be the other side's: its author's notice kept).
      const kept = list.find((n) => n.keys.some((k) => named[them].has(k)) && !n.keys.some((k) => own.has(k)));
      const added = list.find((n) => n.keys.some((k) => own.has(k)) && !n.keys.some((k) => named[them].has(k)));
      if (!kept || !added) continue;
      adding += s.matched.get(h.path) ?? 0;
      first ??= { by, holder: kept.holder, added: added.holder, path: h.path, line: added.line, blobId: h.blobId, share: 0 };
    }
    if (first && total && adding / total >= ADDED_NOTICE_SHARE) found.push({ ...first, share: adding / total });
  }
  return found.length === 1 ? found[0]! : null;
}
