import { BlobReader } from './git/catfile';
import { resolveGitDir } from './git/runner';
import { isCodeClass } from './classify';
import { Deadline, resolveLimits } from './limits';
import { FingerprintPool } from './workers/pool';
import { DEFAULT_K, DEFAULT_WINDOW } from './winnow';
import type { FileJob } from './fingerprint-file';
import type { Inventory, Fingerprints, RepoRef } from './types';
import type { StageOptions } from './inventory';

export interface FingerprintOptions extends StageOptions {
  workers?: number;
  k?: number;
  window?: number;
  pool?: FingerprintPool;
}

const BATCH_BYTES = 512 * 1024;
const MANIFEST_FILE = /(^|\/)(package\.json|requirements[^/]*\.txt|pyproject\.toml|setup\.py|setup\.cfg|go\.mod|Cargo\.toml|pom\.xml|build\.gradle|Gemfile|composer\.json|foundry\.toml|remappings\.txt)$|^readme(\.\w+)?$/i;
const MAX_MANIFEST_BYTES = 256 * 1024;

/**
 * Tokenise and winnow every code file (source and test; vendored, generated,
 * minified and binary files never become code evidence). Heavy work runs on
 * worker threads; output order follows the inventory (sorted by path).
 */
export async function fingerprint(repo: RepoRef, inv: Inventory, opts: FingerprintOptions = {}): Promise<Fingerprints> {
  const limits = resolveLimits(opts.limits);
  const deadline = opts.deadline ?? new Deadline(limits.timeBudgetMs, opts.signal);
  const k = opts.k ?? DEFAULT_K;
  const w = opts.window ?? DEFAULT_WINDOW;
  const gitDir = resolveGitDir(repo.dir);
  const ownPool = opts.pool ? null : new FingerprintPool(opts.workers ?? 1, k, w);
  const pool = opts.pool ?? ownPool!;
  const reader = opts.reader ?? new BlobReader(gitDir);
  const codeFiles = inv.files.filter((f) => isCodeClass(f.class));
  const result: Fingerprints = { commit: inv.commit, k, window: w, files: [], language: [], tests: [], manifests: [], totalTokens: 0 };
  try {
    for (const f of inv.files) {
      if (f.class !== 'vendored' && MANIFEST_FILE.test(f.path) && f.size <= MAX_MANIFEST_BYTES) {
        const b = await reader.readBlob(f.blobId, MAX_MANIFEST_BYTES);
        if (b) result.manifests.push({ path: f.path, blobId: f.blobId, text: b.toString('utf8') });
      }
    }
    // Batches are formed from the sorted file list only, so they do not depend on worker count.
    let cur: FileJob[] = [];
    let curBytes = 0;
    const pending: Promise<Awaited<ReturnType<FingerprintPool['run']>>>[] = [];
    let done = 0;
    let settled = 0;
    const flush = (): void => {
      if (!cur.length) return;
      const batch = cur;
      pending.push(
        pool.run(batch).then((r) => {
          done += batch.length;
          opts.onProgress?.({ stage: 'fingerprint', done, total: codeFiles.length, unit: 'files', ...(opts.side ? { side: opts.side } : {}) });
          return r;
        }),
      );
      cur = [];
      curBytes = 0;
    };
    let i = 0;
    for await (const b of reader.readListed(codeFiles.map((f) => ({ oid: f.blobId, size: f.size })), limits.maxFileBytes)) {
      const f = codeFiles[i++]!;
      if (!b) continue;
      cur.push({ path: f.path, blobId: f.blobId, language: f.language, isTest: f.class === 'test', text: b.toString('utf8') });
      curBytes += b.length;
      if (curBytes >= BATCH_BYTES) {
        flush();
        deadline.check();
        // keep at most a few batches in flight per worker to bound memory
        while (pending.length - settled >= Math.max(2, pool.size * 2)) await pending[settled++];
      }
    }
    flush();
    const all = await Promise.all(pending);
    for (const batch of all) {
      for (const r of batch) {
        result.files.push(r.fp);
        result.totalTokens += r.fp.tokens;
        for (const it of r.language) result.language.push(it);
        for (const it of r.tests) result.tests.push(it);
      }
    }
    deadline.check();
    return result;
  } finally {
    if (!opts.reader) reader.close();
    if (ownPool) await ownPool.close();
  }
}
