// A side's own departure from the line it continues (engines 0.7.4–0.7.7). A repository that holds a third project's history
// and later took a name of its own (Valkey holds Redis's history and became Valkey in 2024; IcedCoffeeScript holds
// CoffeeScript's until 2013) had that project's material first only as that project: a copy made from the third
// project (Disque from Redis, CoffeeScriptRedux's tests from CoffeeScript's) finds it there years earlier, and dating
// alone would call the copy the carrier's. What marks the departure inside one history is the name changing and the
// people changing with it: material that first appeared under a name the side no longer carries, made by someone who
// made none of the side's mainline commits since it took its present name, was the former project's.
import { normName } from './maintainers';
import type { CommitInfo, History } from '../types';

/** At least this many mainline commits under the present name: others went on with the project, it did not just stop. */
export const MIN_COMMITS_AFTER = 10;

export interface FormerIdentity {
  /** the identity file key (`kind:file`) whose name changed */
  key: string;
  former: string;
  current: string;
  /** the newest sampled version of the file still carrying the former name */
  formerUntil: number;
  /** the oldest sampled version carrying the present name after it */
  renamedAt: number;
  /** authors (`e:` e-mail, `n:` name) of the mainline commits from renamedAt on */
  after: Set<string>;
}

const norm = (n: string): string => n.toLowerCase().replace(/[^a-z0-9]/g, '');
/**
 * The name a key's value gives the project. A repository that moved to another owner kept its name (antirez/redis
 * became redis/redis when its author handed it over), so only a URL's repository part counts; a README title changes
 * for too many other reasons to mark a departure (as for RENAMED_AT_FORK).
 */
const projectName = (key: string, name: string): string | null =>
  key.startsWith('title:') ? null : norm(key.startsWith('url:') ? name.slice(name.lastIndexOf('/') + 1) : name);
export const authorKeys = (c: Pick<CommitInfo, 'email' | 'author'>): string[] => [
  ...(c.email ? [`e:${c.email}`] : []),
  ...(c.author && normName(c.author) ? [`n:${normName(c.author)}`] : []),
];

/**
 * The name changes of a history's identity files (manifests' package names, the repository a README names, …): for each key whose
 * pinned name differs from a name an earlier sampled version carried, where a later sampled version already carries
 * the pinned one, when it changed and who made the mainline since. Empty when the walk read no authors (a history
 * stage persisted by an engine before 0.7.3) or the names never changed.
 */
export function formerIdentities(h: Pick<History, 'commit' | 'commits' | 'names'>): FormerIdentity[] {
  const samples = h.names.samples;
  if (!samples?.length || !h.commits.some((c) => c.email !== undefined)) return [];
  const byId = new Map(h.commits.map((c) => [c.id, c]));
  const pinned = new Map<string, Set<string>>();
  for (const n of h.names.pinned) {
    const p = projectName(n.key, n.name);
    if (p) (pinned.get(n.key) ?? pinned.set(n.key, new Set()).get(n.key)!).add(p);
  }
  // The mainline: the first-parent chain from the pinned commit (what merges bring in is others' work).
  const mainline: CommitInfo[] = [];
  for (let c = byId.get(h.commit); c; c = c.parents[0] ? byId.get(c.parents[0]) : undefined) mainline.push(c);
  const out: FormerIdentity[] = [];
  for (const key of [...pinned.keys()].sort()) {
    const current = pinned.get(key)!;
    const seen = samples.filter((s) => s.key === key && projectName(key, s.name)); // in order of time
    const formers = seen.filter((s) => !current.has(projectName(key, s.name)!));
    if (!formers.length) continue;
    const last = formers[formers.length - 1]!;
    const renamed = seen.find((s) => s.time > last.time && current.has(projectName(key, s.name)!));
    if (!renamed) continue; // the change is only in the pinned version: when it came is not known
    const since = mainline.filter((c) => c.time >= renamed.time);
    if (since.length < MIN_COMMITS_AFTER) continue;
    out.push({
      key,
      former: last.name,
      current: renamed.name,
      formerUntil: last.time,
      renamedAt: renamed.time,
      after: new Set(since.flatMap(authorKeys)),
    });
  }
  return out;
}

/**
 * The former identity under which material first appearing in `commit` (at `time`) was made, if it was the former
 * project's: dated no later than the last version carrying the former name, by an author who made none of the
 * mainline commits since the present name came.
 */
export function madeUnderFormerIdentity(
  formers: readonly FormerIdentity[],
  commit: Pick<CommitInfo, 'email' | 'author'> | undefined,
  time: number,
): FormerIdentity | null {
  if (!commit) return null;
  const keys = authorKeys(commit);
  if (!keys.length) return null;
  return formers.find((f) => time < f.renamedAt && !keys.some((k) => f.after.has(k))) ?? null;
}

/**
 * When a side left a line it went on with after `parted` (the fork point): the latest present-name arrival among its
 * name changes whose former name it still carried after parting. Null when it took its present names by then, or never
 * changed them.
 */
export function departureAfter(formers: readonly FormerIdentity[], parted: number): FormerIdentity | null {
  let out: FormerIdentity | null = null;
  for (const f of formers) if (f.formerUntil >= parted && (!out || f.renamedAt > out.renamedAt)) out = f;
  return out;
}
