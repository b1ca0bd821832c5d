import { FingerprintPool, DEFAULT_K, DEFAULT_WINDOW } from '@lineage/engine';
import type { Worker } from 'node:worker_threads';

jest.setTimeout(120_000);

const job = (i: number) => ({
  path: `src/f${i}.js`,
  blobId: String(i).padStart(40, '0'),
  language: 'javascript',
  isTest: false,
  text: `export function rare_${i}(a, b) { return a * ${i} + b - ${i}; }\n`,
});

describe('FingerprintPool, long-lived', () => {
  it('replaces a worker that dies, keeps its size and answers every later batch the same', async () => {
    const pool = new FingerprintPool(2, DEFAULT_K, DEFAULT_WINDOW);
    try {
      const before = await pool.run([job(1), job(2)]);
      const workers = (pool as unknown as { workers: Worker[] }).workers;
      const victim = workers[0]!;
      await victim.terminate();
      await new Promise((r) => setTimeout(r, 200));
      expect(pool.size).toBe(2);
      expect((pool as unknown as { workers: Worker[] }).workers).not.toContain(victim);
      const after = await Promise.all([pool.run([job(1), job(2)]), pool.run([job(3)]), pool.run([job(4)])]);
      expect(after[0]).toEqual(before);
      expect(after[1][0]!.fp.hashes.length).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });

  it('a batch on a worker that dies mid-run fails, and the pool goes on', async () => {
    const pool = new FingerprintPool(2, DEFAULT_K, DEFAULT_WINDOW);
    try {
      await pool.run([job(1)]);
      const workers = pool as unknown as { workers: Worker[]; idle: Worker[] };
      const running = pool.run([job(5)]);
      // the worker that took the batch is the one no longer idle
      const busy = workers.workers.find((w) => !workers.idle.includes(w))!;
      await busy.terminate();
      await expect(running).rejects.toThrow('worker exited');
      const again = await pool.run([job(5)]);
      expect(again[0]!.fp.hashes.length).toBeGreaterThan(0);
      expect(pool.size).toBe(2);
    } finally {
      await pool.close();
    }
  });
});

describe('FingerprintPool, in-process', () => {
  it('gives the event loop turns during a long batch (the git processes of other stages are read meanwhile)', async () => {
    const pool = new FingerprintPool(1, DEFAULT_K, DEFAULT_WINDOW);
    await pool.run([job(0)]); // the grammar is loaded: what follows runs on settled promises alone
    const big = (i: number) => ({ ...job(i), text: Array.from({ length: 20 }, (_, l) => job(i * 1000 + l).text).join('') });
    let turns = 0;
    let running = true;
    const tick = (): void => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const t0 = performance.now();
    const results = await pool.run(Array.from({ length: 400 }, (_, i) => big(i + 1)));
    const ms = performance.now() - t0;
    running = false;
    expect(results).toHaveLength(400);
    // A turn after each slice of about 10 ms (a slice ends with the file that crosses it); none without yielding.
    expect(ms).toBeGreaterThan(40);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(ms / 40));
    await pool.close();
  });
});
