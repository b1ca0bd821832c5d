import { BlobReader } from './git/catfile';
import { resolveGitDir } from './git/runner';
import { isCodeClass } from './classify';
import { LICENCE_FILE } from './lineage/licence';
import { DOC_FILE } from './lineage/names';
import { stageBudget } from './limits';
import { FingerprintPool } from './workers/pool';
import { DEFAULT_K, DEFAULT_WINDOW } from './winnow';
import type { FingerprintCache } from './fingerprint-cache';
import type { FileJob, FileResult } from './fingerprint-file';
import type { Inventory, Fingerprints, RepoRef } from './types';
import type { StageOptions } from './inventory';

export interface FingerprintOptions extends StageOptions {
  workers?: number;
  k?: number;
  window?: number;
  pool?: FingerprintPool;
  /**
   * Shared by the two sides' calls of one analysis (with the same pool): a blob
   * both repositories hold (same id, language and test class) is tokenised
   * once, and the other side takes the result under its own path. A result
   * depends on the path only through the path it records, so both sides get
   * what they would have computed. Without one, duplicates within the side are shared.
   */
  memo?: FingerprintMemo;
  /** Results of earlier analyses in this process (fingerprint-cache.ts): a file found there is neither read nor tokenised. */
  cache?: FingerprintCache;
}

/** Results by blob (see FingerprintOptions.memo); create one per analysis and drop it after the fingerprint stage. */
export type FingerprintMemo = Map<string, Promise<FileResult>>;

const BATCH_BYTES = 512 * 1024;
const MANIFEST_FILE =
  /(^|\/)(package\.json|requirements[^/]*\.txt|pyproject\.toml|setup\.py|setup\.cfg|go\.mod|Cargo\.toml|pom\.xml|build\.gradle|Gemfile|composer\.json|foundry\.toml|remappings\.txt)$|^readme(\.\w+)?$/i;
const MAX_MANIFEST_BYTES = 256 * 1024;

/**
 * Tokenise and winnow every code file (source and test; vendored, generated,
 * minified and binary files never become code evidence). Heavy work runs on
 * worker threads; output order follows the inventory (sorted by path).
 */
