// Replicas started together each migrate their schema on start (MIGRATE_ON_START): found by the soak,
// where two of them failed start-up with "Migration table is already locked" or a duplicate lock table.
import { createDb, migrate, type Migration } from '../src/db';
import { freshDatabase } from '../../../test/support/processes';

jest.setTimeout(60_000);

const migrations: Migration[] = [
  {
    name: '0001_t',
    up: async (k) => void (await k.schema.withSchema('race').createTable('t', (t) => t.increments('id'))),
    down: async () => undefined,
  },
  { name: '0002_u', up: async (k) => void (await k.raw('select pg_sleep(0.3)')), down: async () => undefined },
];

describe('migrate, several runners at once', () => {
  it('all succeed: one applies the migrations, the others wait it out and find nothing to do', async () => {
    const database = await freshDatabase('lineage_migrate_race');
    const dbs = Array.from({ length: 4 }, () => createDb({ url: database.url, schema: 'race', poolMax: 2, applicationName: 'race' }));
    try {
      const results = await Promise.all(dbs.map((db) => migrate(db, 'race', migrations)));
      expect(results.flat().sort()).toEqual(['0001_t', '0002_u']);
      const rows = await dbs[0]!.withSchema('race').select('name').from('knex_migrations').orderBy('id');
      expect(rows.map((r: { name: string }) => r.name)).toEqual(['0001_t', '0002_u']);
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
      await database.drop();
    }
  });
});

describe('migrate after two runners both inserted the lock row', () => {
  it('repairs the lock table instead of waiting out "already locked"', async () => {
    const database = await freshDatabase('lineage_migrate_lock_rows');
    const dbs = Array.from({ length: 2 }, () => createDb({ url: database.url, schema: 'race', poolMax: 2, applicationName: 'race' }));
    try {
      expect(await migrate(dbs[0]!, 'race', migrations.slice(0, 1))).toEqual(['0001_t']);
      // The state the insert race leaves: two unlocked rows.
      await dbs[0]!.withSchema('race').table('knex_migrations_lock').insert({ is_locked: 0 });
      expect(await dbs[0]!.withSchema('race').table('knex_migrations_lock').count({ n: '*' })).toEqual([{ n: '2' }]);
      const results = await Promise.all(dbs.map((db) => migrate(db, 'race', migrations, 5_000)));
      expect(results.flat()).toEqual(['0002_u']);
      expect(await dbs[0]!.withSchema('race').table('knex_migrations_lock').count({ n: '*' })).toEqual([{ n: '1' }]);
    } finally {
      await Promise.all(dbs.map((db) => db.destroy()));
      await database.drop();
    }
  });
});
