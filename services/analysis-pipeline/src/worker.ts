import { randomUUID } from 'node:crypto';
import { Counter, Gauge } from 'prom-client';
import { messages, STAGE_NAMES, streams, type AnalysisCompletedEvent, type AnalysisProgressEvent } from '@lineage/schemas';
import {
  ApiError,
  heartbeatMs,
  holdThroughOutage,
  type Consumption,
  type Delivery,
  type JetStream,
  type Knex,
  type Logger,
  type Outcome,
  type ServiceMetrics,
} from '@lineage/service-kit';
import {
  Deadline,
  ENGINE_STAGE_NAMES,
  git,
  isEngineError,
  nativeParserInUse,
  runStages,
  stageError,
  type FingerprintCache,
  type Limits,
  type Progress,
} from '@lineage/engine';
import { budgetExceeded, spentMs } from './budget';
import { fingerprintCacheMetrics } from './cache-metrics';
import { StageStore } from './stage-store';
import { INTAKE_STAGES, processFingerprintCache, processPool, stored, type FetchOutput, type StageContext } from './stages';
import { LimitError } from './limits';
import { hasCommit } from './intake/remote-git';
import type { AnalysisFailure, AnalysisRepository, AnalysisRow, StageName, StageView } from './repository';
import type { RemotePolicy } from './intake/remote-policy';
import type { RepoCache } from './intake/repo-cache';

export interface WorkerOptions {
  db: Knex;
  repo: AnalysisRepository;
  js: JetStream;
  cache: RepoCache;
  policy: RemotePolicy;
  limits: Limits;
  maxRepoBytes: number;
  fetchTimeoutMs: number;
  threads: number;
  /** bytes of tokenised files kept across analyses (FINGERPRINT_CACHE_MB); 0 keeps none */
  fingerprintCacheBytes?: number;
  concurrency: number;
  log: Logger;
  metrics: ServiceMetrics;
  /** How long JetStream waits for an ack before redelivering; heartbeats come at a quarter of it. */
  ackWaitMs: number;
  /** Deliveries of a job before a transient failure fails its analysis (JOB_MAX_DELIVER); a database outage spends none. */
  maxDeliver?: number;
  /** Drills and tests: extra work inside each stage (the stage is already `running`). */
  stageDelay?: (analysisId: string, stage: StageName) => Promise<void>;
}

export const DEFAULT_MAX_DELIVER = 10;
/** Nak delays of a job that failed transiently: 2 s, doubling per delivery, at most a minute. */
const JOB_BACKOFF = { baseMs: 2_000, maxMs: 60_000 };
const now = () => Math.floor(Date.now() / 1000);

/** Thrown when the job must go back to the queue (shutdown, lease held elsewhere, transient failure). */
class Requeue extends Error {}

/** A cancel asked for: honoured at the next stage boundary. */
class CancelRequested extends Error {}

/** What one stage does, given the context and its attempt number. */
type StageExec<T> = (ctx: StageContext, attempt: number) => Promise<T>;

/** One run of an analysis's stages by this worker. */
interface RunState {
  job: Job;
  pair: StageContext['pair'];
  gitDirs: StageContext['gitDirs'];
  /** what is left of the analysis's time budget, one for all its stages */
  deadline: Deadline;
  stages: StageView[];
  /** fetch runs again: this replica's cache lacks the pinned commits */
  refetch: boolean;
}

/** One delivery of a job being handled. */
interface Job {
  id: string;
  d: Delivery;
  log: Logger;
  /** Aborted at shutdown and when the lease is found taken over. */
  ac: AbortController;
  /** This worker holds the row lease (from here on, a lease found taken over stops the job). */
  leased: boolean;
  lostLease: boolean;
  /** When the lease was last taken or renewed (ms): renewals that fail (database away) leave it behind. */
  renewedAt: number;
  /** A lease renewal is under way (during an outage they can be slow: do not pile them up). */
  renewing: boolean;
  /** Where the running stage's progress goes (the engine's stages report through one context for the analysis). */
  progressTo?: (p: Omit<Progress, 'stage'>) => void;
}

