// Rewritten history is still shared history (docs/engine.md, "A common line under other ids"): two histories without
// a commit id in common that hold the same commits, commit after commit, under ids of their own (a history converted
// twice from another version-control system, a filter-branch or filter-repo rewrite, a re-import) have a common line
// as surely as two that share ids. Pure: the same walks give the same line.
import type { Comparison, LineageResult, Side } from '../types';

/** One commit of a side's walk, as the history stage reads it (`%H %P %T %ct %at %ae %an %s`). */
export interface WalkedCommit {
  id: string;
  parents: string[];
  /** root tree id: the commit's content snapshot */
  tree: string;
  /** committer time, Unix seconds */
  time: number;
  /** author time, Unix seconds */
  at: number;
  email: string;
  name: string;
  subject: string;
}

/**
 * The empty tree (SHA-1 and SHA-256 repositories). Commits that hold no file at all are alike in every history (an
 * "Initial commit" made before anything was added, a branch emptied to restart it): they prove nothing.
 */
export const EMPTY_TREES: ReadonlySet<string> = new Set([
  '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
]);

/**
 * Equivalent commits that count towards a common line only as part of a run of at least this many, each one's parent
 * equivalent to the other's parent. One identical snapshot is one imported release, or two projects that started
 * from one template or one `.gitignore`; three in a row, each the parent of the next on both sides, is one line
 * replayed. Equivalences by author time and subject obey the same rule, so that cherry-picks and an extraction's
 * filtered slice of a history (plug_cowboy from plug) stay what they were: commits held under other ids, not a line.
 */
export const RUN_MIN = 3;

/**
 * Commits of one side a commit of the other is compared with, at most: a tree or an author time and subject met more
 * often than this on one side (reverts back and forth, merges that changed nothing) is compared with the first ones
 * walked only, so that the work stays linear in the walks.
 */
const CANDIDATES_MAX = 8;

/** The line two histories hold under other ids, from the history stage's walks of each side. */
export interface CommonLineFound {
  /** equivalent commits on the line (the smaller of the two sides' counts of distinct commits on it) */
  commits: number;
  /** of them, those with the same root tree on both sides */
  sameTree: number;
  /** the newest equivalent pair on the line: the fork point, one commit on each side */
  fork: { origin: WalkedCommit; target: WalkedCommit };
  /** each side's pinned commit is on the line (the other side holds it under another id and went on from it, or also stopped there) */
  held: { origin: boolean; target: boolean };
}

/**
 * The same commit under other ids: the same non-empty root tree, or the same author time and subject with the same
 * author e-mail (what a rewrite keeps) or the same author name (conversions map e-mails each their own way).
 */
export function equivalent(a: WalkedCommit, b: WalkedCommit): boolean {
  if (a.tree === b.tree && a.tree !== '' && !EMPTY_TREES.has(a.tree)) return true;
  return a.at === b.at && a.subject === b.subject && (a.email === b.email || (a.name !== '' && a.name === b.name));
}

/**
 * The common line of two walks (each newest first, the pinned commit first): the equivalent pairs that belong to a run
 * of RUN_MIN or more, each pair's commits the parents of the next pair's. None when the line holds fewer than
 * `min.commits` commits or less than `min.share` of the smaller walk (topology.ts's thresholds for commits held under
 * other ids).
 */
