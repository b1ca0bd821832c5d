// A followed line (engine 0.7.16): a repository that carries a third project's history and keeps merging that project
// in from where it goes on. LukeSmithxyz/dwm is a clone of suckless dwm's repository (Anselm R. Garbe's and Hiltjo
// Posthuma's commits since 2006) with Luke Smith's commits on top, and now and then "Merge branch 'master' of
// git://git.suckless.org/dwm". A build that began anew from dwm's files (bakkeby/dwm-flexipatch, 2019) finds dwm's
// material in Luke's history years before it began, and dating alone would call Luke's repository its source.
//
// What tells the carrier from the project itself is in its own history's shape, not in its messages: a merge by the
// side's owner (commits of their own on the mainline before it, half of the mainline's since) of a line that either
// holds none of the owner's work and carries later commits of the people of the history before the owner, who made
// none of the mainline since, or meets the mainline nowhere (another repository's whole history merged in). Every
// commit of that line but the owner's is the other repository's: material that first appeared there was that
// project's, and a copy of that project finds it in the carrier as well. A pull request, or a pull from the side's own
// remote, holds the owner's own work; a project handed to new maintainers does not merge its founders' later work in
// from elsewhere.
import type { CommitInfo, History } from '../types';
import { authorKeys } from './former-identity';
import { normName } from './maintainers';

/**
 * The repository a merge's subject names: `git pull <url> <branch>` ("Merge branch 'master' of
 * git://git.suckless.org/dwm", "Merge tag 'v1' of https://…") or a remote-tracking branch ("Merge remote-tracking
 * branch 'upstream/master'"). A local branch ("Merge branch 'develop'") and a pull request name none.
 */
const OF_URL = /^Merge (?:remote-tracking |remote )?(?:branch|branches|tag|tags) .*?' of (\S{1,200})/;
const REMOTE_BRANCH = /^Merge (?:remote-tracking|remote) branch '([^'/\s]{1,100})\/[^'\s]+'/;

export function namedRepository(subject: string): string | null {
  const url = OF_URL.exec(subject);
  if (url) return url[1]!;
  const remote = REMOTE_BRANCH.exec(subject);
  return remote ? `remote ${remote[1]!}` : null;
}

/**
 * What a merge's subject says it merged, for the evidence: the repository it names, else the branch ("Merge branch
 * 'original'"), else the subject itself (at most MAX_SOURCE characters).
 */
const LOCAL_BRANCH = /^Merge (?:remote-tracking )?branch '([^']{1,100})'/;
const MAX_SOURCE = 100;
export function mergeSource(subject: string): string {
  const named = namedRepository(subject);
  if (named) return named;
  const branch = LOCAL_BRANCH.exec(subject);
  if (branch) return `branch ${branch[1]!}`;
  const s = subject.trim();
  return s ? (s.length > MAX_SOURCE ? `${s.slice(0, MAX_SOURCE)}…` : s) : 'a merge';
}

/**
 * Commits read at most, over every merge's walk, as a multiple of the history's commits: a project whose maintainers
 * pull from many repositories (Linux: each pulled tree starts from its maintainer's own release, so each walk ends
 * there) must not cost more than a few walks of its history.
 */
export const WALK_BUDGET = 4;

/** The share of the mainline's commits since the merger's first that are the merger's: the side's owner, not a contributor. */
export const OWNER_SHARE = 0.5;

export interface FollowedLine {
  /** the merge commit, its time, and what its message says it merged (`mergeSource`) */
  merge: string;
  time: number;
  from: string;
}

export interface Followed {
  /** every commit a followed line brought in but the owner's (the other repository's history), with its `from` */
  commits: Map<string, string>;
  lines: FollowedLine[];
}

export const NOTHING_FOLLOWED: Followed = { commits: new Map(), lines: [] };

/** E-mail user parts too common to name one person. */
const GENERIC_USER = /^(?:info|admin|root|mail|email|contact|hello|dev|git|github|noreply|no-reply|user|me|support|team)$/;
const MIN_USER = 4;

/**
 * Who made a commit, under every form a person's identity takes in one history: besides the e-mail and the name, the
 * e-mail's user part (a GitHub no-reply address's login), and a name that is itself an address. A repository converted
 * from Subversion calls Erin Catto "erincatto@gmail.com <erincatto@gmail.com@cafe418c-…>" where his later commits say
 * "Erin Catto <erincatto@gmail.com>": his own repository pulled in from GitHub is not a line that holds none of his work.
 */