/**
 * Runs analysis jobs from the JetStream work queue stage by stage. The consumer (service-kit's `consume`) pulls
 * one job at a time per loop, keeps it alive with heartbeats and applies the redelivery policy; this adds what is
 * particular to jobs: each boundary is persisted, so a redelivered job resumes after the last done stage; a row
 * lease makes sure one worker at a time runs a job even if an ack deadline passes; cancellation is honoured
 * between stages.
 */
export class PipelineWorker {
  private readonly id = randomUUID();
  private readonly store: StageStore;
  private consumption: Consumption | null = null;
  private readonly retries: Counter<'stage'>;
  private readonly fingerprintCache: FingerprintCache | null;

  constructor(private readonly o: WorkerOptions) {
    this.store = new StageStore(o.db);
    this.retries = new Counter({
      name: 'lineage_pipeline_stage_retries_total',
      help: 'Stages started again after an earlier attempt was interrupted (worker died or shut down, transient failure)',
      labelNames: ['stage'] as const,
      registers: [o.metrics.registry],
    });
    this.fingerprintCache = processFingerprintCache(o.fingerprintCacheBytes ?? 0);
    fingerprintCacheMetrics(o.metrics.registry, this.fingerprintCache);
    // An image built without a C toolchain parses through WASM: the same manifests, slower. Say which, for SREs.
    const native = nativeParserInUse();
    new Gauge({
      name: 'lineage_engine_native_parser',
      help: "1 when this process parses JavaScript, TypeScript, C, Java and Python with the engine's native parser, 0 when through WASM (the same results, slower)",
      registers: [o.metrics.registry],
    }).set(native ? 1 : 0);
    o.log.info(
      { nativeParser: native },
      native ? 'engine: native parser for JavaScript, TypeScript, C, Java and Python' : 'engine: WASM parser only',
    );
  }

  private get heartbeatMs(): number {
    return heartbeatMs(this.o.ackWaitMs);
  }

  /**
   * The DB lease outlives JetStream's ack wait by one heartbeat (room for a late heartbeat or clock skew between
   * pods), so a dead worker's job is taken over about ack wait + one heartbeat after its last heartbeat.
   */
  private get leaseSeconds(): number {
    return Math.ceil((this.o.ackWaitMs + this.heartbeatMs) / 1000);
  }

  private get repo(): AnalysisRepository {
    return this.o.repo;
  }

  async start(): Promise<void> {
    const consumption = await this.o.js.consume(messages.analysisJob, (job, d) => this.handle(job.analysisId, d), {
      durable: streams.jobs.consumer,
      ackWaitMs: this.o.ackWaitMs,
      maxDeliver: this.o.maxDeliver ?? DEFAULT_MAX_DELIVER,
      maxAckPending: 1000,
      concurrency: this.o.concurrency,
      backoff: JOB_BACKOFF,
      log: this.o.log,
      what: 'job',
      logFields: (job) => ({ analysisId: job.analysisId }),
      isPermanent: isDeterministic,
      messages: {
        retry: 'transient failure; job will be redelivered',
        lastDelivery: 'job failed on its last delivery',
        permanent: 'job cannot succeed; analysis failed',
      },
    });
    this.consumption = consumption;
    new Gauge({
      name: 'lineage_pipeline_jobs_pending',
      help: 'Jobs waiting or in progress on the work queue',
      registers: [this.o.metrics.registry],
      async collect() {
        const n = await consumption.pending();
        if (n !== null) this.set(n);
      },
    });
  }

  /** Shutdown: stop pulling; a running stage is aborted and its job handed back (it resumes at its last boundary). */
  async stop(): Promise<void> {
    await this.consumption?.stop();
  }

  private async handle(id: string, d: Delivery): Promise<Outcome> {
    const ac = new AbortController();
    const onStop = () => ac.abort();
    d.signal.addEventListener('abort', onStop, { once: true });
    if (d.signal.aborted) ac.abort();
    const job: Job = { id, d, log: d.log, ac, leased: false, lostLease: false, renewedAt: 0, renewing: false };
    // Lease renewals with the consumer's heartbeats (which keep the delivery in progress however long this takes).
    const renewals = setInterval(() => this.renewInBackground(job), this.heartbeatMs);
    try {
      const leased = await this.lease(job);
      if (leased !== 'leased') return leased;
      return await this.runLeased(job);
    } finally {
      clearInterval(renewals);
      d.signal.removeEventListener('abort', onStop);
      if (job.leased) await this.repo.releaseLease(id, this.id).catch(() => undefined);
    }
  }

