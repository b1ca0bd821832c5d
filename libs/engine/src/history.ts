import { classifyPath, isCodeClass } from './classify';
import { EngineError } from './errors';
import { BlobReader } from './git/catfile';
import { resolveGitDir, runGit, streamGitLines } from './git/runner';
import { Deadline, stageBudget } from './limits';
import { IDENTITY_FILE, namesIn } from './lineage/names';
import { formerIdentities } from './lineage/former-identity';
import { PairView } from './git/pair-view';
import { mergeBases, OwnWalkBuilder, topology } from './lineage/topology';
import { mergeSource } from './lineage/followed-line';
import type { CommitInfo, History, Inventory, NameRef, PairHistory, PathVersion, RepoRef } from './types';
import type { StageOptions } from './inventory';

const MAX_VERSIONS_PER_PATH = 256;
/** Past versions of each root identity file read for names (evenly spaced, the oldest always). */
const NAME_SAMPLES_PER_FILE = 16;
const MAX_IDENTITY_BYTES = 256 * 1024;

/**
 * The inventory a history walk keeps code paths for: the finished inventory, or
 * its resolved commit and the inventory still being built. With the latter the
 * walk starts at once, alongside the inventory (git log is its own process);
 * while the inventory is unknown it keeps every path that the path alone does
 * not rule out as code, and drops the rest once the inventory is known. Each
 * path's versions are kept independently of the others, so the result is the
 * same either way.
 */
export type HistoryInventory = Inventory | { commit: string; inventory: Promise<Inventory> };

const codePaths = (inv: Inventory): Set<string> => new Set(inv.files.filter((f) => isCodeClass(f.class)).map((f) => f.path));

/**
 * Walk the history reachable from the pinned commit (at most maxCommits,
 * recorded as truncated beyond that) with fixed formats: commit ids, committer
 * times, parents, and for each code path of the inventory the blob versions it
 * went through (oldest first), for dating matched material. Also the names the
 * project went by: at the pinned commit and in sampled past versions of its
 * root identity files (manifests, README), for declarations by former names.
 */