export function personKeys(c: Pick<CommitInfo, 'email' | 'author'>): string[] {
  const out = authorKeys(c);
  for (const addr of [c.email ?? '', (c.author ?? '').includes('@') ? c.author! : '']) {
    const at = addr.indexOf('@');
    if (at < 0) continue;
    const user = normName(addr.slice(0, at).replace(/^\d+\+/, ''));
    if (user.length >= MIN_USER && !GENERIC_USER.test(user)) out.push(`n:${user}`, `u:${user}`);
  }
  return out;
}

/** The followed lines of a history's mainline (the first-parent chain from its pinned commit), newest merge first. */
export function followedLines(h: Pick<History, 'commit' | 'commits'>): Followed {
  if (!h.commits.some((c) => c.from !== undefined)) return NOTHING_FOLLOWED;
  const byId = new Map(h.commits.map((c) => [c.id, c]));
  const mainline: CommitInfo[] = [];
  for (let c = byId.get(h.commit); c; c = c.parents[0] ? byId.get(c.parents[0]) : undefined) mainline.push(c);
  const onMainline = new Set(mainline.map((c) => c.id));
  // A commit's person keys, computed once: the walks and the mainline scans below ask for them again and again.
  const keyCache = new Map<string, string[]>();
  const keysOf = (c: CommitInfo): string[] => {
    let k = keyCache.get(c.id);
    if (!k) keyCache.set(c.id, (k = personKeys(c)));
    return k;
  };
  // Each author's oldest commit of their own on the mainline (merges are others' work brought in).
  const oldest = new Map<string, number>();
  mainline.forEach((c, j) => {
    if (c.parents.length < 2) for (const k of keysOf(c)) oldest.set(k, j);
  });
  const peopleBefore = new Map<number, Set<string>>();
  const by = (c: CommitInfo, keys: Set<string>): boolean => keysOf(c).some((k) => keys.has(k));
  let budget = WALK_BUDGET * h.commits.length;
  const out: Followed = { commits: new Map(), lines: [] };
  for (let i = 0; i < mainline.length && budget > 0; i++) {
    const m = mainline[i]!;
    if (m.parents.length < 2 || m.from === undefined) continue;
    const merger = new Set(keysOf(m));
    // The merger's own line: their oldest commit on the mainline, before this merge, and the people before it.
    const departure = Math.max(-1, ...[...merger].map((k) => oldest.get(k) ?? -1));
    if (departure <= i) continue;
    if (!peopleBefore.has(departure)) peopleBefore.set(departure, new Set(mainline.slice(departure + 1).flatMap(keysOf)));
    const before = peopleBefore.get(departure)!;
    const since = mainline[departure]!.time;
    // The merged line: the commits its parent reaches, whether it meets the mainline, whether it holds the merger's
    // own work (a pull request starts from it), and whether the people before the merger went on on it after they began.
    const line: string[] = [];
    const seen = new Set<string>();
    const stack = m.parents.slice(1);
    const wentOn = new Set<string>();
    let related = false;
    let ownWork = false;
    while (stack.length && budget-- > 0) {
      const c = byId.get(stack.pop()!);
      if (!c || seen.has(c.id)) continue;
      seen.add(c.id);
      related ||= onMainline.has(c.id);
      if (by(c, merger)) ownWork = true;
      else line.push(c.id);
      if (c.time > since) for (const k of keysOf(c)) if (before.has(k)) wentOn.add(k);
      if (related && ownWork) break;
      stack.push(...c.parents);
    }
    // A line that meets the mainline nowhere is another repository's whole history merged in (`git merge
    // --allow-unrelated-histories`), whatever the merger put on top of it. One that meets it is followed when it holds
    // none of the merger's work and the people before the merger went on on it. A walk the budget cut short is not read.
    if (stack.length || (related && (ownWork || !wentOn.size))) continue;
    let merged = 0;
    let elsewhere = false;
    for (let j = 0; j <= departure && !elsewhere; j++) {
      if (by(mainline[j]!, merger)) merged++;
      elsewhere = by(mainline[j]!, wentOn);
    }
    // The side's owner merges a line that goes on elsewhere: the merger made at least OWNER_SHARE of the mainline
    // since (a contributor's merge fast-forwarded onto it is not the side's), and its people none of it.
    if (elsewhere || merged < OWNER_SHARE * (departure + 1)) continue;
    if (!line.length) continue;
    for (const id of line) if (!out.commits.has(id)) out.commits.set(id, m.from);
    out.lines.push({ merge: m.id, time: m.time, from: m.from });
  }
  return out;
}
