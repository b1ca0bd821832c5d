import { followedLines, mergeSource, namedRepository, OWNER_SHARE, personKeys, WALK_BUDGET } from '../src/lineage/followed-line';
import type { CommitInfo, History } from '../src/types';

const DAY = 86400;
const ANNE = 'anne'; // the third project's founder
const HUGO = 'hugo'; // its later maintainer, who goes on with it elsewhere
const LUKE = 'luke'; // the carrier's owner
const ZOE = 'zoe'; // a contributor

/** A history graph built oldest first; `commits` lists it newest first, as the walk does. */
class Graph {
  private readonly all: CommitInfo[] = [];
  add(id: string, day: number, who: string, parents: string[], subject?: string): this {
    const from = parents.length > 1 ? mergeSource(subject ?? '') : null;
    this.all.push({ id, time: day * DAY, parents, email: `${who}@example.invalid`, author: who, ...(from ? { from } : {}) });
    return this;
  }
  /** `n` commits by `who` from day `start`, one a day, on top of `parent`; returns the last id. */
  line(prefix: string, parent: string | null, who: string, start: number, n: number): string {
    let p = parent;
    for (let i = 0; i < n; i++) {
      this.add(`${prefix}${i}`, start + i, who, p ? [p] : []);
      p = `${prefix}${i}`;
    }
    return p!;
  }
  history(head: string): Pick<History, 'commit' | 'commits'> {
    return { commit: head, commits: [...this.all].reverse() };
  }
}

/**
 * The third project: Anne's commits (days 0–9), then Hugo's (10–19); the carrier clones it at day 19, Luke commits on
 * top from day 30 (`own`), and at day 60 merges `merged`, a line made by `mergedBy` on top of `base` from day 40.
 */
function carrier(opts: { merged: string; mergedBy: string; base?: string; subject: string }): {
  h: Pick<History, 'commit' | 'commits'>;
  upstream: string[];
} {
  const g = new Graph();
  const anne = g.line('a', null, ANNE, 0, 10);
  const tip = g.line('h', anne, HUGO, 10, 10);
  const own = g.line('l', tip, LUKE, 30, 5);
  const later = g.line(opts.merged, opts.base ?? tip, opts.mergedBy, 40, 3);
  g.add('m', 60, LUKE, [own, later], opts.subject);
  const head = g.line('k', 'm', LUKE, 61, 2);
  return { h: g.history(head), upstream: [...'0123456789'].flatMap((i) => [`a${i}`, `h${i}`]) };
}

describe('namedRepository', () => {
  it('reads the repository a pull or a remote-tracking merge names, and none of a local branch or a pull request', () => {
    expect(namedRepository("Merge branch 'master' of git://git.suckless.org/dwm")).toBe('git://git.suckless.org/dwm');
    expect(namedRepository("Merge branch 'master' of github.com:LukeSmithxyz/dwm into master")).toBe('github.com:LukeSmithxyz/dwm');
    expect(namedRepository("Merge tag 'v6.5' of https://git.suckless.org/dwm")).toBe('https://git.suckless.org/dwm');
    expect(namedRepository("Merge remote-tracking branch 'upstream/master'")).toBe('remote upstream');
    expect(namedRepository("Merge remote branch 'suckless/master' into lukesmith")).toBe('remote suckless');
    expect(namedRepository("Merge branch 'develop'")).toBeNull();
    expect(namedRepository("Merge branch 'kronikpillow-master'")).toBeNull();
    expect(namedRepository('Merge pull request #12 from someone/master')).toBeNull();
    expect(namedRepository('Merge latest suckless build into lukesmith-0.8.5')).toBeNull();
  });

  it('says what a merge brought in: the repository, else the branch, else its subject', () => {
    expect(mergeSource("Merge branch 'master' of git://git.suckless.org/dwm")).toBe('git://git.suckless.org/dwm');
    expect(mergeSource("Merge branch 'original'")).toBe('branch original');
    expect(mergeSource('merge with coco')).toBe('merge with coco');
    expect(mergeSource('x'.repeat(150))).toHaveLength(101);
  });
});

describe('personKeys', () => {
  it('joins the forms one person takes in a history: a converted address, a no-reply login', () => {
    const svn = personKeys({ email: 'erincatto@gmail.com@cafe418c-1137-0410-84cc-357ec87a5d9b', author: 'erincatto@gmail.com' });
    const later = personKeys({ email: 'erincatto@gmail.com', author: 'Erin Catto' });
    const noreply = personKeys({ email: '1234+erincatto@users.noreply.github.com', author: 'Erin' });
    expect(svn.some((k) => later.includes(k))).toBe(true);
    expect(noreply.some((k) => later.includes(k))).toBe(true);
    // A generic user part names nobody.
    const a = personKeys({ email: 'info@one.example', author: 'One' });
    const b = personKeys({ email: 'info@two.example', author: 'Two' });
    expect(a.some((k) => b.includes(k))).toBe(false);
  });
});

