// The writer's recovery against a real PostgreSQL and a scripted node: a cursor
// from before the identity was recorded gets it filled; a node without the
// deployment block makes the writer wait (no halt, no reset); another hash
// there halts it, or resets in development.
import { Registry } from 'prom-client';
import { createDb, createLogger, migrate, type Knex } from '@lineage/service-kit';
import { freshDatabase } from '../../../test/support/processes';
import { SCHEMA, migrations } from '../src/migrations';
import { Indexer } from '../src/indexer';
import { WriterLease } from '../src/lease';
import { indexerMetrics } from '../src/metrics';
import { readCursor, storeBlocks, storedBlocks, writeCursor } from '../src/store';
import type { ChainSource } from '../src/chain-source';
import { REGISTRY, registryContract } from './support/memory-chain';

const hash = (chain: string, n: number) => `0x${chain}${n.toString(16).padStart(63, '0')}`;

/**
 * A node serving blocks 0..height of chain `name` (hashes differ between names), finalized `lag` blocks below its
 * head. `shared`: blocks up to `upTo` are those of chain `name` instead (a chain that forked off it after them).
 */
class FakeNode {
  shared: { name: string; upTo: number } | null = null;
  constructor(
    public name: string,
    public height: number,
    public lag = 2,
  ) {}
  private chainOf(n: number) {
    return this.shared && n <= this.shared.upTo ? this.shared.name : this.name;
  }
  header(n: number) {
    return {
      number: String(n),
      hash: hash(this.chainOf(n), n),
      parentHash: n === 0 ? hash(this.chainOf(0), 0) : hash(this.chainOf(n - 1), n - 1),
      timestamp: String(1000 + n),
    };
  }
  source(): ChainSource {
    const head = () => this.header(this.height);
    return {
      contract: async () => registryContract(),
      heads: async () => ({ latest: head(), finalized: this.header(Math.max(0, this.height - this.lag)) }),
      blocks: async (from: bigint, to: bigint) => {
        const out = [];
        for (let n = Number(from); n <= Math.min(Number(to), this.height); n++) out.push(this.header(n));
        return out;
      },
      logs: async (_from: bigint, to: bigint) => ({ toBlock: String(Math.min(Number(to), this.height)), events: [] }),
    } as unknown as ChainSource;
  }
}

let db: Knex;
let url: string;
let drop: () => Promise<void>;
const running: { lease: WriterLease }[] = [];

beforeAll(async () => {
  const fresh = await freshDatabase('lineage_facts_identity');
  ({ url, drop } = fresh);
  db = createDb({ url, schema: SCHEMA, poolMax: 3, applicationName: 'identity-test' });
  await migrate(db, SCHEMA, migrations);
}, 30_000);
afterEach(async () => {
  for (const r of running.splice(0)) await r.lease.release();
  await db.raw(`truncate ${SCHEMA}.cursor, ${SCHEMA}.blocks`);
});
afterAll(async () => {
  await db?.destroy();
  await drop?.();
});

function indexer(node: FakeNode, resetOnChainChange = false) {
  const lease = new WriterLease(url);
  running.push({ lease });
  const metrics = indexerMetrics(new Registry());
  const ix = new Indexer(db, node.source(), lease, metrics, createLogger('identity-test', 'silent'), {
    pollMs: 50,
    batchBlocks: 100,
    tipBlocks: 10,
    resetOnChainChange,
  });
  return { ix, metrics };
}

/** A cursor as the writer leaves it at block 8 of chain `a`, optionally without the identity (written before 0003). */
async function indexedChainA(withIdentity: boolean) {
  await db.transaction(async (trx) => {
    await writeCursor(trx, {
      chain_id: '31337',
      registry: REGISTRY,
      indexed_block: '8',
      finalized_block: '8',
      chain_finalized_block: '8',
      head_block: '10',
      head_timestamp: '1010',
      halted: null,
      ...(withIdentity ? { deployed_block: '1', deployed_block_hash: hash('a', 1) } : {}),
    });
    await storeBlocks(trx, [new FakeNode('a', 10).header(8)]);
  });
}

