// The pipeline's own stages: resolve and fetch come before the engine's (inventory to manifest), which the engine's
// runner sequences (libs/engine/src/stages.ts) with the worker's bookkeeping around each (worker.ts).
import {
  FingerprintCache,
  FingerprintPool,
  DEFAULT_K,
  DEFAULT_WINDOW,
  type Limits,
  type ManifestResult,
  type Progress,
} from '@lineage/engine';
import { LimitError } from './limits';
import { checkRemote, type CheckedRemote, type RemotePolicy } from './intake/remote-policy';
import { commitTime, fetchCommit } from './intake/remote-git';
import { dirBytes, type RepoCache } from './intake/repo-cache';

export type Sides<T> = { origin: T; target: T };

export interface StageContext {
  analysisId: string;
  pair: Sides<{ url: string; commit: string }>;
  limits: Limits;
  maxRepoBytes: number;
  cache: RepoCache;
  policy: RemotePolicy;
  fetchTimeoutMs: number;
  onProgress: (p: Omit<Progress, 'stage'>) => void;
  signal: AbortSignal;
  /** Outputs of earlier stages (loaded from the store on resume). */
  load<T>(stage: string): Promise<T>;
  gitDirs: Sides<string>;
}

export interface ResolveOutput {
  origin: { url: string; host: string; addresses: string[] };
  target: { url: string; host: string; addresses: string[] };
}
export interface FetchOutput {
  committedAt: Sides<string>;
}

/**
 * One fingerprint pool for the life of the process: workers start and load
 * their grammars once, not once per analysis, and dating in compare runs on
 * them too (never on this thread, which also answers NATS and heartbeats).
 * Concurrent analyses share it; a worker that dies is replaced by the pool.
 */
let shared: { size: number; pool: FingerprintPool } | null = null;
export function processPool(size: number): FingerprintPool {
  if (!shared || shared.size !== size) shared = { size, pool: new FingerprintPool(size, DEFAULT_K, DEFAULT_WINDOW) };
  return shared.pool;
}

/**
 * One fingerprint cache for the life of the process, beside the pool: what one analysis tokenised, the next ones
 * take (the same results, so the same manifests). Null when the operator keeps none (FINGERPRINT_CACHE_MB=0).
 */
let cache: FingerprintCache | null = null;
export function processFingerprintCache(maxBytes: number): FingerprintCache | null {
  if (maxBytes <= 0) return null;
  if (!cache || cache.maxBytes !== maxBytes) cache = new FingerprintCache(maxBytes);
  return cache;
}

/** What the manifest stage leaves in the store: the bytes as base64, for the publish stage. */
export interface StoredManifest {
  hash: string;
  bytesBase64: string;
  verdict: string;
}

/** A stage's output as the store keeps it (plain JSON; every output but the manifest already is). */
export function stored(name: string, output: unknown): unknown {
  if (name !== 'manifest') return output;
  const m = output as ManifestResult;
  return { hash: m.hash, bytesBase64: m.bytes.toString('base64'), verdict: m.manifest.verdict } satisfies StoredManifest;
}

/**
 * The pipeline's own stages, each a function of the pinned pair and the outputs of
 * earlier stages. Every output is plain JSON: it is persisted at the boundary.
 */
export const INTAKE_STAGES = {
  /** Re-verify both remotes against the policy and DNS (the network may have changed since validation). */
  async resolve(ctx: StageContext): Promise<ResolveOutput> {
    const [o, t] = await Promise.all([
      checkRemote(ctx.pair.origin.url, ctx.policy, 'pair.origin.url'),
      checkRemote(ctx.pair.target.url, ctx.policy, 'pair.target.url'),
    ]);
    ctx.onProgress({ done: 2, total: 2, unit: 'items' });
    return { origin: pick(o), target: pick(t) };
  },

  /** Bounded fetch of exactly the pinned commits (and up to maxCommits ancestors). */
  async fetch(ctx: StageContext): Promise<FetchOutput> {
    const resolved = await ctx.load<ResolveOutput>('resolve');
    const committedAt = { origin: '', target: '' };
    let done = 0;
    for (const s of ['origin', 'target'] as const) {
      const remote = { ...resolved[s], fetchUrl: ctx.pair[s].url, port: portOf(ctx.pair[s].url) } as CheckedRemote;
      const gitDir = ctx.gitDirs[s];
      await withSizeBound(gitDir, ctx.maxRepoBytes, ctx.signal, (signal) =>
        fetchCommit(gitDir, remote, ctx.pair[s].commit, {
          depth: ctx.limits.maxCommits,
          filterBlobs: false,
          timeoutMs: ctx.fetchTimeoutMs,
          field: `pair.${s}`,
          signal,
        }),
      );
      committedAt[s] = await commitTime(gitDir, ctx.pair[s].commit);
      ctx.onProgress({ done: ++done, total: 2, unit: 'items' });
    }
    return { committedAt };
  },
};

function pick(r: CheckedRemote) {
  return { url: r.url, host: r.host, addresses: r.addresses };
}

function portOf(url: string): number {
  const u = new URL(url);
  return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : u.protocol === 'http:' ? 80 : 9418;
}

/** Abort a fetch whose repository grows past the bound; the analysis fails with REPOSITORY_TOO_LARGE. */
async function withSizeBound<T>(gitDir: string, maxBytes: number, outer: AbortSignal, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ac = new AbortController();
  let tooLarge = false;
  const onOuter = () => ac.abort();
  outer.addEventListener('abort', onOuter, { once: true });
  const timer = setInterval(() => {
    void dirBytes(gitDir).then((n) => {
      if (n > maxBytes) {
        tooLarge = true;
        ac.abort();
      }
    });
  }, 1000);
  try {
    return await fn(ac.signal);
  } catch (err) {
    if (tooLarge)
      throw new LimitError('maxRepoBytes', 'REPOSITORY_TOO_LARGE', 'A repository exceeds the configured size bound (maxRepoBytes).');
    throw err;
  } finally {
    clearInterval(timer);
    outer.removeEventListener('abort', onOuter);
  }
}
