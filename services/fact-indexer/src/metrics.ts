import { Counter, Gauge, type Registry } from 'prom-client';

export interface IndexerMetrics {
  lag: Gauge;
  writer: Gauge;
  halted: Gauge;
  indexed: Gauge;
  finalized: Gauge;
  events: Counter;
  reorgs: Counter;
}

/** The indexer's gauges, in the service's own registry (served at /metrics). */
export function indexerMetrics(registry: Registry): IndexerMetrics {
  const registers = [registry];
  return {
    lag: new Gauge({ name: 'lineage_indexer_lag_blocks', help: 'Chain head minus the newest indexed block', registers }),
    writer: new Gauge({ name: 'lineage_indexer_is_writer', help: '1 when this replica holds the writer lease', registers }),
    halted: new Gauge({
      name: 'lineage_indexer_halted',
      help: '1 on the writer when it halted: a reorg below the finalized block, or a different chain than the one indexed',
      registers,
    }),
    indexed: new Gauge({ name: 'lineage_indexer_indexed_block', help: 'Newest indexed block', registers }),
    finalized: new Gauge({ name: 'lineage_indexer_finalized_block', help: 'Block up to which canonical views are applied', registers }),
    events: new Counter({ name: 'lineage_indexer_events_total', help: 'Registry events applied', registers }),
    reorgs: new Counter({ name: 'lineage_indexer_reorgs_total', help: 'Reorgs rolled back', registers }),
  };
}
