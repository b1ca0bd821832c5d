// The write side against a real PostgreSQL: journaled changes roll back
// exactly, canonical views survive rollbacks, and re-applying is a no-op.
import { createDb, migrate, type Knex } from '@lineage/service-kit';
import { freshDatabase } from '../../../test/support/processes';
import { SCHEMA, migrations } from '../src/migrations';
import { Batch, eventsBetween, rollbackTo } from '../src/store';
import type { ChainEvent } from '../src/fold';

let db: Knex;
let drop: () => Promise<void>;

beforeAll(async () => {
  const fresh = await freshDatabase('lineage_facts_store');
  drop = fresh.drop;
  db = createDb({ url: fresh.url, schema: SCHEMA, poolMax: 2, applicationName: 'store-test' });
  await migrate(db, SCHEMA, migrations);
}, 30_000);
afterAll(async () => {
  await db?.destroy();
  await drop?.();
});

const h = (c: string) => `0x${c.repeat(64)}`;
const ev = (name: ChainEvent['name'], block: number, logIndex: number, args: ChainEvent['args']): ChainEvent => ({
  name,
  blockNumber: String(block),
  blockHash: h(String(block % 10)),
  blockTimestamp: String(1000 + block),
  txHash: h('e'),
  logIndex,
  args,
});
const policy = ev('PolicyRegistered', 5, 0, {
  policyId: '1',
  family: h('f'),
  resolver: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  version: '1',
  liveness: '3600',
  bond: '0',
  freshness: '500',
});
const asserted = (id: string, block: number, outcome = '1') =>
  ev('FactAsserted', block, 0, {
    assertionId: id,
    factKey: '9',
    asserter: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    templateId: '1',
    subjectHash: h('1'),
    outcome,
    manifestHash: h('2'),
    policyId: '1',
    expiresAt: '5000',
  });
const resolved = (id: string, block: number, rid: string) =>
  ev('AssertionResolved', block, 1, {
    assertionId: id,
    factKey: '9',
    resolutionId: rid,
    outcome: '1',
    how: '1',
    resolvedBy: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  });

/** Apply events in one transaction; blocks at or below `finalized` also reach canonical. */
async function apply(events: ChainEvent[], finalized: bigint): Promise<void> {
  await db.transaction(async (trx) => {
    const b = new Batch(trx, finalized);
    await b.load(events);
    for (const e of events) {
      b.applyLatest(e);
      if (BigInt(e.blockNumber) <= finalized) b.applyCanonical(e);
    }
    await b.flush();
  });
}
const fact = () => db.withSchema(SCHEMA).table('facts').where('fact_key', '9').first();
const count = async (table: string) => Number((await db.withSchema(SCHEMA).table(table).count({ n: '*' }))[0]!.n);

it('finalized events reach both views; unfinalized ones only latest, and roll back exactly', async () => {
  await apply([policy, asserted('1', 10), resolved('1', 11, '1')], 11n);
  const final = await fact();
  expect(final.canonical).toMatchObject({ status: 'RESOLVED', assertionId: '1', resolutionId: '1' });
  expect(String(final.canonical_fresh_until)).toBe(String(1011 + 500));
  expect(String(final.fresh_until)).toBe(String(1011 + 500));
  expect(await count('journal')).toBe(0);

  // A newer assertion above the finalized block: latest moves, canonical stays, freshness is suspended.
  await apply([asserted('2', 13, '2')], 11n);
  const tip = await fact();
  expect(tip.latest).toMatchObject({ status: 'ASSERTED', assertionId: '2', outcome: 'FALSE' });
  expect(tip.canonical).toEqual(final.canonical);
  expect(tip.fresh_until).toBeNull();
  expect(await count('journal')).toBe(2);

  await db.transaction((trx) => rollbackTo(trx, 11n));
  const back = await fact();
  expect(back.latest).toEqual(final.latest);
  expect(back.canonical).toEqual(final.canonical);
  expect(String(back.fresh_until)).toBe(String(1011 + 500));
  expect(await db.withSchema(SCHEMA).table('assertions').where('assertion_id', '2').first()).toBeUndefined();
  expect(await count('events')).toBe(3);
  expect(await count('journal')).toBe(0);
});

it('applying the same block twice changes nothing', async () => {
  const events = [asserted('2', 13, '2')];
  await apply(events, 11n);
  const once = { fact: await fact(), events: await count('events'), assertions: await count('assertions') };
  await apply(events, 11n);
  expect({ fact: await fact(), events: await count('events'), assertions: await count('assertions') }).toEqual(once);
  expect((await eventsBetween(db, 12n, 13n)).map((e) => e.name)).toEqual(['FactAsserted']);
});

it('a fact first asserted above the finalized block disappears when rolled back', async () => {
  const other = { ...asserted('3', 14), args: { ...asserted('3', 14).args, factKey: '77' } };
  await apply([other], 11n);
  expect(await db.withSchema(SCHEMA).table('facts').where('fact_key', '77').first()).toBeDefined();
  await db.transaction((trx) => rollbackTo(trx, 13n));
  expect(await db.withSchema(SCHEMA).table('facts').where('fact_key', '77').first()).toBeUndefined();
  expect((await fact()).latest).toMatchObject({ assertionId: '2' });
});
