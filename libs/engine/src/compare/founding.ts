// The commits a history began with: its roots, and what followed a root at once. A repository created on a hosting
// site often starts with the site's own commit (a README, a licence) and receives its code in the next one; a history
// whose code arrives there began with that code as surely as one whose root holds it (engine 0.7.3).
import type { History } from '../types';

/** At most this many commits after a root still belong to the history's beginning … */
export const FOUNDING_STEPS = 2;
/** … when committed within this long of that root. */
export const FOUNDING_WINDOW_S = 86400;

/**
 * The founding commits of a walked history: every root, and every commit at most FOUNDING_STEPS parent links from a
 * root (by its shortest path) committed within FOUNDING_WINDOW_S of that root. Merges are never founding: a merge
 * joins histories that had already begun.
 */
export function foundingCommits(h: Pick<History, 'commits'>): Set<string> {
  const byId = new Map(h.commits.map((c) => [c.id, c]));
  const out = new Set<string>();
  for (const c of h.commits) {
    // Up the single-parent chain to a root, at most FOUNDING_STEPS links.
    let at = c;
    for (let steps = 0; steps <= FOUNDING_STEPS && at.parents.length <= 1; steps++) {
      if (at.parents.length === 0) {
        if (c.time - at.time <= FOUNDING_WINDOW_S) out.add(c.id);
        break;
      }
      const parent = byId.get(at.parents[0]!);
      if (!parent) break; // beyond the walk: not known to be near a root
      at = parent;
    }
  }
  return out;
}