it('fills the identity of a cursor written before it was recorded, when the old check still says same chain', async () => {
  await indexedChainA(false);
  const { ix } = indexer(new FakeNode('a', 10));
  await ix.step();
  expect(ix.state).toBe('following');
  expect(await readCursor(db)).toMatchObject({ deployed_block: '1', deployed_block_hash: hash('a', 1), halted: null, indexed_block: '10' });
});

it('a cursor without identity and a node without our finalized block: waits rather than vouch for it', async () => {
  await indexedChainA(false);
  const { ix } = indexer(new FakeNode('b', 3));
  await ix.step();
  expect(ix.state).toBe('idle');
  expect(await readCursor(db)).toMatchObject({ deployed_block_hash: null, halted: null, indexed_block: '8' });
});

it('a node without the deployment block: waits (no halt, no reset); once it has another block there: halts naming it', async () => {
  await indexedChainA(true);
  const node = new FakeNode('b', 0);
  const { ix, metrics } = indexer(node, false);
  await ix.step();
  await ix.step();
  expect(ix.state).toBe('idle');
  expect(await readCursor(db)).toMatchObject({ halted: null, indexed_block: '8', deployed_block_hash: hash('a', 1) });

  node.height = 3;
  await ix.step();
  expect(ix.state).toBe('halted');
  const c = await readCursor(db);
  expect(
    c!.halted!.startsWith(
      `a different chain than the one indexed: deployment block 1 hash differs (indexed ${hash('a', 1)}, node ${hash('b', 1)}); `,
    ),
  ).toBe(true);
  expect(c!.halted).toMatch(/reset\.js --yes/);
  expect(ix.haltReason).toBe(c!.halted);
  expect(c!.indexed_block).toBe('8');
  expect((await metrics.halted.get()).values[0]!.value).toBe(1);
});

it('a halt for a different chain is lifted when a restarted writer finds the indexed chain again (configuration fixed)', async () => {
  await indexedChainA(true);
  const first = indexer(new FakeNode('b', 3));
  await first.ix.step();
  expect(first.ix.state).toBe('halted');
  expect((await readCursor(db))!.halted).toMatch(
    /if chain-reader points at the wrong node or registry, fix that and restart the fact-indexer/,
  );
  await running.pop()!.lease.release();

  const again = indexer(new FakeNode('a', 10));
  await again.ix.step();
  expect(again.ix.state).toBe('following');
  expect(await readCursor(db)).toMatchObject({ halted: null, indexed_block: '10' });
});

it('any other halt (a reorg below finality) stays until a reset, whatever the node says', async () => {
  await indexedChainA(true);
  await db.transaction((trx) =>
    writeCursor(trx, { halted: 'reorg below the finalized block 8: finalized blocks cannot be undone; reset …' }),
  );
  const { ix, metrics } = indexer(new FakeNode('a', 10));
  await ix.step();
  expect(ix.state).toBe('halted');
  expect((await metrics.halted.get()).values[0]!.value).toBe(1); // found at start-up, from the cursor
  expect(await readCursor(db)).toMatchObject({ indexed_block: '8' });
});

it('the same with INDEXER_RESET_ON_CHAIN_CHANGE: waits, then starts over on the new chain', async () => {
  await indexedChainA(true);
  const node = new FakeNode('b', 0);
  const { ix } = indexer(node, true);
  await ix.step();
  expect(await readCursor(db)).toMatchObject({ indexed_block: '8', deployed_block_hash: hash('a', 1) });
  node.height = 3;
  for (let i = 0; i < 10 && (await ix.step()); i++); // reset, recover, backfill, follow: until there is nothing more to do
  expect(ix.state).toBe('following');
  expect(await readCursor(db)).toMatchObject({ halted: null, deployed_block: '1', deployed_block_hash: hash('b', 1), indexed_block: '3' });
});

it('a running writer on a node that falls behind: the same chain waits, another chain halts', async () => {
  await indexedChainA(true);
  const a = new FakeNode('a', 10);
  const { ix } = indexer(a);
  await ix.step();
  expect(await readCursor(db)).toMatchObject({ indexed_block: '10' });
  a.height = 7; // lagging: wait, never rewind
  await ix.step();
  expect(ix.state).toBe('following');
  expect(await readCursor(db)).toMatchObject({ indexed_block: '10', halted: null });
  a.name = 'c'; // the node now serves another chain, shorter than ours
  await ix.step();
  expect(ix.state).toBe('halted');
  expect((await readCursor(db))!.halted).toMatch(/^a different chain than the one indexed: deployment block 1 hash differs/);
});