  /**
   * Settles a job that needs no running (its analysis is gone or finished: acked) and takes the row lease of one
   * that does ('leased'); a job whose lease another worker holds is nak'ed.
   */
  private async lease(job: Job): Promise<Outcome | 'leased'> {
    const { id } = job;
    try {
      const row = await this.held(job, () => this.repo.find(id));
      if (!row) return;
      if (row.state === 'completed') {
        await this.held(job, () => this.publishCompleted(row)); // a crash between commit and publish; the msg id dedups
        return;
      }
      if (row.state === 'failed' || row.state === 'cancelled') return;
      if (!(await this.held(job, () => this.repo.takeLease(id, this.id, this.leaseSeconds)))) {
        // Another worker holds it: alive (it renews the lease), or dead (the lease runs out). Come back just after
        // the lease can have run out, so a dead worker's job is taken over without waiting a whole lease.
        const left = await this.held(job, () => this.repo.leaseLeft(id));
        return { nak: Math.min(this.leaseSeconds, left) * 1000 + 1000 };
      }
      job.leased = true;
      job.renewedAt = Date.now();
      return 'leased';
    } catch (err) {
      // Shut down while held: hand the job back at once.
      if (!job.ac.signal.aborted) throw err;
      return { nak: 0 };
    }
  }

  private async runLeased(job: Job): Promise<Outcome> {
    const { id, log, ac } = job;
    try {
      await this.run(job);
      return;
    } catch (err) {
      // Neither ack nor nak: the worker that holds the lease now owns the job's fate.
      if (job.lostLease) return 'leave';
      if (err instanceof Requeue || ac.signal.aborted) {
        log.info('job handed back to the queue');
        return { nak: job.d.signal.aborted ? 0 : 5000 };
      }
      // The consumer's policy (fail now, on the last delivery, or retry later), applied while the lease is still ours.
      return job.d.failure(err, async () => {
        try {
          await this.held(job, () => this.fail(id, err));
        } catch (e) {
          if (job.lostLease) return 'leave'; // taken over while failing it: the new holder decides
          throw e;
        }
      });
    }
  }

  /** Lease renewal with each heartbeat, once leased. */
  private renewInBackground(job: Job): void {
    if (!job.leased || job.renewing || job.lostLease) return;
    job.renewing = true;
    void this.renewLease(job)
      .catch(() => undefined)
      .finally(() => {
        job.renewing = false;
      });
  }

  /** Extends our lease; false (and the job stops) when another worker has taken it over. Throws when the database is away. */
  private async renewLease(job: Job): Promise<boolean> {
    const at = Date.now();
    if (await this.repo.renewLease(job.id, this.id, this.leaseSeconds)) {
      job.renewedAt = Math.max(job.renewedAt, at);
      return true;
    }
    if (!job.lostLease) {
      // Our heartbeats stalled past the lease (or the database was away longer than it) and another worker took
      // the job over: stop, and leave the job to it.
      job.lostLease = true;
      job.log.warn('lease taken over by another worker; abandoning the job');
      job.ac.abort();
    }
    return false;
  }

  /**
   * Runs one database step of a job, held through a database outage (`holdThroughOutage`: the consumer's heartbeats
   * keep the delivery in progress, the step is tried again every 2 s), so an outage of any length spends none of the
   * job's deliveries. The lease may have run out during the outage (its renewals failed), and another worker may
   * have taken the job over meanwhile: so after a failed try, or when the heartbeat has not renewed the lease lately,
   * a leased job renews it before the step, and stops (leaving the job to the new holder) rather than write over it.
   */
  private held<T>(job: Job, step: () => Promise<T>): Promise<T> {
    return holdThroughOutage(step, {
      signal: job.ac.signal,
      log: job.log,
      what: 'job',
      beforeTry: async (away) => {
        const stale = Date.now() - job.renewedAt > 2 * this.heartbeatMs;
        if (job.leased && (away || stale) && !(await this.renewLease(job))) throw new Requeue();
      },
    });
  }

