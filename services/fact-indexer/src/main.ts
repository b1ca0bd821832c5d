import { ConfigError, CursorCodec, createDb, ensureDatabase, migrate, startService } from '@lineage/service-kit';
import { loadIndexerConfig } from './config';
import { SCHEMA, migrations } from './migrations';
import { Projections } from './projections';
import { registerHandlers } from './handlers';
import { ChainSource } from './chain-source';
import { Indexer } from './indexer';
import { WriterLease } from './lease';
import { indexerMetrics } from './metrics';

async function main(): Promise<void> {
  const config = loadIndexerConfig();
  const db = createDb({ url: config.DATABASE_URL, schema: SCHEMA, poolMax: config.DATABASE_POOL_MAX, applicationName: 'fact-indexer' });
  if (config.MIGRATE_ON_START) {
    await ensureDatabase(config.DATABASE_URL);
    await migrate(db, SCHEMA, migrations);
  }
  const projections = new Projections(db, new CursorCodec(config.CURSOR_SECRET));
  let indexer: Indexer | null = null;
  const status = { get isWriter() { return indexer?.isWriter ?? false; }, get state() { return indexer?.state ?? ('standby' as const); } };
  await startService({
    name: 'fact-indexer',
    port: config.HTTP_PORT,
    natsUrl: config.NATS_URL,
    logLevel: config.LOG_LEVEL,
    requestTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
    db,
    beforeDrain: [{ name: 'indexer', run: async () => indexer?.stop() }],
    onNats: (nats, rt) => {
      const chain = new ChainSource(nats, config.INDEXER_CHAIN_TIMEOUT_MS);
      registerHandlers(nats, projections, chain, status);
      if (!config.INDEXER_WRITER_ENABLED) return;
      const lease = new WriterLease(config.DATABASE_URL, (err) => rt.log.warn({ err: String(err) }, 'writer lease connection lost'));
      indexer = new Indexer(db, chain, lease, indexerMetrics(rt.metrics.registry), rt.log.child({ component: 'indexer' }), {
        pollMs: config.INDEXER_POLL_INTERVAL_MS,
        batchBlocks: config.INDEXER_BATCH_BLOCKS,
        tipBlocks: config.INDEXER_TIP_BLOCKS,
        resetOnChainChange: config.INDEXER_RESET_ON_CHAIN_CHANGE,
      });
      indexer.start();
    },
  });
}

main().catch((err) => {
  console.error(JSON.stringify({ level: 'fatal', service: 'fact-indexer', msg: err instanceof ConfigError ? err.message : 'start-up failed', err: err instanceof ConfigError ? undefined : String(err) }));
  process.exit(1);
});
