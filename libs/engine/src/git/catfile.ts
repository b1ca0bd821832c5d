import type { ChildProcess } from 'node:child_process';
import { EngineError } from '../errors';
import { spawnGit } from './runner';

interface Pending {
  resolve: (v: Buffer | null) => void;
  reject: (e: Error) => void;
  mode: 'info' | 'contents' | 'resolve';
}

const HEX40 = /^[0-9a-f]{40}$/;

/**
 * One long-lived `git cat-file --batch-command` per repository. Each read asks
 * `info` first and only fetches `contents` when the size is within the bound,
 * so an oversized blob is never transferred.
 */
export class BlobReader {
  private readonly child: ChildProcess;
  private buf: Buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];
  private closed = false;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(gitDir: string) {
    this.child = spawnGit({ gitDir }, ['cat-file', '--batch-command']);
    this.child.stdout!.on('data', (c: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, c]) : c;
      this.drain();
    });
    this.child.stderr!.resume();
    const fail = (): void => {
      this.closed = true;
      for (const p of this.queue.splice(0)) p.reject(new EngineError('GIT_FAILED', 'git cat-file ended'));
    };
    this.child.on('close', fail);
    this.child.on('error', fail);
    // A write racing the process's exit fails with EPIPE on stdin: a failed read, not a crash.
    this.child.stdin!.on('error', fail);
  }

  private drain(): void {
    for (;;) {
      const head = this.queue[0];
      if (!head) return;
      const nl = this.buf.indexOf(10);
      if (nl < 0) return;
      const header = this.buf.subarray(0, nl).toString('utf8');
      if (header.endsWith(' missing') || header.endsWith(' ambiguous')) {
        this.buf = this.buf.subarray(nl + 1);
        this.queue.shift();
        head.resolve(null);
        continue;
      }
      const parts = header.split(' ');
      const size = Number(parts[2]);
      if (head.mode === 'resolve') {
        this.buf = this.buf.subarray(nl + 1);
        this.queue.shift();
        head.resolve(parts[1] === 'commit' && HEX40.test(parts[0] ?? '') ? Buffer.from(parts[0]!) : null);
        continue;
      }
      if (head.mode === 'info') {
        this.buf = this.buf.subarray(nl + 1);
        this.queue.shift();
        head.resolve(Buffer.from(`${parts[1] ?? ''} ${size}`));
        continue;
      }
      if (this.buf.length < nl + 1 + size + 1) return;
      const body = Buffer.from(this.buf.subarray(nl + 1, nl + 1 + size));
      this.buf = this.buf.subarray(nl + 1 + size + 1);
      this.queue.shift();
      head.resolve(body);
    }
  }

  private request(mode: 'info' | 'contents' | 'resolve', oid: string): Promise<Buffer | null> {
    if (this.closed) return Promise.reject(new EngineError('GIT_FAILED', 'git cat-file is closed'));
    if (mode !== 'resolve' && !HEX40.test(oid)) return Promise.reject(new EngineError('INVALID_INPUT', 'invalid object id'));
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject, mode });
      this.child.stdin!.write(`${mode === 'resolve' ? 'info' : mode} ${mode === 'resolve' ? `${oid}^{commit}` : oid}\n`);
    });
  }

  /**
   * Resolve a revision to a commit id in this repository (the same peeling as
   * `rev-parse <rev>^{commit}`, without another git process); COMMIT_NOT_FOUND
   * when it names no commit or is ambiguous.
   */
  async resolveCommit(rev: string): Promise<string> {
    if (!rev || rev.startsWith('-') || /[\0\n\r]/.test(rev) || rev.length > 1024)
      throw new EngineError('INVALID_INPUT', 'invalid revision');
    const run = async (): Promise<Buffer | null> => this.request('resolve', rev);
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => undefined);
    const id = await p;
    if (!id) throw new EngineError('COMMIT_NOT_FOUND', 'commit not found');
    return id.toString('utf8');
  }

  /** Type and size of an object, or null when missing. */
  async info(oid: string): Promise<{ type: string; size: number } | null> {
    const r = await this.request('info', oid);
    if (!r) return null;
    const [type, size] = r.toString('utf8').split(' ');
    return { type: type ?? '', size: Number(size) };
  }

  /** A blob's bytes, or null when it is missing, not a blob, or larger than maxBytes. */
  readBlob(oid: string, maxBytes: number): Promise<Buffer | null> {
    // Serialise info+contents pairs so their answers stay in order.
    const run = async (): Promise<Buffer | null> => {
      const meta = await this.info(oid);
      if (!meta || meta.type !== 'blob' || meta.size > maxBytes) return null;
      return this.request('contents', oid);
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => undefined);
    return p;
  }

  /**
   * Blobs whose ids and sizes come from this repository's tree listing, in
   * order. Up to windowBytes are requested ahead, so git streams them without
   * waiting for a round trip per blob; an item over maxBytes yields null
   * without being requested (sizes are those of the objects, so they cannot
   * differ from what would be read).
   */
  async *readListed(
    items: readonly { oid: string; size: number }[],
    maxBytes: number,
    windowBytes = 8 * 1024 * 1024,
  ): AsyncGenerator<Buffer | null> {
    const reqs: (Promise<Buffer | null> | null)[] = new Array<Promise<Buffer | null> | null>(items.length).fill(null);
    let next = 0;
    let ahead = 0;
    for (let i = 0; i < items.length; i++) {
      while (next < items.length && (next === i || ahead < windowBytes)) {
        const it = items[next]!;
        if (it.size <= maxBytes) {
          const p = this.request('contents', it.oid);
          p.catch(() => undefined); // rejections surface where each is awaited, in order
          reqs[next] = p;
          ahead += it.size;
        }
        next++;
      }
      const r = reqs[i];
      reqs[i] = null;
      const b = r ? await r : null;
      if (r) ahead -= items[i]!.size;
      yield b;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.child.stdin!.end();
    this.child.kill('SIGTERM');
  }
}
