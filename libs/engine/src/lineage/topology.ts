import { BlobReader } from '../git/catfile';
import { PairView } from '../git/pair-view';
import { resolveGitDir } from '../git/runner';
import { departureAfter, type FormerIdentity } from './former-identity';
import { addressArrivals, MIN_COMMITS_UNDER_ADDRESS } from './own-address';
import type { Deadline } from '../limits';
import type { AuthorCount, CommonLine, NameRef, Limits, RewrittenHistory, Side, Topology } from '../types';
import { forkPointIdentity, renamesAfterFork } from './fork-point';
import type { CommonLineFound } from './common-line';
import { countAuthors } from './maintainers';
import { sameName } from './names';
import { ownHistories, type OwnWalk } from './own-walk';

export { OwnWalkBuilder, type OwnWalk } from './own-walk';

const HEX40 = /^[0-9a-f]{40}$/;

export const EMPTY_TOPOLOGY = (): Topology => ({
  forkPoints: [],
  originIsAncestor: false,
  targetIsAncestor: false,
  sharedCommits: 0,
  originOnly: 0,
  targetOnly: 0,
  truncated: false,
  authors: { preFork: [], origin: [], target: [] },
  syncMerges: { origin: 0, target: 0 },
  forkPointNames: [],
  forkPointSentences: [],
  renames: { origin: [], target: [] },
});

interface OwnCommit {
  id: string;
  parents: string[];
  name: string;
  email: string;
  /** committer time, Unix seconds */
  time: number;
  /** author time and subject: what a commit keeps when a history is converted or rewritten under other ids */
  key: string;
}

/**
 * How two pinned commits relate, from git alone: merge bases (the fork
 * points), ancestry, commits on each side after the fork point with their
 * authors and merges, authors of the shared history, and the project's names
 * at the newest fork point. Every walk stops at maxCommits (recorded as
 * truncated); nothing holds either whole history.
 */
