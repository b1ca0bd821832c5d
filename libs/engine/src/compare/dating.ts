// Who had the matched material first: each fragment's first appearance on each side, and what a date cannot say
// (material inherited from shared history, both histories' founding material, a former project's, a borrowed
// directory's, an imported history's later date).
import type { BlobReader } from '../git/catfile';
import type { Deadline } from '../limits';
import type { ChronologyFact, History, Side } from '../types';
import type { Fragment } from './code';
import { cmp } from './format';
import { foundingCommits } from './founding';
import { DatingCache, MaterialDater } from './history-layer';
import { formerIdentities, madeUnderFormerIdentity, type FormerIdentity } from '../lineage/former-identity';
import { directoryNames, pathNamesProject } from '../lineage/directory-names';
import { followedLines, NOTHING_FOLLOWED, type Followed } from '../lineage/followed-line';
import { rebasedAsFollowed } from '../lineage/rebased-line';
import type { SideData } from './side';

/** A history of at most this many commits is a snapshot (a published package, an upload), not a project going on. */
const SNAPSHOT_COMMITS = 5;
export const isSnapshot = (h: Pick<History, 'truncated' | 'commitsWalked'>): boolean => !h.truncated && h.commitsWalked <= SNAPSHOT_COMMITS;

export interface Dating {
  /** times of first appearance, and the file it was found in when another than the fragment's (moved out of it) */
  dates: Map<
    Fragment,
    {
      o: number | null;
      t: number | null;
      shared: boolean;
      roots: boolean;
      borrowed?: boolean;
      /** the earlier side had it only under a former identity (former-identity.ts): the former project's, not counted */
      former?: { side: Side; identity: FormerIdentity };
      /** the earlier side had it only in a line it carries from another repository (followed-line.ts, rebased-line.ts): not counted */
      followed?: { side: Side; from: string };
      /** the side whose later date is its history's import time, an upper bound only: not counted */
      imported?: Side;
      oPath?: string;
      tPath?: string;
    }
  >;
  /** fingerprints of matched material that appeared first on each side (inherited material is a tie) */
  originFirstWeight: number;
  targetFirstWeight: number;
  /**
   * fingerprints of matched material shown to come from elsewhere (both histories began with it, the earlier side
   * made it under a former identity or had it only in a line it follows from another repository), when it outweighs
   * what was counted: the counted remainder then decides no direction, and both weights above are 0
   * (`mostlyFromElsewhere`)
   */
  fromElsewhere: number;
  /** per side, the commit most of the dated material first appeared in (see `Bulk`) */
  bulk: { origin: Bulk | null; target: Bulk | null };
}

/**
 * A direction rests on the dated material, not on a remainder of it. When more of the matched material is shown to
 * come from elsewhere than the rest of the dating counts (both histories began with it: Json.Net.Unity3D's 2015 import
 * of Json.NET and Newtonsoft.Json.Bson's 2017 move out of it share 55 of 60 dated fragments that way; or the earlier
 * side made it under a former identity: IcedCoffeeScript's CoffeeScript tests of 2010), the few fragments one side
 * had first say which side followed the third project sooner, not who copied whom.
 */
export function mostlyFromElsewhere(fromElsewhere: number, counted: number): boolean {
  return fromElsewhere > counted;
}

/** The commit in which a side's dated matched material first appeared the most, and how many files it made. */
export interface Bulk {
  commit: string;
  /** share of the side's dated matched fingerprints that first appeared in it */
  share: number;
  /** files at the pinned commit whose first recorded version is in it */
  filesMade: number;
}

function bulkOf(weights: Map<string, number>, hist: History): Bulk | null {
  let total = 0;
  let top: [string, number] | null = null;
  for (const [commit, w] of [...weights].sort((a, b) => cmp(a[0], b[0]))) {
    total += w;
    if (!top || w > top[1]) top = [commit, w];
  }
  if (!top || total === 0) return null;
  let filesMade = 0;
  for (const v of Object.values(hist.pathVersions)) if (v[0]?.commit === top[0]) filesMade++;
  return { commit: top[0], share: top[1] / total, filesMade };
}

/**
 * Who had matched material first. Material whose first appearance on either side is a commit both
 * histories hold was inherited from the shared line: a tie, never evidence of direction. Every
 * fragment's dating runs at once, so the binary searches interleave across the pool's workers; the
 * weights are sums and the dates are per fragment, so the outcome does not depend on which finishes first.
 */
