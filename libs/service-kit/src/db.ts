import { createHash } from 'node:crypto';
import knexFactory, { type Knex } from 'knex';
import { isStoreUnavailable } from './unavailable';

export type { Knex };

export interface Migration {
  name: string;
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

const quiet = (): void => undefined;

/** How long a query may wait for a pooled connection by default: well inside a NATS request's 5 s, so a caller gets 503, not a timeout. */
export const DB_ACQUIRE_TIMEOUT_MS = 3_000;

/**
 * A pool whose every connection works inside the owning service's schema. When the database goes away nothing
 * waits long: a connect gives up after the acquire timeout too (a black-holed address never refuses), and a query
 * that cannot get a connection within it fails; either becomes 503 SERVICE_UNAVAILABLE (unavailable.ts).
 */
export function createDb(opts: { url: string; schema: string; poolMax: number; applicationName: string; acquireTimeoutMs?: number }): Knex {
  const acquireTimeoutMs = opts.acquireTimeoutMs ?? DB_ACQUIRE_TIMEOUT_MS;
  return knexFactory({
    client: 'pg',
    connection: {
      connectionString: opts.url,
      application_name: opts.applicationName,
      connectionTimeoutMillis: acquireTimeoutMs,
      // Idle pooled connections to a vanished server are noticed by TCP keepalive rather than by the next query.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    },
    searchPath: [opts.schema, 'public'],
    pool: { min: 0, max: opts.poolMax, idleTimeoutMillis: 30_000 },
    acquireConnectionTimeout: acquireTimeoutMs,
    // knex would print a plain-text line per failed connect ("Acquire connection error") into the JSON logs; every
    // such failure also reaches the query that wanted the connection, and is reported (and mapped) there.
    log: { warn: quiet, error: quiet, debug: quiet, deprecate: quiet },
  });
}

/**
 * Apply the service's migrations (kept in code, in order) inside its own schema,
 * with its own migrations table, so services never step on each other.
 * Replicas started together race here: knex's lock table refuses a second
 * runner ("Migration table is already locked") rather than making it wait, and
 * two first runs race on creating the schema and the lock table itself. Those
 * refusals are waited out (the winner migrates; the others then find nothing
 * to do); anything else fails at once.
 */
export async function migrate(db: Knex, schema: string, migrations: Migration[], waitMs = 60_000): Promise<string[]> {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
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
    } catch (e) {
      if (!isMigrationRace(e) || Date.now() > until) throw e;
      await dropDuplicateLockRows(db, schema);
      await new Promise((r) => setTimeout(r, 200 + Math.floor(Math.random() * 300)));
    }
  }
}

/**
 * Two runners that find knex's lock table empty at the same moment both insert its one row. knex takes its lock by
 * updating the row that is unlocked and insists on exactly one, so with two rows every runner is told "already
 * locked" until it gives up (the likely cause of a 60 s timeout of migrate.int.test seen once in the clean-clone
 * suite). Nobody can hold the lock while there are two rows, so keeping the first is safe; with one row this deletes nothing.
 */
async function dropDuplicateLockRows(db: Knex, schema: string): Promise<void> {
  const table = `${schema}.knex_migrations_lock`;
  // Raw: knex's builder has no DELETE … USING (a self-join delete).
  await db.raw('DELETE FROM ?? AS a USING ?? AS b WHERE a.?? > b.??', [table, table, 'index', 'index']).catch(() => undefined);
}

/** Another runner holds knex's lock, or created the schema or a knex table a moment before this one. */
export function isMigrationRace(e: unknown): boolean {
  const err = e as { message?: string; code?: string };
  if (typeof err?.message === 'string' && err.message.includes('Migration table is already locked')) return true;
  // 42P07 duplicate_table, 42710 duplicate_object (the table's row type, created a moment before by another runner),
  // 42P06 duplicate_schema, 23505 unique_violation (concurrent CREATE … IF NOT EXISTS on the catalogs)
  return (
    err?.code === '42P07' ||
    err?.code === '42710' ||
    err?.code === '42P06' ||
    (err?.code === '23505' && /pg_namespace|pg_type|pg_class/.test(String((e as { constraint?: string }).constraint ?? err.message)))
  );
}

/**
 * Readiness: `select 1` through the pool. Fails fast with a reason when the database refuses or drops
 * connections (a refused connect fails at once; otherwise the readiness bound of 2 s cuts it short).
 */
export async function dbCheck(db: Knex): Promise<{ ok: boolean; detail?: string }> {
  try {
    await db.raw('select 1');
    return { ok: true };
  } catch (err) {
    return { ok: false, detail: isStoreUnavailable(err) ? 'unreachable' : 'query failed' };
  }
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
    if (rows.rows.length === 0)
      await db.raw('CREATE DATABASE ??', [name]).catch((e: { code?: string }) => {
        if (e.code !== '42P04') throw e; // created concurrently by another service
      });
  } finally {
    await db.destroy();
  }
}

const statementNames = new Map<string, string>();

/**
 * Run `text` ($1..$n placeholders) as a named prepared statement on one of the
 * pool's connections: PostgreSQL parses and plans it once per connection, not on
 * every call (for a hot read that is a third of the database's work). Only for
 * statements whose generic plan is as good as a custom one, such as equality on
 * indexed columns; never for a LIKE whose pattern is a parameter (the generic
 * plan of a trigram search walks the whole table).
 */
export async function preparedQuery<R>(db: Knex, text: string, values: readonly unknown[]): Promise<R[]> {
  let name = statementNames.get(text);
  if (!name) {
    name = `lineage_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    statementNames.set(text, name);
  }
  // knex has no public call for a named statement; acquire/release on its client is what its own transactions use,
  // and a second pg pool beside knex's would double the connections each replica holds.
  const client = db.client as { acquireConnection(): Promise<PgConnection>; releaseConnection(c: PgConnection): Promise<unknown> };
  // The same event knex emits for its own queries (query logging, and the plan tests that EXPLAIN them).
  db.emit('query', { sql: text, bindings: values, prepared: true });
  const conn = await client.acquireConnection();
  try {
    return (await conn.query({ name, text, values: [...values] })).rows as R[];
  } finally {
    await client.releaseConnection(conn);
  }
}
interface PgConnection {
  query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

const BIGINT_MAX = 2n ** 63n - 1n;
/**
 * Whether a decimal id fits a bigint column. The API's ids are uint256 decimal strings; one beyond a store's
 * bigint range cannot name a row, so a store answers "not found" for it without asking PostgreSQL (which
 * would fail the query: `value out of range for type bigint`).
 */
export const fitsBigint = (id: string): boolean => /^[0-9]{1,19}$/.test(id) && BigInt(id) <= BIGINT_MAX;
