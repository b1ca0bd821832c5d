import knexFactory, { type Knex } from 'knex';

export type { Knex };

export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** A pool whose every connection works inside the owning service's schema. */
export function createDb(opts: { url: string; schema: string; poolMax: number; applicationName: string }): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: opts.url, application_name: opts.applicationName },
    searchPath: [opts.schema, 'public'],
    pool: { min: 0, max: opts.poolMax, idleTimeoutMillis: 30_000 },
    acquireConnectionTimeout: 10_000,
  });
}

/**
 * Apply the service's migrations (kept in code, in order) inside its own schema,
 * with its own migrations table, so services never step on each other.
 * Concurrent runners are serialised by knex's migration lock table.
 */
export async function migrate(db: Knex, schema: string, migrations: Migration[]): Promise<string[]> {
  await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
  const [, applied] = (await db.migrate.latest({
    schemaName: schema,
    tableName: 'knex_migrations',
    migrationSource: {
      getMigrations: async () => migrations,
      getMigrationName: (m: Migration) => m.name,
      getMigration: async (m: Migration) => m,
    },
  })) as [number, string[]];
  return applied;
}

export async function dbCheck(db: Knex): Promise<{ ok: boolean; detail?: string }> {
  await db.raw('select 1');
  return { ok: true };
}

/** Create the database named in the URL if it does not exist (development convenience). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name || !/^[A-Za-z0-9_]+$/.test(name)) return;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const db = knexFactory({ client: 'pg', connection: admin.toString(), pool: { min: 0, max: 1 } });
  try {
    const rows = await db.raw('select 1 from pg_database where datname = ?', [name]);
    if (rows.rows.length === 0) await db.raw('CREATE DATABASE ??', [name]).catch((e: { code?: string }) => {
      if (e.code !== '42P04') throw e; // created concurrently by another service
    });
  } finally {
    await db.destroy();
  }
}
