// The pieces of `source=chain` that need no chain: a read in the FactView shape, the comparison, bounded fan-out.
import { factsApi } from '@lineage/schemas';
import { chainView, mapLimited, sameFact } from '../src/handlers';

const H = (c: string) => `0x${c.repeat(64)}`;
const read = (exists: boolean) => ({
  at: 'latest' as const,
  blockNumber: '42',
  blockHash: H('a'),
  blockTimestamp: '1700000042',
  state: exists
    ? { exists: true, outcome: 'TRUE' as const, status: 'ASSERTED' as const, assertionId: '7', resolutionId: null, manifestHash: H('c') }
    : { exists: false, outcome: null, status: null, assertionId: null, resolutionId: null, manifestHash: null },
});

describe('a chain read as a FactView', () => {
  it("has the projection view's fields, with the block it was pinned at", () => {
    const v = chainView(read(true));
    expect(v).toEqual({
      outcome: 'TRUE',
      status: 'ASSERTED',
      assertionId: '7',
      resolutionId: null,
      manifestHash: H('c'),
      blockNumber: '42',
      blockHash: H('a'),
      updatedAt: '1700000042',
    });
    expect(factsApi.FactView.parse(v)).toEqual(v);
    expect(chainView(read(false))).toBeNull();
  });

  it("matches a projection view that agrees on the contract's fields, whatever block each names", () => {
    const projected = { ...chainView(read(true))!, blockNumber: '40', blockHash: H('b'), updatedAt: '1700000040' };
    expect(sameFact(read(true).state, projected)).toBe(true);
    expect(sameFact(read(true).state, { ...projected, status: 'CHALLENGED' })).toBe(false);
    expect(sameFact(read(true).state, null)).toBe(false);
    expect(sameFact(read(false).state, null)).toBe(true);
    expect(sameFact(read(false).state, projected)).toBe(false);
  });
});

describe('mapLimited', () => {
  it('keeps the order and never runs more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const out = await mapLimited([5, 1, 4, 2, 3, 0, 6], 3, async (n) => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, n * 3));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(most).toBe(3);
    expect(await mapLimited([], 3, async () => 1)).toEqual([]);
  });

  it('fails as soon as one item fails', async () => {
    await expect(
      mapLimited([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error('chain down');
        return n;
      }),
    ).rejects.toThrow('chain down');
  });
});
