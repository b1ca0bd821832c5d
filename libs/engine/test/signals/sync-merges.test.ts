import { syncMerges } from '../../src/lineage/signals/sync-merges';
import { EMPTY_TOPOLOGY } from '../../src/lineage/topology';
import { forked } from './fixtures';

const vote = (origin: number, target: number) => syncMerges(forked({ syncMerges: { origin, target } })).votes[0];

describe('sync merges', () => {
  it('makes the side the other keeps pulling from the original', () => {
    expect(vote(0, 4)).toMatchObject({ kind: 'SYNC_MERGES', original: 'origin', weight: 1.5 });
    expect(vote(0, 4)!.detail).toBe(
      'after the fork point the origin merged shared history 0 times, the target 4 times: the target pulls from the origin',
    );
    expect(vote(12, 1)).toMatchObject({ original: 'target', weight: 2 });
  });

  it('needs 3 merges and 3 times the other side', () => {
    expect(vote(0, 2)).toMatchObject({ original: 'none', weight: 0 });
    expect(vote(2, 5)).toMatchObject({ original: 'none', weight: 0 });
    expect(vote(2, 6)).toMatchObject({ original: 'origin', weight: 1.5 });
  });

  it('says nothing without merges or without shared history', () => {
    expect(syncMerges(forked()).votes).toEqual([]);
    expect(syncMerges({ ...EMPTY_TOPOLOGY(), syncMerges: { origin: 0, target: 9 } }).evidence).toEqual([]);
  });
});
