import { ConfigError, createDb, ensureDatabase, ensureStreams, migrate, startService } from '@lineage/service-kit';
import { ENGINE_VERSION, resolveLimits } from '@lineage/engine';
import type { JetStreamClient } from '@nats-io/jetstream';
import { loadPipelineConfig } from './config';
import { SCHEMA, migrations } from './migrations';
import { Analyses } from './analyses';
import { registerHandlers } from './handlers';
import { Intake } from './intake/validate';
import { RepoCache } from './intake/repo-cache';
import { PipelineWorker } from './worker';

async function main(): Promise<void> {
  const config = loadPipelineConfig();
  const db = createDb({ url: config.DATABASE_URL, schema: SCHEMA, poolMax: config.DATABASE_POOL_MAX, applicationName: 'analysis-pipeline' });
  if (config.MIGRATE_ON_START) {
    await ensureDatabase(config.DATABASE_URL);
    await migrate(db, SCHEMA, migrations);
  }
  const policy = { hosts: config.LINEAGE_REPO_ALLOWED_HOSTS, allowPrivateAddresses: config.LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES };
  const cache = new RepoCache(config.REPO_CACHE_DIR, config.REPO_CACHE_MAX_BYTES);
  const intake = new Intake(policy, cache, config.GIT_TIMEOUT_MS);
  let js: JetStreamClient | null = null;
  let worker: PipelineWorker | null = null;
  const analyses = new Analyses(db, () => js!, ENGINE_VERSION, (url, field) => intake.canonical(url, field));
  const evictTimer = setInterval(() => void cache.evict().catch(() => undefined), 60_000);
  evictTimer.unref();
  await startService({
    name: 'analysis-pipeline',
    port: config.HTTP_PORT,
    natsUrl: config.NATS_URL,
    logLevel: config.LOG_LEVEL,
    requestTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
    db,
    onNats: async (nats, rt) => {
      js = await ensureStreams(nats.nc);
      registerHandlers(nats, analyses, intake);
      if (config.WORKER_CONCURRENCY > 0) {
        worker = new PipelineWorker({
          db, nc: nats.nc, js, cache, policy,
          limits: resolveLimits({
            maxFiles: config.ANALYSIS_MAX_FILES, maxFileBytes: config.ANALYSIS_MAX_FILE_BYTES, maxTotalBytes: config.ANALYSIS_MAX_TOTAL_BYTES,
            maxCommits: config.ANALYSIS_MAX_COMMITS, timeBudgetMs: config.ANALYSIS_TIMEOUT_MS,
          }),
          maxRepoBytes: config.ANALYSIS_MAX_REPO_BYTES,
          fetchTimeoutMs: config.GIT_TIMEOUT_MS,
          threads: config.WORKER_THREADS,
          concurrency: config.WORKER_CONCURRENCY,
          log: rt.log,
          metrics: rt.metrics,
          ackWaitMs: config.JOB_ACK_WAIT_MS,
          ...(config.DEBUG_STAGE_DELAY_MS > 0 ? { stageDelay: () => new Promise<void>((r) => setTimeout(r, config.DEBUG_STAGE_DELAY_MS)) } : {}),
        });
        await worker.start();
      }
    },
    // Stop pulling jobs and hand running ones back before NATS drains.
    beforeDrain: [{ name: 'pipeline-worker', run: async () => { clearInterval(evictTimer); await worker?.stop(); } }],
  });
}

main().catch((err) => {
  console.error(JSON.stringify({ level: 'fatal', service: 'analysis-pipeline', msg: err instanceof ConfigError ? err.message : 'start-up failed', err: err instanceof ConfigError ? undefined : String(err) }));
  process.exit(1);
});
