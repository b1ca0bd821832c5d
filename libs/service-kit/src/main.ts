import type { Knex } from 'knex';
import { ConfigError } from './config';
import { createDb, ensureDatabase, migrate, type Migration } from './db';
import type { ServiceOptions } from './runtime';

interface BaseConfig {
  HTTP_HOST: string;
  HTTP_PORT: number;
  NATS_URL: string;
  LOG_LEVEL: string;
  NATS_REQUEST_TIMEOUT_MS: number;
  SHUTDOWN_TIMEOUT_MS: number;
  SHUTDOWN_DELAY_MS: number;
}

/** The part of `startService` options every service takes straight from its configuration. */
export function baseServiceOptions(
  name: string,
  c: BaseConfig,
): Pick<ServiceOptions, 'name' | 'host' | 'port' | 'natsUrl' | 'logLevel' | 'requestTimeoutMs' | 'shutdownTimeoutMs' | 'shutdownDelayMs'> {
  return {
    name,
    host: c.HTTP_HOST,
    port: c.HTTP_PORT,
    natsUrl: c.NATS_URL,
    logLevel: c.LOG_LEVEL,
    requestTimeoutMs: c.NATS_REQUEST_TIMEOUT_MS,
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: c.SHUTDOWN_DELAY_MS,
  };
}

/** A schema owner's pool; in development (`MIGRATE_ON_START`) the schema is migrated first. */
export async function openServiceDb(
  name: string,
  c: { DATABASE_URL: string; DATABASE_POOL_MAX: number; DATABASE_ACQUIRE_TIMEOUT_MS?: number; MIGRATE_ON_START: boolean },
  schema: string,
  migrations: Migration[],
): Promise<Knex> {
  const db = createDb({
    url: c.DATABASE_URL,
    schema,
    poolMax: c.DATABASE_POOL_MAX,
    applicationName: name,
    acquireTimeoutMs: c.DATABASE_ACQUIRE_TIMEOUT_MS,
  });
  if (c.MIGRATE_ON_START) {
    await ensureDatabase(c.DATABASE_URL);
    await migrate(db, schema, migrations);
  }
  return db;
}

/** Run a service's `main`; a start-up failure is one JSON line (a config error names variables, never values) and exit 1. */
export function runMain(name: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    const line =
      err instanceof ConfigError
        ? { level: 'fatal', service: name, msg: err.message }
        : { level: 'fatal', service: name, msg: 'start-up failed', err: err instanceof Error ? err.message : String(err) };
    console.error(JSON.stringify(line));
    process.exit(1);
  });
}
