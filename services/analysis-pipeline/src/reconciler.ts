import { streams } from '@lineage/schemas';
import type { Knex, Logger, ServiceMetrics } from '@lineage/service-kit';
import type { JetStreamClient, PubAck } from '@nats-io/jetstream';
import { Counter, Gauge } from 'prom-client';
import { SCHEMA } from './migrations';

const now = () => Math.floor(Date.now() / 1000);

/** The job's message id is the analysis id: a repeated publish inside the stream's duplicate window is dropped. */
export const jobMsgId = (analysisId: string | number) => `analysis-${analysisId}`;

/** Publish an analysis's job to the work queue. */
export function publishJob(js: JetStreamClient, analysisId: string | number): Promise<PubAck> {
  return js.publish(streams.jobs.subjects[0], JSON.stringify({ analysisId: String(analysisId) }), { msgID: jobMsgId(analysisId) });
}

/** Record that an analysis's job reached the work queue (the reconciler leaves it alone from then on). */
export async function markJobPublished(db: Knex | Knex.Transaction, analysisId: string | number): Promise<void> {
  await db.withSchema(SCHEMA).table('analyses').where('id', analysisId).whereNull('job_published_at').update({ job_published_at: now() });
}

export interface ReconcilerOptions {
  db: Knex;
  js: () => JetStreamClient;
  log: Logger;
  metrics: ServiceMetrics;
  intervalMs: number;
  /** A row younger than this may still be being published by the request that created it. */
  minAgeMs: number;
  /** Rows per sweep; the next sweep takes the rest. */
  batch?: number;
}

/**
 * Makes a stranded analysis impossible: the analysis row is committed before its job is published,
 * so a process that dies in between leaves a `queued` analysis with no job. At start and then every
 * `intervalMs`, every replica looks for queued analyses older than `minAgeMs` whose job was never
 * recorded as published and publishes it (with the same `Nats-Msg-Id`).
 *
 * Several replicas may sweep at once: `FOR UPDATE SKIP LOCKED` hands each row to one of them, and a
 * second publish of the same job is dropped by the stream's duplicate window anyway. After the window,
 * a duplicate job is harmless: the worker acknowledges a job whose analysis is finished, and the row
 * lease keeps a second worker off one that is running.
 */
export class JobReconciler {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;
  private stopped = false;
  private readonly republished: Counter<'outcome'>;
  private readonly active: Gauge<'state'>;

  constructor(private readonly o: ReconcilerOptions) {
    this.republished = new Counter({
      name: 'lineage_pipeline_jobs_republished_total',
      help: 'Jobs of queued analyses the reconciler published because their creator never recorded publishing them (outcome: published, or duplicate when the stream already had it)',
      labelNames: ['outcome'] as const,
      registers: [o.metrics.registry],
    });
    // Queue depth as the queue bound (PIPELINE_MAX_QUEUED) counts it, refreshed at each sweep.
    this.active = new Gauge({
      name: 'lineage_pipeline_analyses_active',
      help: 'Analyses queued, running or cancelling (what PIPELINE_MAX_QUEUED bounds), as of the last reconciler sweep',
      labelNames: ['state'] as const,
      registers: [o.metrics.registry],
    });
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.sweeping = this.sweep()
        .catch((err: unknown) => this.o.log.warn({ err }, 'job reconciliation failed; will retry'))
        .finally(() => {
          this.sweeping = null;
          if (!this.stopped) {
            this.timer = setTimeout(tick, this.o.intervalMs);
            this.timer.unref();
          }
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.sweeping?.catch(() => undefined);
  }

  /** One pass; returns how many jobs were published. */
  async sweep(): Promise<number> {
    const cutoff = Math.floor((Date.now() - this.o.minAgeMs) / 1000);
    const published = await this.o.db.transaction(async (trx) => {
      const { rows } = (await trx.raw(
        `SELECT id FROM ${SCHEMA}.analyses
         WHERE state = 'queued' AND job_published_at IS NULL AND created_at <= ?
         ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`,
        [cutoff, this.o.batch ?? 100],
      )) as { rows: { id: string }[] };
      let n = 0;
      for (const { id } of rows) {
        const ack = await publishJob(this.o.js(), id);
        await markJobPublished(trx, id);
        this.republished.inc({ outcome: ack.duplicate ? 'duplicate' : 'published' });
        this.o.log.warn({ analysisId: String(id), duplicate: ack.duplicate }, 'republished the job of a queued analysis');
        n++;
      }
      return n;
    });
    const { rows } = (await this.o.db.raw(
      `SELECT state, count(*)::int AS n FROM ${SCHEMA}.analyses WHERE state IN ('queued', 'running', 'cancelling') GROUP BY state`,
    )) as { rows: { state: string; n: number }[] };
    for (const state of ['queued', 'running', 'cancelling']) this.active.set({ state }, rows.find((r) => r.state === state)?.n ?? 0);
    return published;
  }
}
