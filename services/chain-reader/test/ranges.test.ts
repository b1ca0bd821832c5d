import { AdaptiveRange, ChainDown } from '../src/ranges';

class Refused extends Error {
  code = -32005;
}

const noSleep = async () => undefined;

describe('AdaptiveRange', () => {
  it('halves the span while the node refuses, then covers what it accepted', async () => {
    const r = new AdaptiveRange({ maxSpan: 1000n, attempts: 3, backoffMs: 1, isRefusal: (e) => e instanceof Refused, sleep: noSleep });
    const asked: [bigint, bigint][] = [];
    const got = await r.fetch(1n, 5000n, async (a, b) => {
      asked.push([a, b]);
      if (b - a + 1n > 100n) throw new Refused('too many results');
      return `${a}-${b}`;
    });
    expect(asked.map(([a, b]) => b - a + 1n)).toEqual([1000n, 500n, 250n, 125n, 62n]);
    expect(got).toEqual({ to: 62n, value: '1-62' });
    // Success widens the span again, up to the maximum.
    expect(r.currentSpan).toBe(124n);
  });

  it('never asks beyond the requested end', async () => {
    const r = new AdaptiveRange({ maxSpan: 1000n, attempts: 1, backoffMs: 1, isRefusal: () => false, sleep: noSleep });
    expect(await r.fetch(10n, 12n, async (a, b) => [a, b])).toEqual({ to: 12n, value: [10n, 12n] });
  });

  it('retries transient failures with backoff, then reports the chain down', async () => {
    const delays: number[] = [];
    const r = new AdaptiveRange({
      maxSpan: 10n,
      attempts: 3,
      backoffMs: 100,
      isRefusal: () => false,
      sleep: async (ms) => void delays.push(ms),
    });
    let calls = 0;
    await expect(
      r.fetch(1n, 5n, async () => {
        calls += 1;
        throw new Error('ECONNREFUSED');
      }),
    ).rejects.toBeInstanceOf(ChainDown);
    expect(calls).toBe(3);
    expect(delays).toEqual([100, 200]);
  });

  it('recovers when a transient failure clears', async () => {
    const r = new AdaptiveRange({ maxSpan: 10n, attempts: 3, backoffMs: 1, isRefusal: () => false, sleep: noSleep });
    let calls = 0;
    const got = await r.fetch(1n, 5n, async () => {
      calls += 1;
      if (calls === 1) throw new Error('socket hang up');
      return 'ok';
    });
    expect(got).toEqual({ to: 5n, value: 'ok' });
  });

  it('a single block the node still refuses counts as a failure', async () => {
    const r = new AdaptiveRange({ maxSpan: 4n, attempts: 2, backoffMs: 1, isRefusal: () => true, sleep: noSleep });
    await expect(
      r.fetch(7n, 7n, async () => {
        throw new Refused('no');
      }),
    ).rejects.toBeInstanceOf(ChainDown);
  });

  it('narrow() lowers the starting span, never raises it', async () => {
    const r = new AdaptiveRange({ maxSpan: 1000n, attempts: 1, backoffMs: 1, isRefusal: () => false, sleep: noSleep });
    r.narrow(40n);
    r.narrow(4000n);
    expect(r.currentSpan).toBe(40n);
    expect(await r.fetch(1n, 500n, async (a, b) => b - a + 1n)).toEqual({ to: 40n, value: 40n });
  });
});
