/**
 * Per-client token bucket. Buckets live in a bounded map (oldest evicted first),
 * so a flood of distinct addresses cannot grow memory without limit.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly maxClients = 100_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** Take one token; returns 0 when allowed, else the whole seconds to wait. */
  take(client: string): number {
    const t = this.now();
    let b = this.buckets.get(client);
    if (b) {
      this.buckets.delete(client); // re-insert to keep insertion order ≈ recency
      b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.ratePerSecond);
      b.at = t;
    } else {
      b = { tokens: this.burst, at: t };
      if (this.buckets.size >= this.maxClients) this.buckets.delete(this.buckets.keys().next().value as string);
    }
    this.buckets.set(client, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.ratePerSecond));
  }
}