describe('a longer, different chain swapped under a writer with no unfinalized blocks (indexed == finalized)', () => {
  /** A writer caught up on chain `a` up to block 10, everything finalized: the backfill step is next to touch the node. */
  async function caughtUpOnA(resetOnChainChange = false) {
    await indexedChainA(true);
    const node = new FakeNode('a', 10, 0);
    const { ix, metrics } = indexer(node, resetOnChainChange);
    for (let i = 0; i < 10 && (await ix.step()); i++);
    expect(await readCursor(db)).toMatchObject({ indexed_block: '10', finalized_block: '10', halted: null });
    expect((await storedBlocks(db, 10n)).get(10n)?.hash).toBe(hash('a', 10));
    return { node, ix, metrics };
  }

  it('another deployment block: halts naming it before indexing a block of the new chain', async () => {
    const { node, ix, metrics } = await caughtUpOnA();
    node.name = 'c';
    node.height = 40; // longer than ours, and its finalized block is far above ours: a backfill, not a follow
    await ix.step();
    expect(ix.state).toBe('halted');
    const c = (await readCursor(db))!;
    expect(
      c.halted!.startsWith(
        `a different chain than the one indexed: deployment block 1 hash differs (indexed ${hash('a', 1)}, node ${hash('c', 1)}); `,
      ),
    ).toBe(true);
    expect(c.halted).toMatch(
      /if chain-reader points at the wrong node or registry, fix that and restart the fact-indexer; otherwise reset the projection/,
    );
    expect(ix.haltReason).toBe(c.halted);
    expect(c).toMatchObject({ indexed_block: '10', finalized_block: '10', deployed_block_hash: hash('a', 1) });
    // Nothing of chain c was stored: our block 10 is still chain a's, and no block above it exists.
    const blocks = await storedBlocks(db, 0n);
    expect([...blocks.keys()].every((n) => n <= 10n)).toBe(true);
    expect(blocks.get(10n)?.hash).toBe(hash('a', 10));
    expect((await metrics.halted.get()).values[0]!.value).toBe(1);
    // The halt sticks while the other chain is served.
    await ix.step();
    expect(ix.state).toBe('halted');
    expect(await readCursor(db)).toMatchObject({ indexed_block: '10' });
  });

  it('the same deployment block but another block at our finalized one (a fork after deployment): halts as a reorg below finality', async () => {
    const { node, ix } = await caughtUpOnA();
    node.shared = { name: 'a', upTo: 5 }; // blocks 0..5 are ours, 6.. are chain d's
    node.name = 'd';
    node.height = 40;
    await ix.step();
    expect(ix.state).toBe('halted');
    const c = (await readCursor(db))!;
    expect(c.halted).toMatch(/^reorg below the finalized block 10: finalized blocks cannot be undone; reset the projection/);
    expect(c).toMatchObject({ indexed_block: '10', finalized_block: '10' });
    expect((await storedBlocks(db, 11n)).size).toBe(0);
  });

  it('with INDEXER_RESET_ON_CHAIN_CHANGE: empties the projection and indexes the new chain instead', async () => {
    const { node, ix } = await caughtUpOnA(true);
    node.name = 'c';
    node.height = 40;
    for (let i = 0; i < 20 && (await ix.step()); i++);
    expect(ix.state).toBe('following');
    expect(await readCursor(db)).toMatchObject({
      halted: null,
      deployed_block_hash: hash('c', 1),
      indexed_block: '40',
      finalized_block: '40',
    });
    expect((await storedBlocks(db, 40n)).get(40n)?.hash).toBe(hash('c', 40));
  });

  it('a node that is simply ahead on our chain: backfills on (the check costs one header read, no halt)', async () => {
    const { node, ix } = await caughtUpOnA();
    node.height = 40;
    for (let i = 0; i < 20 && (await ix.step()); i++);
    expect(ix.state).toBe('following');
    expect(await readCursor(db)).toMatchObject({ halted: null, indexed_block: '40', finalized_block: '40' });
  });
});