describe('followedLines', () => {
  it("takes the third project's whole history for a line merged in from elsewhere on which its people went on", () => {
    const { h, upstream } = carrier({ merged: 'u', mergedBy: HUGO, subject: "Merge branch 'master' of https://example.org/third.git" });
    const f = followedLines(h);
    expect(f.lines).toEqual([{ merge: 'm', time: 60 * DAY, from: 'https://example.org/third.git' }]);
    for (const id of [...upstream, 'u0', 'u2']) expect(f.commits.get(id)).toBe('https://example.org/third.git');
    // The carrier's own commits are its own.
    for (const id of ['l0', 'l4', 'm', 'k1']) expect(f.commits.has(id)).toBe(false);
  });

  it('follows a remote-tracking branch as well', () => {
    const { h } = carrier({ merged: 'u', mergedBy: HUGO, subject: "Merge remote-tracking branch 'upstream/master'" });
    expect(followedLines(h).lines.map((l) => l.from)).toEqual(['remote upstream']);
  });

  it('reads the structure, not the message: a local branch holding the third project is followed too', () => {
    const { h } = carrier({ merged: 'u', mergedBy: HUGO, subject: "Merge branch 'original'" });
    expect(followedLines(h).lines.map((l) => l.from)).toEqual(['branch original']);
  });

  it("follows another repository's whole history merged in, whatever the merger put on top of it", () => {
    // The side began as an upload of the third project's files (Luke's own root), then merged the third project's
    // history (which never meets its mainline) with one commit of Luke's on top of it.
    const g = new Graph();
    const upload = g.line('l', null, LUKE, 30, 4);
    const third = g.line('h', g.line('a', null, ANNE, 0, 10), HUGO, 10, 10);
    g.add('patch', 40, LUKE, [third]);
    g.add('m', 41, LUKE, [upload, 'patch'], 'Merge update-to-5.4: upstream with a patch');
    const f = followedLines(g.history(g.line('k', 'm', LUKE, 42, 2)));
    expect(f.lines.map((l) => l.merge)).toEqual(['m']);
    expect(f.commits.has('a0')).toBe(true);
    expect(f.commits.has('h9')).toBe(true);
    // Luke's own commits, on the merged line or not, stay his.
    for (const id of ['patch', 'l0', 'm', 'k1']) expect(f.commits.has(id)).toBe(false);
  });

  it("follows no line that holds the merger's own commits: a pull request, a pull from the side's own remote", () => {
    // Zoe's branch starts from Luke's own work.
    const pr = carrier({ merged: 'z', mergedBy: ZOE, base: 'l2', subject: "Merge branch 'fix' of https://example.org/zoe/fork.git" });
    expect(followedLines(pr.h).commits.size).toBe(0);
    // Luke's own commits made elsewhere and pulled from his own repository.
    const own = carrier({ merged: 'o', mergedBy: LUKE, base: 'l4', subject: "Merge branch 'master' of github.com:luke/dwm" });
    expect(followedLines(own.h).commits.size).toBe(0);
  });

  it("follows no line on which none of the earlier people went on: a contributor's branch from an old commit", () => {
    const { h } = carrier({ merged: 'z', mergedBy: ZOE, base: 'h3', subject: "Merge branch 'fix' of https://example.org/zoe/fork.git" });
    expect(followedLines(h).commits.size).toBe(0);
  });

  it("follows no contributor's merge of the project's own line fast-forwarded onto the mainline", () => {
    // Zoe's branch from Hugo's line, Hugo's later commits merged into it from the project's repository, and the mainline
    // fast-forwarded to her merge; then `next` goes on with the mainline.
    const contributorMerge = (next: string): Pick<History, 'commit' | 'commits'> => {
      const g = new Graph();
      const tip = g.line('h', g.line('a', null, ANNE, 0, 10), HUGO, 10, 10);
      const zoe = g.line('z', tip, ZOE, 30, 3);
      const later = g.line('g', tip, HUGO, 33, 5);
      g.add('zm', 40, ZOE, [zoe, later], "Merge branch 'master' of https://example.org/third.git");
      return g.history(g.line('k', 'zm', next, 41, 6));
    };
    // Hugo goes on with the mainline: the merged line's people went on here, not elsewhere.
    expect(followedLines(contributorMerge(HUGO)).commits.size).toBe(0);
    // Someone new goes on with it: Zoe made 4 of the 10 mainline commits since her first, under OWNER_SHARE.
    expect(4 / 10).toBeLessThan(OWNER_SHARE);
    expect(followedLines(contributorMerge('max')).commits.size).toBe(0);
    // Zoe herself goes on with it: her mainline, a line merged in from where Hugo goes on.
    expect(followedLines(contributorMerge(ZOE)).lines.map((l) => l.merge)).toEqual(['zm']);
  });

  it('follows nothing a merger with no commits of their own on the mainline merged: a new maintainer taking over', () => {
    const g = new Graph();
    const tip = g.line('h', g.line('a', null, ANNE, 0, 10), HUGO, 10, 10);
    const later = g.line('u', tip, HUGO, 40, 3);
    g.add('m', 60, LUKE, [tip, later], "Merge branch 'master' of https://example.org/hugo/third.git");
    expect(followedLines(g.history('m')).commits.size).toBe(0);
  });

  it('reads the newest merges first and stops when the walks have read the history WALK_BUDGET times over', () => {
    const g = new Graph();
    let up = g.line('h', g.line('a', null, ANNE, 0, 10), HUGO, 10, 10);
    let own = g.line('l', up, LUKE, 30, 2);
    const merges = 12;
    for (let i = 0; i < merges; i++) {
      up = g.line(`u${i}-`, up, HUGO, 40 + 2 * i, 1);
      g.add(`m${i}`, 41 + 2 * i, LUKE, [own, up], "Merge branch 'master' of https://example.org/third.git");
      own = `m${i}`;
    }
    const h = g.history(own);
    // Each merge's walk reads the whole third project again (20 commits and more): not all of them fit.
    expect(merges * 20).toBeGreaterThan(WALK_BUDGET * h.commits.length);
    const f = followedLines(h);
    expect(f.lines.length).toBeGreaterThan(0);
    expect(f.lines.length).toBeLessThan(merges);
    expect(f.lines.map((l) => l.merge)).toEqual(Array.from({ length: f.lines.length }, (_, i) => `m${merges - 1 - i}`));
    expect(f.commits.get('a0')).toBe('https://example.org/third.git');
  });
});
