import { z } from 'zod';
import { baseEnv, databaseEnv, envTypes, loadConfig } from '@lineage/service-kit';

export const indexerEnv = {
  ...baseEnv,
  ...databaseEnv,
  HTTP_PORT: envTypes.port.default(8083),
  MIGRATE_ON_START: envTypes.bool.default(false),
  CURSOR_SECRET: z.string().min(16).default('lineage-dev-cursor-secret-not-for-production'),
  INDEXER_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(1000),
  INDEXER_BATCH_BLOCKS: z.coerce.number().int().min(1).max(100_000).default(2000),
};
export const loadIndexerConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(indexerEnv, env);
