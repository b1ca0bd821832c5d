import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AckPolicy, JetStreamApiCodes, JetStreamApiError, jetstreamManager, type ConsumerInfo, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { Counter, Gauge } from 'prom-client';
import { AnalysisJob, eventSubjects, STAGE_NAMES, streams, type AnalysisCompletedEvent, type AnalysisProgressEvent } from '@lineage/schemas';
import { ApiError, isStoreUnavailable, type Knex, type Logger, type ServiceMetrics } from '@lineage/service-kit';
import { isEngineError, stageError, type Limits } from '@lineage/engine';
import { SCHEMA } from './migrations';
import { StageStore } from './stage-store';
import { STAGES, type FetchOutput, type StageContext } from './stages';
import { OnePull } from './pull';
import { hasCommit } from './intake/remote-git';
import type { RemotePolicy } from './intake/remote-policy';
import type { RepoCache } from './intake/repo-cache';

type StageName = (typeof STAGE_NAMES)[number];
interface StageView { name: StageName; state: string; startedAt: string | null; finishedAt: string | null; done: number | null; total: number | null; unit: string | null; attempt?: number }

export interface WorkerOptions {
  db: Knex;
  nc: NatsConnection;
  js: JetStreamClient;
  cache: RepoCache;
  policy: RemotePolicy;
  limits: Limits;
  maxRepoBytes: number;
  fetchTimeoutMs: number;
  threads: number;
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
/** How often a job held during a database outage tries its database step again (in-progress acks keep coming meanwhile). */
const STORE_RETRY_MS = 2_000;
const now = () => Math.floor(Date.now() / 1000);

/** Thrown when the job must go back to the queue (shutdown, lease held elsewhere, transient failure). */
class Requeue extends Error {}

/** One delivery of a job being handled. */
interface Job {
  id: string;
  m: JsMsg;
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
}

/**
 * Pulls analysis jobs from the JetStream work queue and runs them stage by
 * stage. Each boundary is persisted; a redelivered job resumes after the last
 * done stage. A DB lease makes sure one worker at a time runs a job even if an
 * ack deadline passes. Cancellation is honoured between stages.
 */
export class PipelineWorker {
  private readonly id = randomUUID();
  private readonly store: StageStore;
  private readonly loops: Promise<void>[] = [];
  private readonly pulls: OnePull[] = [];
  private readonly running = new Set<AbortController>();
  private stopping = false;
  private readonly retries: Counter<'stage'>;

  constructor(private readonly o: WorkerOptions) {
    this.store = new StageStore(o.db);
    this.retries = new Counter({
      name: 'lineage_pipeline_stage_retries_total',
      help: 'Stages started again after an earlier attempt was interrupted (worker died or shut down, transient failure)',
      labelNames: ['stage'] as const,
      registers: [o.metrics.registry],
    });
  }

  /** In-progress acks (and lease renewals) while a job runs: four per ack wait, so one lost heartbeat costs nothing. */
  private get heartbeatMs(): number {
    return Math.max(250, Math.floor(this.o.ackWaitMs / 4));
  }

  /**
   * The DB lease outlives JetStream's ack wait by one heartbeat (room for a late heartbeat or clock skew between
   * pods), so a dead worker's job is taken over about ack wait + one heartbeat after its last heartbeat.
   */
  private get leaseSeconds(): number {
    return Math.ceil((this.o.ackWaitMs + this.heartbeatMs) / 1000);
  }

  private get maxDeliver(): number {
    return this.o.maxDeliver ?? DEFAULT_MAX_DELIVER;
  }

