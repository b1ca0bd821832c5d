import {
  MAX_OWNER_SHARE_BENEATH,
  MIN_DAYS_ON_TOP,
  MIN_OWN_COMMITS,
  MIN_REPLAYED_OVER,
  REBASED_FROM,
  rebasedAsFollowed,
  rebasedLine,
} from '../src/lineage/rebased-line';
import type { CommitInfo, History } from '../src/types';

const DAY = 86400;
const ANNE = 'anne'; // the third project's founder
const HUGO = 'hugo'; // its later maintainer, who goes on with it elsewhere
const CHRIS = 'chris'; // the carrier's owner

/** A history graph built oldest first, each commit with its author day (`at`) and committer day (`time`). */
class Graph {
  private readonly all: CommitInfo[] = [];
  add(id: string, at: number, who: string, parents: string[], committed = at): this {
    this.all.push({ id, time: committed * DAY, at: at * DAY, parents, email: `${who}@example.invalid`, author: who });
    return this;
  }
  /** `n` commits by `who` authored from day `start`, one a day, on top of `parent`; returns the last id. */
  line(prefix: string, parent: string | null, who: string, start: number, n: number, committed?: number): string {
    let p = parent;
    for (let i = 0; i < n; i++) {
      this.add(`${prefix}${i}`, start + i, who, p ? [p] : [], committed ?? start + i);
      p = `${prefix}${i}`;
    }
    return p!;
  }
  history(head: string): Pick<History, 'commit' | 'commits'> {
    return { commit: head, commits: [...this.all].reverse() };
  }
}

/**
 * The third project: Anne's commits (days 0–9), then Hugo's from day 10 (`hugoCommits` of them). The carrier's owner
 * authored `replayed` commits from day 20 and replays them onto Hugo's last commit, then goes on for `onTop` commits a
 * day apart after it.
 */
function carrier(opts: { hugoCommits?: number; replayed?: number; onTop?: number; ownerBeneath?: number } = {}) {
  const g = new Graph();
  const hugo = opts.hugoCommits ?? 40;
  let tip = g.line('a', null, ANNE, 0, 10);
  // The owner's own commits to the project, if any, early in its line (cdown's to dwm itself).
  if (opts.ownerBeneath) tip = g.line('c', tip, CHRIS, 10, opts.ownerBeneath);
  tip = g.line('h', tip, HUGO, 10, hugo);
  const base = 10 + hugo;
  tip = g.line('r', tip, CHRIS, 20, opts.replayed ?? 6, base + 1);
  const head = g.line('k', tip, CHRIS, base + 2, opts.onTop ?? 40);
  return { h: g.history(head), upstream: [...Array(10).keys()].map((i) => `a${i}`).concat([...Array(hugo).keys()].map((i) => `h${i}`)) };
}

describe('rebasedLine', () => {
  it("reads a carrier's own commits replayed onto a newer state of another project's line, and that line as the other repository's", () => {
    const { h, upstream } = carrier();
    const r = rebasedLine(h)!;
    expect(r.base).toBe('r0');
    expect([...r.commits].sort()).toEqual([...upstream].sort());
    const f = rebasedAsFollowed(h);
    expect(f.commits.get('h39')).toBe(REBASED_FROM);
    expect(f.commits.has('k0')).toBe(false);
  });

  it("keeps the owner's own commits beneath out of the other repository's line, while they are few", () => {
    const { h } = carrier({ hugoCommits: 200, ownerBeneath: 2 });
    const r = rebasedLine(h)!;
    expect(r.commits.has('c0')).toBe(false);
    expect(r.commits.has('h199')).toBe(true);
    // An owner who made more than MAX_OWNER_SHARE_BENEATH of the line beneath rebased onto a line of their own.
    const own = Math.ceil(MAX_OWNER_SHARE_BENEATH * 60) + 2;
    expect(rebasedLine(carrier({ hugoCommits: 50, ownerBeneath: own }).h)).toBeNull();
  });

  it('is no carrier when the replayed run is a pull request: too few commits, or nothing on top of the line for long', () => {
    expect(rebasedLine(carrier({ replayed: MIN_OWN_COMMITS - 1, onTop: 0 }).h)).toBeNull();
    expect(rebasedLine(carrier({ replayed: 20, onTop: MIN_DAYS_ON_TOP - 5 }).h)).toBeNull();
    expect(rebasedLine(carrier({ replayed: 20, onTop: MIN_DAYS_ON_TOP + 5 }).h)).not.toBeNull();
  });

  it('is no carrier when the line beneath went on for only a few commits after the replayed work began', () => {
    // The owner's work was authored from day 20; Hugo's commits authored after it number hugoCommits - 11.
    expect(rebasedLine(carrier({ hugoCommits: 11 + MIN_REPLAYED_OVER - 1 }).h)).toBeNull();
    expect(rebasedLine(carrier({ hugoCommits: 11 + MIN_REPLAYED_OVER }).h)).not.toBeNull();
  });

  it("is no carrier when the line's people made any of the run, or the run was never replayed", () => {
    const g = new Graph();
    let tip = g.line('a', null, ANNE, 0, 40);
    tip = g.line('r', tip, CHRIS, 20, 6, 41);
    tip = g.line('z', tip, ANNE, 47, 1);
    expect(rebasedLine(g.history(g.line('k', tip, CHRIS, 48, 40)))).toBeNull();
    // A handover without a replay: the new owner's commits come after the line beneath, in time as in order.
    const handed = new Graph();
    const old = handed.line('a', null, ANNE, 0, 40);
    expect(rebasedLine(handed.history(handed.line('k', old, CHRIS, 41, 60)))).toBeNull();
  });

  it('reads nothing of a history without author times (a history stage persisted before 0.7.17)', () => {
    const { h } = carrier();
    const old = { ...h, commits: h.commits.map(({ at: _at, ...c }) => c) };
    expect(rebasedLine(old)).toBeNull();
  });
});