export async function topology(
  dirs: { origin: string; target: string },
  commits: { origin: string; target: string },
  opts: {
    limits: Limits;
    deadline: Deadline;
    signal?: AbortSignal;
    reader?: BlobReader;
    /** the pair's view, open (the caller closes it); otherwise one is opened for this call */
    view?: PairView;
    /** the pinned commits' merge bases (mergeBases), when the caller asked already */
    bases?: string[];
    /** both sides' own walks (the history stage's), read instead of walking them again when there is no merge base */
    walks?: Record<Side, OwnWalk>;
    /** each side's name changes (formerIdentities of its history walk), for its own departure from the shared line */
    formers?: Record<Side, FormerIdentity[]>;
    /** each side's names at its pinned commit, for the address it took of its own */
    pinnedNames?: Record<Side, NameRef[]>;
  },
): Promise<Topology> {
  const view = opts.view ?? PairView.open(resolveGitDir(dirs.origin), resolveGitDir(dirs.target));
  const git = (args: string[], maxOutputBytes = 64 * 1024 * 1024, input?: string): Promise<string> =>
    view
      .run(args, { signal: opts.signal, timeoutMs: opts.deadline.remainingMs(), maxOutputBytes, okExitCodes: [1], input })
      .then((b) => b.toString('utf8'));
  const m = opts.limits.maxCommits;
  try {
    const o = commits.origin;
    const t = commits.target;
    if (!HEX40.test(o) || !HEX40.test(t)) throw new Error('topology needs resolved commit ids');
    let bases = opts.bases ?? (await mergeBases(view, commits, opts));
    // No commit id in common: a line both hold under other ids is read as shared history all the same, from the newest
    // pair on it (the fork point on each side); otherwise nothing is shared.
    let line: CommonLineFound | null = null;
    let rewrittenToo: RewrittenHistory | undefined;
    let sideAuthors: Topology['sideAuthors'];
    if (!bases.length) {
      const { rewritten, authors, line: found } = await ownHistories(git, o, t, m, opts.walks);
      if (!found) return { ...EMPTY_TOPOLOGY(), truncated: view.shallow, ...(rewritten ? { rewritten } : {}), sideAuthors: authors };
      line = found;
      rewrittenToo = rewritten;
      sideAuthors = authors;
      // Each side's own commits are those its fork commit does not reach (the other side's is not in its history).
      bases = [found.fork.origin.id, found.fork.target.id];
    }
    opts.deadline.check();
    const forkPoints = line
      ? [{ commit: line.fork.origin.id, time: Math.max(line.fork.origin.time, line.fork.target.time) }]
      : (await git(['show', '-s', '--no-show-signature', '--format=%H %ct', ...bases]))
          .split('\n')
          .filter(Boolean)
          .map((l) => ({ commit: l.slice(0, 40), time: Number(l.slice(41)) }))
          .sort((a, b) => b.time - a.time || (a.commit < b.commit ? -1 : 1));
    // When the histories parted on each side: on a common line under other ids each side's fork commit has its own time.
    const parted = line
      ? { origin: line.fork.origin.time, target: line.fork.target.time }
      : { origin: forkPoints[0]!.time, target: forkPoints[0]!.time };
    const not = ['--not', ...bases];
    const own = async (head: string): Promise<OwnCommit[]> =>
      (await git(['log', `--max-count=${m}`, '--format=%H%x00%P%x00%aN%x00%aE%x00%ct%x00%at%x00%s', head, ...not]))
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [id = '', parents = '', name = '', email = '', time = '0', at = '0', subject = ''] = l.split('\0');
          return { id, parents: parents.split(' ').filter(Boolean), name, email, time: Number(time), key: `${at}\0${subject}` };
        });
    const [oOwn, tOwn] = [await own(o), await own(t)];
    // Each side's mainline: the first-parent chain from its head. A side's own commits reached only through merges
    // are work merged in from elsewhere, possibly from a third line both sides descend from (pyenv and nodenv both
    // fork rbenv; nodenv merges rbenv's later commits, by rbenv's authors, and so holds them as its own).
    const mainline = async (head: string): Promise<Set<string>> =>
      new Set((await git(['rev-list', '--first-parent', `--max-count=${m}`, '--end-of-options', head])).split('\n').filter(Boolean));
    const [oMain, tMain] = [await mainline(o), await mainline(t)];
    // Commits both sides hold under other ids: the same author time and subject. Histories converted apart (mutt
    // and NeoMutt hold mutt's history since 1998 under ids of their own: 6,607 such commits) and commits one side
    // cherry-picked from the other (Radarr from Sonarr: 941) are shared work, not either side's work after the fork.
    const oKeys = new Set(oOwn.map((c) => c.key));
    const equivalent = new Set(tOwn.filter((c) => oKeys.has(c.key)).map((c) => c.key));
    // Who went on after the fork: a side's own commits on its mainline (the merges of pull requests and the direct
    // commits, not what merges bring in), dated after the newest fork point, and not held by both under other ids.
    // Own commits dated before the fork point are older work under other ids (KeyDB holds Redis's history before
    // 2019 under ids of its own: 15,540 of its 17,311 own commits, 6,728 of them antirez's) or branches merged later.
    const later = (own: OwnCommit[], main: Set<string>, after: number): OwnCommit[] =>
      own.filter((c) => c.time > after && main.has(c.id) && !equivalent.has(c.key));
    opts.deadline.check();
    // Commit ids both hold (none on a common line under other ids, whose commits are counted there).
    const shared = line ? 0 : Number((await git(['rev-list', '--count', `--max-count=${m}`, ...bases])).trim());
    // The shared history's authors: on a common line, both sides' copies of it (each commit twice, under the e-mail or
    // name each conversion gave it: continuity is a share, and joins an author's names and addresses).
    const preFork = (await git(['log', `--max-count=${m}`, '--format=%aN%x00%aE', ...bases]))
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [name = '', email = ''] = l.split('\0');
        return { name, email };
      });
    // The shared history's authors include those of the commits held under other ids (the origin's copy of each).
    const copied = new Set<string>();
    for (const c of oOwn) {
      if (!equivalent.has(c.key) || copied.has(c.key)) continue;
      copied.add(c.key);
      preFork.push({ name: c.name, email: c.email });
    }
    opts.deadline.check();
    const names = await forkPointIdentity(view, forkPoints[0]!.commit, opts);
    // On a common line whose two copies of the fork point hold different snapshots (a rewrite that moved the files):
    // the names both copies carry, as the project's names there, and the sentences of either, as text both inherited;
    // the same whichever side is called the origin. A name only the rewrite put in place (an extracted package's own
    // manifest at the new root) is not the shared project's.
    if (line && line.fork.origin.tree !== line.fork.target.tree) {
      const more = await forkPointIdentity(view, line.fork.target.id, opts);
      names.names = names.names.filter((n) => more.names.some((x) => x.key === n.key && sameName(x.name, n.name)));
      names.sentences = [...new Set([...names.sentences, ...more.sentences])].sort();
    }
    // A side that went on with the shared line for a while and then left it (IcedCoffeeScript merged CoffeeScript until
    // 2013, then became iced-coffee-script; gren followed Elm for a year after Lamdera forked, then took its own name)
    // holds the line's authors' commits from before its own departure: they went on with the line, not with the side.
    // Its later commits are counted from its departure on.
    // A side that took an address of its own (own-address.ts) left the line then too, whatever its name.
    const addressed = opts.pinnedNames
      ? await addressArrivals(view, { origin: o, target: t }, line ? [] : bases, names.names, opts.pinnedNames, opts)
      : { origin: null, target: null };
    const departed: NonNullable<Topology['departed']> = {};
    for (const side of ['origin', 'target'] as const) {
      const f = opts.formers ? departureAfter(opts.formers[side], parted[side]) : null;
      // Enough commits under the new address to read who made them (the least the maintainers signal reads a side by).
      const a = addressed[side];
      const own = side === 'origin' ? { c: oOwn, main: oMain } : { c: tOwn, main: tMain };
      const aKept = a && later(own.c, own.main, a.at - 1).length >= MIN_COMMITS_UNDER_ADDRESS ? a : null;
      const d = [...(f ? [{ at: f.renamedAt, former: f.former, current: f.current }] : []), ...(aKept ? [aKept] : [])]
        .filter((x) => x.at > parted[side])
        .sort((x, y) => y.at - x.at)[0];
      if (d) departed[side] = { at: d.at, former: d.former, current: d.current };
    }
    const from = (side: Side): number => Math.max(parted[side], (departed[side]?.at ?? 0) - 1);
    const renames = await renamesAfterFork(view, { origin: o, target: t }, bases, forkPoints[0]!, names.names, opts);
    const commonLineOf = (f: CommonLineFound): CommonLine => ({
      commits: f.commits,
      sameTree: f.sameTree,
      origin: { commit: f.fork.origin.id, time: f.fork.origin.time },
      target: { commit: f.fork.target.id, time: f.fork.target.time },
      authored: Math.max(f.fork.origin.at, f.fork.target.at),
    });
    return {
      forkPoints,
      // On a common line: a pinned commit on it is held by the other side under another id, which went on from it.
      originIsAncestor: line ? line.held.origin : bases.includes(o),
      targetIsAncestor: line ? line.held.target : bases.includes(t),
      sharedCommits: shared,
      originOnly: oOwn.length,
      targetOnly: tOwn.length,
      truncated: view.shallow || oOwn.length >= m || tOwn.length >= m || shared >= m,
      authors: {
        preFork: countAuthors(preFork),
        origin: countAuthors(later(oOwn, oMain, from('origin'))),
        target: countAuthors(later(tOwn, tMain, from('target'))),
      },
      ...(departed.origin || departed.target ? { departed } : {}),
      syncMerges: { origin: syncMerges(oOwn, tMain), target: syncMerges(tOwn, oMain) },
      equivalentCommits: equivalent.size,
      forkPointNames: names.names,
      forkPointSentences: names.sentences,
      renames,
      ...(line ? { commonLine: commonLineOf(line) } : {}),
      ...(rewrittenToo ? { rewritten: rewrittenToo } : {}),
      ...(sideAuthors ? { sideAuthors } : {}),
    };
  } finally {
    if (!opts.view) view.close();
  }
}

