import { BlobReader } from '../git/catfile';
import { PairView } from '../git/pair-view';
import { resolveGitDir } from '../git/runner';
import { departureAfter, type FormerIdentity } from './former-identity';
import type { Deadline } from '../limits';
import type { AuthorCount, CommonLine, Limits, NameRef, Rename, RewrittenHistory, Side, Topology } from '../types';
import type { SideAuthors } from './licence';
import { commonLineOfWalks, walkRecord, type CommonLineFound, type WalkRecords } from './common-line';
import { declarationSentences } from './declarations';
import { countAuthors, sortAuthors } from './maintainers';
import { DOC_FILE, IDENTITY_FILE, namesIn, sameName } from './names';

const HEX40 = /^[0-9a-f]{40}$/;
const MAX_DOC_BYTES = 256 * 1024;

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
 * Commits held under other ids that make a rewritten history rather than chance: at least this many, (the same for a
 * common line under other ids: lineage/common-line.ts)
 */
const REWRITTEN_MIN = 10;
/** and this share of the smaller history. */
const REWRITTEN_SHARE = 0.05;

/**
 * One side's own commits as the rewritten-history test and copyright attribution read them: each commit's key (its
 * author time, e-mail and subject; the time, its prefix, is read back only for matches), the authors with their
 * commit counts, and the founder (the author of the walk's last commit) when the walk reached the history's start.
 */
export interface OwnWalk {
  keys: Set<string>;
  authors: SideAuthors;
  /** the commits walked, newest first, with their ids, parents and trees: for a common line under other ids */
  commits: WalkRecords;
}

/** A copy of `s` that holds nothing of the string it was cut from (V8 flattens a concatenation before slicing it). */
const flatCopy = (s: string): string => `${s} `.slice(0, -1);

/**
 * Builds an OwnWalk from a walk's commits, newest first: the history stage's walk feeds it, so that histories without
 * a commit in common are not walked a second time. Authors are tallied as they come (a few hundred entries for
 * thousands of commits), and every string kept is a key of a Set or Map, so it is a flat copy and holds nothing of
 * the walk's output.
 */
export class OwnWalkBuilder {
  private keys = new Set<string>();
  private records: string[] = [];
  private times: number[] = [];
  private tally = new Map<string, number>();
  private last: string | null = null;
  private count = 0;
  private dropped = false;

  /**
   * `at`: author time (Unix seconds, as git prints it); the rest as git prints %ae, %s and %an; `commit`: its id,
   * parents, root tree and committer time (%H, %P, %T, %ct), for a common line under other ids.
   */
  add(
    at: string,
    email: string,
    subject: string,
    name: string,
    commit?: { id: string; parents: string[]; tree: string; time: number },
  ): void {
    if (this.dropped) return;
    this.keys.add(`${at}\0${email}\0${subject}`);
    if (commit) {
      // One flat string a commit, read back by finish(): slices of the walk's output would hold each chunk of it.
      const rec = flatCopy(walkRecord(commit, email, name, subject));
      this.records.push(rec);
      this.times.push(commit.time, Number(at));
    }
    const who = `${name}\0${email}`;
    this.tally.set(who, (this.tally.get(who) ?? 0) + 1);
    this.last = who;
    this.count++;
  }

  /** Nothing more is kept: the histories share commits, and the topology reads them otherwise. */
  drop(): void {
    this.dropped = true;
    this.keys = new Set();
    this.records = [];
    this.times = [];
    this.tally = new Map();
    this.last = null;
  }

  /** The walk as read; the founder when it held fewer than `max` commits (as `git log --max-count=max` would). */
  finish(max: number): OwnWalk {
    const person = (k: string): { name: string; email: string } => {
      const cut = k.indexOf('\0');
      return { name: k.slice(0, cut), email: k.slice(cut + 1) };
    };
    const authors = sortAuthors([...this.tally].map(([k, commits]) => ({ ...person(k), commits })));
    return {
      keys: this.keys,
      authors: { authors, founder: this.count < max && this.last !== null ? person(this.last) : null },
      commits: { records: this.records, times: this.times },
    };
  }
}

