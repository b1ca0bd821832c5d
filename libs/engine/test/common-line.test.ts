// The common line of two walks without a commit id in common (lineage/common-line.ts): equivalent commits (the same
// non-empty tree, or the same author time and subject with the same e-mail or name) count only in runs, each pair's
// parents the previous pair.
import { commonLine, equivalent, RUN_MIN, type WalkedCommit } from '../src/lineage/common-line';
import { commonLineOfWalks, walkRecord, type WalkRecords } from '../src/lineage/walk-records';

const MIN = { commits: 10, share: 0.05 };
const EMPTY = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const hex = (s: string): string => (s + '0'.repeat(40)).slice(0, 40);

/** A linear walk, newest first: commit i has tree `trees(i)`, author time 1e9 + i, subject `s i`. */
function walk(
  side: string,
  n: number,
  o: { tree?: (i: number) => string; email?: string; name?: string; subject?: (i: number) => string; at?: (i: number) => number } = {},
): WalkedCommit[] {
  const out: WalkedCommit[] = [];
  for (let i = 0; i < n; i++)
    out.push({
      id: hex(`${side}${i.toString(16).padStart(4, '0')}`),
      parents: i ? [hex(`${side}${(i - 1).toString(16).padStart(4, '0')}`)] : [],
      tree: (o.tree ?? ((k) => hex(`e${k.toString(16).padStart(4, '0')}`)))(i),
      time: 1_000_000_000 + i,
      at: (o.at ?? ((k) => 1_000_000_000 + k))(i),
      email: o.email ?? `${side}@example.invalid`,
      name: o.name ?? `Person ${side}`,
      subject: (o.subject ?? ((k) => `${side} ${k}`))(i),
    });
  return out.reverse();
}

describe('equivalent', () => {
  const c = walk('a', 1)[0]!;
  it('holds for the same tree, or the same author time and subject by the same e-mail or name', () => {
    expect(equivalent(c, { ...c, id: hex('b'), email: 'x', name: 'y', subject: 'other', at: 1 })).toBe(true);
    expect(equivalent(c, { ...c, id: hex('b'), tree: hex('f'), email: 'other@example.invalid' })).toBe(true);
    expect(equivalent(c, { ...c, id: hex('b'), tree: hex('f'), name: 'Someone Else' })).toBe(true);
    expect(equivalent(c, { ...c, id: hex('b'), tree: hex('f'), name: 'Someone Else', email: 'other@example.invalid' })).toBe(false);
  });
  it('never for the empty tree alone', () => {
    expect(equivalent({ ...c, tree: EMPTY }, { ...c, tree: EMPTY, id: hex('b'), subject: 'other' })).toBe(false);
  });
});

describe('commonLine', () => {
  it('follows a history converted twice (same trees, other e-mails and names) to its newest pair, and each side past it', () => {
    const shared = (k: number): string => (k < 20 ? hex(`e${k.toString(16).padStart(4, '0')}`) : hex(`f${k}`));
    const o = walk('a', 25, { tree: shared });
    const t = walk('b', 23, { tree: (k) => (k < 20 ? shared(k) : hex(`d${k}`)) });
    const line = commonLine(o, t, MIN)!;
    expect(line.commits).toBe(20);
    expect(line.sameTree).toBe(20);
    expect(line.fork.origin.id).toBe(o[5]!.id);
    expect(line.fork.target.id).toBe(t[3]!.id);
    expect(line.held).toEqual({ origin: false, target: false });
  });

  it('pairs by author time and subject under the same author name when trees differ (a rewrite that moved the files)', () => {
    const o = walk('a', 15, { name: 'Ada', subject: (k) => `part ${k}` });
    const t = walk('b', 12, { name: 'Ada', subject: (k) => `part ${k}`, tree: (k) => hex(`c${k}`) });
    const line = commonLine(o, t, MIN)!;
    expect(line).toMatchObject({ commits: 12, sameTree: 0, held: { origin: false, target: true } });
    expect(line.fork.origin.id).toBe(o[3]!.id);
    expect(line.fork.target.id).toBe(t[0]!.id);
  });

  it('is none for empty trees commit after commit', () => {
    expect(commonLine(walk('a', 30, { tree: () => EMPTY }), walk('b', 30, { tree: () => EMPTY }), MIN)).toBeNull();
  });

  it('is none for one identical tree, or identical trees that are never consecutive on both sides', () => {
    const one = (k: number): string => (k === 0 ? hex('release') : hex(`x${k}`));
    expect(
      commonLine(walk('a', 30, { tree: one }), walk('b', 30, { tree: (k) => (k === 0 ? hex('release') : hex(`y${k}`)) }), MIN),
    ).toBeNull();
    // Twelve snapshots alike, but every other commit on one side: no pair's parents are a pair (cherry-picks, an extraction).
    const o = walk('a', 24, { tree: (k) => (k % 2 ? hex(`s${k >> 1}`) : hex(`o${k}`)) });
    const t = walk('b', 12, { tree: (k) => hex(`s${k}`) });
    expect(commonLine(o, t, MIN)).toBeNull();
  });

  it(`needs runs of ${RUN_MIN} and the minimum count: nine pairs in a row are too few`, () => {
    const tree = (k: number): string => (k < 9 ? hex(`s${k}`) : hex(`u${k}`));
    expect(commonLine(walk('a', 20, { tree }), walk('b', 20, { tree: (k) => (k < 9 ? hex(`s${k}`) : hex(`v${k}`)) }), MIN)).toBeNull();
  });

  it('is none for two independent histories', () => {
    expect(commonLine(walk('a', 50), walk('b', 50, { tree: (k) => hex(`b${k}`) }), MIN)).toBeNull();
  });
});

describe('commonLineOfWalks', () => {
  const records = (w: WalkedCommit[]): WalkRecords => ({
    records: w.map((c) => walkRecord(c, c.email, c.name, c.subject)),
    times: w.flatMap((c) => [c.time, c.at]),
  });
  it('finds what commonLine finds from the compact walks, reading only the commits that may have an equivalent', () => {
    const shared = (k: number): string => (k < 20 ? hex(`e${k.toString(16).padStart(4, '0')}`) : hex(`f${k}`));
    const o = walk('a', 25, { tree: shared });
    const t = walk('b', 23, { tree: (k) => (k < 20 ? shared(k) : hex(`d${k}`)) });
    expect(commonLineOfWalks(records(o), records(t), MIN)).toEqual(commonLine(o, t, MIN));
    expect(commonLineOfWalks(records(t), records(o), MIN)?.fork.origin.id).toBe(t[3]!.id);
    // 20 of 400 commits: the share is of the whole walks, not of the commits read.
    const long = walk('a', 400, { tree: (k) => (k < 20 ? shared(k) : hex(`g${k}`)) });
    expect(commonLineOfWalks(records(long), records(t), MIN)?.commits).toBe(20);
    expect(commonLineOfWalks(records(long), records(t), { commits: 10, share: 0.9 })).toBeNull();
  });
  it('is none for unrelated walks', () => {
    expect(commonLineOfWalks(records(walk('a', 50)), records(walk('b', 50, { tree: (k) => hex(`b${k}`) })), MIN)).toBeNull();
  });
});