export async function dateFragments(
  dated: Fragment[],
  origin: SideData,
  target: SideData,
  opts: {
    cache: DatingCache;
    readers: { origin: BlobReader; target: BlobReader };
    deadline: Deadline;
    /** which side's history was committed in one go (`importedHistory`) */
    imported: Record<Side, boolean>;
  },
): Promise<Dating> {
  const o = origin.fingerprints;
  const t = target.fingerprints;
  const oIds = new Set(origin.history.commits.map((c) => c.id));
  const tIds = new Set(target.history.commits.map((c) => c.id));
  opts.cache.seed(o);
  opts.cache.seed(t);
  const oDater = new MaterialDater(opts.readers.origin, origin.history, opts.cache, (c) => tIds.has(c));
  const tDater = new MaterialDater(opts.readers.target, target.history, opts.cache, (c) => oIds.has(c));
  const lang = (f: { language: string }): string | null => (f.language === 'generic' ? null : f.language);
  const results = await Promise.all(
    dated.map(async (f) => {
      const of = o.files[f.originFile]!;
      const tf = t.files[f.targetFile]!;
      const [ov, tv] = await Promise.all([
        oDater.firstAppearance(
          of.path,
          lang(of),
          f.originFps.map((i) => of.hashes[i]!),
        ),
        tDater.firstAppearance(
          tf.path,
          lang(tf),
          f.targetFps.map((i) => tf.hashes[i]!),
        ),
      ]);
      opts.deadline.check();
      return { f, ov, tv };
    }),
  );
  const out: Dating = {
    dates: new Map(),
    originFirstWeight: 0,
    targetFirstWeight: 0,
    fromElsewhere: 0,
    bulk: { origin: null, target: null },
  };
  let fromElsewhere = 0;
  // Material a side keeps in a directory named after the other project (Ravi's Lua 5.3 tests, imported in 2015 as
  // lua-5.3.0-tests/, before lua/lua's repository held its tests) was taken from it: having it first says only
  // that the other project's repository got it later, never that this side is its source.
  // Only a name the other side alone carries: a name both carry (the shared project's, Spree's `spree/` directories
  // in Solidus and in Spree itself) says nothing of who took from whom.
  const dirNames = (h: History): Set<string> => directoryNames([...(h.names?.pinned ?? []), ...(h.names?.past ?? [])]);
  const [oAll, tAll] = [dirNames(origin.history), dirNames(target.history)];
  const oNames = new Set([...oAll].filter((n) => !tAll.has(n)));
  const tNames = new Set([...tAll].filter((n) => !oAll.has(n)));
  const oFounding = foundingCommits(origin.history);
  const tFounding = foundingCommits(target.history);
  const goesOn = [origin.history, target.history].some((h) => !isSnapshot(h));
  // Without commit ids in common, a side's own departure from the line it continues (former-identity.ts).
  const sharedIds = origin.history.commits.some((c) => tIds.has(c.id));
  const formers = sharedIds ? null : { o: formerIdentities(origin.history), t: formerIdentities(target.history) };
  const commitOf = (h: History): Map<string, History['commits'][number]> => new Map(h.commits.map((c) => [c.id, c]));
  const [oCommits, tCommits] = formers?.o.length || formers?.t.length ? [commitOf(origin.history), commitOf(target.history)] : [null, null];
  // Without commit ids in common, the lines each side carries from another repository: merged in (followed-line.ts) or
  // rebased onto (rebased-line.ts).
  const carried = (h: History): Followed => {
    const [merged, rebased] = [followedLines(h), rebasedAsFollowed(h)];
    return rebased.commits.size ? { ...merged, commits: new Map([...rebased.commits, ...merged.commits]) } : merged;
  };
  const followed: Record<'o' | 't', Followed> = sharedIds
    ? { o: NOTHING_FOLLOWED, t: NOTHING_FOLLOWED }
    : { o: carried(origin.history), t: carried(target.history) };
  const oWeights = new Map<string, number>();
  const tWeights = new Map<string, number>();
  const add = (m: Map<string, number>, commit: string, w: number): void => void m.set(commit, (m.get(commit) ?? 0) + w);
  for (const { f, ov, tv } of results) {
    const inherited = Boolean(ov?.shared || tv?.shared);
    // A first appearance in a history's founding commits (its root, or what followed the root at once: founding.ts)
    // only says the material was there when that history began. When both histories begin with it and one goes on
    // from there (Quakespasm's starts in 2010 with an import of FitzQuake and has 1,900 commits since; id Software's
    // Quake repository is the 1999 release, uploaded in 2012; two portable mg's each import OpenBSD's), the project
    // that goes on brought it from elsewhere, and neither date says who had it first. Two bare snapshots (published
    // packages, a commit each) have only their dates, and the earlier one is taken to be first.
    const roots = goesOn && Boolean(ov && tv && oFounding.has(ov.version.commit) && tFounding.has(tv.version.commit));
    const first = ov && tv ? (ov.version.time < tv.version.time ? 'o' : tv.version.time < ov.version.time ? 't' : null) : null;
    const borrowed =
      first === 'o'
        ? pathNamesProject(ov!.path ?? o.files[f.originFile]!.path, tNames)
        : first === 't' && pathNamesProject(tv!.path ?? t.files[f.targetFile]!.path, oNames);
    // Material the earlier side made under a former identity, by someone who left with that identity, was the former
    // project's: a copy of that project finds it there years before the side became what it is (Disque × Valkey).
    const formerIdentity =
      first === 'o' && oCommits
        ? madeUnderFormerIdentity(formers!.o, oCommits.get(ov!.version.commit), ov!.version.time)
        : first === 't' && tCommits
          ? madeUnderFormerIdentity(formers!.t, tCommits.get(tv!.version.commit), tv!.version.time)
          : null;
    const former = formerIdentity && !borrowed ? { side: (first === 'o' ? 'origin' : 'target') as Side, identity: formerIdentity } : null;
    // Material the earlier side had first only in a line it carries from another repository was that project's: a copy
    // of that project finds it there too (LukeSmithxyz/dwm holds dwm's history and merges git.suckless.org/dwm; cdown/dwm
    // rebases its own commits onto it).
    const followedFrom =
      first === 'o' ? followed.o.commits.get(ov!.version.commit) : first === 't' ? followed.t.commits.get(tv!.version.commit) : undefined;
    const follows =
      followedFrom !== undefined && !borrowed && !former
        ? { side: (first === 'o' ? 'origin' : 'target') as Side, from: followedFrom }
        : null;
    // A history imported in one go dates its material at the import: the material was there by then, maybe long before.
    // Its date still says it had the material first when it is the earlier one; a later one says nothing.
    const imported: Side | null =
      first === 't' && opts.imported.origin ? 'origin' : first === 'o' && opts.imported.target ? 'target' : null;
    out.dates.set(f, {
      o: ov?.version.time ?? null,
      t: tv?.version.time ?? null,
      shared: inherited,
      roots,
      ...(borrowed && !inherited && !roots ? { borrowed: true } : {}),
      ...(former && !inherited && !roots ? { former } : {}),
      ...(follows && !inherited && !roots ? { followed: follows } : {}),
      ...(imported && !borrowed && !former && !follows && !inherited && !roots ? { imported } : {}),
      ...(ov?.path ? { oPath: ov.path } : {}),
      ...(tv?.path ? { tPath: tv.path } : {}),
    });
    if (first && !inherited && (roots || former || follows)) fromElsewhere += f.originFps.length;
    if (ov && !ov.shared) add(oWeights, ov.version.commit, f.originFps.length);
    if (tv && !tv.shared) add(tWeights, tv.version.commit, f.originFps.length);
    if (first && !inherited && !roots && !borrowed && !former && !follows && !imported && ov!.version.commit !== tv!.version.commit) {
      if (first === 'o') out.originFirstWeight += f.originFps.length;
      else out.targetFirstWeight += f.originFps.length;
    }
  }
  out.bulk = { origin: bulkOf(oWeights, origin.history), target: bulkOf(tWeights, target.history) };
  if (mostlyFromElsewhere(fromElsewhere, out.originFirstWeight + out.targetFirstWeight)) {
    out.fromElsewhere = fromElsewhere;
    out.originFirstWeight = 0;
    out.targetFirstWeight = 0;
  }
  return out;
}

/** The chronology fact that sums the dating up: how much matched material each side had first, and what was not counted. */
export function firstAppearanceFact(d: Dating, shared: boolean): ChronologyFact {
  return {
    kind: 'MATERIAL_FIRST_APPEARANCE',
    side: 'both',
    time: null,
    commit: null,
    detail: `matched fingerprints dated earlier in origin: ${d.originFirstWeight}; earlier in target: ${d.targetFirstWeight}${shared ? ' (material first seen in shared commits is not counted)' : ''}${d.fromElsewhere ? ` (more of it came from elsewhere, ${d.fromElsewhere} fingerprints that both histories begin with, that one side made under a former identity or that it had only in a line it merges in from another repository, than the rest of the dating counts: the rest decides no direction)` : ''}`,
  };
}
