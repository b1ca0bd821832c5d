import { continuity, countAuthors } from '../../src/lineage/maintainers';
import { maintainers } from '../../src/lineage/signals/maintainers';
import { author as a, forked } from './fixtures';

describe('the maintainers signal', () => {
  const topo = (origin: ReturnType<typeof a>[], target: ReturnType<typeof a>[], t = {}) =>
    forked({ originOnly: 10, targetOnly: 10, authors: { preFork: [a('ann', 380), a('al', 20)], origin, target }, ...t });

  it("makes the side the shared history's authors went on with the original", () => {
    const m = maintainers(topo([a('ann', 9), a('al', 1)], [a('bob', 100)]), null);
    expect(m.bothWent).toBe(true);
    expect(m.continuity.origin).toBeGreaterThan(0.9);
    expect(m.votes).toEqual([expect.objectContaining({ kind: 'MAINTAINERS', original: 'origin', weight: 2 })]);
    expect(m.votes[0]!.detail).toMatch(
      /^authors of the shared history \(most commits: ann 95%, al 5%\) made .*: the origin keeps its maintainers$/,
    );
    expect(m.evidence.map((e) => [e.kind, e.strength])).toEqual([['MAINTAINERS_CONTINUED', 'STRONG']]);
  });

  it('leans (weight 1) between 1.5 and 3 times the other side, and says nothing below', () => {
    expect(maintainers(topo([a('ann', 2), a('x', 8)], [a('ann', 1), a('y', 9)]), null).votes[0]).toMatchObject({
      original: 'origin',
      weight: 1,
    });
    expect(maintainers(topo([a('ann', 2), a('x', 8)], [a('ann', 3), a('y', 12)]), null).votes[0]).toMatchObject({
      original: 'none',
      weight: 0,
    });
  });

  it('gives nothing to maintainers who left with a side renamed at the fork point', () => {
    const m = maintainers(topo([a('ann', 10)], [a('bob', 10)]), 'origin');
    expect(m.votes[0]).toMatchObject({ original: 'none', weight: 0 });
    expect(m.votes[0]!.detail).toContain('which took a new name at the fork point');
  });

  it('names a third line when neither side keeps them, and counts commits held under other ids', () => {
    const m = maintainers(topo([a('x', 10)], [a('y', 10)], { equivalentCommits: 7 }), null);
    expect(m.thirdLine).toBe(true);
    expect(m.votes[0]!.detail).toContain('and of the 7 commits both sides hold under other ids');
    expect(m.votes[0]!.detail).toMatch(/: neither side keeps them$/);
  });

  it('is not read unless both sides have later commits', () => {
    const m = maintainers(topo([a('ann', 10)], []), null);
    expect([m.bothWent, m.thirdLine, m.votes, m.evidence]).toEqual([false, false, [], []]);
  });
});

describe('maintainer continuity', () => {
  const a = (name: string, email: string, commits: number) => ({ name, email, commits });

  it('is high on the side the pre-fork authors went on with, near zero on a side of newcomers', () => {
    const c = continuity(
      [a('Maxim Bublis', 'm@x', 117), a('Chris Bandy', 'c@x', 4)],
      [a('Maxim Bublis', 'm@x', 5), a('Emile Pels', 'e@x', 1)],
      [a('Tim Heckman', 't@x', 40), a('dependabot[bot]', 'bot@x', 64)],
    );
    expect(c.origin).toBeGreaterThan(0.8);
    expect(c.target).toBe(0);
    expect(c.counted.target).toBe(40); // automation is nobody's maintainer
    expect(c.core[0]).toEqual({ name: 'Maxim Bublis', share: 117 / 121 });
  });

  it('joins one person under several names or addresses', () => {
    const c = continuity(
      [
        a('Heather Arthur', 'fayearthur@gmail.com', 76),
        a('harthur', 'fayearthur@gmail.com', 40),
        a('Heather Arthur', 'harthur@users.noreply.github.com', 2),
      ],
      [a('Deceased', 'fayearthur@gmail.com', 1)],
      [a('Robert Plummer', 'r@x', 10)],
    );
    expect(c.origin).toBe(1); // all three records are one person, who made the origin's one later commit
    expect(c.core).toHaveLength(1);
  });

  it('counts commits per author deterministically', () => {
    expect(
      countAuthors([
        { name: 'b', email: 'x' },
        { name: 'a', email: 'y' },
        { name: 'b', email: 'x' },
      ]),
    ).toEqual([a('b', 'x', 2), a('a', 'y', 1)]);
  });
});
