import {
  buildManifest,
  compare,
  decide,
  fingerprint,
  histories,
  inventory,
  Deadline,
  FingerprintPool,
  DEFAULT_K,
  DEFAULT_WINDOW,
  type Comparison,
  type Decision,
  type FingerprintMemo,
  type Fingerprints,
  type Inventory,
  type PairHistory,
  type Limits,
  type Progress,
  type RepoRef,
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
  workers: number;
  cache: RepoCache;
  policy: RemotePolicy;
  fetchTimeoutMs: number;
  onProgress: (p: Omit<Progress, 'stage'>) => void;
  signal: AbortSignal;
  /** The analysis's time budget, what is left of it: one for all its stages, across workers and restarts (budget.ts). */
  deadline: Deadline;
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

const side = (ctx: StageContext, s: 'origin' | 'target'): RepoRef => ({
  dir: ctx.gitDirs[s],
  commit: ctx.pair[s].commit,
  url: ctx.pair[s].url,
});
const stageOpts = (ctx: StageContext, s: 'origin' | 'target') => ({
  limits: ctx.limits,
  signal: ctx.signal,
  deadline: ctx.deadline,
  side: s,
  onProgress: (p: Progress) => ctx.onProgress(p),
});

/**
 * The pipeline's stages, each a function of the pinned pair and the outputs of
 * earlier stages. Every output is plain JSON: it is persisted at the boundary.
 */
export const STAGES = {
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

  async inventory(ctx: StageContext): Promise<Sides<Inventory>> {
    const [origin, target] = await Promise.all([
      inventory(side(ctx, 'origin'), stageOpts(ctx, 'origin')),
      inventory(side(ctx, 'target'), stageOpts(ctx, 'target')),
    ]);
    return { origin, target };
  },

  async fingerprint(ctx: StageContext): Promise<Sides<Fingerprints>> {
    const inv = await ctx.load<Sides<Inventory>>('inventory');
    const pool = processPool(ctx.workers);
    // A blob both sides hold (a fork's unchanged files) is tokenised once.
    const memo: FingerprintMemo = new Map();
    const [origin, target] = await Promise.all([
      fingerprint(side(ctx, 'origin'), inv.origin, { ...stageOpts(ctx, 'origin'), pool, memo }),
      fingerprint(side(ctx, 'target'), inv.target, { ...stageOpts(ctx, 'target'), pool, memo }),
    ]);
    return { origin, target };
  },

  /** Both histories, and how they relate (fork points, ancestry, authors): git answers it on a view of both caches. */
  async history(ctx: StageContext): Promise<PairHistory> {
    const inv = await ctx.load<Sides<Inventory>>('inventory');
    return histories(side(ctx, 'origin'), side(ctx, 'target'), inv, stageOpts(ctx, 'origin'));
  },

  async compare(ctx: StageContext): Promise<Comparison> {
    const [inv, fp, hist] = await Promise.all([
      ctx.load<Sides<Inventory>>('inventory'),
      ctx.load<Sides<Fingerprints>>('fingerprint'),
      ctx.load<PairHistory>('history'),
    ]);
    return compare(
      { repo: side(ctx, 'origin'), inventory: inv.origin, fingerprints: fp.origin, history: hist.origin },
      { repo: side(ctx, 'target'), inventory: inv.target, fingerprints: fp.target, history: hist.target },
      { ...stageOpts(ctx, 'origin'), topology: hist.topology, pool: processPool(ctx.workers) },
    );
  },

  async decide(ctx: StageContext): Promise<Decision> {
    const decision = decide(await ctx.load<Comparison>('compare'));
    ctx.onProgress({ done: 1, total: 1, unit: 'items' });
    return decision;
  },

  async manifest(ctx: StageContext): Promise<{ hash: string; bytesBase64: string; verdict: string }> {
    const [inv, hist, comparison, decision] = await Promise.all([
      ctx.load<Sides<Inventory>>('inventory'),
      ctx.load<PairHistory>('history'),
      ctx.load<Comparison>('compare'),
      ctx.load<Decision>('decide'),
    ]);
    const m = buildManifest({
      pair: { origin: side(ctx, 'origin'), target: side(ctx, 'target') },
      commits: { origin: inv.origin.commit, target: inv.target.commit },
      limits: ctx.limits,
      parameters: { k: DEFAULT_K, window: DEFAULT_WINDOW },
      inventories: inv,
      history: hist,
      comparison,
      decision,
    });
    ctx.onProgress({ done: 1, total: 1, unit: 'items' });
    return { hash: m.hash, bytesBase64: m.bytes.toString('base64'), verdict: m.manifest.verdict };
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
