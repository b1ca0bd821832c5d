import type { ChildProcess } from 'node:child_process';
import { EngineError } from '../errors';
import { spawnGit } from './runner';

interface Pending {
  resolve: (v: Buffer | null) => void;
  reject: (e: Error) => void;
  mode: 'info' | 'contents';
}

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

  private request(mode: 'info' | 'contents', oid: string): Promise<Buffer | null> {
    if (this.closed) return Promise.reject(new EngineError('GIT_FAILED', 'git cat-file is closed'));
    if (!/^[0-9a-f]{40}$/.test(oid)) return Promise.reject(new EngineError('INVALID_INPUT', 'invalid object id'));
    return new Promise((resolve, reject) => {
      this.queue.push({ resolve, reject, mode });
      this.child.stdin!.write(`${mode} ${oid}\n`);
    });
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

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.child.stdin!.end();
    this.child.kill('SIGTERM');
  }
}