  /** Every database step below goes through `held`: a database outage holds the job where it is. */
  private async run(job: Job): Promise<void> {
    const {
      id,
      ac: { signal },
    } = job;
    const row = (await this.held(job, () => this.repo.find(id)))!;
    if (row.state === 'cancelling') return this.held(job, () => this.finishCancel(id));
    if (row.state === 'queued') await this.held(job, () => this.repo.startRunning(id));
    const pair = { origin: { url: row.origin_url, commit: row.origin_commit }, target: { url: row.target_url, commit: row.target_commit } };
    const stages = row.stages;
    // One budget for the analysis: what its stages spent before (on this worker or another) is not given again.
    const spent = spentMs(stages, Number(row.interrupted_ms ?? 0), Number(row.updated_at));
    const deadline = new Deadline(this.o.limits.timeBudgetMs - spent, signal);
    if (spent > 0)
      job.log.info(
        { spentMs: spent, budgetLeftMs: Math.max(0, this.o.limits.timeBudgetMs - spent) },
        'analysis resumed with what is left of its time budget',
      );
    const gitDirs = { origin: this.o.cache.pathFor(pair.origin.url), target: this.o.cache.pathFor(pair.target.url) };
    const run: RunState = { job, pair, gitDirs, deadline, stages, refetch: false };

    // Both repositories stay locked (in a fixed order) while the stages read them, so eviction or another fetch cannot pull them away.
    const [first, second] = [pair.origin.url, pair.target.url].sort();
    try {
      await this.o.cache.withRepo(first!, () =>
        this.o.cache.withRepo(second!, async () => {
          // The stages after fetch read both repositories from this replica's cache. A job taken over from another
          // replica (each has its own cache) or resumed after its repositories were evicted finds fetch done and the
          // commits missing here: fetch runs again (the same pinned commits) before them.
          run.refetch = await this.mustRefetch(stages, pair, gitDirs);
          if (run.refetch) job.log.info("repositories not in this replica's cache; fetching them again");
          await this.step(run, 'resolve', (ctx) => INTAKE_STAGES.resolve(ctx));
          await this.step(run, 'fetch', (ctx) => INTAKE_STAGES.fetch(ctx));
          await this.engineStages(run);
          await this.step(run, 'publish', (_ctx, attempt) => this.publish(job, attempt));
        }),
      );
    } catch (err) {
      if (err instanceof CancelRequested) return this.held(job, () => this.finishCancel(id));
      throw err;
    }
  }

  /**
   * Inventory to manifest: the engine's stages, in the order and with the code the CLI runs (the engine's runner),
   * this worker's bookkeeping around each. A stage done before (this run or an earlier one) is read from the store
   * when a later one needs its output.
   */
  private async engineStages(run: RunState): Promise<void> {
    const { job } = run;
    if (!ENGINE_STAGE_NAMES.some((n) => this.pending(run, n))) return;
    const dirs = run.gitDirs;
    // One cat-file process per side for all the stages, as in the CLI.
    const readers = { origin: new git.BlobReader(dirs.origin), target: new git.BlobReader(dirs.target) };
    try {
      await runStages(
        {
          repos: {
            origin: { dir: dirs.origin, commit: run.pair.origin.commit, url: run.pair.origin.url },
            target: { dir: dirs.target, commit: run.pair.target.commit, url: run.pair.target.url },
          },
          commits: { origin: run.pair.origin.commit, target: run.pair.target.commit },
          limits: this.o.limits,
          deadline: run.deadline,
          signal: job.ac.signal,
          onProgress: (p) => job.progressTo?.(p),
          readers,
          pool: () => processPool(this.o.threads),
          ...(this.fingerprintCache ? { fingerprintCache: this.fingerprintCache } : {}),
        },
        {
          done: (name) => !this.pending(run, name),
          load: (name) => this.held(job, () => this.store.load(job.id, name)),
          around: (name, exec) => this.enter(run, name, () => exec()),
        },
      );
    } finally {
      readers.origin.close();
      readers.target.close();
    }
  }

  /** Whether a stage must run: not done yet, or fetch done on a replica whose cache lacks the commits. */
  private pending(run: RunState, name: StageName): boolean {
    const current = run.stages.find((s) => s.name === name)!;
    return current.state !== 'done' || (name === 'fetch' && run.refetch);
  }

