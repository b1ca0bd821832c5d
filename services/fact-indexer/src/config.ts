import { z } from 'zod';
import { baseEnv, databaseEnv, envTypes, loadConfig } from '@lineage/service-kit';

export const indexerEnv = {
  ...baseEnv,
  ...databaseEnv,
  HTTP_PORT: envTypes.port.default(8083),
  MIGRATE_ON_START: envTypes.bool.default(false),
  CURSOR_SECRET: z.string().min(16).default('lineage-dev-cursor-secret-not-for-production'),
  /** How often a caught-up writer polls the chain, and a standby tries the lease. */
  INDEXER_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(1000),
  /** Widest finalized range asked for in one backfill step. */
  INDEXER_BATCH_BLOCKS: z.coerce.number().int().min(1).max(100_000).default(5000),
  /** Unfinalized blocks per step near the head (a header is read for each). */
  INDEXER_TIP_BLOCKS: z.coerce.number().int().min(1).max(200).default(100),
  /** Time allowed for one chain-reader request (logs of a wide range can take a while). */
  INDEXER_CHAIN_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(30_000),
  /** Development only: when the chain or registry differs from the indexed one (a fresh anvil), reset instead of halting. */
  INDEXER_RESET_ON_CHAIN_CHANGE: envTypes.bool.default(false),
  /** Off: the indexer does not write, it only serves reads (a read-only replica). */
  INDEXER_WRITER_ENABLED: envTypes.bool.default(true),
};
export const loadIndexerConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(indexerEnv, env);