/** The merge bases of the two pinned commits (none for histories without a commit in common), as git gives them. */
export async function mergeBases(
  view: PairView,
  commits: { origin: string; target: string },
  opts: { deadline: Deadline; signal?: AbortSignal },
): Promise<string[]> {
  if (!HEX40.test(commits.origin) || !HEX40.test(commits.target)) throw new Error('merge bases need resolved commit ids');
  const out = await view.run(['merge-base', '--all', '--end-of-options', commits.origin, commits.target], {
    signal: opts.signal,
    timeoutMs: opts.deadline.remainingMs(),
    okExitCodes: [1],
  });
  return out
    .toString('utf8')
    .split('\n')
    .filter((l) => HEX40.test(l));
}

/**
 * Merges made on one side after the fork point that brought in a commit of the
 * other side's mainline (shared by then): that side pulled the other's line
 * (a fork syncing with its upstream does this; the upstream rarely merges the
 * fork's line). A merged commit off the other's mainline came from elsewhere:
 * two forks of a third project that both merge it share its commits, and
 * neither pulls from the other.
 */
function syncMerges(own: readonly OwnCommit[], otherMainline: ReadonlySet<string>): number {
  const ids = new Set(own.map((c) => c.id));
  let n = 0;
  for (const c of own) if (c.parents.length > 1 && c.parents.slice(1).some((p) => !ids.has(p) && otherMainline.has(p))) n++;
  return n;
}

export type { AuthorCount };
