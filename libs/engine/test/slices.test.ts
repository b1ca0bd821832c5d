// Two slices of one history (lineage/slices.ts): commits both histories hold under other ids that changed the same
// content on both sides are a copy's; commits that changed different content on each side are two parts of a third
// history, kept apart.
import { blobsWritten, matchedCommits, SLICE_SAMPLE, SLICE_SHARE_MAX, sliceContent, slicesApart } from '../src/lineage/slices';
import { walkRecord, type WalkRecords } from '../src/lineage/walk-records';

const hex = (s: string): string => (s + '0'.repeat(40)).slice(0, 40);

/** A walk, newest first, of commits with the given author times and subjects, by one e-mail. */
function walk(side: string, commits: Array<{ at: number; subject: string }>, email = 'dev@example.invalid'): WalkRecords {
  const records: string[] = [];
  const times: number[] = [];
  commits.forEach((c, i) => {
    records.push(walkRecord({ id: hex(`${side}${i}`), tree: hex('e'), parents: [] }, email, 'Dev', c.subject));
    times.push(c.at + 5, c.at);
  });
  return { records, times };
}
const key = (at: number, subject: string, email = 'dev@example.invalid'): string => `${at}\0${email}\0${subject}`;

describe('matchedCommits', () => {
  it('pairs the commits of the matched keys, one id a side, newest author time first', () => {
    const o = walk('a', [
      { at: 300, subject: 'three' },
      { at: 200, subject: 'two' },
      { at: 100, subject: 'one' },
    ]);
    const t = walk('b', [
      { at: 250, subject: 'own' },
      { at: 100, subject: 'one' },
      { at: 300, subject: 'three' },
    ]);
    expect(matchedCommits(o, t, new Set([key(100, 'one'), key(300, 'three')]))).toEqual([
      [hex('a0'), hex('b2')],
      [hex('a2'), hex('b1')],
    ]);
  });

  it('keeps at most SLICE_SAMPLE pairs, the newest', () => {
    const n = SLICE_SAMPLE + 5;
    const commits = Array.from({ length: n }, (_, i) => ({ at: 1000 + i, subject: `c${i}` }));
    const keys = new Set(commits.map((c) => key(c.at, c.subject)));
    const pairs = matchedCommits(walk('a', commits), walk('b', commits), keys);
    expect(pairs).toHaveLength(SLICE_SAMPLE);
    expect(pairs[0]).toEqual([hex(`a${n - 1}`), hex(`b${n - 1}`)]);
  });
});

describe('blobsWritten', () => {
  it('reads the blobs each commit wrote, leaving out deletions and the empty blob', () => {
    const out = [
      hex('c1'),
      `:100644 100644 ${hex('1')} ${hex('f1')} M\tsrc/a.js`,
      `:000000 100644 ${'0'.repeat(40)} e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 A\tpkg/__init__.py`,
      `:100644 000000 ${hex('2')} ${'0'.repeat(40)} D\told.js`,
      `${hex('c2')} (from ${hex('c1')})`,
      `:000000 100644 ${'0'.repeat(40)} ${hex('f2')} A\t"tab\\tname.js"`,
      hex('c3'),
      '',
    ].join('\n');
    const w = blobsWritten(out);
    expect([...w.get(hex('c1'))!]).toEqual([hex('f1')]);
    expect([...w.get(hex('c2'))!]).toEqual([hex('f2')]);
    expect(w.get(hex('c3'))!.size).toBe(0);
  });
});

describe('sliceContent and slicesApart', () => {
  const pairs: Array<[string, string]> = [
    ['o1', 't1'],
    ['o2', 't2'],
    ['o3', 't3'],
  ];
  it('a copy writes the same blobs on both sides: not apart', () => {
    const same = new Map([
      ['o1', new Set(['x', 'y'])],
      ['o2', new Set(['z'])],
      ['o3', new Set(['w'])],
    ]);
    const t = new Map([
      ['t1', new Set(['x', 'y'])],
      ['t2', new Set(['z'])],
      ['t3', new Set(['w', 'v'])],
    ]);
    const s = sliceContent(pairs, { origin: same, target: t });
    expect(s).toEqual({ compared: 3, shared: 4, changed: 4 });
    expect(slicesApart(s)).toBe(false);
  });

  it('two splits write each their own part of the same commits: apart', () => {
    const o = new Map([
      ['o1', new Set(['web1', 'gitignore'])],
      ['o2', new Set(['web2'])],
      ['o3', new Set(['web3'])],
    ]);
    const t = new Map([
      ['t1', new Set(['con1', 'gitignore'])],
      ['t2', new Set(['con2'])],
      ['t3', new Set<string>()],
    ]);
    const s = sliceContent(pairs, { origin: o, target: t });
    // t3 wrote nothing: that commit is not compared.
    expect(s).toEqual({ compared: 2, shared: 1, changed: 3 });
    expect(s.shared < SLICE_SHARE_MAX * s.changed).toBe(true);
    expect(slicesApart(s)).toBe(true);
  });

  it('says nothing when no commit changed content on both sides', () => {
    expect(slicesApart({ compared: 0, shared: 0, changed: 0 })).toBe(false);
    expect(slicesApart(undefined)).toBe(false);
  });
});
