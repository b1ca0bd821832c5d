import { EngineError } from '../errors';
import { startGit, type GitProcess } from './process';

interface Pending {
  resolve: (v: Buffer | null) => void;
  reject: (e: Error) => void;
  mode: 'info' | 'contents' | 'resolve';
}

const HEX40 = /^[0-9a-f]{40}$/;

/** An `info` answer ("<type> <size>"), or null for a missing object. */
const parseInfo = (r: Buffer | null): { type: string; size: number } | null => {
  if (!r) return null;
  const [type, size] = r.toString('utf8').split(' ');
  return { type: type ?? '', size: Number(size) };
};

/**
 * One long-lived `git cat-file --batch-command` per repository. Each read asks
 * `info` first and only fetches `contents` when the size is within the bound,
 * so an oversized blob is never transferred.
 */
export class BlobReader {
  private readonly git: GitProcess;
  private buf: Buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];
  private closed = false;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(gitDir: string) {
    // Long-lived, with no time limit of its own: it ends when closed (or when git does).
    this.git = startGit(['cat-file', '--batch-command'], { gitDir, input: null }, (c) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, c]) : c;
      this.drain();
    });
    const fail = (): void => {
      this.closed = true;
      for (const p of this.queue.splice(0)) p.reject(new EngineError('GIT_FAILED', 'git cat-file ended'));
    };
    this.git.exited.then(fail, fail);
    // A write racing the process's exit fails with EPIPE on stdin: a failed read, not a crash.
    this.git.stdin.on('error', fail);
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
    return this.requestAll(mode, [oid])[0]!;
  }

  /**
   * One request per object id, answered in order, written to git in one go: a write per request is a system call
   * each, which showed in profiles once blobs were asked for by the dozen (readBlobs, readListed).
   */
  private requestAll(mode: 'info' | 'contents' | 'resolve', oids: readonly string[]): Promise<Buffer | null>[] {
    if (this.closed) return oids.map(() => Promise.reject(new EngineError('GIT_FAILED', 'git cat-file is closed')));
    const bad = (oid: string): boolean => mode !== 'resolve' && !HEX40.test(oid);
    let commands = '';
    const out = oids.map((oid) => {
      if (bad(oid)) return Promise.reject(new EngineError('INVALID_INPUT', 'invalid object id'));
      commands += `${mode === 'resolve' ? 'info' : mode} ${mode === 'resolve' ? `${oid}^{commit}` : oid}\n`;
      return new Promise<Buffer | null>((resolve, reject) => this.queue.push({ resolve, reject, mode }));
    });
    if (commands) this.git.stdin.write(commands);
    return out;
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
    return parseInfo(await this.request('info', oid));
  }

  /** A blob's bytes, or null when it is missing, not a blob, or larger than maxBytes. */
  readBlob(oid: string, maxBytes: number): Promise<Buffer | null> {
    // Serialise info+contents pairs so their answers stay in order.
    const run = async (): Promise<Buffer | null> => (await this.readBlobs([oid], maxBytes))[0]!;
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => undefined);
    return p;
  }

  /**
   * Several blobs, as readBlob reads each (null when missing, not a blob, or larger than maxBytes), in the order
   * given. All the `info` requests go out at once, then the `contents` of those within the bound: two round trips
   * to git however many blobs, where readBlob one after another takes two each. That matters while this thread is
   * busy (tokenising on it gives the event loop a turn only every few milliseconds, and each round trip waits for
   * one). Reads at most `batch` blobs at a time, so memory holds at most batch x maxBytes of them at once.
   */
  async readBlobs(oids: readonly string[], maxBytes: number, batch = 64): Promise<(Buffer | null)[]> {
    const out: (Buffer | null)[] = [];
    for (let i = 0; i < oids.length; i += batch) {
      const some = oids.slice(i, i + batch);
      const metas = await Promise.all(this.requestAll('info', some).map((p) => p.then(parseInfo)));
      const fits = (m: { type: string; size: number } | null): boolean => m !== null && m.type === 'blob' && m.size <= maxBytes;
      const bodies = await Promise.all(
        this.requestAll(
          'contents',
          some.filter((_, j) => fits(metas[j]!)),
        ),
      );
      let next = 0;
      for (const m of metas) out.push(fits(m) ? bodies[next++]! : null);
    }
    return out;
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
      const asked: number[] = [];
      while (next < items.length && (next === i || ahead < windowBytes)) {
        const it = items[next]!;
        if (it.size <= maxBytes) {
          asked.push(next);
          ahead += it.size;
        }
        next++;
      }
      this.requestAll(
        'contents',
        asked.map((j) => items[j]!.oid),
      ).forEach((p, n) => {
        p.catch(() => undefined); // rejections surface where each is awaited, in order
        reqs[asked[n]!] = p;
      });
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
    this.git.stdin.end();
    this.git.kill();
  }
}
