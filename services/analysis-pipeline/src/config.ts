import { z } from 'zod';
import { baseEnv, databaseEnv, envTypes, loadConfig } from '@lineage/service-kit';
import { DEFAULT_HOSTS, parseAllowedHosts } from './intake/remote-policy';

const positive = z.coerce.number().int().positive();

export const pipelineEnv = {
  ...baseEnv,
  ...databaseEnv,
  HTTP_PORT: envTypes.port.default(8081),
  MIGRATE_ON_START: envTypes.bool.default(false),
  REPO_CACHE_DIR: z.string().min(1).default('.cache/repos'),
  REPO_CACHE_MAX_BYTES: positive.default(10 * 1024 ** 3),
  /** `host`, `host:port` or `scheme://host:port`, comma-separated; replaces the default allowlist. */
  LINEAGE_REPO_ALLOWED_HOSTS: z
    .string()
    .default(DEFAULT_HOSTS)
    .transform((s, ctx) => {
      try {
        return parseAllowedHosts(s);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'malformed_entry' });
        return z.NEVER;
      }
    }),
  LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: envTypes.bool.default(false),
  /** Concurrent jobs per process (0: serve the API only, run no jobs). */
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
  /** Worker threads for fingerprinting within one job. */
  WORKER_THREADS: z.coerce.number().int().min(1).max(16).default(2),
  /**
   * Tokenised files kept across this process's analyses (the engine's FingerprintCache), in MiB as the cache counts
   * them; 0 keeps none. A repository analysed again, against another, is then not tokenised again.
   */
  FINGERPRINT_CACHE_MB: z.coerce.number().int().min(0).max(16_384).default(128),
  ANALYSIS_MAX_FILES: positive.default(50_000),
  ANALYSIS_MAX_FILE_BYTES: positive.default(1_000_000),
  ANALYSIS_MAX_TOTAL_BYTES: positive.default(200_000_000),
  ANALYSIS_MAX_COMMITS: positive.default(20_000),
  ANALYSIS_TIMEOUT_MS: positive.default(600_000),
  ANALYSIS_MAX_REPO_BYTES: positive.default(2 * 1024 ** 3),
  GIT_TIMEOUT_MS: positive.default(300_000),
  /**
   * JetStream ack wait for jobs: a dead worker's job is redelivered after at most this long (a live worker
   * sends in-progress heartbeats every quarter of it). Applied to an existing consumer at start.
   */
  JOB_ACK_WAIT_MS: z.coerce.number().int().min(1000).max(3_600_000).default(20_000),
  /**
   * Deliveries of a job before a transient failure (unreachable remote, internal error) fails its analysis; nak
   * delays start at 2 s and double per delivery (at most 60 s). A database outage spends none (the job is held). Applied to an existing consumer at start.
   */
  JOB_MAX_DELIVER: z.coerce.number().int().min(1).max(100).default(10),
  /** How often the reconciler looks for queued analyses whose job never reached the work queue (it also runs at start). */
  JOB_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  /** A queued analysis without a published job is republished once it is this old (its creator may still be publishing). */
  JOB_RECONCILE_MIN_AGE_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
  /** Bound on queued + running analyses; `POST /analyses` beyond it is 429 QUEUE_FULL with Retry-After. */
  PIPELINE_MAX_QUEUED: positive.default(1000),
  /** Drills and tests only: each stage takes at least this much longer, so a running stage can be caught in the act. */
  DEBUG_STAGE_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  /**
   * TESTS ONLY — fault injection, never set in a deployment (the chart cannot set it). `exit`: the process
   * kills itself (SIGKILL) right after a new analysis's row is committed and before its job is published,
   * the crash the reconciler exists for (test/integration/pipeline-durability.test.ts).
   */
  LINEAGE_FAULT_AFTER_INSERT: z.enum(['exit']).optional(),
};
export type PipelineConfig = ReturnType<typeof loadPipelineConfig>;
export const loadPipelineConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(pipelineEnv, env);
