import { ConfigError, createDb, ensureDatabase, ensureStreams, migrate, startService } from '@lineage/service-kit';
import type { JetStreamClient } from '@nats-io/jetstream';
import { loadPipelineConfig } from './config';
import { SCHEMA, migrations } from './migrations';
import { Analyses } from './analyses';
import { registerHandlers } from './handlers';
import { ENGINE_VERSION } from './engine-version';

async function main(): Promise<void> {
  const config = loadPipelineConfig();
  const db = createDb({ url: config.DATABASE_URL, schema: SCHEMA, poolMax: config.DATABASE_POOL_MAX, applicationName: 'analysis-pipeline' });
  if (config.MIGRATE_ON_START) {
    await ensureDatabase(config.DATABASE_URL);
    await migrate(db, SCHEMA, migrations);
  }
  let js: JetStreamClient | null = null;
  const analyses = new Analyses(db, () => js!, ENGINE_VERSION);
  await startService({
    name: 'analysis-pipeline',
    port: config.HTTP_PORT,
    natsUrl: config.NATS_URL,
    logLevel: config.LOG_LEVEL,
    requestTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
    db,
    onNats: async (nats) => {
      js = await ensureStreams(nats.nc);
      registerHandlers(nats, analyses);
    },
  });
}

main().catch((err) => {
  console.error(JSON.stringify({ level: 'fatal', service: 'analysis-pipeline', msg: err instanceof ConfigError ? err.message : 'start-up failed', err: err instanceof ConfigError ? undefined : String(err) }));
  process.exit(1);
});
