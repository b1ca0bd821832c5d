import { DIRECTION_MIN_WEIGHT, WEIGHTS, lineageSignals } from '../../src/lineage/signals/index';
import type { Topology } from '../../src/types';
import { author as a, FORK, forked, name, side } from './fixtures';

const pkg = (n: string) => name('package', n, 'package:package.json');
const none = { origin: 0, target: 0 };

describe('the lineage signals runner', () => {
  it('records the signals, evidence items and chronology facts in a fixed order', () => {
    const topo: Topology = forked({
      originOnly: 10,
      targetOnly: 40,
      authors: { preFork: [a('ann', 100)], origin: [a('ann', 10)], target: [a('bob', 40)] },
      forkPointNames: [pkg('foo')],
      renames: {
        origin: [],
        target: [
          {
            key: 'package:package.json',
            kind: 'package',
            from: 'foo',
            to: 'bar',
            commit: 'a'.repeat(40),
            time: 1_600_086_400,
            path: 'package.json',
          },
        ],
      },
      syncMerges: { origin: 0, target: 5 },
    });
    const out = lineageSignals(
      topo,
      { origin: side([pkg('foo')], '# foo\n\nThis project has moved to bar.\n'), target: side([pkg('bar')], '# bar\n\nA fork of foo.\n') },
      { origin: 25, target: 0 },
    );
    expect(out.result.signals.map((s) => [s.kind, s.original, s.weight])).toEqual([
      ['MAINTAINERS', 'origin', '2.0000'],
      ['IDENTITY', 'origin', '2.0000'],
      ['RENAMED_AT_FORK', 'origin', '3.0000'],
      ['DECLARATION', 'origin', '2.0000'],
      ['SUCCESSOR', 'origin', '3.0000'],
      ['SYNC_MERGES', 'origin', '1.5000'],
      ['POST_FORK_CHRONOLOGY', 'origin', '1.0000'],
    ]);
    expect(out.evidence.map((e) => e.kind)).toEqual([
      'MAINTAINERS_CONTINUED',
      'IDENTITY_KEPT',
      'RENAMED_AT_FORK',
      'DECLARED_UPSTREAM',
      'SUCCESSOR_NAMED',
      'SYNC_MERGES',
      'POST_FORK_CHRONOLOGY',
    ]);
    expect(out.chronology.map((c) => [c.kind, c.side])).toEqual([
      ['FORK_POINT', 'both'],
      ['DECLARED_UPSTREAM', 'target'],
      ['SUCCESSOR_NAMED', 'origin'],
    ]);
    expect(out.original).toBe('origin');
    expect(out.result).toMatchObject({
      original: 'origin',
      certain: false,
      thirdLine: false,
      forkPoints: [{ commit: FORK, time: '1600000000' }],
    });
    expect([out.declaration, out.successorNamedBy, out.declaredInCodeBy, out.commonUpstream]).toEqual([
      { by: 'target', specific: false },
      'origin',
      null,
      null,
    ]);
  });

  it(`gives a direction from ${DIRECTION_MIN_WEIGHT} and twice the other side's weight`, () => {
    const run = (merges: [number, number], postFork: [number, number], pinned = pkg('foo')) =>
      lineageSignals(
        forked({ forkPointNames: [pkg('foo')], syncMerges: { origin: merges[0], target: merges[1] } }),
        { origin: side([pinned]), target: side([pkg('bar')]) },
        { origin: postFork[0], target: postFork[1] },
      ).original;
    expect(run([0, 0], [0, 25])).toBe('origin'); // identity 2 against 1
    expect(run([0, 0], [0, 0], pkg('baz'))).toBeNull(); // neither kept the name: no signal
    expect(run([0, 4], [0, 0], pkg('baz'))).toBeNull(); // sync merges alone: 1.5
    expect(run([0, 4], [25, 0], pkg('baz'))).toBe('origin'); // 1.5 + 1
    expect(run([0, 10], [0, 25], pkg('baz'))).toBe('origin'); // 2 against 1: twice
    expect(run([4, 0], [0, 25])).toBeNull(); // identity 2 against 1.5 + 1: not twice
  });

  it('lets ancestry decide for certain', () => {
    const out = lineageSignals(
      forked({ targetIsAncestor: true, forkPointNames: [pkg('foo')] }),
      { origin: side([pkg('foo')]), target: side([pkg('bar')]) },
      none,
    );
    expect([out.original, out.certain, out.result.signals[0]!.kind]).toEqual(['target', true, 'ANCESTRY']);
  });

  it('keeps every weight named in WEIGHTS', () => {
    expect(WEIGHTS.ANCESTRY).toBe(10);
    expect(WEIGHTS.IDENTITY.package).toBe(2);
    expect(WEIGHTS.IDENTITY_MAX).toBe(2.5);
  });
});
