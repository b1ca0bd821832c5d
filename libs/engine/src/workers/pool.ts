import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { fingerprintFile, type FileJob, type FileResult } from '../fingerprint-file';
import { isBaselineWasmOnly, optimiseParser } from '../tokenize/treesitter';
import { fromWire, type WireResult, type WorkerSetup } from './wire';

/**
 * Runs fingerprint batches on worker threads, or in-process when workers <= 1.
 * Results are returned per batch in submission order, so the output never
 * depends on the number of workers or on scheduling.
 */
export class FingerprintPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private readonly dead = new WeakSet<Worker>();
  private closing = false;
  private nextId = 1;

  private readonly parser: WorkerSetup['optimiseParser'];

  /**
   * `optimiseParser`: in a process under baselineWasmOnly, the threads this
   * pool tokenises on load the parser runtime optimised (tokenize/treesitter.ts:
   * optimiseParser); nothing changes in any other process.
   */
  constructor(
    size: number,
    private readonly k: number,
    private readonly w: number,
    opts: { optimiseParser?: boolean } = {},
  ) {
    this.parser = isBaselineWasmOnly() && opts.optimiseParser ? { lock: new SharedArrayBuffer(4) } : null;
    if (size <= 1 && this.parser) optimiseParser(this.parser.lock);
    for (let i = 0; i < size && size > 1; i++) this.add();
  }

  /** A worker that dies (a crash inside a grammar, an out-of-memory kill) is replaced, so a long-lived pool keeps its size. */
  private add(): void {
    const wk = spawnWorker({ optimiseParser: this.parser });
    wk.unref();
    wk.once('exit', () => {
      if (this.closing) return;
      const i = this.workers.indexOf(wk);
      if (i < 0) return;
      this.workers.splice(i, 1);
      const j = this.idle.indexOf(wk);
      if (j >= 0) this.idle.splice(j, 1);
      this.dead.add(wk);
      this.add();
      this.waiting.shift()?.();
    });
    this.workers.push(wk);
    this.idle.push(wk);
  }

  get size(): number {
    return this.workers.length;
  }

  async run(jobs: FileJob[]): Promise<FileResult[]> {
    if (this.workers.length === 0) {
      const out: FileResult[] = [];
      let since = performance.now();
      for (const j of jobs) {
        out.push(await fingerprintFile(j, this.k, this.w));
        // Tokenising here runs on promises that are already settled: without a turn of the event loop now and
        // then, the stages beside it (the history's git log and blob reads, the topology's git) wait until the
        // batch ends. Measured on axios x redaxios (ab.sh, 8 runs each): 0.67 -> 0.57 s.
        if (performance.now() - since >= IN_PROCESS_SLICE_MS) {
          await new Promise<void>((r) => setImmediate(r));
          since = performance.now();
        }
      }
      return out;
    }
    const worker = await this.acquire();
    try {
      return await new Promise<FileResult[]>((resolve, reject) => {
        const id = this.nextId++;
        const onMessage = (msg: { id: number; results?: WireResult[]; error?: string }): void => {
          if (msg.id !== id) return;
          cleanup();
          if (msg.error !== undefined || !msg.results) reject(new Error(msg.error ?? 'worker failed'));
          else resolve(fromWire(msg.results));
        };
        const onError = (e: Error): void => {
          cleanup();
          reject(e);
        };
        const onExit = (): void => {
          cleanup();
          reject(new Error('worker exited'));
        };
        const cleanup = (): void => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage({ id, jobs, k: this.k, w: this.w });
      });
    } finally {
      this.release(worker);
    }
  }

  private acquire(): Promise<Worker> {
    const w = this.idle.pop();
    if (w) return Promise.resolve(w);
    return new Promise((resolve) => this.waiting.push(() => resolve(this.idle.pop()!)));
  }

  private release(w: Worker): void {
    if (this.dead.has(w) || !this.workers.includes(w)) return; // replaced when it exited
    this.idle.push(w);
    this.waiting.shift()?.();
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
    this.workers.length = 0;
    this.idle.length = 0;
  }
}

/** In-process tokenising gives the event loop a turn at least this often. */
const IN_PROCESS_SLICE_MS = 10;

/**
 * A worker's young generation is capped at 8 MB: tokenising makes short-lived
 * garbage in bursts, and V8's default lets each worker's new space grow to
 * tens of MB. Measured on uglify-js x terser (the CLI under /usr/bin/time, three runs each): peak RSS 348-359 -> 299-321 MB,
 * the same wall time.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

/** Starts the compiled worker, or the TypeScript source through @swc/core when running from source (tests). */
function spawnWorker(workerData: WorkerSetup): Worker {
  const js = join(__dirname, 'fingerprint-worker.js');
  if (existsSync(js)) return new Worker(js, { resourceLimits: WORKER_LIMITS, workerData });
  const ts = join(__dirname, 'fingerprint-worker.ts');
  const bootstrap = `
    const fs = require('node:fs');
    const swc = require('@swc/core');
    require.extensions['.ts'] = (m, filename) => {
      const src = fs.readFileSync(filename, 'utf8');
      const out = swc.transformSync(src, { filename, jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } });
      m._compile(out.code, filename);
    };
    require(${JSON.stringify(ts)});
  `;
  return new Worker(bootstrap, { eval: true, resourceLimits: WORKER_LIMITS, workerData });
}
