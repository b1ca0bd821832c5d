import { setTimeout as sleep } from 'node:timers/promises';
import { AckPolicy, DeliverPolicy, jetstreamManager, type JetStreamClient, type JsMsg } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { CasePublishedEvent, eventSubjects, streams } from '@lineage/schemas';
import { isStoreUnavailable, type Knex, type Logger } from '@lineage/service-kit';
import { SCHEMA } from './migrations';
import { OnePull } from './pull';

const CONSUMER = 'analysis-pipeline-case-links';
const ACK_WAIT_MS = 30_000;
/** How often a link held during a database outage is tried again (each try is also an in-progress ack). */
const STORE_RETRY_MS = 2_000;

/**
 * Fills `caseId` on an analysis once the case-store has published its case.
 * Durable and idempotent: a repeated event writes the same value again.
 * While the database is away the event is held (in-progress acks, another try every STORE_RETRY_MS) rather than
 * nak'ed, so an outage of any length spends none of its deliveries; other failures are nak'ed with a growing delay.
 * Events are pulled one at a time (pull.ts), so none waits unattended in this client while one is held.
 */
export class CaseLinks {
  private pull: OnePull | null = null;
  private loop: Promise<void> | null = null;
  private readonly stopped = new AbortController();

  constructor(private readonly db: Knex, private readonly nc: NatsConnection, private readonly js: JetStreamClient, private readonly log: Logger) {}

  async start(): Promise<void> {
    const jsm = await jetstreamManager(this.nc);
    await jsm.consumers.add(streams.events.name, {
      durable_name: CONSUMER,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(ACK_WAIT_MS),
      max_deliver: 20,
      deliver_policy: DeliverPolicy.All,
      filter_subject: eventSubjects.casePublished,
    });
    const consumer = await this.js.consumers.get(streams.events.name, CONSUMER);
    const pull = new OnePull(consumer);
    this.pull = pull;
    this.loop = (async () => {
      while (!this.stopped.signal.aborted) {
        const m = await pull.next();
        if (m) await this.handle(m);
      }
    })();
  }

  private async handle(m: JsMsg): Promise<void> {
    const parsed = CasePublishedEvent.safeParse(safeJson(m.data));
    if (!parsed.success) {
      m.term();
      return;
    }
    const { analysisId, caseId } = parsed.data;
    const log = this.log.child({ analysisId, caseId, delivery: m.info.deliveryCount });
    try {
      for (let held = false; ; ) {
        try {
          await this.db.withSchema(SCHEMA).table('analyses').where({ id: analysisId }).update({ case_id: caseId });
          log.info({ held }, 'case linked');
          break;
        } catch (err) {
          // The database is away: keep this delivery rather than spend the delivery budget on the outage.
          if (!isStoreUnavailable(err) || this.stopped.signal.aborted) throw err;
          if (!held) log.warn({ err: String(err) }, 'database unavailable; case link held until it returns');
          held = true;
          m.working();
          await sleep(STORE_RETRY_MS, undefined, { signal: this.stopped.signal }).catch(() => undefined);
        }
      }
      m.ack();
    } catch (err) {
      if (this.stopped.signal.aborted) {
        m.nak(); // shutting down: another replica (or this one, restarted) takes it now
        return;
      }
      log.warn({ err }, 'could not link case; will retry');
      m.nak(Math.min(30_000, 1000 * m.info.deliveryCount));
    }
  }

  async stop(): Promise<void> {
    this.stopped.abort();
    this.pull?.stop();
    await this.loop?.catch(() => undefined);
  }
}

function safeJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(data).toString('utf8'));
  } catch {
    return null;
  }
}