export async function history(
  repo: RepoRef,
  source: HistoryInventory,
  opts: StageOptions = {},
  /** fed each commit's author time, e-mail, subject and name, id, parents, tree and time, as the topology reads them (OwnWalk) */
  own?: OwnWalkBuilder,
): Promise<History> {
  const { limits, deadline } = stageBudget(opts);
  const gitDir = resolveGitDir(repo.dir);
  // The inventory resolved the commit; git log of an id that is not there fails, reported as COMMIT_NOT_FOUND.
  const commit = source.commit;
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new EngineError('INVALID_INPUT', 'invalid commit id');
  const known = 'files' in source ? codePaths(source) : null;
  if (!('files' in source)) source.inventory.catch(() => undefined); // its failure is this walk's, awaited below
  // Only code can be dated; a path classifyPath rules out never becomes code, whatever its content.
  // The walk meets each path once per commit that touched it: classifyPath's answer is kept per path.
  const ruledOut = new Map<string, boolean>();
  const byPath = (path: string): boolean => ruledOut.get(path) ?? ruledOut.set(path, classifyPath(path) !== null).get(path)!;
  const mayBeCode = (path: string): boolean => (known ? known.has(path) : !byPath(path));
  // Progress counts toward the history's real size (bounded by the limit), never toward the limit itself.
  const total = opts.onProgress ? await commitCount(gitDir, commit, limits.maxCommits, opts.signal, deadline) : 0;
  const commits: CommitInfo[] = [];
  const versions: Record<string, PathVersion[]> = {};
  const identityVersions: Record<string, PathVersion[]> = {};
  let cur: CommitInfo | null = null;
  let truncated = false;
  let oldestAuthored = Infinity;
  let newestAuthored = -Infinity;
  // Files moved or renamed keep their past: a path a kept file was renamed from is kept too, and its versions before
  // the rename are joined to the file's below. Pairs are found per commit, once its last line is read.
  const follow = new Set<string>();
  const renamedFrom = new Map<string, string>(); // commit \0 new path -> old path
  let added: FileEntry[] = [];
  let deleted: FileEntry[] = [];
  const keep = (path: string): boolean => mayBeCode(path) || follow.has(path);
  const endCommit = (): void => {
    if (cur && added.length && deleted.length)
      for (const [to, from] of renamesIn(added, deleted))
        if (keep(to)) {
          follow.add(from);
          renamedFrom.set(`${cur.id}\0${to}`, from);
        }
    added = [];
    deleted = [];
  };
  // Parsed as it streams: memory holds the records kept, never the whole output.
  await streamGitLines(
    [
      '-c',
      'core.quotePath=false',
      'log',
      '--date-order',
      `--max-count=${limits.maxCommits + 1}`,
      // After the ids and times, what the topology reads of histories without a common commit (OwnWalk): the root tree,
      // for a common line under other ids, and %ae and %an, as its own walk reads them in the pair view, which has no
      // .mailmap.
      '--format=tformat:%x01%H %ct %at %T %P%x00%ae%x00%s%x00%an',
      '--raw',
      '--no-abbrev',
      '--no-renames',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--end-of-options',
      commit,
    ],
    { gitDir, signal: opts.signal, timeoutMs: deadline.remainingMs() },
    (line) => {
      if (line.startsWith('\x01')) {
        endCommit();
        const nul = line.indexOf('\0');
        const [id = '', time = '0', at = '0', tree = '', ...parents] = line.slice(1, nul).trim().split(' ');
        if (commits.length >= limits.maxCommits) {
          truncated = true;
          // The topology walks a cut history again (its walk keeps git log's order, not this one's): nothing fed is read.
          own?.drop();
          return false;
        }
        const email = line.slice(nul + 1, line.indexOf('\0', nul + 1));
        const cut = line.lastIndexOf('\0');
        if (own) {
          own.add(at, email, line.slice(nul + email.length + 2, cut), line.slice(cut + 1), {
            id,
            parents: parents.filter(Boolean),
            tree,
            time: Number(time),
          });
        }
        const authoredAt = Number(at);
        if (authoredAt < oldestAuthored) oldestAuthored = authoredAt;
        if (authoredAt > newestAuthored) newestAuthored = authoredAt;
        const ps = parents.filter(Boolean);
        cur = { id, time: Number(time), parents: ps, email: email.toLowerCase(), author: line.slice(cut + 1), at: authoredAt };
        if (ps.length > 1) cur.from = mergeSource(line.slice(nul + email.length + 2, cut));
        commits.push(cur);
        if (commits.length % 1000 === 0)
          opts.onProgress?.({
            stage: 'history',
            done: commits.length,
            total: Math.max(total, commits.length),
            unit: 'commits',
            ...(opts.side ? { side: opts.side } : {}),
          });
      } else if (cur && line.startsWith(':')) {
        const tab = line.indexOf('\t');
        if (tab < 0) return;
        const meta = line.slice(1, tab).split(' ');
        const path = line.slice(tab + 1);
        const blob = meta[3] ?? '';
        const regular = meta[0] !== '120000' && meta[1] !== '120000';
        if (meta[4] === 'D' && regular) deleted.push([path, meta[2] ?? '']);
        if (/^0+$/.test(blob)) return;
        if (meta[4] === 'A' && regular) added.push([path, blob]);
        if (keep(path)) {
          const v = (versions[path] ??= []);
          v.push({ commit: cur.id, time: cur.time, blobId: blob });
          // Only the oldest MAX_VERSIONS_PER_PATH are kept (the log runs newest first): drop the newer half now and then.
          if (v.length >= 2 * MAX_VERSIONS_PER_PATH) v.splice(0, MAX_VERSIONS_PER_PATH);
        }
        if (IDENTITY_FILE.test(path) && regular) (identityVersions[path] ??= []).push({ commit: cur.id, time: cur.time, blobId: blob });
      }
    },
  ).catch((e: unknown) => {
    if (e instanceof EngineError && e.code === 'GIT_FAILED') throw new EngineError('COMMIT_NOT_FOUND', 'commit not found');
    throw e;
  });
  endCommit(); // the last commit's (a truncated walk already ended it at the next header)
  deadline.check();
  const inv = 'files' in source ? source : await source.inventory;
  const wanted = known ?? codePaths(inv);
  const throughRenames = renamedFrom.size ? joinRenames(versions, renamedFrom, commits) : (p: string) => versions[p]!;
  const pathVersions: Record<string, PathVersion[]> = {};
  for (const p of Object.keys(versions).sort()) {
    if (!wanted.has(p)) continue;
    const v = throughRenames(p).reverse(); // oldest first
    pathVersions[p] = v.length > MAX_VERSIONS_PER_PATH ? v.slice(0, MAX_VERSIONS_PER_PATH) : v;
  }
  opts.onProgress?.({
    stage: 'history',
    done: commits.length,
    total: commits.length,
    unit: 'commits',
    ...(opts.side ? { side: opts.side } : {}),
  });
  const names = await projectNames(gitDir, inv, identityVersions, opts);
  return {
    commit,
    headTime: commits[0]?.time ?? 0,
    commitsWalked: commits.length,
    truncated,
    commits,
    pathVersions,
    names,
    ...(commits.length ? { authored: { oldest: oldestAuthored, newest: newestAuthored } } : {}),
  };
}

