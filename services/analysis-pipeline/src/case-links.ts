import { AckPolicy, DeliverPolicy, jetstreamManager, type ConsumerMessages, type JetStreamClient } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { CasePublishedEvent, eventSubjects, streams } from '@lineage/schemas';
import type { Knex, Logger } from '@lineage/service-kit';
import { SCHEMA } from './migrations';

const CONSUMER = 'analysis-pipeline-case-links';

/**
 * Fills `caseId` on an analysis once the case-store has published its case.
 * Durable and idempotent: a repeated event writes the same value again.
 */
export class CaseLinks {
  private messages: ConsumerMessages | null = null;
  private loop: Promise<void> | null = null;

  constructor(private readonly db: Knex, private readonly nc: NatsConnection, private readonly js: JetStreamClient, private readonly log: Logger) {}

  async start(): Promise<void> {
    const jsm = await jetstreamManager(this.nc);
    await jsm.consumers.add(streams.events.name, {
      durable_name: CONSUMER,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(30_000),
      max_deliver: 20,
      deliver_policy: DeliverPolicy.All,
      filter_subject: eventSubjects.casePublished,
    });
    const consumer = await this.js.consumers.get(streams.events.name, CONSUMER);
    this.messages = await consumer.consume({ max_messages: 50 });
    const messages = this.messages;
    this.loop = (async () => {
      for await (const m of messages) {
        const parsed = CasePublishedEvent.safeParse(safeJson(m.data));
        if (!parsed.success) {
          m.term();
          continue;
        }
        try {
          await this.db.withSchema(SCHEMA).table('analyses').where({ id: parsed.data.analysisId }).update({ case_id: parsed.data.caseId });
          m.ack();
        } catch (err) {
          this.log.warn({ err, analysisId: parsed.data.analysisId }, 'could not link case; will retry');
          m.nak(Math.min(30_000, 1000 * m.info.deliveryCount));
        }
      }
    })();
  }

  async stop(): Promise<void> {
    this.messages?.stop();
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
