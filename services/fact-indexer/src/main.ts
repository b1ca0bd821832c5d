import { ConfigError, CursorCodec, createDb, ensureDatabase, migrate, startService } from '@lineage/service-kit';
import { loadIndexerConfig } from './config';
import { SCHEMA, migrations } from './migrations';
import { Projections } from './projections';
import { registerHandlers } from './handlers';

async function main(): Promise<void> {
  const config = loadIndexerConfig();
  const db = createDb({ url: config.DATABASE_URL, schema: SCHEMA, poolMax: config.DATABASE_POOL_MAX, applicationName: 'fact-indexer' });
  if (config.MIGRATE_ON_START) {
    await ensureDatabase(config.DATABASE_URL);
    await migrate(db, SCHEMA, migrations);
  }
  const projections = new Projections(db, new CursorCodec(config.CURSOR_SECRET));
  await startService({
    name: 'fact-indexer',
    port: config.HTTP_PORT,
    natsUrl: config.NATS_URL,
    logLevel: config.LOG_LEVEL,
    requestTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
    db,
    onNats: (nats) => registerHandlers(nats, projections),
  });
}

main().catch((err) => {
  console.error(JSON.stringify({ level: 'fatal', service: 'fact-indexer', msg: err instanceof ConfigError ? err.message : 'start-up failed', err: err instanceof ConfigError ? undefined : String(err) }));
  process.exit(1);
});
