import { CursorCodec, baseServiceOptions, openServiceDb, runMain, startService } from '@lineage/service-kit';
import { loadIndexerConfig } from './config';
import { SCHEMA, migrations } from './migrations';
import { Projections } from './projections';
import { registerHandlers } from './handlers';
import { ChainSource } from './chain-source';
import { Indexer } from './indexer';
import { WriterLease } from './lease';
import { indexerMetrics } from './metrics';

runMain('fact-indexer', async () => {
  const config = loadIndexerConfig();
  const db = await openServiceDb('fact-indexer', config, SCHEMA, migrations);
  const projections = new Projections(db, new CursorCodec(config.CURSOR_SECRET));
  let indexer: Indexer | null = null;
  const status = {
    get isWriter() {
      return indexer?.isWriter ?? false;
    },
    get state() {
      return indexer?.state ?? ('standby' as const);
    },
    get haltReason() {
      return indexer?.haltReason ?? null;
    },
  };
  await startService({
    ...baseServiceOptions('fact-indexer', config),
    db,
    // The writer that halted is not ready: that is where an SRE looks first. A standby (or a healthy writer) stays ready.
    checks: {
      indexer: async () =>
        indexer?.isWriter && indexer.state === 'halted' ? { ok: false, detail: `halted: ${indexer.haltReason}` } : { ok: true },
    },
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
});
