/**
 * Adaptive block ranges for eth_getLogs: providers refuse ranges that are too
 * wide or return too many results, each with its own error text. We halve the
 * span whenever the node refuses, grow it back after successes, and retry
 * transient failures (connection errors, timeouts) with exponential backoff.
 */

export interface RangeOptions {
  /** Widest span asked for in one call. */
  maxSpan: bigint;
  /** Attempts for a transient failure before giving up. */
  attempts: number;
  /** First backoff delay; doubles per attempt. */
  backoffMs: number;
  /** A refusal (split the range) rather than a transient failure (retry as is). */
  isRefusal(err: unknown): boolean;
  sleep?: (ms: number) => Promise<void>;
}

export class ChainDown extends Error {
  constructor(cause: unknown) {
    super('the node did not answer', { cause });
  }
}

export class AdaptiveRange {
  private span: bigint;

  constructor(private readonly opts: RangeOptions) {
    this.span = opts.maxSpan;
  }

  get currentSpan(): bigint {
    return this.span;
  }

  /** The caller saw more results than it can use: start from at most this span next time. */
  narrow(span: bigint): void {
    if (span >= 1n && span < this.span) this.span = span;
  }

  /** Fetch from `from` up to at most `to`; returns the last block covered and what was fetched. */
  async fetch<T>(from: bigint, to: bigint, get: (from: bigint, to: bigint) => Promise<T>): Promise<{ to: bigint; value: T }> {
    const sleep = this.opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    let failures = 0;
    for (;;) {
      const end = to - from + 1n > this.span ? from + this.span - 1n : to;
      try {
        const value = await get(from, end);
        // Success: widen again gradually, so one refusal does not slow the whole backfill.
        if (this.span < this.opts.maxSpan) this.span = this.span * 2n > this.opts.maxSpan ? this.opts.maxSpan : this.span * 2n;
        return { to: end, value };
      } catch (err) {
        if (this.opts.isRefusal(err) && end > from) {
          const width = end - from + 1n;
          this.span = width / 2n > 0n ? width / 2n : 1n;
          continue;
        }
        failures += 1;
        if (failures >= this.opts.attempts) throw new ChainDown(err);
        await sleep(this.opts.backoffMs * 2 ** (failures - 1));
      }
    }
  }
}
