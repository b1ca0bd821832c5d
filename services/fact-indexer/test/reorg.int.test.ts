// Reorgs end to end through the writer, against a real PostgreSQL and an
// in-memory chain: a reorg below the head rolls the projection back to the
// common ancestor and the new branch is applied; a reorg deeper than the
// finality window halts; a node whose head is below the indexed block is
// waited for; through all of it the chain identity stays what was recorded.
import { Registry } from 'prom-client';
import { createDb, createLogger, migrate, type Knex } from '@lineage/service-kit';
import { freshDatabase } from '../../../test/support/processes';
import { SCHEMA, migrations } from '../src/migrations';
import { Indexer } from '../src/indexer';
import { WriterLease } from '../src/lease';
import { indexerMetrics } from '../src/metrics';
import { readCursor, resetProjections, storedBlocks } from '../src/store';
import { MemoryChain, blockHash } from './support/memory-chain';

let db: Knex;
let url: string;
let drop: () => Promise<void>;
const leases: WriterLease[] = [];

beforeAll(async () => {
  const fresh = await freshDatabase('lineage_facts_reorg');
  ({ url, drop } = fresh);
  db = createDb({ url, schema: SCHEMA, poolMax: 3, applicationName: 'reorg-test' });
  await migrate(db, SCHEMA, migrations);
}, 30_000);
afterEach(async () => {
  for (const l of leases.splice(0)) await l.release();
  await db.transaction((trx) => resetProjections(trx));
});
afterAll(async () => {
  await db?.destroy();
  await drop?.();
});

const template = (id: number) => ({
  name: 'TemplateRegistered' as const,
  txHash: blockHash('e', id),
  logIndex: 0,
  args: { templateId: String(id), text: `lineage/v1: template ${id}`, textHash: blockHash('f', id) },
});

function writer(chain: MemoryChain) {
  const lease = new WriterLease(url);
  leases.push(lease);
  const metrics = indexerMetrics(new Registry());
  const ix = new Indexer(db, chain, lease, metrics, createLogger('reorg-test', 'silent'), {
    pollMs: 50,
    batchBlocks: 100,
    tipBlocks: 10,
    resetOnChainChange: false,
  });
  return { ix, metrics };
}

/** Steps until the writer has nothing more to do at once. */
async function settle(ix: Indexer): Promise<void> {
  for (let i = 0; i < 30 && (await ix.step()); i++);
}

const templates = async () =>
  (await db.withSchema(SCHEMA).table('templates').orderBy('template_id')).map((r: { template_id: string; block_number: string }) => [
    String(r.template_id),
    String(r.block_number),
  ]);

/** A chain of 12 blocks finalized 4 below the head, a template registered in blocks 3, 9 and 11, indexed to the head. */
async function indexedChain() {
  const chain = new MemoryChain(2);
  chain.lag = 4;
  for (let n = 3; n <= 12; n++) chain.push('a', n === 3 ? [template(3)] : n === 9 ? [template(9)] : n === 11 ? [template(11)] : []);
  const w = writer(chain);
  await settle(w.ix);
  expect(await readCursor(db)).toMatchObject({ indexed_block: '12', finalized_block: '8', halted: null });
  expect(await templates()).toEqual([
    ['3', '3'],
    ['9', '9'],
    ['11', '11'],
  ]);
  return { chain, ...w };
}

it('a reorg below the head: rolled back to the common ancestor, and the new branch applied', async () => {
  const { chain, ix, metrics } = await indexedChain();
  const identity = await readCursor(db);
  chain.reorg(10, 'b', 4, (n) => (n === 12 ? [template(12)] : [])); // blocks 10.. replaced: template 11 is gone, 12 appears
  await settle(ix);
  expect(ix.state).toBe('following');
  expect((await metrics.reorgs.get()).values[0]!.value).toBe(1);
  expect(await readCursor(db)).toMatchObject({ indexed_block: '13', halted: null });
  expect(await templates()).toEqual([
    ['3', '3'],
    ['9', '9'],
    ['12', '12'],
  ]);
  const blocks = await storedBlocks(db, 10n);
  expect(blocks.get(10n)?.hash).toBe(blockHash('b', 10));
  expect(blocks.get(13n)?.hash).toBe(blockHash('b', 13));
  // The chain identity is untouched by a reorg above the deployment block.
  expect(await readCursor(db)).toMatchObject({
    chain_id: identity!.chain_id,
    registry: identity!.registry,
    deployed_block: '1',
    deployed_block_hash: identity!.deployed_block_hash,
  });
});

it('a reorg deeper than the finality window: halts, the projection as it was', async () => {
  const { chain, ix, metrics } = await indexedChain();
  chain.finalizedAt = 8; // the node still reports our finalized block while it replaces it
  chain.reorg(7, 'b', 7);
  await settle(ix);
  expect(ix.state).toBe('halted');
  const c = (await readCursor(db))!;
  expect(c.halted).toMatch(/^reorg below the finalized block 8: finalized blocks cannot be undone; reset the projection/);
  expect(c).toMatchObject({ indexed_block: '12', finalized_block: '8', deployed_block_hash: blockHash('a', 1) });
  expect(await templates()).toEqual([
    ['3', '3'],
    ['9', '9'],
    ['11', '11'],
  ]);
  expect((await metrics.halted.get()).values[0]!.value).toBe(1);
  expect((await metrics.reorgs.get()).values[0]?.value ?? 0).toBe(0);
});

it('a node whose head is below the indexed block: waits, never rewinds, and goes on once it catches up', async () => {
  const { chain, ix } = await indexedChain();
  chain.truncate(10); // the same chain, lagging
  await settle(ix);
  expect(ix.state).toBe('following');
  expect(await readCursor(db)).toMatchObject({ indexed_block: '12', head_block: '10', halted: null });
  expect(await templates()).toEqual([
    ['3', '3'],
    ['9', '9'],
    ['11', '11'],
  ]);
  for (let n = 11; n <= 14; n++) chain.push('a', n === 11 ? [template(11)] : n === 14 ? [template(14)] : []);
  await settle(ix);
  expect(await readCursor(db)).toMatchObject({ indexed_block: '14', halted: null, deployed_block_hash: blockHash('a', 1) });
  expect(await templates()).toEqual([
    ['3', '3'],
    ['9', '9'],
    ['11', '11'],
    ['14', '14'],
  ]);
});
