// A rebased line (engine 0.7.17): a repository that carries a third project's history and keeps its own commits on
// top by rebasing them onto that project's newer commits, never merging it. cdown/dwm is suckless dwm's repository
// (Anselm R. Garbe's and Hiltjo Posthuma's commits since 2006) with Chris Down's 153 commits of 2017–2025 replayed on
// dwm's commit of 2024-10-28 by its `sync` script (`git rebase … suckless/master`). A build that began anew from the
// project's files finds its material in the carrier's history years before it began, and dating alone would call the
// carrier its source (followed-line.ts reads the carrier that merges instead). A replay over one or two commits
// (purarue/st: Sean Breckenridge's commits of 2020-02-05 on st's of 2020-02-18) looks like a rebased pull request and
// is not read.
//
// What gives the carrier away is its own history's shape: on the mainline, a run of commits mostly by one person (the
// side's owner) whose oldest sits on a commit authored after it, on a line that went on without the owner's work for
// many commits after that work began (the owner's work was replayed onto a newer state of a line that lives
// elsewhere), and on which the owner went on for weeks; the line beneath is someone else's (the owner made little of
// it) and none of its people made any of the run. Every commit of that line but the owner's is the other repository's:
// a copy of that project finds its material in the carrier as well. A contributor's rebased pull request stops where
// it was replayed, sits on a line that went on for a few commits at most, or on a line its author made much of; a
// project handed to a new maintainer who replays an old branch onto its last commit reads as a carrier only if the
// line went on for long without it, and then its founders' material says nothing of who copied whom: the rule can only
// take a direction away.
import type { CommitInfo, History } from '../types';
import { type Followed, NOTHING_FOLLOWED, OWNER_SHARE } from './followed-line';
import { authorKeys } from './former-identity';

/** Own commits in the run at least: fewer are a branch replayed, not a side's own line. */
export const MIN_OWN_COMMITS = 5;
/**
 * Days the owner went on committing on top of the commit the run sits on, at least: the side lives there. A pull
 * request or a branch rebased onto a busy line stops there, or is followed by others' commits.
 */
export const MIN_DAYS_ON_TOP = 30;
const DAY_S = 86_400;
/**
 * Commits of others on the mainline beneath, authored after the owner's oldest commit of the run, at least: the line
 * went on elsewhere while the owner's work existed. One or two are a pull request rebased onto a busy branch.
 */
export const MIN_REPLAYED_OVER = 10;
/** The owner's share of the line beneath at most: above it the line is the owner's own project, rebased onto itself. */
export const MAX_OWNER_SHARE_BENEATH = 0.05;
/** What the evidence says the carried line came from. */
export const REBASED_FROM = 'the line its own commits were rebased onto';

/** The run's commit that sits on a newer one, and the commits of the line beneath it that are not the owner's. */
export interface RebasedLine {
  /** the oldest commit of the owner's run (its parent was authored after it) */
  base: string;
  commits: Set<string>;
}

const authored = (c: CommitInfo): number => c.at ?? c.time;

/** The rebased line of a history's mainline (the first-parent chain from its pinned commit), or null. */
export function rebasedLine(h: Pick<History, 'commit' | 'commits'>): RebasedLine | null {
  if (!h.commits.some((c) => c.at !== undefined)) return null;
  const byId = new Map(h.commits.map((c) => [c.id, c]));
  const mainline: CommitInfo[] = [];
  for (let c = byId.get(h.commit); c; c = c.parents[0] ? byId.get(c.parents[0]) : undefined) mainline.push(c);
  // A person is an e-mail or a full name here: an address's user part (personKeys) is often a first name, and one
  // maintainer's name is not another's (lib/pq's Martin Tournoij replays Martin Stensgård's pull request of 2017).
  const keys = mainline.map((c) => authorKeys(c));
  const by = (j: number, who: ReadonlySet<string>): boolean => keys[j]!.some((k) => who.has(k));
  const own = (j: number): boolean => mainline[j]!.parents.length < 2;
  // One pass from the top down: each person's commits in the run above (top) and in the line beneath; the people in
  // both (crossing) are the line's people who made some of the run.
  const top = new Map<string, number>();
  const beneath = new Map<string, number>();
  const crossing = new Set<string>();
  mainline.forEach((_, j) => {
    if (own(j)) for (const k of keys[j]!) beneath.set(k, (beneath.get(k) ?? 0) + 1);
  });
  let total = 0;
  let found: RebasedLine | null = null;
  for (let i = 0; i < mainline.length - 1; i++) {
    if (own(i)) {
      total++;
      for (const k of keys[i]!) {
        top.set(k, (top.get(k) ?? 0) + 1);
        const left = beneath.get(k)! - 1;
        beneath.set(k, left);
        if (left > 0) crossing.add(k);
        else crossing.delete(k);
      }
    }
    const c = mainline[i]!;
    const parent = mainline[i + 1]!;
    if (!own(i) || authored(c) >= authored(parent)) continue;
    const owner = new Set(keys[i]);
    if (by(i + 1, owner)) continue;
    // The run: the owner made at least OWNER_SHARE of it, MIN_OWN_COMMITS or more, and the line's people none.
    const mine = Math.max(...keys[i]!.map((k) => top.get(k) ?? 0));
    if (mine < MIN_OWN_COMMITS || mine < OWNER_SHARE * total || [...crossing].some((k) => !owner.has(k))) continue;
    const times = mainline.slice(0, i + 1).flatMap((x, j) => (own(j) && by(j, owner) ? [authored(x)] : []));
    if (Math.max(...times) < authored(parent) + MIN_DAYS_ON_TOP * DAY_S) continue;
    const since = Math.min(...times);
    let over = 0;
    for (let j = i + 1; j < mainline.length && over < MIN_REPLAYED_OVER; j++)
      if (own(j) && !by(j, owner) && authored(mainline[j]!) > since) over++;
    if (over < MIN_REPLAYED_OVER) continue;
    // The line beneath: everything its first commit reaches, the owner's commits apart; the owner made little of it.
    const line = new Set<string>();
    let ownerBeneath = 0;
    const stack = [parent.id];
    const visited = new Set<string>();
    while (stack.length) {
      const x = byId.get(stack.pop()!);
      if (!x || visited.has(x.id)) continue;
      visited.add(x.id);
      if (authorKeys(x).some((k) => owner.has(k))) ownerBeneath++;
      else line.add(x.id);
      stack.push(...x.parents);
    }
    if (ownerBeneath > MAX_OWNER_SHARE_BENEATH * visited.size) continue;
    // The deepest run that qualifies wins: a carrier that rebased twice holds the project's line beneath its oldest.
    found = { base: c.id, commits: line };
  }
  return found;
}

/** The rebased line as a followed one, for the dating: its commits, each from REBASED_FROM. */
export function rebasedAsFollowed(h: Pick<History, 'commit' | 'commits'>): Followed {
  const r = rebasedLine(h);
  if (!r) return NOTHING_FOLLOWED;
  return { commits: new Map([...r.commits].map((id) => [id, REBASED_FROM])), lines: [] };
}
