// JetStream for every service: the streams, validated publishing and one consumer policy (pull one message at a
// time, heartbeats, hold through a database outage, one backoff, one way to give up). Services go through this
// module only; none imports @nats-io/jetstream itself.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  type ConsumerInfo,
  type JetStreamClient,
  type JsMsg,
  type PubAck,
} from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { streams, type MessageDef } from '@lineage/schemas';
import type { z } from 'zod';
import type { Logger } from './logger';
import { isStoreUnavailable } from './unavailable';
import { OnePull } from './pull';

/**
 * Create the project's streams if they are missing (idempotent; every service
 * that publishes may call it). Work queue: one consumer takes each job once;
 * the duplicate window makes a re-published job id a no-op.
 */
export async function ensureStreams(nc: NatsConnection): Promise<JetStreamClient> {
  const jsm = await jetstreamManager(nc);
  const wanted = [
    {
      name: streams.jobs.name,
      subjects: [...streams.jobs.subjects],
      retention: RetentionPolicy.Workqueue,
      duplicate_window: nanos(10 * 60_000),
    },
    {
      name: streams.events.name,
      subjects: [...streams.events.subjects],
      retention: RetentionPolicy.Limits,
      duplicate_window: nanos(10 * 60_000),
      max_age: nanos(7 * 24 * 3600_000),
    },
  ];
  for (const cfg of wanted) {
    try {
      await jsm.streams.info(cfg.name);
    } catch {
      await jsm.streams.add(cfg).catch(async (err: unknown) => {
        // Another replica may have created it between our info and add.
        await jsm.streams.info(cfg.name).catch(() => {
          throw err;
        });
      });
    }
  }
  return jetstream(nc);
}

/** Nak delays: `baseMs` on the first delivery, doubling with each further one, at most `maxMs`. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}
export const DEFAULT_BACKOFF: Backoff = { baseMs: 1_000, maxMs: 30_000 };

/** The delay before the next delivery of a message that failed on delivery `deliveryCount` (1-based). */
export const retryDelayMs = (deliveryCount: number, b: Backoff = DEFAULT_BACKOFF): number =>
  Math.min(b.maxMs, b.baseMs * 2 ** Math.min(30, Math.max(0, deliveryCount - 1)));

/** In-progress acks come four times per ack wait, so one lost heartbeat costs nothing. */
export const heartbeatMs = (ackWaitMs: number): number => Math.max(250, Math.floor(ackWaitMs / 4));

/** How often a step held during a database outage is tried again (heartbeats keep its delivery alive meanwhile). */
export const STORE_RETRY_MS = 2_000;

/**
 * Runs `step`; while it fails because the database cannot be reached, the step is held rather than failed: logged
 * once, tried again every STORE_RETRY_MS until it succeeds or `signal` aborts (then the last error is thrown). An
 * outage of any length thus spends none of a message's deliveries. `beforeTry` runs before each try (`away`: the
 * previous one found the database away); what it throws ends the hold like any error that is not the database's.
 */
export async function holdThroughOutage<T>(
  step: () => Promise<T>,
  o: {
    signal: AbortSignal;
    log: Logger;
    what: string;
    beforeTry?: (away: boolean) => Promise<void>;
    onHeld?: () => void;
    retryMs?: number;
  },
): Promise<T> {
  for (let away = false; ;) {
    try {
      await o.beforeTry?.(away);
      const out = await step();
      if (away) o.log.info(`database back; ${o.what} continues`);
      return out;
    } catch (err) {
      if (!isStoreUnavailable(err) || o.signal.aborted) throw err;
      if (!away) {
        o.log.warn({ err: String(err) }, `database unavailable; ${o.what} held until it returns`);
        o.onHeld?.();
      }
      away = true;
      await sleep(o.retryMs ?? STORE_RETRY_MS, undefined, { signal: o.signal }).catch(() => undefined);
      if (o.signal.aborted) throw err;
    }
  }
}