  /**
   * Create the work queue's durable consumer, or bring an existing one (made by an older release or with another
   * JOB_ACK_WAIT_MS) to this configuration: JetStream keeps a durable consumer's settings across restarts, so
   * without the update an old, long ack wait would still decide how fast a dead worker's job is taken over.
   */
  static async ensureConsumer(nc: NatsConnection, ackWaitMs: number, log?: Logger, maxDeliver = DEFAULT_MAX_DELIVER): Promise<ConsumerInfo> {
    const jsm = await jetstreamManager(nc);
    const wanted = { ack_wait: nanos(ackWaitMs), max_deliver: maxDeliver, max_ack_pending: 1000 };
    let info: ConsumerInfo | null = null;
    try {
      info = await jsm.consumers.info(streams.jobs.name, streams.jobs.consumer);
    } catch (err) {
      if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound)) throw err;
    }
    if (!info) {
      try {
        return await jsm.consumers.add(streams.jobs.name, {
          durable_name: streams.jobs.consumer,
          ack_policy: AckPolicy.Explicit,
          filter_subject: streams.jobs.subjects[0],
          ...wanted,
        });
      } catch (err) {
        // Another replica may have created it between our info and add; then it is updated below if needed.
        info = await jsm.consumers.info(streams.jobs.name, streams.jobs.consumer).catch(() => {
          throw err;
        });
      }
    }
    const c = info.config;
    if (c.ack_wait === wanted.ack_wait && c.max_deliver === wanted.max_deliver && c.max_ack_pending === wanted.max_ack_pending) return info;
    const updated = await jsm.consumers.update(streams.jobs.name, streams.jobs.consumer, wanted);
    log?.info({ ackWaitMs: { from: Math.round((c.ack_wait ?? 0) / 1e6), to: ackWaitMs }, maxDeliver: { from: c.max_deliver, to: maxDeliver } }, 'work queue consumer updated');
    return updated;
  }

  async start(): Promise<void> {
    await PipelineWorker.ensureConsumer(this.o.nc, this.o.ackWaitMs, this.o.log, this.maxDeliver);
    const consumer = await this.o.js.consumers.get(streams.jobs.name, streams.jobs.consumer);
    // Read from the server at each scrape: `info(true)` would return the info cached when the consumer was looked
    // up, so the gauge (which KEDA and the backlog alert read) never moved.
    new Gauge({
      name: 'lineage_pipeline_jobs_pending', help: 'Jobs waiting or in progress on the work queue', registers: [this.o.metrics.registry],
      async collect() {
        const i = await consumer.info().catch(() => null);
        if (i) this.set(i.num_pending + i.num_ack_pending);
      },
    });
    for (let i = 0; i < this.o.concurrency; i++) {
      // One job at a time per loop, pulled only when the previous one is finished (pull.ts: a job buffered behind a
      // long or held one would otherwise spend its deliveries on ack waits nobody answers).
      const pull = new OnePull(consumer);
      this.pulls.push(pull);
      this.loops.push(
        (async () => {
          while (!this.stopping) {
            const m = await pull.next();
            if (!m) continue;
            if (this.stopping) {
              m.nak();
              continue;
            }
            await this.handle(m).catch((err: unknown) => this.o.log.error({ err }, 'job handling failed'));
          }
        })(),
      );
    }
  }

  /** Shutdown: stop pulling; a running stage is aborted and its job handed back (it resumes at its last boundary). */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const ac of this.running) ac.abort();
    for (const p of this.pulls) p.stop();
    await Promise.allSettled(this.loops);
  }

  private table() {
    return this.o.db.withSchema(SCHEMA).table('analyses');
  }

  async handle(m: JsMsg): Promise<void> {
    const parsed = AnalysisJob.safeParse(safeJson(m));
    if (!parsed.success) {
      m.term('malformed job');
      return;
    }
    const id = parsed.data.analysisId;
    const job: Job = { id, m, log: this.o.log.child({ analysisId: id, delivery: m.info.deliveryCount }), ac: new AbortController(), leased: false, lostLease: false, renewedAt: 0, renewing: false };
    this.running.add(job.ac);
    // In-progress acks from the start (however long a stage, or a database outage, lasts), plus lease renewals once leased.
    const heartbeat = setInterval(() => this.heartbeat(job), this.heartbeatMs);
    try {
      if (!(await this.lease(job))) return;
      await this.runLeased(job);
    } finally {
      clearInterval(heartbeat);
      this.running.delete(job.ac);
      if (job.leased) await this.table().where({ id, worker: this.id }).update({ lease_until: null }).catch(() => undefined);
    }
  }

  /**
   * Settles a job that needs no running (its analysis is gone or finished) and takes the row lease of one that
   * does; false when the job was settled (acked, or nak'ed because another worker holds the lease).
   */
  private async lease(job: Job): Promise<boolean> {
    const { id, m } = job;
    try {
      const row = await this.held(job, () => this.table().where('id', id).first());
      if (!row) {
        m.ack();
        return false;
      }
      if (row.state === 'completed') {
        await this.held(job, () => this.publishCompleted(row)); // a crash between commit and publish; the msg id dedups
        m.ack();
        return false;
      }
      if (row.state === 'failed' || row.state === 'cancelled') {
        m.ack();
        return false;
      }
      const leased = await this.held(job, () =>
        this.table()
          .where('id', id)
          .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', now()).orWhere('worker', this.id))
          .update({ worker: this.id, lease_until: now() + this.leaseSeconds }),
      );
      if (leased === 0) {
        // Another worker holds it: alive (it renews the lease), or dead (the lease runs out). Come back just after
        // the lease can have run out, so a dead worker's job is taken over without waiting a whole lease.
        const cur = await this.held(job, () => this.table().where('id', id).first('lease_until'));
        const left = Number(cur?.lease_until ?? 0) - now();
        m.nak(Math.min(this.leaseSeconds, Math.max(0, left)) * 1000 + 1000);
        return false;
      }
      job.leased = true;
      job.renewedAt = Date.now();
      return true;
    } catch (err) {
      // Shut down while held: hand the job back at once.
      if (!job.ac.signal.aborted) throw err;
      m.nak();
      return false;
    }
  }

  private async runLeased(job: Job): Promise<void> {
    const { id, m, log, ac } = job;
    try {
      await this.run(job);
      m.ack();
    } catch (err) {
      if (job.lostLease) {
        // Neither ack nor nak: the worker that holds the lease now owns the job's fate.
      } else if (err instanceof Requeue || ac.signal.aborted) {
        log.info('job handed back to the queue');
        m.nak(this.stopping ? 0 : 5000);
      } else if (isDeterministic(err)) {
        await this.held(job, () => this.fail(id, err));
        m.ack();
      } else if (m.info.deliveryCount >= this.maxDeliver) {
        log.error({ err }, 'job failed on its last delivery');
        await this.held(job, () => this.fail(id, err));
        m.ack();
      } else {
        log.warn({ err }, 'transient failure; job will be redelivered');
        m.nak(Math.min(60_000, 2000 * m.info.deliveryCount));
      }
    }
  }

  /** In-progress ack (JetStream restarts the ack wait: no redelivery while we are alive) and, once leased, lease renewal. */
  private heartbeat(job: Job): void {
    try {
      job.m.working();
    } catch {
      // connection closing; the lease below still speaks for us
    }
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
    const n = await this.table().where({ id: job.id, worker: this.id }).update({ lease_until: now() + this.leaseSeconds });
    if (n > 0) {
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
   * Runs one database step of a job. While the database is unreachable the job is held instead of failed: the
   * heartbeat keeps its delivery in progress, and the step is tried again every STORE_RETRY_MS, so an outage of any
   * length spends none of the job's deliveries. The lease may have run out during the outage (its renewals failed),
   * and another worker may have taken the job over meanwhile: so after a failed try, or when the heartbeat has not
   * renewed the lease lately, a leased job renews it before the step, and stops (leaving the job to the new holder)
   * rather than write over it. Any other failure is thrown as it is.
   */
  private async held<T>(job: Job, step: () => Promise<T>): Promise<T> {
    for (let away = false; ; ) {
      try {
        const stale = Date.now() - job.renewedAt > 2 * this.heartbeatMs;
        if (job.leased && (away || stale) && !(await this.renewLease(job))) throw new Requeue();
        const out = await step();
        if (away) job.log.info('database back; job continues');
        return out;
      } catch (err) {
        if (!isStoreUnavailable(err) || this.stopping || job.ac.signal.aborted) throw err;
        if (!away) job.log.warn({ err: String(err) }, 'database unavailable; job held until it returns');
        away = true;
        await sleep(STORE_RETRY_MS, undefined, { signal: job.ac.signal }).catch(() => undefined);
        if (job.ac.signal.aborted) throw new Requeue();
      }
    }
  }

  /** Every database step below goes through `held`: a database outage holds the job where it is. */
  private async run(job: Job): Promise<void> {
    const { id, ac: { signal } } = job;
    const row = await this.held(job, () => this.table().where('id', id).first());
    if (row.state === 'cancelling') return this.held(job, () => this.finishCancel(id));
    // Only a queued analysis becomes running: a concurrent cancel of a queued one must win.
    if (row.state === 'queued') await this.held(job, () => this.table().where({ id, state: 'queued' }).update({ state: 'running', updated_at: now() }));
    const pair = { origin: { url: row.origin_url as string, commit: row.origin_commit as string }, target: { url: row.target_url as string, commit: row.target_commit as string } };
    const stages = row.stages as StageView[];
    const gitDirs = { origin: this.o.cache.pathFor(pair.origin.url), target: this.o.cache.pathFor(pair.target.url) };

    // Both repositories stay locked (in a fixed order) while the stages read them, so eviction or another fetch cannot pull them away.
    const [first, second] = [pair.origin.url, pair.target.url].sort();
    await this.o.cache.withRepo(first!, () =>
      this.o.cache.withRepo(second!, async () => {
        // The stages after fetch read both repositories from this replica's cache. A job taken over from another
        // replica (each has its own cache) or resumed after its repositories were evicted finds fetch done and the
        // commits missing here: fetch runs again (the same pinned commits) before them.
        const refetch = await this.mustRefetch(stages, pair, gitDirs);
        if (refetch) job.log.info('repositories not in this replica\'s cache; fetching them again');
        for (const name of STAGE_NAMES) {
          const current = stages.find((s) => s.name === name)!;
          if (current.state === 'done' && !(name === 'fetch' && refetch)) continue;
          const fresh = await this.held(job, () => this.table().where('id', id).first('cancel_requested', 'state'));
          if (fresh.cancel_requested) return this.held(job, () => this.finishCancel(id));
          if (this.stopping || signal.aborted) throw new Requeue();
          // A stage left `running` was interrupted (its worker died, shut down or failed transiently): this is a retry.
          const attempt = (current.attempt ?? (current.state === 'pending' ? 0 : 1)) + 1;
          await this.runStage(job, name, attempt, pair, gitDirs);
        }
      }),
    );
  }

  private async mustRefetch(stages: StageView[], pair: StageContext['pair'], gitDirs: StageContext['gitDirs']): Promise<boolean> {
    const after: readonly StageName[] = STAGE_NAMES.slice(STAGE_NAMES.indexOf('fetch') + 1).filter((n) => n !== 'publish');
    if (stages.find((s) => s.name === 'fetch')?.state !== 'done') return false;
    if (!stages.some((s) => after.includes(s.name) && s.state !== 'done')) return false;
    return !((await hasCommit(gitDirs.origin, pair.origin.commit)) && (await hasCommit(gitDirs.target, pair.target.commit)));
  }

  private async runStage(job: Job, name: StageName, attempt: number, pair: StageContext['pair'], gitDirs: StageContext['gitDirs']): Promise<void> {
    const { id, log, ac: { signal } } = job;
    await this.held(job, () => this.patchStage(id, name, { state: 'running', startedAt: String(now()), finishedAt: null, done: null, total: null, unit: null, attempt }));
    if (attempt > 1) {
      this.retries.inc({ stage: name });
      log.info({ stage: name, attempt }, 'stage retried');
    }
    await this.progress(job, name, 'running', null, null, attempt);
    let last = { done: 0, total: 0, unit: 'items' as string };
    let lastWrite = 0;
    const ctx: StageContext = {
      analysisId: id,
      pair,
      limits: this.o.limits,
      maxRepoBytes: this.o.maxRepoBytes,
      workers: this.o.threads,
      cache: this.o.cache,
      policy: this.o.policy,
      fetchTimeoutMs: this.o.fetchTimeoutMs,
      signal,
      gitDirs,
      load: (stage) => this.held(job, () => this.store.load(id, stage)),
      onProgress: (p) => {
        // Both sides report separately; the stage's count is their sum per unit.
        last = { done: p.done, total: p.total, unit: p.unit };
        if (Date.now() - lastWrite > 500) {
          lastWrite = Date.now();
          void this.patchStage(id, name, { done: last.done, total: last.total, unit: last.unit }).catch(() => undefined);
        }
      },
    };
    await this.o.stageDelay?.(id, name);
    if (name === 'publish') return this.publish(job, attempt);
    // A failure that is neither the API's nor the engine's (a bug, a library's exception) is reported as
    // STAGE_FAILED naming the stage, still retried like any transient failure.
    const output = await (STAGES as Record<string, (c: StageContext) => Promise<unknown>>)[name]!(ctx).catch((err: unknown) => {
      throw err instanceof ApiError || isEngineError(err) ? err : stageError(name, null, err);
    });
    if (signal.aborted) throw new Requeue();
    // The boundary: the stage's output is kept in memory while the database is away, and written once it is back.
    await this.held(job, () =>
      this.o.db.transaction(async (trx) => {
        await this.store.save(trx, id, name, output);
        await this.patchStage(id, name, { state: 'done', finishedAt: String(now()), done: last.done, total: last.total, unit: last.unit }, trx);
        if (name === 'fetch') {
          const f = output as FetchOutput;
          await trx.withSchema(SCHEMA).table('analyses').where('id', id).update({ committed_at_origin: f.committedAt.origin, committed_at_target: f.committedAt.target });
        }
      }),
    );
    await this.progress(job, name, 'done', last.done, last.total, attempt);
    log.info({ stage: name, attempt }, 'stage done');
  }

  private async publish(job: Job, attempt: number): Promise<void> {
    const { id, log } = job;
    const m = await this.held(job, () => this.store.load<{ hash: string; bytesBase64: string }>(id, 'manifest'));
    // Idempotent (a retry after a commit whose answer was lost writes the same again).
    await this.held(job, () =>
      this.o.db.transaction(async (trx) => {
        await trx.withSchema(SCHEMA).table('manifests').insert({ analysis_id: id, manifest_hash: m.hash, bytes: Buffer.from(m.bytesBase64, 'base64') }).onConflict('analysis_id').ignore();
        await this.patchStage(id, 'publish', { state: 'done', finishedAt: String(now()), done: 1, total: 1, unit: 'items' }, trx);
        await trx.withSchema(SCHEMA).table('analyses').where('id', id).update({ state: 'completed', manifest_hash: m.hash, updated_at: now() });
      }),
    );
    await this.held(job, () => this.store.clear(id));
    const row = await this.held(job, () => this.table().where('id', id).first());
    await this.held(job, () => this.publishCompleted(row));
    await this.progress(job, 'publish', 'done', 1, 1, attempt);
    log.info({ manifestHash: m.hash }, 'analysis completed');
  }

  private async publishCompleted(row: Record<string, unknown>): Promise<void> {
    const bytes = await this.o.db.withSchema(SCHEMA).table('manifests').where('analysis_id', row.id as string).first(this.o.db.raw('octet_length(bytes) as n'));
    const event: AnalysisCompletedEvent = {
      analysisId: String(row.id),
      pair: {
        origin: { url: String(row.origin_url), commit: String(row.origin_commit), committedAt: row.committed_at_origin == null ? null : String(row.committed_at_origin) },
        target: { url: String(row.target_url), commit: String(row.target_commit), committedAt: row.committed_at_target == null ? null : String(row.committed_at_target) },
      },
      engineVersion: String(row.engine_version),
      manifestHash: String(row.manifest_hash),
      manifestBytes: Number(bytes?.n ?? 0),
      completedAt: String(row.updated_at),
    };
    await this.o.js.publish(eventSubjects.analysisCompleted, JSON.stringify(event), { msgID: `completed-${row.id}` });
  }

  private async finishCancel(id: string): Promise<void> {
    await this.o.db.transaction(async (trx) => {
      const row = await trx.withSchema(SCHEMA).table('analyses').where('id', id).forUpdate().first();
      const stages = (row.stages as StageView[]).map((s) => (s.state === 'pending' || s.state === 'running' ? { ...s, state: 'cancelled' } : s));
      await trx.withSchema(SCHEMA).table('analyses').where('id', id).update({ state: 'cancelled', stages: JSON.stringify(stages), updated_at: now() });
    });
    await this.store.clear(id);
    this.o.log.info({ analysisId: id }, 'analysis cancelled at a stage boundary');
  }

  private async fail(id: string, err: unknown): Promise<void> {
    const e = describe(err);
    await this.o.db.transaction(async (trx) => {
      const row = await trx.withSchema(SCHEMA).table('analyses').where('id', id).forUpdate().first();
      const stages = (row.stages as StageView[]).map((s) => (s.state === 'running' ? { ...s, state: 'failed', finishedAt: String(now()) } : s));
      await trx.withSchema(SCHEMA).table('analyses').where('id', id).update({ state: 'failed', error: JSON.stringify(e), stages: JSON.stringify(stages), updated_at: now() });
    });
    await this.store.clear(id);
    this.o.log.warn({ analysisId: id, code: e.code, limit: e.limit }, 'analysis failed');
  }

  private async patchStage(id: string, name: StageName, patch: Partial<StageView>, trx?: Knex.Transaction): Promise<void> {
    const q = trx ?? this.o.db;
    // jsonb update in place: the stage list is small and only this job's worker writes it.
    await q.raw(
      `UPDATE ${SCHEMA}.analyses SET stages = (
         SELECT jsonb_agg(CASE WHEN s->>'name' = ? THEN s || ?::jsonb ELSE s END ORDER BY ord)
         FROM jsonb_array_elements(stages) WITH ORDINALITY AS t(s, ord)
       ), updated_at = ? WHERE id = ?`,
      [name, JSON.stringify(patch), now(), id],
    );
  }

  private async progress(job: Job, stage: StageName, stageState: 'running' | 'done', done: number | null, total: number | null, attempt: number): Promise<void> {
    const id = job.id;
    const row = await this.held(job, () => this.table().where('id', id).first('state'));
    const event: AnalysisProgressEvent = { analysisId: id, state: row.state, stage, stageState, done, total, attempt, at: String(now()) };
    await this.o.js.publish(eventSubjects.analysisProgress, JSON.stringify(event)).catch(() => undefined);
  }
}

function safeJson(m: JsMsg): unknown {
  try {
    return m.json();
  } catch {
    return null;
  }
}

/** Failures that will fail again on redelivery: the analysis fails with a code instead. */
function isDeterministic(err: unknown): boolean {
  // An unreachable remote may be back on the next delivery; the others will answer the same.
  if (err instanceof ApiError) return !['SERVICE_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'INTERNAL', 'REPOSITORY_UNREACHABLE'].includes(err.code);
  return isEngineError(err) && !['CANCELLED', 'STAGE_FAILED'].includes((err as { code: string }).code);
}

function describe(err: unknown): { code: string; message: string; limit: string | null } {
  if (err instanceof ApiError) return { code: err.code, message: err.message, limit: /maxRepoBytes/.test(err.message) ? 'maxRepoBytes' : null };
  if (isEngineError(err)) {
    const e = err as { code: string; message: string; limit?: string };
    return { code: e.code, message: e.message, limit: e.limit ?? null };
  }
  return { code: 'INTERNAL', message: 'The analysis failed for an internal reason.', limit: null };
}
