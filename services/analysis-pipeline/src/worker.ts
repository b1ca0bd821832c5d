import { randomUUID } from 'node:crypto';
import { AckPolicy, JetStreamApiCodes, JetStreamApiError, jetstreamManager, type ConsumerInfo, type ConsumerMessages, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { Counter, Gauge } from 'prom-client';
import { AnalysisJob, eventSubjects, STAGE_NAMES, streams, type AnalysisCompletedEvent, type AnalysisProgressEvent } from '@lineage/schemas';
import { ApiError, type Knex, type Logger, type ServiceMetrics } from '@lineage/service-kit';
import { isEngineError, stageError, type Limits } from '@lineage/engine';
import { SCHEMA } from './migrations';
import { StageStore } from './stage-store';
import { STAGES, type FetchOutput, type StageContext } from './stages';
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
  /** Drills and tests: extra work inside each stage (the stage is already `running`). */
  stageDelay?: (analysisId: string, stage: StageName) => Promise<void>;
}

const MAX_DELIVER = 10;
const now = () => Math.floor(Date.now() / 1000);

/** Thrown when the job must go back to the queue (shutdown, lease held elsewhere, transient failure). */
class Requeue extends Error {}

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
  private readonly subs: ConsumerMessages[] = [];
  private readonly running = new Set<AbortController>();
  private stopping = false;
  private pendingTimer: NodeJS.Timeout | null = null;
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

  /**
   * Create the work queue's durable consumer, or bring an existing one (made by an older release or with another
   * JOB_ACK_WAIT_MS) to this configuration: JetStream keeps a durable consumer's settings across restarts, so
   * without the update an old, long ack wait would still decide how fast a dead worker's job is taken over.
   */
  static async ensureConsumer(nc: NatsConnection, ackWaitMs: number, log?: Logger): Promise<ConsumerInfo> {
    const jsm = await jetstreamManager(nc);
    const wanted = { ack_wait: nanos(ackWaitMs), max_deliver: MAX_DELIVER, max_ack_pending: 1000 };
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
    log?.info({ ackWaitMs: { from: Math.round((c.ack_wait ?? 0) / 1e6), to: ackWaitMs }, maxDeliver: { from: c.max_deliver, to: MAX_DELIVER } }, 'work queue consumer updated');
    return updated;
  }

  async start(): Promise<void> {
    await PipelineWorker.ensureConsumer(this.o.nc, this.o.ackWaitMs, this.o.log);
    const consumer = await this.o.js.consumers.get(streams.jobs.name, streams.jobs.consumer);
    const pending = new Gauge({ name: 'lineage_pipeline_jobs_pending', help: 'Jobs waiting or in progress on the work queue', registers: [this.o.metrics.registry] });
    this.pendingTimer = setInterval(() => {
      consumer.info(true).then((i) => pending.set(i.num_pending + i.num_ack_pending), () => undefined);
    }, 5000);
    this.pendingTimer.unref();
    for (let i = 0; i < this.o.concurrency; i++) {
      const messages = await consumer.consume({ max_messages: 1 });
      this.subs.push(messages);
      this.loops.push(
        (async () => {
          for await (const m of messages) {
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
    if (this.pendingTimer) clearInterval(this.pendingTimer);
    for (const ac of this.running) ac.abort();
    for (const s of this.subs) s.stop();
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
    const log = this.o.log.child({ analysisId: id, delivery: m.info.deliveryCount });
    const row = await this.table().where('id', id).first();
    if (!row) return m.ack();
    if (row.state === 'completed') {
      await this.publishCompleted(row); // a crash between commit and publish; the msg id dedups
      return m.ack();
    }
    if (row.state === 'failed' || row.state === 'cancelled') return m.ack();
    const leased = await this.table()
      .where('id', id)
      .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', now()).orWhere('worker', this.id))
      .update({ worker: this.id, lease_until: now() + this.leaseSeconds });
    if (leased === 0) {
      // Another worker holds it: alive (it renews the lease), or dead (the lease runs out). Come back just after
      // the lease can have run out, so a dead worker's job is taken over without waiting a whole lease.
      const cur = await this.table().where('id', id).first('lease_until');
      const left = Number(cur?.lease_until ?? 0) - now();
      m.nak(Math.min(this.leaseSeconds, Math.max(0, left)) * 1000 + 1000);
      return;
    }
    const ac = new AbortController();
    this.running.add(ac);
    let lostLease = false;
    const heartbeat = setInterval(() => {
      try {
        m.working(); // JetStream restarts the ack wait: no redelivery while we are alive
      } catch {
        // connection closing; the lease below still speaks for us
      }
      void this.table().where({ id, worker: this.id }).update({ lease_until: now() + this.leaseSeconds }).then((n) => {
        if (n === 0 && !lostLease) {
          // Our heartbeats stalled past the lease and another worker took the job over: stop, and leave the job to it.
          lostLease = true;
          log.warn('lease taken over by another worker; abandoning the job');
          ac.abort();
        }
      }, () => undefined);
    }, this.heartbeatMs);
    try {
      await this.run(id, ac.signal, log);
      m.ack();
    } catch (err) {
      if (lostLease) {
        // Neither ack nor nak: the worker that holds the lease now owns the job's fate.
      } else if (err instanceof Requeue || ac.signal.aborted) {
        log.info('job handed back to the queue');
        m.nak(this.stopping ? 0 : 5000);
      } else if (isDeterministic(err)) {
        await this.fail(id, err);
        m.ack();
      } else if (m.info.deliveryCount >= MAX_DELIVER) {
        log.error({ err }, 'job failed on its last delivery');
        await this.fail(id, err);
        m.ack();
      } else {
        log.warn({ err }, 'transient failure; job will be redelivered');
        m.nak(Math.min(60_000, 2000 * m.info.deliveryCount));
      }
    } finally {
      clearInterval(heartbeat);
      this.running.delete(ac);
      await this.table().where({ id, worker: this.id }).update({ lease_until: null }).catch(() => undefined);
    }
  }

  private async run(id: string, signal: AbortSignal, log: Logger): Promise<void> {
    const row = await this.table().where('id', id).first();
    if (row.state === 'cancelling') return this.finishCancel(id);
    // Only a queued analysis becomes running: a concurrent cancel of a queued one must win.
    if (row.state === 'queued') await this.table().where({ id, state: 'queued' }).update({ state: 'running', updated_at: now() });
    const pair = { origin: { url: row.origin_url as string, commit: row.origin_commit as string }, target: { url: row.target_url as string, commit: row.target_commit as string } };
    const stages = row.stages as StageView[];
    const gitDirs = { origin: this.o.cache.pathFor(pair.origin.url), target: this.o.cache.pathFor(pair.target.url) };

    // Both repositories stay locked (in a fixed order) while the stages read them, so eviction or another fetch cannot pull them away.
    const [first, second] = [pair.origin.url, pair.target.url].sort();
    await this.o.cache.withRepo(first!, () =>
      this.o.cache.withRepo(second!, async () => {
        for (const name of STAGE_NAMES) {
          const current = stages.find((s) => s.name === name)!;
          if (current.state === 'done') continue;
          const fresh = await this.table().where('id', id).first('cancel_requested', 'state');
          if (fresh.cancel_requested) return this.finishCancel(id);
          if (this.stopping || signal.aborted) throw new Requeue();
          // A stage left `running` was interrupted (its worker died, shut down or failed transiently): this is a retry.
          const attempt = (current.attempt ?? (current.state === 'pending' ? 0 : 1)) + 1;
          await this.runStage(id, name, attempt, pair, gitDirs, signal, log);
        }
      }),
    );
  }

  private async runStage(id: string, name: StageName, attempt: number, pair: StageContext['pair'], gitDirs: StageContext['gitDirs'], signal: AbortSignal, log: Logger): Promise<void> {
    await this.patchStage(id, name, { state: 'running', startedAt: String(now()), finishedAt: null, done: null, total: null, unit: null, attempt });
    if (attempt > 1) {
      this.retries.inc({ stage: name });
      log.info({ stage: name, attempt }, 'stage retried');
    }
    await this.progress(id, name, 'running', null, null, attempt);
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
      load: (stage) => this.store.load(id, stage),
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
    if (name === 'publish') return this.publish(id, attempt, log);
    // A failure that is neither the API's nor the engine's (a bug, a library's exception) is reported as
    // STAGE_FAILED naming the stage, still retried like any transient failure.
    const output = await (STAGES as Record<string, (c: StageContext) => Promise<unknown>>)[name]!(ctx).catch((err: unknown) => {
      throw err instanceof ApiError || isEngineError(err) ? err : stageError(name, null, err);
    });
    if (signal.aborted) throw new Requeue();
    await this.o.db.transaction(async (trx) => {
      await this.store.save(trx, id, name, output);
      await this.patchStage(id, name, { state: 'done', finishedAt: String(now()), done: last.done, total: last.total, unit: last.unit }, trx);
      if (name === 'fetch') {
        const f = output as FetchOutput;
        await trx.withSchema(SCHEMA).table('analyses').where('id', id).update({ committed_at_origin: f.committedAt.origin, committed_at_target: f.committedAt.target });
      }
    });
    await this.progress(id, name, 'done', last.done, last.total, attempt);
    log.info({ stage: name, attempt }, 'stage done');
  }

  private async publish(id: string, attempt: number, log: Logger): Promise<void> {
    const m = await this.store.load<{ hash: string; bytesBase64: string }>(id, 'manifest');
    await this.o.db.transaction(async (trx) => {
      await trx.withSchema(SCHEMA).table('manifests').insert({ analysis_id: id, manifest_hash: m.hash, bytes: Buffer.from(m.bytesBase64, 'base64') }).onConflict('analysis_id').ignore();
      await this.patchStage(id, 'publish', { state: 'done', finishedAt: String(now()), done: 1, total: 1, unit: 'items' }, trx);
      await trx.withSchema(SCHEMA).table('analyses').where('id', id).update({ state: 'completed', manifest_hash: m.hash, updated_at: now() });
    });
    await this.store.clear(id);
    const row = await this.table().where('id', id).first();
    await this.publishCompleted(row);
    await this.progress(id, 'publish', 'done', 1, 1, attempt);
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

  private async progress(id: string, stage: StageName, stageState: 'running' | 'done', done: number | null, total: number | null, attempt: number): Promise<void> {
    const row = await this.table().where('id', id).first('state');
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
