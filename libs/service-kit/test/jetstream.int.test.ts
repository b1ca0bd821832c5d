// service-kit's JetStream against a private nats-server: publish validates before anything is sent and keeps the
// definitions' Nats-Msg-Id; consume applies the one delivery policy (malformed payloads terminated, backoff,
// giving up, holding through a database outage, heartbeats, one message in hand at a time, hand-back at shutdown).
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { messages, streams, z, type MessageDef } from '@lineage/schemas';
import { InvalidMessageError, JetStream, retryDelayMs, type Delivery, type Logger } from '../src';
import { sleep, startNats, waitFor } from '../../../test/support/processes';

jest.setTimeout(60_000);

let nats: Awaited<ReturnType<typeof startNats>>;
let nc: NatsConnection;
let js: JetStream;

beforeAll(async () => {
  nats = await startNats();
  nc = await connect({ servers: nats.url });
  js = await JetStream.open(nc);
});
afterAll(async () => {
  await nc?.close();
  await nats?.stop();
});

/** A logger whose lines the test can read. */
function capture(): { log: Logger; lines: () => Record<string, unknown>[] } {
  const out: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      out.push(String(chunk));
      cb();
    },
  });
  return {
    log: pino({ level: 'debug' }, sink),
    lines: () =>
      out
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
const msgs = (lines: Record<string, unknown>[], msg: string) => lines.filter((l) => l.msg === msg);

/** An event of its own per test, so no durable consumer sees another test's messages. */
const Ping = z.object({ n: z.number().int() });
const testEvent = (name: string): MessageDef<typeof Ping> => ({
  kind: 'event',
  stream: streams.events.name,
  subject: `lineage.events.test.${name}`,
  schema: Ping,
  msgId: (p) => `${name}-${p.n}`,
});

async function consumerInfo(durable: string) {
  const jsm = await jetstreamManager(nc);
  return jsm.consumers.info(streams.events.name, durable);
}

const base = (log: Logger, durable: string) => ({
  durable,
  ackWaitMs: 2_000,
  maxDeliver: 5,
  log,
  what: 'event',
  pullExpiresMs: 1_000,
  logFields: (p: { n: number }) => ({ n: p.n }),
});

describe('publish', () => {
  it("validates against the message's schema before sending: an invalid payload throws and nothing reaches the stream", async () => {
    const jsm = await jetstreamManager(nc);
    const before = (await jsm.streams.info(streams.jobs.name)).state.messages;
    await expect(js.publish(messages.analysisJob, { analysisId: 'not-a-number' })).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(js.publish(messages.analysisJob, {} as never)).rejects.toThrow(/analysisId/);
    await expect(js.publish(messages.analysisProgress, { analysisId: '1', state: 'nope' } as never)).rejects.toBeInstanceOf(
      InvalidMessageError,
    );
    expect((await jsm.streams.info(streams.jobs.name)).state.messages).toBe(before);
  });

  it("sends the payload as given, with the definition's Nats-Msg-Id: a repeat is a duplicate", async () => {
    const first = await js.publish(messages.analysisJob, { analysisId: '4211' });
    expect(first.duplicate).toBe(false);
    expect((await js.publish(messages.analysisJob, { analysisId: '4211' })).duplicate).toBe(true);
    const jsm = await jetstreamManager(nc);
    const stored = (await jsm.streams.getMessage(streams.jobs.name, { seq: first.seq }))!;
    expect(stored.subject).toBe('lineage.jobs.analysis');
    expect(stored.header.get('Nats-Msg-Id')).toBe('analysis-4211');
    expect(stored.string()).toBe(JSON.stringify({ analysisId: '4211' }));
    // The ids the services used before the definitions existed.
    expect(messages.analysisCompleted.msgId!({ analysisId: '9' } as never)).toBe('completed-9');
    expect(messages.casePublished.msgId!({ analysisId: '9' } as never)).toBe('case-9');
    expect(messages.analysisProgress.msgId).toBeUndefined();
    // An explicit id wins.
    const again = await js.publish(messages.analysisJob, { analysisId: '4211' }, { msgId: 'analysis-4211-b' });
    expect(again.duplicate).toBe(false);
  });
});

describe('consume', () => {
  it('the backoff: base doubling per delivery, capped', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20, 1000].map((n) => retryDelayMs(n))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000,
    ]);
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, { baseMs: 2000, maxMs: 60_000 }))).toEqual([2000, 4000, 8000, 16000, 32000]);
  });

  it('terminates a payload that is not JSON or fails the schema, with a log line, never calling the handler', async () => {
    const def = testEvent('malformed');
    const { log, lines } = capture();
    const seen: number[] = [];
    const c = await js.consume(def, async (p) => void seen.push(p.n), base(log, 'test-malformed'));
    try {
      const raw = jetstream(nc);
      await raw.publish(def.subject, 'not json {');
      await raw.publish(def.subject, JSON.stringify({ n: 'one' }));
      await js.publish(def, { n: 1 });
      await waitFor('the good one handled', async () => seen.length === 1, 10_000);
      await waitFor(
        'all settled',
        async () => {
          const i = await consumerInfo('test-malformed');
          return i.num_pending === 0 && i.num_ack_pending === 0;
        },
        10_000,
      );
      await sleep(2_500); // past the ack wait: a message left unsettled would come back now
      const i = await consumerInfo('test-malformed');
      expect(i.num_redelivered).toBe(0);
      expect(i.num_ack_pending).toBe(0);
      expect(seen).toEqual([1]);
      expect(msgs(lines(), 'malformed event; terminated')).toHaveLength(2);
    } finally {
      await c.stop();
    }
  });

  it('naks a transient failure with the backoff, gives up on the last delivery (recorded, then acked)', async () => {
    const def = testEvent('backoff');
    const { log, lines } = capture();
    const at: number[] = [];
    const recorded: unknown[] = [];
    const c = await js.consume(
      def,
      async (_p, d) => {
        at.push(Date.now());
        throw new Error(`transient ${d.deliveryCount}`);
      },
      {
        ...base(log, 'test-backoff'),
        maxDeliver: 3,
        backoff: { baseMs: 500, maxMs: 5_000 },
        // A pull that outlasts the 1 s delay. With a 1 s pull, the one asked for after the second delivery expires
        // just as the third becomes due; one clean-clone run timed out below (20 s, failure never recorded), most
        // likely because that last delivery went to the expiring pull.
        pullExpiresMs: 5_000,
        recordFailure: async (err) => void recorded.push(String(err)),
      },
    );
    try {
      await js.publish(def, { n: 1 });
      await waitFor('given up', async () => recorded.length === 1, 20_000);
      expect(at).toHaveLength(3);
      // 500 ms after the first delivery, then 1 s (a little slack for the pull's round trip, none below the delay).
      expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(480);
      expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(980);
      expect(at[2]! - at[1]!).toBeLessThan(4_000);
      expect(recorded).toEqual(['Error: transient 3']);
      expect(msgs(lines(), 'event failed; will be redelivered').map((l) => l.delivery)).toEqual([1, 2]);
      expect(msgs(lines(), 'event failed its last delivery').map((l) => [l.delivery, l.n])).toEqual([[3, 1]]);
      await waitFor('acked', async () => (await consumerInfo('test-backoff')).num_ack_pending === 0, 5_000);
    } finally {
      await c.stop();
    }
  });

  it('gives up a permanent failure on its first delivery; without recordFailure it is terminated', async () => {
    const def = testEvent('permanent');
    const { log, lines } = capture();
    let calls = 0;
    class Hopeless extends Error {}
    const c = await js.consume(
      def,
      async () => {
        calls++;
        throw new Hopeless('never');
      },
      { ...base(log, 'test-permanent'), isPermanent: (err) => err instanceof Hopeless },
    );
    try {
      await js.publish(def, { n: 1 });
      await waitFor('terminated', async () => msgs(lines(), 'event cannot succeed; given up').length === 1, 10_000);
      await sleep(2_500);
      expect(calls).toBe(1);
      const i = await consumerInfo('test-permanent');
      expect([i.num_ack_pending, i.num_redelivered]).toEqual([0, 0]);
    } finally {
      await c.stop();
    }
  });

  it('holds a handler through a database outage on the same delivery, with heartbeats, and acks it once the database is back', async () => {
    const def = testEvent('hold');
    const { log, lines } = capture();
    const tries: [number, boolean][] = [];
    const c = await js.consume(
      def,
      async (_p, d) => {
        tries.push([d.deliveryCount, d.held]);
        // What node-postgres throws while the server refuses connections; the ack wait (1 s) passes meanwhile.
        if (tries.length < 3) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
      { ...base(log, 'test-hold'), ackWaitMs: 1_000, maxDeliver: 2 },
    );
    try {
      await js.publish(def, { n: 1 });
      await waitFor('handled', async () => tries.length === 3, 15_000);
      expect(tries).toEqual([
        [1, false],
        [1, true],
        [1, true],
      ]);
      expect(msgs(lines(), 'database unavailable; event held until it returns').map((l) => l.delivery)).toEqual([1]);
      expect(msgs(lines(), 'database back; event continues')).toHaveLength(1);
      await waitFor('acked', async () => (await consumerInfo('test-hold')).num_ack_pending === 0, 5_000);
      expect((await consumerInfo('test-hold')).num_redelivered).toBe(0);
    } finally {
      await c.stop();
    }
  });

  it('keeps one message in hand at a time: a long one is kept alive by heartbeats and the next waits on the server, not in a buffer', async () => {
    const def = testEvent('one');
    const { log } = capture();
    const handled: [number, number][] = [];
    let ackPendingDuring = -1;
    const c = await js.consume(
      def,
      async (p, d) => {
        if (p.n === 1) {
          await sleep(3_000); // three ack waits
          ackPendingDuring = (await consumerInfo('test-one')).num_ack_pending;
        }
        handled.push([p.n, d.deliveryCount]);
      },
      { ...base(log, 'test-one'), ackWaitMs: 1_000 },
    );
    try {
      await js.publish(def, { n: 1 });
      await js.publish(def, { n: 2 });
      await waitFor('both handled', async () => handled.length === 2, 20_000);
      expect(handled).toEqual([
        [1, 1],
        [2, 1],
      ]);
      expect(ackPendingDuring).toBe(1);
      expect((await consumerInfo('test-one')).num_redelivered).toBe(0);
    } finally {
      await c.stop();
    }
  });

  it('at shutdown a failing message is handed back at once (nak without delay), spending no backoff', async () => {
    const def = testEvent('shutdown');
    const { log, lines } = capture();
    let started = false;
    const c = await js.consume(
      def,
      async (_p, d: Delivery) => {
        started = true;
        await new Promise((r) => d.signal.addEventListener('abort', r, { once: true }));
        throw new Error('interrupted');
      },
      { ...base(log, 'test-shutdown'), backoff: { baseMs: 60_000, maxMs: 60_000 } },
    );
    await js.publish(def, { n: 1 });
    await waitFor('in hand', async () => started, 10_000);
    await c.stop();
    expect(msgs(lines(), 'event handed back to the queue')).toHaveLength(1);
    // Nak'ed without the 60 s delay: a fresh consumer on the same durable gets it again right away.
    const again: number[] = [];
    const c2 = await js.consume(def, async (_p, d) => void again.push(d.deliveryCount), base(log, 'test-shutdown'));
    try {
      await waitFor('redelivered', async () => again.length === 1, 10_000);
      expect(again).toEqual([2]);
    } finally {
      await c2.stop();
    }
  });

  it('brings an existing durable consumer to the configured ack wait and delivery budget', async () => {
    const def = testEvent('update');
    const { log, lines } = capture();
    const c1 = await js.consume(def, async () => undefined, { ...base(log, 'test-update'), ackWaitMs: 30_000, maxDeliver: 7 });
    await c1.stop();
    const c2 = await js.consume(def, async () => undefined, { ...base(log, 'test-update'), ackWaitMs: 3_000, maxDeliver: 4 });
    await c2.stop();
    const i = await consumerInfo('test-update');
    expect([i.config.ack_wait, i.config.max_deliver]).toEqual([3_000_000_000, 4]);
    expect(msgs(lines(), 'consumer updated')).toHaveLength(1);
  });
});
