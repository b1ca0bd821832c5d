import { postForkChronology } from '../../src/lineage/signals/post-fork-chronology';
import { EMPTY_TOPOLOGY } from '../../src/lineage/topology';
import { forked } from './fixtures';

const vote = (origin: number, target: number) => postForkChronology(forked(), { origin, target }).votes[0];

describe('post-fork chronology', () => {
  it('makes the side that had the material first its source', () => {
    expect(vote(30, 10)).toMatchObject({ kind: 'POST_FORK_CHRONOLOGY', original: 'origin', weight: 1 });
    expect(vote(5, 20)).toMatchObject({ original: 'target', weight: 1 });
    expect(vote(5, 20)!.detail).toBe(
      'matched material first seen after the fork point appears earlier in the origin (5 fingerprints) and earlier in the target (20)',
    );
  });

  it('needs 20 fingerprints and twice the other side', () => {
    expect(vote(19, 0)).toMatchObject({ original: 'none', weight: 0 });
    expect(vote(30, 16)).toMatchObject({ original: 'none', weight: 0 });
  });

  it('says nothing without material or without shared history', () => {
    expect(postForkChronology(forked(), { origin: 0, target: 0 }).votes).toEqual([]);
    expect(postForkChronology(EMPTY_TOPOLOGY(), { origin: 40, target: 0 }).votes).toEqual([]);
  });
});
