import type { Consumer, ConsumerMessages, JsMsg } from '@nats-io/jetstream';

/**
 * Pulls a durable consumer's messages one at a time: a fetch of one message, asked for only when the previous one
 * is finished. Unlike `consume()`, which asks for the next message as soon as one arrives, nothing waits in this
 * client's buffer while the message in hand is worked on. A buffered message's ack wait runs out unnoticed (no one
 * sends it in-progress acks), so a long job, or a message held through a database outage, would make it expire and
 * be redelivered again and again, spending its deliveries without ever being looked at.
 */
export class OnePull {
  private current: ConsumerMessages | null = null;
  private stopped = false;

  /** `expiresMs`: how long one pull waits on the server for a message (also the longest `stop()` can take to land). */
  constructor(
    private readonly consumer: Consumer,
    private readonly expiresMs = 10_000,
  ) {}

  /** The next message; null when the pull expired empty, failed (NATS away: after a pause) or `stop()` was called. */
  async next(): Promise<JsMsg | null> {
    if (this.stopped) return null;
    try {
      const batch = await this.consumer.fetch({ max_messages: 1, expires: this.expiresMs });
      this.current = batch;
      if (this.stopped) batch.stop();
      // Leaving the loop ends the fetch (its subscription and heartbeat monitor) before the message is handled.
      for await (const m of batch) return m;
      return null;
    } catch {
      if (!this.stopped) await new Promise((r) => setTimeout(r, 1000));
      return null;
    } finally {
      this.current = null;
    }
  }

  /** No further pulls; a pull waiting on the server ends now. */
  stop(): void {
    this.stopped = true;
    this.current?.stop();
  }
}