export function commonLine(
  origin: readonly WalkedCommit[],
  target: readonly WalkedCommit[],
  min: { commits: number; share: number },
  /** when the lists are the walks' candidates only (commonLineOfWalks): each walk's size and pinned commit */
  walked: { size: Record<Side, number>; heads: Record<Side, string> } = {
    size: { origin: origin.length, target: target.length },
    heads: { origin: origin[0]?.id ?? '', target: target[0]?.id ?? '' },
  },
): CommonLineFound | null {
  if (!origin.length || !target.length) return null;
  const byTree = new Map<string, WalkedCommit[]>();
  const byAuthored = new Map<string, WalkedCommit[]>();
  const push = (m: Map<string, WalkedCommit[]>, k: string, c: WalkedCommit): void => {
    const l = m.get(k);
    if (!l) m.set(k, [c]);
    else if (l.length < CANDIDATES_MAX) l.push(c);
  };
  for (const c of origin) {
    if (c.tree && !EMPTY_TREES.has(c.tree)) push(byTree, c.tree, c);
    push(byAuthored, `${c.at}\0${c.subject}`, c);
  }
  // Every equivalent pair, keyed by the two ids.
  type Pair = { o: WalkedCommit; t: WalkedCommit; key: string; parents: Pair[]; children: Pair[]; up: number; down: number };
  const pairs = new Map<string, Pair>();
  const pairsOfTarget = new Map<string, Pair[]>();
  for (const t of target) {
    const seen = new Set<string>();
    const list: Pair[] = [];
    for (const o of [...(byTree.get(t.tree) ?? []), ...(byAuthored.get(`${t.at}\0${t.subject}`) ?? [])]) {
      if (seen.has(o.id) || !equivalent(o, t)) continue;
      seen.add(o.id);
      const p: Pair = { o, t, key: `${o.id} ${t.id}`, parents: [], children: [], up: 1, down: 1 };
      pairs.set(p.key, p);
      list.push(p);
    }
    if (list.length) pairsOfTarget.set(t.id, list);
  }
  if (pairs.size < min.commits) return null;
  // Links: a pair whose commits' parents are an equivalent pair continues it.
  for (const p of pairs.values())
    for (const op of p.o.parents)
      for (const tp of p.t.parents) {
        const q = pairs.get(`${op} ${tp}`);
        if (q) {
          p.parents.push(q);
          q.children.push(p);
        }
      }
  // Longest run through each pair: up (towards the roots) and down (towards the heads), over a topological order of
  // the pairs (children first), which does not rely on the walks' order.
  const order: Pair[] = [];
  const waiting = new Map<Pair, number>();
  for (const p of pairs.values()) waiting.set(p, p.children.length);
  const ready = [...pairs.values()].filter((p) => p.children.length === 0);
  while (ready.length) {
    const p = ready.pop()!;
    order.push(p);
    for (const q of p.parents) {
      const n = waiting.get(q)! - 1;
      waiting.set(q, n);
      if (n === 0) ready.push(q);
    }
  }
  for (const p of order) for (const q of p.parents) q.down = Math.max(q.down, p.down + 1);
  for (let i = order.length - 1; i >= 0; i--) {
    const p = order[i]!;
    for (const q of p.children) q.up = Math.max(q.up, p.up + 1);
  }
  const line = order.filter((p) => p.up + p.down - 1 >= RUN_MIN);
  const oIds = new Set(line.map((p) => p.o.id));
  const tIds = new Set(line.map((p) => p.t.id));
  const commits = Math.min(oIds.size, tIds.size);
  if (commits < min.commits || commits < min.share * Math.min(walked.size.origin, walked.size.target)) return null;
  const sameTree = Math.min(commits, new Set(line.filter((p) => p.o.tree === p.t.tree).map((p) => p.t.id)).size);
  // The fork point: a pair holding a pinned commit if there is one (that side stopped on the line), else the newest tip
  // of the line (no pair of the line continues it), by author time (what a conversion keeps), then committer time.
  const heads = walked.heads;
  const holds = (p: Pair): number => (p.o.id === heads.origin ? 1 : 0) + (p.t.id === heads.target ? 1 : 0);
  const onLine = new Set(line);
  const tips = line.filter((p) => holds(p) > 0 || !p.children.some((q) => onLine.has(q)));
  tips.sort(
    (a, b) =>
      holds(b) - holds(a) ||
      Math.max(b.o.at, b.t.at) - Math.max(a.o.at, a.t.at) ||
      b.o.time + b.t.time - (a.o.time + a.t.time) ||
      (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  const fork = tips[0]!;
  return {
    commits,
    sameTree,
    fork: { origin: fork.o, target: fork.t },
    held: { origin: oIds.has(heads.origin), target: tIds.has(heads.target) },
  };
}

/** A pair without a commit id in common that the decision reads as shared history: a common line, and an original. */
export function decidedOnCommonLine(l: LineageResult): boolean {
  return l.commonLine !== undefined && l.original !== 'none';
}

/** How the decision names the history the two sides share: commit ids, or a common line under other ids. */
export function sharedHistoryPhrase(c: Comparison): string {
  const line = c.lineage?.commonLine;
  if (c.metrics.sharedCommits > 0 || !line) return `${c.metrics.sharedCommits} commits appear in both histories`;
  return `0 commit ids appear in both histories, but ${line.commits} commits are the same under other ids, commit after commit (${commonLineHow(line)})`;
}

/** What made the commits of a common line equivalent, in words. */
export function commonLineHow(line: { commits: number; sameTree: number }): string {
  return line.sameTree === line.commits
    ? 'identical trees'
    : line.sameTree === 0
      ? 'the same author, author time and subject'
      : `${line.sameTree} with identical trees, the rest with the same author, author time and subject`;
}
