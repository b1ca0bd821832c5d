import { z } from 'zod';
import { baseEnv, databaseEnv, envTypes, loadConfig } from '@lineage/service-kit';

export const caseStoreEnv = {
  ...baseEnv,
  ...databaseEnv,
  HTTP_PORT: envTypes.port.default(8082),
  /** HMAC key for pagination cursors; every replica must share it. The default is for local development only. */
  CURSOR_SECRET: z.string().min(16).default('lineage-dev-cursor-secret-not-for-production'),
  MIGRATE_ON_START: envTypes.bool.default(false),
  /** Registry template id of the lineage claim: a case's fact key is computed with it. */
  LINEAGE_TEMPLATE_ID: z
    .string()
    .regex(/^[1-9][0-9]{0,76}$/, 'decimal_string')
    .default('1'),
  /** A case read never waits longer than this for its fact; past it the report says `fact: null`. */
  FACT_TIMEOUT_MS: envTypes.ms.default(1000),
  /** How often the set of fact keys the indexer has is refreshed (0 = off: every case read asks the indexer). */
  FACT_PRESENCE_REFRESH_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /** Above this many facts the set is not kept and every case read asks the indexer. */
  FACT_PRESENCE_MAX: z.coerce.number().int().min(0).max(10_000_000).default(500_000),
  /** Validity of a prepared challenge signature (capped by the registry helpers' MAX_CHALLENGE_TTL_SECONDS). */
  CHALLENGE_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(3600),
  /** Consumer of analysis-completed events: off only for read-only replicas (e.g. the bench). */
  CONSUMER_ENABLED: envTypes.bool.default(true),
  /** Deliveries of one event before it is given up (and logged). */
  CONSUMER_MAX_DELIVER: z.coerce.number().int().min(1).max(100).default(10),
  /** Events processed at once by one replica. */
  CONSUMER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Largest manifest this service accepts. */
  MANIFEST_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(256 * 1024 * 1024),
};
export type CaseStoreConfig = ReturnType<typeof loadCaseStoreConfig>;
export const loadCaseStoreConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(caseStoreEnv, env);