export async function fingerprint(repo: RepoRef, inv: Inventory, opts: FingerprintOptions = {}): Promise<Fingerprints> {
  const { limits, deadline } = stageBudget(opts);
  const k = opts.k ?? DEFAULT_K;
  const w = opts.window ?? DEFAULT_WINDOW;
  const gitDir = resolveGitDir(repo.dir);
  const ownPool = opts.pool ? null : new FingerprintPool(opts.workers ?? 1, k, w);
  const pool = opts.pool ?? ownPool!;
  const reader = opts.reader ?? new BlobReader(gitDir);
  const codeFiles = inv.files.filter((f) => isCodeClass(f.class));
  const result: Fingerprints = { commit: inv.commit, k, window: w, files: [], language: [], tests: [], manifests: [], totalTokens: 0 };
  try {
    // Root prose files (NOTICE, CREDITS, AUTHORS, …) are read for declarations at the pinned commit as at fork points,
    // root licences for their copyright holders.
    const isDoc = (path: string): boolean => !path.includes('/') && (DOC_FILE.test(path) || LICENCE_FILE.test(path));
    const manifests = inv.files.filter(
      (f) => f.class !== 'vendored' && (MANIFEST_FILE.test(f.path) || isDoc(f.path)) && f.size <= MAX_MANIFEST_BYTES,
    );
    (
      await reader.readBlobs(
        manifests.map((f) => f.blobId),
        MAX_MANIFEST_BYTES,
      )
    ).forEach((b, i) => {
      if (b) result.manifests.push({ path: manifests[i]!.path, blobId: manifests[i]!.blobId, text: b.toString('utf8') });
    });
    // Batches are formed from the sorted file list only, so they do not depend on worker count
    // (a blob the other side already sent is left out of this side's batches: the result is the same).
    interface Slot {
      path: string;
      result: Promise<FileResult>;
      own: boolean;
    }
    const slots: Slot[] = [];
    let cur: { key: string; job: FileJob; resolve: (r: FileResult) => void; reject: (e: unknown) => void }[] = [];
    let curBytes = 0;
    const pending: Promise<unknown>[] = [];
    // Also within one side: the same blob at two paths is tokenised once.
    const memo = opts.memo ?? new Map<string, Promise<FileResult>>();
    let borrowed = 0;
    let done = 0;
    let settled = 0;
    const progress = (n: number): void => {
      done += n;
      opts.onProgress?.({ stage: 'fingerprint', done, total: codeFiles.length, unit: 'files', ...(opts.side ? { side: opts.side } : {}) });
    };
    const flush = (): void => {
      if (!cur.length) return;
      const batch = cur;
      pending.push(
        pool.run(batch.map((b) => b.job)).then(
          (r) => {
            batch.forEach((b, j) => {
              b.resolve(r[j]!);
              opts.cache?.set(b.key, r[j]!);
            });
            progress(batch.length);
          },
          (e: unknown) => {
            for (const b of batch) b.reject(e);
            throw e;
          },
        ),
      );
      cur = [];
      curBytes = 0;
    };
    const keyOf = (f: Inventory['files'][number]): string => `${k}\0${w}\0${f.language ?? ''}\0${f.class === 'test' ? 1 : 0}\0${f.blobId}`;
    // A file an earlier analysis tokenised is taken from the cache and not read (asked for as if too large to read).
    const keys = codeFiles.map(keyOf);
    const cached = codeFiles.map((f, n) => (opts.cache && f.size <= limits.maxFileBytes ? opts.cache.get(keys[n]!) : undefined));
    let i = 0;
    for await (const b of reader.readListed(
      codeFiles.map((f, n) => ({ oid: f.blobId, size: cached[n] ? Infinity : f.size })),
      limits.maxFileBytes,
    )) {
      const n = i++;
      const f = codeFiles[n]!;
      const key = keys[n]!;
      const hit = cached[n];
      if (hit && !memo.has(key)) memo.set(key, Promise.resolve(hit));
      if (!b && !hit) continue;
      const isTest = f.class === 'test';
      const known = memo.get(key);
      if (known) {
        // Awaited only after this side's own batches are all sent: the side holding it may not have sent it yet.
        slots.push({ path: f.path, result: known, own: false });
        borrowed++;
        continue;
      }
      let resolve!: (r: FileResult) => void;
      let reject!: (e: unknown) => void;
      const result = new Promise<FileResult>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      result.catch(() => undefined); // a failed batch is reported through `pending`
      memo.set(key, result);
      slots.push({ path: f.path, result, own: true });
      cur.push({ key, job: { path: f.path, blobId: f.blobId, language: f.language, isTest, text: b!.toString('utf8') }, resolve, reject });
      curBytes += b!.length;
      if (curBytes >= BATCH_BYTES) {
        flush();
        deadline.check();
        // keep at most a few batches in flight per worker to bound memory
        while (pending.length - settled >= Math.max(2, pool.size * 2)) await pending[settled++];
      }
    }
    flush();
    await Promise.all(pending);
    if (borrowed) {
      await Promise.all(slots.map((s) => s.result));
      progress(borrowed);
    }
    for (const s of slots) {
      const r = await s.result;
      const fp = s.own || r.fp.path === s.path ? r.fp : { ...r.fp, path: s.path };
      const relabel = (items: FileResult['language']): FileResult['language'] =>
        s.own || r.fp.path === s.path ? items : items.map((it) => ({ ...it, path: s.path }));
      result.files.push(fp);
      result.totalTokens += fp.tokens;
      for (const it of relabel(r.language)) result.language.push(it);
      for (const it of relabel(r.tests)) result.tests.push(it);
    }
    deadline.check();
    return result;
  } finally {
    if (!opts.reader) reader.close();
    if (ownPool) await ownPool.close();
  }
}
