// One side's own walk, for histories without a commit id in common: each commit's key (author time, e-mail and
// subject), its authors and founder, and its records for a common line under other ids; and what the two walks
// hold in common (a history rewritten apart, a common line).
import type { RewrittenHistory, Side } from '../types';
import type { CommonLineFound } from './common-line';
import { commonLineOfWalks, walkRecord, type WalkRecords } from './walk-records';
import type { SideAuthors } from './licence';
import { sortAuthors } from './maintainers';
import { blobsWritten, DIFF_TREE_ARGS, matchedCommits, sliceContent } from './slices';

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
 * commit counts, the founder (the author of the walk's last commit) when the walk reached the history's start, and
 * the author of its newest commit.
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
  private first: string | null = null;
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
    this.first ??= who;
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
    this.first = null;
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
      authors: {
        authors,
        founder: this.count < max && this.last !== null ? person(this.last) : null,
        latest: this.first !== null ? person(this.first) : null,
      },
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
export async function ownHistories(
  git: (args: string[], maxOutputBytes?: number, input?: string) => Promise<string>,
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
  const matched = new Set<string>();
  let newest = 0;
  for (const k of ow.keys)
    if (tw.keys.has(k)) {
      matched.add(k);
      newest = Math.max(newest, Number(k.slice(0, k.indexOf('\0'))));
    }
  const commits = matched.size;
  if (commits < REWRITTEN_MIN || commits < REWRITTEN_SHARE * Math.min(ow.keys.size, tw.keys.size)) return { authors, line };
  // What each side's copies of the newest of them changed: the same content (a copy), or each its own part (slices).
  const pairs = matchedCommits(ow.commits, tw.commits, matched);
  const written = async (ids: string[]): Promise<Map<string, Set<string>>> =>
    ids.length ? blobsWritten(await git(DIFF_TREE_ARGS, undefined, `${ids.join('\n')}\n`)) : new Map();
  const [wo, wt] = await Promise.all([written(pairs.map((p) => p[0])), written(pairs.map((p) => p[1]))]);
  const content = sliceContent(pairs, { origin: wo, target: wt });
  return { rewritten: { commits, origin: ow.keys.size, target: tw.keys.size, newest, content }, authors, line };
}