/**
 * Two histories without a commit id in common that hold the same commits under other ids: the same author time,
 * author e-mail and subject, which a rewrite keeps and two projects do not make by chance. typescript-eslint replayed
 * typescript-eslint-parser's history into packages/ (322 of its 334 commits); plug_cowboy was extracted from plug
 * with the history of its files (42). The same walks count each side's authors, for copyright attribution. The
 * history stage's walks are read when given (`walks`); otherwise git is asked.
 */
async function ownHistories(
  git: (args: string[]) => Promise<string>,
  o: string,
  t: string,
  max: number,
  walks?: Record<Side, OwnWalk>,
): Promise<{ rewritten?: RewrittenHistory; authors: Record<Side, SideAuthors>; line: CommonLineFound | null }> {
  // %ae and %an, not the mailmapped %aE and %aN: the pair view has no .mailmap (nor does it read a side's own, which
  // would follow that side's HEAD, not the pinned commit), and the history stage's walks, on each side's repository, say
  // the same.
  const walk = async (head: string): Promise<OwnWalk> => {
    const b = new OwnWalkBuilder();
    const log = await git(['log', `--max-count=${max}`, '--format=%H %ct %T %P%x00%at%x00%ae%x00%s%x00%an', '--end-of-options', head]);
    for (const l of log.split('\n')) {
      if (!l) continue;
      const [ids = '', at = '', email = ''] = l.split('\0', 3);
      const [id = '', time = '0', tree = '', ...parents] = ids.split(' ');
      const cut = l.lastIndexOf('\0');
      const subject = l.slice(ids.length + at.length + email.length + 3, cut);
      b.add(at, email, subject, l.slice(cut + 1), { id, parents: parents.filter(Boolean), tree, time: Number(time) });
    }
    return b.finish(max);
  };
  const [ow, tw] = walks ? [walks.origin, walks.target] : await Promise.all([walk(o), walk(t)]);
  const authors = { origin: ow.authors, target: tw.authors };
  // Commit after commit the same snapshot, or the same author, time and subject: a line both hold under other ids.
  const line = commonLineOfWalks(ow.commits, tw.commits, { commits: REWRITTEN_MIN, share: REWRITTEN_SHARE });
  let commits = 0;
  let newest = 0;
  for (const k of ow.keys)
    if (tw.keys.has(k)) {
      commits++;
      newest = Math.max(newest, Number(k.slice(0, k.indexOf('\0'))));
    }
  if (commits < REWRITTEN_MIN || commits < REWRITTEN_SHARE * Math.min(ow.keys.size, tw.keys.size)) return { authors, line };
  return { rewritten: { commits, origin: ow.keys.size, target: tw.keys.size, newest }, authors, line };
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
  },
): Promise<Topology> {
  const view = opts.view ?? PairView.open(resolveGitDir(dirs.origin), resolveGitDir(dirs.target));
  const git = (args: string[], maxOutputBytes = 64 * 1024 * 1024): Promise<string> =>
    view
      .run(args, { signal: opts.signal, timeoutMs: opts.deadline.remainingMs(), maxOutputBytes, okExitCodes: [1] })
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
    // A side that went on with the shared line for a while and then left it (IcedCoffeeScript merged CoffeeScript until
    // 2013, then became iced-coffee-script; gren followed Elm for a year after Lamdera forked, then took its own name)
    // holds the line's authors' commits from before its own departure: they went on with the line, not with the side.
    // Its later commits are counted from its departure on.
    const departure = {
      origin: opts.formers ? departureAfter(opts.formers.origin, parted.origin) : null,
      target: opts.formers ? departureAfter(opts.formers.target, parted.target) : null,
    };
    const from = (side: Side): number => Math.max(parted[side], (departure[side]?.renamedAt ?? 0) - 1);
    const departed: NonNullable<Topology['departed']> = {};
    for (const side of ['origin', 'target'] as const) {
      const d = departure[side];
      if (d && d.renamedAt > parted[side]) departed[side] = { at: d.renamedAt, former: d.former, current: d.current };
    }
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

/** How long after the fork point a side's own commits are searched for the rename that made it a new project. */
export const RENAME_WINDOW_S = 60 * 86_400;

/**
 * When each name of the fork point first gave way to another on each side: the side's own commits up to
 * RENAME_WINDOW_S after the fork point that touch the files naming the project, oldest first, each such file read
 * until its name changes. A fork renames itself when it is made; an upstream that renames later is outside the
 * window. Bounded: only commits in the window, the files the fork point named the project in, and at most
 * MAX_RENAME_READS versions read a side.
 */
async function renamesAfterFork(
  view: PairView,
  heads: { origin: string; target: string },
  bases: string[],
  fork: { commit: string; time: number },
  forkNames: readonly NameRef[],
  opts: { deadline: Deadline; signal?: AbortSignal },
): Promise<{ origin: Rename[]; target: Rename[] }> {
  const out: { origin: Rename[]; target: Rename[] } = { origin: [], target: [] };
  const paths = [...new Set(forkNames.map((n) => n.path))].sort();
  if (!paths.length) return out;
  // The pair view holds both sides' objects; the caller's reader holds one side's only.
  const reader = new BlobReader(view.gitDir);
  try {
    for (const side of ['origin', 'target'] as const) {
      const log = (
        await view.run(
          [
            'log',
            '--reverse',
            '--format=%x01%H %ct',
            '--raw',
            '--no-abbrev',
            '--no-renames',
            `--until=${fork.time + RENAME_WINDOW_S}`,
            '--end-of-options',
            heads[side],
            ...bases.map((b) => `^${b}`),
            '--',
            ...paths,
          ],
          { signal: opts.signal, timeoutMs: opts.deadline.remainingMs(), maxOutputBytes: 16 * 1024 * 1024 },
        )
      ).toString('utf8');
      const open = new Map(forkNames.map((n) => [n.key, n]));
      let commit = '';
      let time = 0;
      let reads = 0;
      for (const line of log.split('\n')) {
        if (!open.size || reads >= MAX_RENAME_READS) break;
        if (line.startsWith('\x01')) {
          const sp = line.indexOf(' ');
          commit = line.slice(1, sp);
          time = Number(line.slice(sp + 1));
          continue;
        }
        const tab = line.indexOf('\t');
        if (!line.startsWith(':') || tab < 0) continue;
        const path = line.slice(tab + 1);
        const blob = line.slice(1, tab).split(' ')[3] ?? '';
        const named = [...open.values()].filter((n) => n.path === path);
        if (!HEX40.test(blob) || /^0+$/.test(blob) || !named.length) continue;
        reads++;
        const b = await reader.readBlob(blob, MAX_DOC_BYTES);
        if (!b) continue;
        const now = namesIn(path, b.toString('utf8'), blob, commit);
        for (const f of named) {
          const n = now.find((x) => x.key === f.key);
          if (n && !sameName(n.name, f.name)) {
            out[side].push({ key: f.key, kind: f.kind, from: f.name, to: n.name, commit, time, path });
            open.delete(f.key);
          }
        }
      }
      opts.deadline.check();
    }
    return out;
  } finally {
    reader.close();
  }
}

const MAX_RENAME_READS = 200;

/** Names and declaration sentences in the root files of a commit (the fork point). */
async function forkPointIdentity(
  view: PairView,
  commit: string,
  opts: { deadline: Deadline; signal?: AbortSignal; reader?: BlobReader },
): Promise<{ names: NameRef[]; sentences: string[] }> {
  const out = (
    await view.run(['ls-tree', '-z', '--full-tree', commit], {
      signal: opts.signal,
      timeoutMs: opts.deadline.remainingMs(),
      maxOutputBytes: 16 * 1024 * 1024,
    })
  ).toString('utf8');
  const files: { path: string; oid: string }[] = [];
  for (const rec of out.split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', type = '', oid = ''] = rec.slice(0, tab).split(' ');
    const path = rec.slice(tab + 1);
    if (type === 'blob' && mode !== '120000' && (IDENTITY_FILE.test(path) || DOC_FILE.test(path))) files.push({ path, oid });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  const reader = opts.reader ?? new BlobReader(view.gitDir);
  try {
    const names: NameRef[] = [];
    const docs: string[] = [];
    for (const f of files) {
      const b = await reader.readBlob(f.oid, MAX_DOC_BYTES);
      if (!b) continue;
      const text = b.toString('utf8');
      if (IDENTITY_FILE.test(f.path)) names.push(...namesIn(f.path, text, f.oid, commit));
      if (DOC_FILE.test(f.path)) docs.push(text);
    }
    return { names, sentences: declarationSentences(docs) };
  } finally {
    if (!opts.reader) reader.close();
  }
}

export type { AuthorCount };
