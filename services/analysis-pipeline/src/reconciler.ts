import type { JetStream, Logger, ServiceMetrics } from '@lineage/service-kit';
import { Counter, Gauge } from 'prom-client';
import { publishJob } from './analyses';
import type { AnalysisRepository } from './repository';

export interface ReconcilerOptions {
  repo: AnalysisRepository;
  js: () => JetStream;
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
    const published = await this.o.repo.sweepUnpublished(cutoff, this.o.batch ?? 100, async (id) => {
      const ack = await publishJob(this.o.js(), id);
      this.republished.inc({ outcome: ack.duplicate ? 'duplicate' : 'published' });
      this.o.log.warn({ analysisId: id, duplicate: ack.duplicate }, 'republished the job of a queued analysis');
    });
    const active = await this.o.repo.activeCounts();
    for (const [state, n] of Object.entries(active)) this.active.set({ state }, n);
    return published;
  }
}