/** A file a commit added or deleted: its path and blob. */
type FileEntry = [path: string, blobId: string];

/** The longest run of equal trailing path segments: how alike two places in a tree are. */
function commonTail(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  let n = 0;
  while (n < x.length && n < y.length && x[x.length - 1 - n] === y[y.length - 1 - n]) n++;
  return n;
}

const baseName = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/**
 * The renames of one commit, as [new path, old path]: a deleted file and an added one with the same blob (a move),
 * then, among the rest, an added file and a deleted one of the same name (moved and edited in one commit). Where
 * several candidates remain, the one sharing the longest tail of path segments is taken when it is the only one;
 * otherwise none. Content is not compared (git's similarity scoring would read every blob of every commit): a wrong
 * pair only makes dating look through the other file's versions, where the material is then simply not found.
 */
export function renamesIn(added: readonly FileEntry[], deleted: readonly FileEntry[]): [string, string][] {
  const out: [string, string][] = [];
  const used = new Set<string>();
  const pick = (to: string, candidates: string[]): string | null => {
    const free = candidates.filter((c) => !used.has(c));
    if (free.length <= 1) return free[0] ?? null;
    const tails = free.map((c) => commonTail(to, c));
    const best = Math.max(...tails);
    return best > 0 && tails.filter((t) => t === best).length === 1 ? free[tails.indexOf(best)]! : null;
  };
  const byBlob = new Map<string, string[]>();
  const byName = new Map<string, string[]>();
  for (const [path, blob] of deleted) {
    (byBlob.get(blob) ?? byBlob.set(blob, []).get(blob)!).push(path);
    (byName.get(baseName(path)) ?? byName.set(baseName(path), []).get(baseName(path))!).push(path);
  }
  const rest: string[] = [];
  for (const [to, blob] of added) {
    const from = pick(to, byBlob.get(blob) ?? []);
    if (from === null) rest.push(to);
    else {
      used.add(from);
      out.push([to, from]);
    }
  }
  for (const to of rest) {
    const from = pick(to, byName.get(baseName(to)) ?? []);
    if (from === null) continue;
    used.add(from);
    out.push([to, from]);
  }
  return out;
}

/**
 * Each path's versions (newest first, as walked) continued, at its oldest version, by the versions before it of
 * the path it was renamed from there, and so on back (each path once). Followed versions carry their own path.
 */
function joinRenames(
  versions: Record<string, PathVersion[]>,
  renamedFrom: Map<string, string>,
  commits: readonly CommitInfo[],
): (path: string) => PathVersion[] {
  const order = new Map(commits.map((c, i) => [c.id, i]));
  return (path) => {
    const out = [...versions[path]!];
    const seen = new Set([path]);
    for (let at = path; ;) {
      const oldest = out[out.length - 1]!;
      const from = renamedFrom.get(`${oldest.commit}\0${at}`);
      if (from === undefined || seen.has(from)) break;
      seen.add(from);
      const after = order.get(oldest.commit)!;
      const before = (versions[from] ?? []).filter((v) => order.get(v.commit)! > after);
      if (!before.length) break;
      for (const v of before) out.push({ ...v, path: from });
      at = from;
    }
    return out;
  };
}

/** Commits reachable from `commit`, at most `max` (`rev-list --count` walks ids only: cheap next to the log). */
async function commitCount(
  gitDir: string,
  commit: string,
  max: number,
  signal: AbortSignal | undefined,
  deadline: Deadline,
): Promise<number> {
  const out = await runGit(['rev-list', '--count', `--max-count=${max}`, '--end-of-options', commit], {
    gitDir,
    signal,
    timeoutMs: deadline.remainingMs(),
    maxOutputBytes: 64,
  });
  return Number(out.toString('utf8').trim()) || 0;
}