  /** One of the pipeline's own stages: skipped when done. */
  private async step<T>(run: RunState, name: StageName, exec: StageExec<T>): Promise<T | undefined> {
    return this.pending(run, name) ? this.enter(run, name, exec) : undefined;
  }

  /** A stage at its boundary: refused when the analysis is cancelled, handed back at shutdown; else run. */
  private async enter<T>(run: RunState, name: StageName, exec: StageExec<T>): Promise<T> {
    const { job } = run;
    const current = run.stages.find((s) => s.name === name)!;
    const fresh = await this.held(job, () => this.repo.stateOf(job.id));
    if (fresh?.cancel_requested) throw new CancelRequested();
    if (job.ac.signal.aborted) throw new Requeue();
    // A stage left `running` was interrupted (its worker died, shut down or failed transiently): this is a retry.
    const attempt = (current.attempt ?? (current.state === 'pending' ? 0 : 1)) + 1;
    return this.runStage(run, name, attempt, exec);
  }

  private async mustRefetch(stages: StageView[], pair: StageContext['pair'], gitDirs: StageContext['gitDirs']): Promise<boolean> {
    const after: readonly StageName[] = STAGE_NAMES.slice(STAGE_NAMES.indexOf('fetch') + 1).filter((n) => n !== 'publish');
    if (stages.find((s) => s.name === 'fetch')?.state !== 'done') return false;
    if (!stages.some((s) => after.includes(s.name) && s.state !== 'done')) return false;
    return !((await hasCommit(gitDirs.origin, pair.origin.commit)) && (await hasCommit(gitDirs.target, pair.target.commit)));
  }

  private async runStage<T>(run: RunState, name: StageName, attempt: number, exec: StageExec<T>): Promise<T> {
    const { job, pair, gitDirs, deadline } = run;
    const {
      id,
      log,
      ac: { signal },
    } = job;
    await this.held(job, () =>
      this.repo.startStage(id, name, {
        state: 'running',
        startedAt: String(now()),
        finishedAt: null,
        done: null,
        total: null,
        unit: null,
        attempt,
      }),
    );
    // Out of time before the stage could start (the publication of a finished manifest is never refused).
    const budgetMs = this.o.limits.timeBudgetMs;
    if (name !== 'publish' && deadline.expired()) throw budgetExceeded(name, budgetMs);
    if (attempt > 1) {
      this.retries.inc({ stage: name });
      log.info({ stage: name, attempt }, 'stage retried');
    }
    await this.progress(job, name, 'running', null, null, attempt);
    let last = { done: 0, total: 0, unit: 'items' as string };
    let lastWrite = 0;
    const onProgress = (p: Omit<Progress, 'stage'>): void => {
      // Both sides report separately; the stage's count is their sum per unit.
      last = { done: p.done, total: p.total, unit: p.unit };
      if (Date.now() - lastWrite > 500) {
        lastWrite = Date.now();
        void this.repo.patchStage(id, name, { done: last.done, total: last.total, unit: last.unit }).catch(() => undefined);
      }
    };
    const ctx: StageContext = {
      analysisId: id,
      pair,
      limits: this.o.limits,
      maxRepoBytes: this.o.maxRepoBytes,
      cache: this.o.cache,
      policy: this.o.policy,
      fetchTimeoutMs: this.o.fetchTimeoutMs,
      signal,
      gitDirs,
      load: (stage) => this.held(job, () => this.store.load(id, stage)),
      onProgress,
    };
    job.progressTo = onProgress;
    await this.o.stageDelay?.(id, name);
    // publish completes the analysis itself (and clears the store): nothing is left to persist at its boundary.
    if (name === 'publish') return exec(ctx, attempt);
    // A failure that is neither the API's nor the engine's (a bug, a library's exception) is reported as
    // STAGE_FAILED naming the stage, still retried like any transient failure.
    const output = await exec(ctx, attempt)
      .catch((err: unknown) => {
        if (isEngineError(err) && err.limit === 'timeBudgetMs') throw budgetExceeded(name, budgetMs);
        throw err instanceof ApiError || isEngineError(err) ? err : stageError(name, null, err);
      })
      .finally(() => {
        if (job.progressTo === onProgress) job.progressTo = undefined;
      });
    if (signal.aborted) throw new Requeue();
    // The boundary: the stage's output is kept in memory while the database is away, and written once it is back.
    await this.held(job, () =>
      this.o.db.transaction(async (trx) => {
        await this.store.save(trx, id, name, stored(name, output));
        await this.repo.patchStage(
          id,
          name,
          { state: 'done', finishedAt: String(now()), done: last.done, total: last.total, unit: last.unit },
          trx,
        );
        if (name === 'fetch') await this.repo.setCommitTimes(id, (output as FetchOutput).committedAt, trx);
      }),
    );
    await this.progress(job, name, 'done', last.done, last.total, attempt);
    log.info({ stage: name, attempt }, 'stage done');
    return output;
  }

