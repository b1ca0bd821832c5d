// The durable JetStream pull consumer `case-store` on analysis-completed events.
// Explicit acks; a redelivered or duplicated event changes nothing (unique analysis_id);
// transient failures are nak'ed with a growing delay, up to CONSUMER_MAX_DELIVER
// deliveries; a replica that was down resumes where the durable consumer stopped.
// While the database is away the event is held (in-progress acks) and tried again
// every STORE_RETRY_MS instead: an outage spends no deliveries, however long it lasts.
// Note: term() carries no reason string: servers before 2.10.4 ignore "+TERM <reason>" and the message would stay pending.
import { AckPolicy, DeliverPolicy, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { AnalysisCompletedEvent, eventSubjects, streams } from '@lineage/schemas';
import { ensureStreams, isStoreUnavailable, type Logger } from '@lineage/service-kit';
import { randomUUID } from 'node:crypto';
import { isTransient, type Ingest } from './ingest';

export const CONSUMER_NAME = 'case-store';
const ACK_WAIT_MS = 60_000;
/** How often an event held during a database outage is tried again (each try is also an in-progress ack). */
const STORE_RETRY_MS = 2_000;

export interface ConsumerOptions {
  maxDeliver: number;
  concurrency: number;
  maxManifestBytes: number;
}

/** Delay before the next delivery: 1 s, 2 s, 4 s … capped at 30 s. */
export const retryDelayMs = (deliveryCount: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, deliveryCount - 1));

export class CompletedEventsConsumer {
  private messages: ConsumerMessages | null = null;
  private loop: Promise<void> | null = null;
  private readonly inflight = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly ingest: Ingest,
    private readonly log: Logger,
    private readonly opts: ConsumerOptions,
  ) {}

  async start(): Promise<void> {
    const js = await ensureStreams(this.nc);
    const jsm = await jetstreamManager(this.nc);
    const config = {
      durable_name: CONSUMER_NAME,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: eventSubjects.analysisCompleted,
      ack_wait: nanos(ACK_WAIT_MS),
      max_deliver: this.opts.maxDeliver,
      max_ack_pending: Math.max(16, this.opts.concurrency * 4),
    };
    try {
      await jsm.consumers.info(streams.events.name, CONSUMER_NAME);
      await jsm.consumers.update(streams.events.name, CONSUMER_NAME, { ack_wait: config.ack_wait, max_deliver: config.max_deliver, max_ack_pending: config.max_ack_pending });
    } catch {
      // Created by whichever replica gets there first; a concurrent add of the same config succeeds too.
      await jsm.consumers.add(streams.events.name, config);
    }
    const consumer = await js.consumers.get(streams.events.name, CONSUMER_NAME);
    this.messages = await consumer.consume({ max_messages: this.opts.concurrency });
    this.loop = this.run(this.messages);
    this.log.info({ consumer: CONSUMER_NAME }, 'consuming analysis-completed events');
  }

  private async run(messages: ConsumerMessages): Promise<void> {
    for await (const m of messages) {
      const p = this.handle(m).finally(() => this.inflight.delete(p));
      this.inflight.add(p);
      if (this.inflight.size >= this.opts.concurrency) await Promise.race(this.inflight);
    }
  }

  private async handle(m: JsMsg): Promise<void> {
    const requestId = `event-${randomUUID()}`;
    let raw: unknown;
    try {
      raw = m.json();
    } catch {
      raw = undefined;
    }
    const parsed = AnalysisCompletedEvent.safeParse(raw);
    if (!parsed.success) {
      this.log.error({ seq: m.seq }, 'malformed analysis-completed event; terminated');
      m.term();
      return;
    }
    const event = parsed.data;
    const log = this.log.child({ requestId, analysisId: event.analysisId, delivery: m.info.deliveryCount });
    try {
      for (let held = false; ; ) {
        try {
          await this.ingest.apply(event, { requestId, maxManifestBytes: this.opts.maxManifestBytes, heartbeat: () => m.working() });
          break;
        } catch (err) {
          // The database is away: keep this delivery rather than spend the delivery budget on the outage.
          if (!isStoreUnavailable(err) || this.stopping) throw err;
          if (!held) log.warn({ err: String(err) }, 'database unavailable; event held until it returns');
          held = true;
          m.working();
          await new Promise((r) => setTimeout(r, STORE_RETRY_MS));
        }
      }
      m.ack();
    } catch (err) {
      if (!isTransient(err)) {
        log.error({ err: String(err) }, 'event cannot become a case; terminated');
        m.term();
        return;
      }
      if (this.stopping) {
        m.nak(); // shutting down: another replica (or this one, restarted) takes it now
        return;
      }
      const last = m.info.deliveryCount >= this.opts.maxDeliver;
      log[last ? 'error' : 'warn']({ err: String(err), last }, last ? 'event failed its last delivery' : 'event failed; will be redelivered');
      if (last) m.term();
      else m.nak(retryDelayMs(m.info.deliveryCount));
    }
  }

  /** Shutdown: stop pulling, finish (and ack) what is in flight. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.messages?.close().catch(() => undefined);
    await this.loop?.catch(() => undefined);
    await Promise.allSettled([...this.inflight]);
  }
}