/** A payload its publisher built wrong: a bug, never sent. */
export class InvalidMessageError extends Error {
  constructor(
    readonly subject: string,
    readonly issues: { path: PropertyKey[]; code: string }[],
  ) {
    super(
      `payload for ${subject} does not match its schema (${issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.code}`).join(', ')})`,
    );
    this.name = 'InvalidMessageError';
  }
}

/** One delivery of a message, as a consume handler sees it. */
export interface Delivery {
  /** 1 on the first delivery. */
  readonly deliveryCount: number;
  /** Bound to `requestId`, `delivery` and the consumer's `logFields`. */
  readonly log: Logger;
  /** Carried on NATS requests made for this message, as for an HTTP request. */
  readonly requestId: string;
  /** Aborted when the consumer stops (shutdown): hand the message back rather than start more work. */
  readonly signal: AbortSignal;
  /** The handler ran into a database outage on this delivery and is being tried again. */
  readonly held: boolean;
  /** An extra in-progress ack (heartbeats are already sent every quarter of the ack wait). */
  working(): void;
  /**
   * The consumer's failure policy for `err`, applied now (throwing from the handler applies it after the handler has
   * returned): for a handler that must record a given-up failure while it still holds what it holds (a lease).
   * `record` replaces the consumer's `recordFailure` for this failure.
   */
  failure(err: unknown, record?: () => Promise<Outcome>): Promise<Outcome>;
}

/**
 * How a handler settles its message: nothing (acked), `{ nak: ms }` (redelivered after that delay, a delivery
 * spent), `'term'` (never redelivered) or `'leave'` (neither: someone else owns the message's fate, its ack wait
 * decides). Throwing applies the consumer's failure policy (`consume`).
 */
export type Outcome = void | { nak: number } | 'term' | 'leave';

export interface ConsumeOptions<T> {
  /** The durable consumer's name. */
  durable: string;
  /** JetStream redelivers a message this long after its last ack or heartbeat. */
  ackWaitMs: number;
  /** Deliveries before a failing message is given up. */
  maxDeliver: number;
  maxAckPending?: number;
  /** Messages in hand at once (each loop pulls its next one only when done with the last). Default 1. */
  concurrency?: number;
  backoff?: Backoff;
  log: Logger;
  /** How log lines name the message: `job`, `event`, … */
  what: string;
  /** Fields for the delivery's log lines (e.g. the analysis id). */
  logFields?: (payload: T) => Record<string, unknown>;
  /** Failures that will fail again on any redelivery: given up at once. */
  isPermanent?: (err: unknown) => boolean;
  /**
   * Records a given-up failure (a permanent one, or on the last delivery) where it belongs; the message is then
   * acked (unless this returns another outcome). Without it a given-up message is terminated.
   */
  recordFailure?: (err: unknown, payload: T, d: Delivery) => Promise<Outcome>;
  /** Log messages, where a service's own wording is established. */
  messages?: Partial<ConsumeMessages>;
  /** How long one pull waits on the server (tests). */
  pullExpiresMs?: number;
}

export interface ConsumeMessages {
  malformed: string;
  retry: string;
  lastDelivery: string;
  permanent: string;
  handedBack: string;
  crashed: string;
}

export interface Consumption {
  /** Stop pulling; abort in-flight deliveries' `signal` and wait until each has settled. */
  stop(): Promise<void>;
  /** Messages waiting or in progress on the consumer (null when the server cannot say). */
  pending(): Promise<number | null>;
}

export type MessageHandler<D extends MessageDef> = (payload: z.output<D['schema']>, d: Delivery) => Promise<Outcome>;

/**
 * Create a durable pull consumer, or bring an existing one to this configuration: JetStream keeps a durable
 * consumer's settings across restarts, so without the update an old release's ack wait or delivery budget would
 * still apply.
 */
export async function ensureConsumer(
  nc: NatsConnection,
  def: MessageDef,
  durable: string,
  o: { ackWaitMs: number; maxDeliver: number; maxAckPending?: number },
  log?: Logger,
): Promise<ConsumerInfo> {
  const jsm = await jetstreamManager(nc);
  const wanted = { ack_wait: nanos(o.ackWaitMs), max_deliver: o.maxDeliver, max_ack_pending: o.maxAckPending ?? 1000 };
  let info: ConsumerInfo | null = null;
  try {
    info = await jsm.consumers.info(def.stream, durable);
  } catch (err) {
    if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.ConsumerNotFound)) throw err;
  }
  if (!info) {
    try {
      return await jsm.consumers.add(def.stream, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: def.subject,
        ...wanted,
      });
    } catch (err) {
      // Another replica may have created it between our info and add; then it is updated below if needed.
      info = await jsm.consumers.info(def.stream, durable).catch(() => {
        throw err;
      });
    }
  }
  const c = info.config;
  if (c.ack_wait === wanted.ack_wait && c.max_deliver === wanted.max_deliver && c.max_ack_pending === wanted.max_ack_pending) return info;
  const updated = await jsm.consumers.update(def.stream, durable, wanted);
  log?.info(
    {
      consumer: durable,
      ackWaitMs: { from: Math.round((c.ack_wait ?? 0) / 1e6), to: o.ackWaitMs },
      maxDeliver: { from: c.max_deliver, to: wanted.max_deliver },
      maxAckPending: { from: c.max_ack_pending, to: wanted.max_ack_pending },
    },
    'consumer updated',
  );
  return updated;
}

/** The project's JetStream: validated publishing and consuming of the messages in `@lineage/schemas` (`messages`). */
export class JetStream {
  private constructor(
    readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
  ) {}

  /** Makes sure the streams exist. */
  static async open(nc: NatsConnection): Promise<JetStream> {
    return new JetStream(nc, await ensureStreams(nc));
  }

  /**
   * Validates `payload` against the message's schema (throws InvalidMessageError, sending nothing, when it does not
   * match), then publishes it as it was given, with the definition's `Nats-Msg-Id` unless `opts.msgId` names another.
   * Resolves once the stream has stored it (`duplicate`: it already had that id).
   */
  async publish<D extends MessageDef>(def: D, payload: z.input<D['schema']>, opts: { msgId?: string } = {}): Promise<PubAck> {
    const parsed = def.schema.safeParse(payload);
    if (!parsed.success)
      throw new InvalidMessageError(
        def.subject,
        parsed.error.issues.map((i) => ({ path: i.path, code: i.code })),
      );
    const msgID = opts.msgId ?? def.msgId?.(parsed.data);
    return this.js.publish(def.subject, JSON.stringify(payload), msgID === undefined ? undefined : { msgID });
  }

  /**
   * Consume `def` on a durable pull consumer (created or brought to `options` first), `concurrency` loops each
   * holding one message at a time. Per message:
   * - a payload that is not JSON or fails the schema is logged and terminated (redelivery cannot fix it);
   * - while the handler runs, in-progress acks every quarter of the ack wait, however long it takes;
   * - a handler that fails because the database is away is held (`holdThroughOutage`) and run again: no delivery spent;
   * - on success, the handler's outcome (acked by default);
   * - on failure: permanent (`isPermanent`) or on the last delivery, given up (`recordFailure` and ack, or term);
   *   at shutdown, nak'ed at once for another replica; otherwise nak'ed with `retryDelayMs` (`backoff`).
   */
  async consume<D extends MessageDef>(
    def: D,
    handler: MessageHandler<D>,
    options: ConsumeOptions<z.output<D['schema']>>,
  ): Promise<Consumption> {
    await ensureConsumer(this.nc, def, options.durable, options, options.log);
    const consumer = await this.js.consumers.get(def.stream, options.durable);
    const run = new ConsumerRun(def, handler, options);
    for (let i = 0; i < (options.concurrency ?? 1); i++) run.loop(new OnePull(consumer, options.pullExpiresMs));
    return {
      stop: () => run.stop(),
      // Read from the server each time: `info(true)` answers what was cached when the consumer was looked up.
      pending: async () => {
        const i = await consumer.info().catch(() => null);
        return i ? i.num_pending + i.num_ack_pending : null;
      },
    };
  }
}

class ConsumerRun<D extends MessageDef> {
  private readonly stopping = new AbortController();
  private readonly pulls: OnePull[] = [];
  private readonly loops: Promise<void>[] = [];
  private readonly text: ConsumeMessages;

  constructor(
    private readonly def: D,
    private readonly handler: MessageHandler<D>,
    private readonly o: ConsumeOptions<z.output<D['schema']>>,
  ) {
    const what = o.what;
    this.text = {
      malformed: `malformed ${what}; terminated`,
      retry: `${what} failed; will be redelivered`,
      lastDelivery: `${what} failed its last delivery`,
      permanent: `${what} cannot succeed; given up`,
      handedBack: `${what} handed back to the queue`,
      crashed: `${what} handling failed`,
      ...o.messages,
    };
  }

  loop(pull: OnePull): void {
    this.pulls.push(pull);
    this.loops.push(
      (async () => {
        while (!this.stopping.signal.aborted) {
          const m = await pull.next();
          if (!m) continue;
          if (this.stopping.signal.aborted) {
            m.nak();
            continue;
          }
          await this.deliver(m).catch((err: unknown) => this.o.log.error({ err, consumer: this.o.durable }, this.text.crashed));
        }
      })(),
    );
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    for (const p of this.pulls) p.stop();
    await Promise.allSettled(this.loops);
  }

  private async deliver(m: JsMsg): Promise<void> {
    const parsed = this.def.schema.safeParse(safeJson(m));
    if (!parsed.success) {
      // term() without a reason: servers before 2.10.4 ignore "+TERM <reason>" and the message would stay pending.
      this.o.log.error({ consumer: this.o.durable, subject: m.subject, seq: m.seq }, this.text.malformed);
      m.term();
      return;
    }
    const payload = parsed.data as z.output<D['schema']>;
    const deliveryCount = m.info.deliveryCount;
    const requestId = `${this.def.kind}-${randomUUID()}`;
    const working = () => {
      try {
        m.working();
      } catch {
        // the connection is closing: the ack wait decides
      }
    };
    const d: { -readonly [K in keyof Delivery]: Delivery[K] } = {
      deliveryCount,
      requestId,
      log: this.o.log.child({ requestId, ...this.o.logFields?.(payload), delivery: deliveryCount }),
      signal: this.stopping.signal,
      held: false,
      working,
      failure: (err: unknown, record?: () => Promise<Outcome>) => this.failed(err, payload, d, record),
    };
    const heartbeat = setInterval(working, heartbeatMs(this.o.ackWaitMs));
    try {
      let outcome: Outcome;
      try {
        outcome = await holdThroughOutage(() => this.handler(payload, d), {
          signal: d.signal,
          log: d.log,
          what: this.o.what,
          onHeld: () => {
            d.held = true;
          },
        });
      } catch (err) {
        outcome = await this.failed(err, payload, d);
      }
      settle(m, outcome);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** The one failure policy: give up what cannot succeed, hand back at shutdown, otherwise retry with backoff. */
  private async failed(err: unknown, payload: z.output<D['schema']>, d: Delivery, recordThis?: () => Promise<Outcome>): Promise<Outcome> {
    const permanent = this.o.isPermanent?.(err) ?? false;
    const last = d.deliveryCount >= this.o.maxDeliver;
    if (!permanent && d.signal.aborted) {
      d.log.info(this.text.handedBack);
      return { nak: 0 };
    }
    if (!permanent && !last) {
      d.log.warn({ err }, this.text.retry);
      return { nak: retryDelayMs(d.deliveryCount, this.o.backoff) };
    }
    const record = recordThis ?? (this.o.recordFailure ? () => this.o.recordFailure!(err, payload, d) : undefined);
    if (last && !permanent) d.log.error({ err }, this.text.lastDelivery);
    else d.log[record ? 'warn' : 'error']({ err: String(err) }, this.text.permanent);
    if (!record) return 'term';
    return holdThroughOutage(record, { signal: d.signal, log: d.log, what: this.o.what });
  }
}

function settle(m: JsMsg, outcome: Outcome): void {
  if (outcome === 'leave') return;
  if (outcome === 'term') m.term();
  else if (outcome && 'nak' in outcome) m.nak(outcome.nak);
  else m.ack();
}

function safeJson(m: JsMsg): unknown {
  try {
    return m.json();
  } catch {
    return undefined;
  }
}