  private async publish(job: Job, attempt: number): Promise<void> {
    const { id, log } = job;
    const m = await this.held(job, () => this.store.load<{ hash: string; bytesBase64: string }>(id, 'manifest'));
    await this.held(job, () => this.repo.complete(id, { hash: m.hash, bytes: Buffer.from(m.bytesBase64, 'base64') }));
    await this.held(job, () => this.store.clear(id));
    const row = (await this.held(job, () => this.repo.find(id)))!;
    await this.held(job, () => this.publishCompleted(row));
    await this.progress(job, 'publish', 'done', 1, 1, attempt);
    log.info({ manifestHash: m.hash }, 'analysis completed');
  }

  private async publishCompleted(row: AnalysisRow): Promise<void> {
    const event: AnalysisCompletedEvent = {
      analysisId: String(row.id),
      pair: {
        origin: {
          url: String(row.origin_url),
          commit: String(row.origin_commit),
          committedAt: row.committed_at_origin == null ? null : String(row.committed_at_origin),
        },
        target: {
          url: String(row.target_url),
          commit: String(row.target_commit),
          committedAt: row.committed_at_target == null ? null : String(row.committed_at_target),
        },
      },
      engineVersion: String(row.engine_version),
      manifestHash: String(row.manifest_hash),
      manifestBytes: await this.repo.manifestBytes(String(row.id)),
      completedAt: String(row.updated_at),
    };
    await this.o.js.publish(messages.analysisCompleted, event);
  }

  private async finishCancel(id: string): Promise<void> {
    await this.repo.finishCancel(id);
    await this.store.clear(id);
    this.o.log.info({ analysisId: id }, 'analysis cancelled at a stage boundary');
  }

  private async fail(id: string, err: unknown): Promise<void> {
    const e = describe(err);
    await this.repo.fail(id, e);
    await this.store.clear(id);
    this.o.log.warn({ analysisId: id, code: e.code, limit: e.limit }, 'analysis failed');
  }

  private async progress(
    job: Job,
    stage: StageName,
    stageState: 'running' | 'done',
    done: number | null,
    total: number | null,
    attempt: number,
  ): Promise<void> {
    const id = job.id;
    const row = await this.held(job, () => this.repo.stateOf(id));
    const event: AnalysisProgressEvent = { analysisId: id, state: row!.state, stage, stageState, done, total, attempt, at: String(now()) };
    await this.o.js.publish(messages.analysisProgress, event).catch(() => undefined);
  }
}

/** Failures that will fail again on redelivery: the analysis fails with a code instead. */
function isDeterministic(err: unknown): boolean {
  // An unreachable remote may be back on the next delivery; the others will answer the same.
  if (err instanceof ApiError) return !['SERVICE_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'INTERNAL', 'REPOSITORY_UNREACHABLE'].includes(err.code);
  return isEngineError(err) && !['CANCELLED', 'STAGE_FAILED'].includes(err.code);
}

/** What the failed analysis records; `limit` names the bound it hit, from the error's type. */
function describe(err: unknown): AnalysisFailure {
  if (err instanceof LimitError) return { code: err.code, message: err.message, limit: err.limit };
  if (err instanceof ApiError) return { code: err.code, message: err.message, limit: null };
  if (isEngineError(err)) return { code: err.code, message: err.message, limit: err.limit ?? null };
  return { code: 'INTERNAL', message: 'The analysis failed for an internal reason.', limit: null };
}
