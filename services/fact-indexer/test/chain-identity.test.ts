import { compareIdentity, identityOf, type ChainIdentity } from '../src/chain-identity';
import { Projections } from '../src/projections';

const h = (c: string) => `0x${c.repeat(64)}`;
const REGISTRY = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const stored: ChainIdentity = { chainId: '31337', registry: REGISTRY, deployedBlock: '1', deployedBlockHash: h('a') };
const now = { chainId: '31337', registry: REGISTRY, deployedBlockHash: h('a') };

describe('compareIdentity', () => {
  it('same chain id, registry (in any case) and deployment block hash: the same chain', () => {
    expect(compareIdentity(stored, now)).toEqual({ verdict: 'same' });
    expect(compareIdentity(stored, { ...now, registry: '0x5FbDB2315678afecb367f032d93F642f64180aa3', deployedBlockHash: h('A') })).toEqual({
      verdict: 'same',
    });
  });

  it('a fresh chain with the same id and address: the deployment block hash differs, and the reason names it', () => {
    const v = compareIdentity(stored, { ...now, deployedBlockHash: h('b') });
    expect(v.verdict).toBe('different');
    expect(v.verdict === 'different' && v.reason).toBe(
      `a different chain than the one indexed: deployment block 1 hash differs (indexed ${h('a')}, node ${h('b')})`,
    );
  });

  it('another chain id or registry address: different, naming each', () => {
    const byId = compareIdentity(stored, { ...now, chainId: '1' });
    expect(byId).toEqual({ verdict: 'different', reason: 'a different chain than the one indexed: chain id 31337 (indexed) vs 1 (node)' });
    const both = compareIdentity(stored, { chainId: '1', registry: '0x' + '1'.repeat(40), deployedBlockHash: h('a') });
    expect(both.verdict === 'different' && both.reason).toMatch(
      /chain id 31337 \(indexed\) vs 1 \(node\); registry address differs \(indexed 0x5fbd.*, now 0x1111.*\)$/,
    );
  });

  it('the node lacks the deployment block (lagging): unknown, never different', () => {
    expect(compareIdentity(stored, { ...now, deployedBlockHash: null })).toEqual({
      verdict: 'unknown',
      reason: "the node does not have the registry's deployment block 1 yet",
    });
    // ...but a different chain id needs no block to tell.
    expect(compareIdentity(stored, { ...now, chainId: '5', deployedBlockHash: null }).verdict).toBe('different');
  });

  it('a cursor written before the hash was recorded compares chain id and registry only', () => {
    const legacy = { ...stored, deployedBlock: null, deployedBlockHash: null };
    expect(compareIdentity(legacy, { ...now, deployedBlockHash: h('f') })).toEqual({ verdict: 'same' });
    expect(compareIdentity(legacy, { ...now, deployedBlockHash: null })).toEqual({ verdict: 'same' });
    expect(compareIdentity(legacy, { ...now, registry: null }).verdict).toBe('different');
  });

  it('reads the identity from a cursor row (bigint columns may arrive as numbers)', () => {
    expect(
      identityOf({ chain_id: '31337', registry: REGISTRY, deployed_block: 7 as unknown as string, deployed_block_hash: h('a') }),
    ).toEqual({ ...stored, deployedBlock: '7' });
    expect(identityOf({ chain_id: '31337', registry: REGISTRY, deployed_block: null, deployed_block_hash: null })).toMatchObject({
      deployedBlock: null,
      deployedBlockHash: null,
    });
  });
});

describe('Projections.meta', () => {
  const cursor = { indexed_block: '10', finalized_block: '8', head_block: '12', head_timestamp: '1000', halted: null };
  it('lag is head − indexed while the writer runs', () => {
    expect(Projections.meta(cursor)).toEqual({ indexedBlock: '10', finalizedBlock: '8', lagBlocks: '2', halted: false });
    expect(Projections.meta({ ...cursor, head_block: '10' }).lagBlocks).toBe('0');
  });
  it('lag is unknown, not 0, when halted or when the head is below the indexed block', () => {
    expect(Projections.meta({ ...cursor, halted: 'a different chain than the one indexed: …' })).toEqual({
      indexedBlock: '10',
      finalizedBlock: '8',
      lagBlocks: null,
      halted: true,
    });
    expect(Projections.meta({ ...cursor, head_block: '3' }).lagBlocks).toBeNull();
  });
  it('nothing indexed yet', () => {
    expect(Projections.meta(undefined)).toEqual({ indexedBlock: null, finalizedBlock: null, lagBlocks: null, halted: false });
  });
});
