// A history committed in one go (a conversion, an archive's releases imported at once): its commit times are the
// import's, not when the material was written.
import type { ChronologyFact, History, Side } from '../types';
import { isoTime } from './format';

/**
 * A history of at least this many commits, every one committed within IMPORT_WINDOW_S and authored over at least
 * IMPORT_AUTHORED_S, was imported in one go (gitpan's CPAN releases, a conversion): its commit times are the import's.
 */
const IMPORT_MIN_COMMITS = 10;
const IMPORT_WINDOW_S = 3600;
const IMPORT_AUTHORED_S = 30 * 86400;

/** How a whole walked history was committed in one go, or null (see IMPORT_MIN_COMMITS). */
export function importedHistory(h: History): { commits: number; seconds: number; authored: { oldest: number; newest: number } } | null {
  if (h.truncated || h.commits.length < IMPORT_MIN_COMMITS || !h.authored) return null;
  let oldest = Infinity;
  let newest = -Infinity;
  for (const c of h.commits) {
    if (c.time < oldest) oldest = c.time;
    if (c.time > newest) newest = c.time;
  }
  if (newest - oldest > IMPORT_WINDOW_S || h.authored.newest - h.authored.oldest < IMPORT_AUTHORED_S) return null;
  return { commits: h.commits.length, seconds: newest - oldest, authored: h.authored };
}

export type ImportedHistory = NonNullable<ReturnType<typeof importedHistory>>;

/** The chronology fact for each side whose history was imported in one go. */
export function importedFacts(imported: Record<Side, ImportedHistory | null>): ChronologyFact[] {
  const out: ChronologyFact[] = [];
  for (const side of ['origin', 'target'] as const) {
    const imp = imported[side];
    if (imp)
      out.push({
        kind: 'IMPORTED_HISTORY',
        side,
        time: null,
        commit: null,
        detail:
          `all ${imp.commits} commits of the ${side}'s history were committed within ${imp.seconds} s, authored from ` +
          `${isoTime(imp.authored.oldest)} to ${isoTime(imp.authored.newest)}: an import, whose dates say when the material ` +
          `was imported, not when it was written; they count only where they are the earlier`,
      });
  }
  return out;
}
