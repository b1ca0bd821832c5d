import { ancestry } from '../../src/lineage/signals/ancestry';
import { EMPTY_TOPOLOGY } from '../../src/lineage/topology';
import { FORK, forked } from './fixtures';

describe('ancestry', () => {
  it("makes the side whose pinned commit the other's history holds the original, for certain", () => {
    const a = ancestry(forked({ originIsAncestor: true, originOnly: 0, targetOnly: 42 }));
    expect(a.certain).toBe('origin');
    expect(a.votes).toEqual([
      {
        kind: 'ANCESTRY',
        original: 'origin',
        weight: 10,
        detail: "the origin's pinned commit is in the target's history: the target continues it (42 commits after it)",
      },
    ]);
    expect(a.evidence.map((e) => [e.kind, e.strength, e.score])).toEqual([['PINNED_COMMIT_IN_OTHER_HISTORY', 'STRONG', '1.0000']]);
  });

  it('records every fork point as a chronology fact', () => {
    const a = ancestry(
      forked({
        forkPoints: [
          { commit: FORK, time: 1_600_000_000 },
          { commit: 'e'.repeat(40), time: 1_500_000_000 },
        ],
        originOnly: 3,
        targetOnly: 4,
        truncated: true,
      }),
    );
    expect(a.chronology.map((c) => [c.kind, c.side, c.time, c.commit])).toEqual([
      ['FORK_POINT', 'both', '1600000000', FORK],
      ['FORK_POINT', 'both', '1500000000', 'e'.repeat(40)],
    ]);
    expect(a.chronology[0]!.detail).toContain('origin made 3 commits after it, target 4 (counts stop at maxCommits)');
    expect(a.certain).toBeNull();
    expect(a.votes).toEqual([]);
  });

  it('records the same pinned commit as no direction, and says nothing without shared history', () => {
    const same = ancestry(forked({ originIsAncestor: true, targetIsAncestor: true }));
    expect(same.votes).toEqual([{ kind: 'ANCESTRY', original: 'none', weight: 0, detail: 'both sides pin the same commit' }]);
    expect(same.certain).toBeNull();
    const none = ancestry({ ...EMPTY_TOPOLOGY(), originIsAncestor: true });
    expect([none.votes, none.evidence, none.chronology, none.certain]).toEqual([[], [], [], null]);
  });
});
