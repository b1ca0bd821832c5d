import { baseServiceOptions, JetStream, openServiceDb, runMain, startService } from '@lineage/service-kit';
import { ENGINE_VERSION, resolveLimits } from '@lineage/engine';
import { loadPipelineConfig } from './config';
import { SCHEMA, migrations } from './migrations';
import { Analyses } from './analyses';
import { AnalysisRepository } from './repository';
import { registerHandlers } from './handlers';
import { Intake } from './intake/validate';
import { RepoCache } from './intake/repo-cache';
import { PipelineWorker } from './worker';
import { CaseLinks } from './case-links';
import { JobReconciler } from './reconciler';

runMain('analysis-pipeline', async () => {
  const config = loadPipelineConfig();
  const db = await openServiceDb('analysis-pipeline', config, SCHEMA, migrations);
  const policy = { hosts: config.LINEAGE_REPO_ALLOWED_HOSTS, allowPrivateAddresses: config.LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES };
  const cache = new RepoCache(config.REPO_CACHE_DIR, config.REPO_CACHE_MAX_BYTES);
  const intake = new Intake(policy, cache, config.GIT_TIMEOUT_MS);
  const repo = new AnalysisRepository(db);
  let js: JetStream | null = null;
  let worker: PipelineWorker | null = null;
  let links: CaseLinks | null = null;
  let reconciler: JobReconciler | null = null;
  const analyses = new Analyses(
    db,
    repo,
    () => js!,
    ENGINE_VERSION,
    (url, field) => intake.canonical(url, field),
    {
      maxActive: config.PIPELINE_MAX_QUEUED,
      // Tests only: die between the analysis's insert and its job's publish (see config.ts).
      ...(config.LINEAGE_FAULT_AFTER_INSERT === 'exit' ? { afterInsert: () => process.kill(process.pid, 'SIGKILL') } : {}),
    },
  );
  const evictTimer = setInterval(() => void cache.evict().catch(() => undefined), 60_000);
  evictTimer.unref();
  await startService({
    ...baseServiceOptions('analysis-pipeline', config),
    db,
    onNats: async (nats, rt) => {
      js = await JetStream.open(nats.nc);
      registerHandlers(nats, analyses, intake);
      // Every replica sweeps (at start, then periodically); see reconciler.ts for why that is harmless.
      reconciler = new JobReconciler({
        repo,
        js: () => js!,
        log: rt.log,
        metrics: rt.metrics,
        intervalMs: config.JOB_RECONCILE_INTERVAL_MS,
        minAgeMs: config.JOB_RECONCILE_MIN_AGE_MS,
      });
      reconciler.start();
      links = new CaseLinks(repo, js, rt.log);
      await links.start();
      if (config.WORKER_CONCURRENCY > 0) {
        worker = new PipelineWorker({
          db,
          repo,
          js,
          cache,
          policy,
          limits: resolveLimits({
            maxFiles: config.ANALYSIS_MAX_FILES,
            maxFileBytes: config.ANALYSIS_MAX_FILE_BYTES,
            maxTotalBytes: config.ANALYSIS_MAX_TOTAL_BYTES,
            maxCommits: config.ANALYSIS_MAX_COMMITS,
            timeBudgetMs: config.ANALYSIS_TIMEOUT_MS,
          }),
          maxRepoBytes: config.ANALYSIS_MAX_REPO_BYTES,
          fetchTimeoutMs: config.GIT_TIMEOUT_MS,
          threads: config.WORKER_THREADS,
          fingerprintCacheBytes: config.FINGERPRINT_CACHE_MB * 1024 ** 2,
          concurrency: config.WORKER_CONCURRENCY,
          log: rt.log,
          metrics: rt.metrics,
          ackWaitMs: config.JOB_ACK_WAIT_MS,
          maxDeliver: config.JOB_MAX_DELIVER,
          ...(config.DEBUG_STAGE_DELAY_MS > 0
            ? { stageDelay: () => new Promise<void>((r) => setTimeout(r, config.DEBUG_STAGE_DELAY_MS)) }
            : {}),
        });
        await worker.start();
      }
    },
    // Stop pulling jobs and hand running ones back before NATS drains.
    beforeDrain: [
      {
        name: 'pipeline-worker',
        run: async () => {
          clearInterval(evictTimer);
          await reconciler?.stop();
          await worker?.stop();
          await links?.stop();
        },
      },
    ],
  });
});
