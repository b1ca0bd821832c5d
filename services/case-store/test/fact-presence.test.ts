import { ApiError, createLogger, type Nats } from '@lineage/service-kit';
import { FactPresence } from '../src/facts';

const log = createLogger('test', 'silent');
const fact = (factKey: string) => ({ factKey });

/** A stand-in for the fact list subject: pages of keys, or a failure. */
function lister(pages: string[][] | 'down') {
  let calls = 0;
  const nats = {
    request: async (_def: unknown, payload: { cursor?: string }) => {
      calls += 1;
      if (pages === 'down') throw new ApiError('SERVICE_UNAVAILABLE', 'down');
      const i = payload.cursor ? Number(payload.cursor) : 0;
      return { items: pages[i]!.map(fact), nextCursor: i + 1 < pages.length ? String(i + 1) : null };
    },
  } as unknown as Nats;
  return { nats: () => nats, calls: () => calls };
}

describe('fact presence set', () => {
  it('is unknown until refreshed, then answers present/absent from every page', async () => {
    let now = 1000;
    const l = lister([['1', '2'], ['3']]);
    const p = new FactPresence(l.nats, log, 5000, 100, () => now);
    expect(p.state('1')).toBe('unknown');
    await p.refresh();
    expect(l.calls()).toBe(2);
    expect(['1', '2', '3', '4'].map((k) => p.state(k))).toEqual(['present', 'present', 'present', 'absent']);
    now += 3 * 5000 + 1; // three intervals without a refresh: stale
    expect(p.state('4')).toBe('unknown');
  });

  it('keeps the last set when a refresh fails, and gives up past the size bound', async () => {
    let now = 0;
    let up = true;
    const good = lister([['1']]);
    const bad = lister('down');
    const p = new FactPresence(
      () => (up ? good.nats() : bad.nats()),
      log,
      1000,
      100,
      () => now,
    );
    await p.refresh();
    up = false;
    now = 500;
    await p.refresh(); // fails: the set from t=0 still holds
    expect(bad.calls()).toBe(1);
    expect([p.state('1'), p.state('9')]).toEqual(['present', 'absent']);
    now = 3001;
    expect(p.state('9')).toBe('unknown');
    const big = new FactPresence(lister([['1', '2', '3']]).nats, log, 1000, 2, () => now);
    await big.refresh();
    expect(big.state('9')).toBe('unknown');
  });
});
