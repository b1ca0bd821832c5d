// The durable JetStream pull consumer `case-store` on analysis-completed events.
// A redelivered or duplicated event changes nothing (unique analysis_id); a replica that was down resumes where the
// durable consumer stopped. The delivery policy is service-kit's `consume`: a database outage holds the event (no
// delivery spent), transient failures are nak'ed with a growing delay up to CONSUMER_MAX_DELIVER deliveries, and an
// event that can never become a case (or a malformed one) is terminated.
import { messages } from '@lineage/schemas';
import { retryDelayMs as backoffDelayMs, type Backoff, type Consumption, type JetStream, type Logger } from '@lineage/service-kit';
import { isTransient, type Ingest } from './ingest';

export const CONSUMER_NAME = 'case-store';
const BACKOFF: Backoff = { baseMs: 1_000, maxMs: 30_000 };

/** Delay before the next delivery: 1 s, 2 s, 4 s … capped at 30 s. */
export const retryDelayMs = (deliveryCount: number) => backoffDelayMs(deliveryCount, BACKOFF);

export interface ConsumerOptions {
  maxDeliver: number;
  concurrency: number;
  maxManifestBytes: number;
}

export class CompletedEventsConsumer {
  private consumption: Consumption | null = null;

  constructor(
    private readonly js: JetStream,
    private readonly ingest: Ingest,
    private readonly log: Logger,
    private readonly opts: ConsumerOptions,
  ) {}

  async start(): Promise<void> {
    this.consumption = await this.js.consume(
      messages.analysisCompleted,
      async (event, d) => {
        await this.ingest.apply(event, {
          requestId: d.requestId,
          maxManifestBytes: this.opts.maxManifestBytes,
          heartbeat: () => d.working(),
        });
      },
      {
        durable: CONSUMER_NAME,
        ackWaitMs: 60_000,
        maxDeliver: this.opts.maxDeliver,
        maxAckPending: Math.max(16, this.opts.concurrency * 4),
        concurrency: this.opts.concurrency,
        backoff: BACKOFF,
        log: this.log,
        what: 'event',
        logFields: (e) => ({ analysisId: e.analysisId }),
        isPermanent: (err) => !isTransient(err),
        messages: { malformed: 'malformed analysis-completed event; terminated', permanent: 'event cannot become a case; terminated' },
      },
    );
    this.log.info({ consumer: CONSUMER_NAME }, 'consuming analysis-completed events');
  }

  /** Shutdown: stop pulling, finish (and ack) what is in flight; a transient failure meanwhile is nak'ed for another replica. */
  async stop(): Promise<void> {
    await this.consumption?.stop();
  }
}