/** Names at the pinned commit (its root identity files) and in sampled earlier versions of those files. */
async function projectNames(
  gitDir: string,
  inv: Inventory,
  identityVersions: Record<string, PathVersion[]>,
  opts: StageOptions,
): Promise<History['names']> {
  const reader = opts.reader ?? new BlobReader(gitDir);
  try {
    // Every blob is asked for at once (readBlobs): this runs beside the fingerprinting, which gives the event loop
    // a turn only every few milliseconds, and reading them one by one kept the history waiting for all of it.
    const read = async (blobIds: string[]): Promise<(string | null)[]> =>
      (await reader.readBlobs(blobIds, MAX_IDENTITY_BYTES)).map((b) => b?.toString('utf8') ?? null);
    const pinnedFiles = inv.files.filter((f) => !f.path.includes('/') && IDENTITY_FILE.test(f.path) && f.class !== 'binary');
    const pinnedBlobs = new Set(pinnedFiles.map((f) => f.blobId));
    const sampled = Object.keys(identityVersions)
      .sort()
      .flatMap((path) =>
        sample([...identityVersions[path]!].reverse(), NAME_SAMPLES_PER_FILE) // oldest first
          .filter((pv) => !pinnedBlobs.has(pv.blobId))
          .map((pv) => ({ path, pv })),
      );
    const [pinnedTexts, pastTexts] = await Promise.all([read(pinnedFiles.map((f) => f.blobId)), read(sampled.map((s) => s.pv.blobId))]);
    const pinned: NameRef[] = [];
    pinnedFiles.forEach((f, i) => {
      const text = pinnedTexts[i];
      if (text != null) pinned.push(...namesIn(f.path, text, f.blobId, inv.commit));
    });
    const past: NameRef[] = [];
    const samples: NonNullable<History['names']['samples']> = [];
    const seen = new Set(pinned.map((n) => `${n.key}\0${n.name}`));
    sampled.forEach(({ path, pv }, i) => {
      const text = pastTexts[i];
      if (text == null) return;
      for (const n of namesIn(path, text, pv.blobId, pv.commit)) {
        samples.push({ key: n.key, name: n.name, time: pv.time });
        const k = `${n.key}\0${n.name}`;
        if (!seen.has(k)) {
          seen.add(k);
          past.push(n);
        }
      }
    });
    samples.sort((a, b) => a.time - b.time || (a.key < b.key ? -1 : a.key > b.key ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { pinned, past, samples };
  } finally {
    if (!opts.reader) reader.close();
  }
}

/** Up to n items evenly spread over the list, the first always included. */
function sample<T>(list: readonly T[], n: number): T[] {
  if (list.length <= n) return [...list];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(list[Math.floor((i * (list.length - 1)) / (n - 1))]!);
  return out;
}

/**
 * The history stage for a pair: each side's walk (in parallel) and the
 * topology of the two (merge bases, ancestry, authors, fork-point names).
 * Each side's inventory may still be in the making (see HistoryInventory).
 */
export async function histories(
  origin: RepoRef,
  target: RepoRef,
  inv: { origin: HistoryInventory; target: HistoryInventory },
  opts: StageOptions & { readers?: { origin: BlobReader; target: BlobReader } } = {},
): Promise<PairHistory> {
  const { limits, deadline } = stageBudget(opts);
  const base = { ...opts, limits, deadline };
  const commits = { origin: inv.origin.commit, target: inv.target.commit };
  const view = PairView.open(resolveGitDir(origin.dir), resolveGitDir(target.dir));
  try {
    // The walks keep what the topology reads of histories without a common commit (it would walk both again), until
    // git, asked beside them, names a merge base: then the histories share commits and nothing of it is needed.
    const own = { origin: new OwnWalkBuilder(), target: new OwnWalkBuilder() };
    const bases = mergeBases(view, commits, { deadline, signal: opts.signal }).then((b) => {
      if (b.length) for (const w of [own.origin, own.target]) w.drop();
      return b;
    });
    bases.catch(() => undefined); // awaited below; a failed walk must not leave it unhandled
    const [o, t] = await Promise.all([
      history(origin, inv.origin, { ...base, side: 'origin', reader: opts.readers?.origin ?? opts.reader }, own.origin),
      history(target, inv.target, { ...base, side: 'target', reader: opts.readers?.target }, own.target),
    ]);
    deadline.check();
    const b = await bases;
    const m = limits.maxCommits;
    const topo = await topology({ origin: origin.dir, target: target.dir }, commits, {
      limits,
      deadline,
      signal: opts.signal,
      reader: opts.readers?.origin,
      view,
      bases: b,
      // A walk cut at maxCommits holds the newest commits in date order, not the ones git log lists first: asked again.
      ...(b.length || o.truncated || t.truncated ? {} : { walks: { origin: own.origin.finish(m), target: own.target.finish(m) } }),
      formers: { origin: formerIdentities(o), target: formerIdentities(t) },
      pinnedNames: { origin: o.names.pinned, target: t.names.pinned },
    });
    return { origin: o, target: t, topology: topo };
  } finally {
    view.close();
  }
}
