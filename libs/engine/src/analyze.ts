import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isCodeClass } from './classify';
import { EngineError, inStage, type ErrorSide } from './errors';
import { BlobReader } from './git/catfile';
import { resolveGitDir } from './git/runner';
import { Deadline, resolveLimits } from './limits';
import { runStages } from './stages';
import { GRAMMARS } from './tokenize/treesitter';
import { DEFAULT_K, DEFAULT_WINDOW } from './winnow';
import { FingerprintPool } from './workers/pool';
import type { FingerprintCache } from './fingerprint-cache';
import type { AnalysisResult, Inventory, Limits, ProgressFn, RepoRef } from './types';

/** Below this many bytes of code (both sides) fingerprinting stays on the calling thread. */
export const MIN_BYTES_FOR_WORKERS = 4_000_000;
/**
 * With this many bytes of code for tree-sitter grammars (both sides), a process on V8's baseline compiler (the CLI)
 * loads the parser runtime optimised (optimiseParser): on one thread, 1 MB of JavaScript about even, 2.9 MB 20% faster.
 */
export const OPTIMISE_PARSER_MIN_BYTES = 2_000_000;

export interface AnalyzeInput {
  origin: RepoRef;
  target: RepoRef;
  limits?: Partial<Limits>;
  /** worker threads for fingerprinting (default: available cores, at most 2); 1 runs in-process, as does any pair under MIN_BYTES_FOR_WORKERS of code */
  workers?: number;
  /** use worker threads even for small inputs (tests of worker determinism) */
  forceWorkers?: boolean;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  /** a long-lived pool of the caller's (a service process): used for every pair and left open */
  pool?: FingerprintPool;
  /** files earlier analyses tokenised (fingerprint-cache.ts), kept by the caller across analyses */
  fingerprintCache?: FingerprintCache;
}

/** Runs the engine's stages (stages.ts) on two local repositories, overlapping where they can; cancellable between stages. */
export async function analyze(input: AnalyzeInput): Promise<AnalysisResult> {
  const limits = resolveLimits(input.limits);
  const workers = Math.max(1, input.workers ?? Math.min(2, availableParallelism()));
  // One cat-file process per side serves every stage: each git process started is a fork of this one.
  const dirs = { origin: repositoryDir(input.origin, 'origin'), target: repositoryDir(input.target, 'target') };
  const readers = { origin: new BlobReader(dirs.origin), target: new BlobReader(dirs.target) };
  // Ends the stages still running (the history walks beside the inventory) when the analysis stops early.
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  input.signal?.addEventListener('abort', onAbort, { once: true });
  let own: FingerprintPool | null = null;
  try {
    const [origin, target] = await Promise.all([
      inStage('inventory', 'origin', () => readers.origin.resolveCommit(input.origin.commit)),
      inStage('inventory', 'target', () => readers.target.resolveCommit(input.target.commit)),
    ]);
    const output = await runStages(
      {
        repos: { origin: input.origin, target: input.target },
        commits: { origin, target },
        limits,
        deadline: new Deadline(limits.timeBudgetMs, input.signal),
        // The caller's signal cancels; `stop` ends what is still running once the analysis has stopped (failed).
        signal: input.signal ? AbortSignal.any([input.signal, stop.signal]) : stop.signal,
        onProgress: input.onProgress,
        readers,
        fingerprintCache: input.fingerprintCache,
        // Each worker pays for loading and warming up the WASM grammars; below this much code one thread is faster.
        // (Measured: on 2 cores a second thread does not pay for its start-up below ~1 MB either.)
        pool: (inv) => {
          if (input.pool) return input.pool;
          if (own) return own;
          const { codeBytes, parsedBytes } = codeSize(inv.origin, inv.target);
          own = new FingerprintPool(codeBytes < MIN_BYTES_FOR_WORKERS && !input.forceWorkers ? 1 : workers, DEFAULT_K, DEFAULT_WINDOW, {
            optimiseParser: parsedBytes >= OPTIMISE_PARSER_MIN_BYTES,
          });
          return own;
        },
        // The pool stays up for compare, where dating fingerprints old versions in its workers, then frees its memory.
        closePoolAfterDating: !input.pool,
      },
      { overlap: true },
    );
    const [inventories, comparison, decision, m] = await Promise.all([
      output('inventory'),
      output('compare'),
      output('decide'),
      output('manifest'),
    ]);
    return { ...m, decision, comparison, inventories };
  } finally {
    input.signal?.removeEventListener('abort', onAbort);
    stop.abort();
    if (own) await (own as FingerprintPool).close();
    readers.origin.close();
    readers.target.close();
  }
}

/** Code bytes of both sides, and of them those a tree-sitter grammar parses. */
function codeSize(...invs: Inventory[]): { codeBytes: number; parsedBytes: number } {
  let codeBytes = 0;
  let parsedBytes = 0;
  for (const inv of invs)
    for (const f of inv.files) {
      if (!isCodeClass(f.class)) continue;
      codeBytes += f.size;
      if (f.language && GRAMMARS[f.language]) parsedBytes += f.size;
    }
  return { codeBytes, parsedBytes };
}

/** The repository's git directory; a path that is missing or not a repository is REPOSITORY_NOT_FOUND, naming the side. */
function repositoryDir(repo: RepoRef, side: ErrorSide): string {
  try {
    return resolveGitDir(repo.dir);
  } catch (e) {
    const err =
      e instanceof EngineError && e.code === 'REPOSITORY_UNREADABLE' && !existsSync(repo.dir)
        ? new EngineError('REPOSITORY_NOT_FOUND', `the ${side} path does not exist`)
        : e instanceof EngineError && e.message === 'not a git repository'
          ? new EngineError('REPOSITORY_NOT_FOUND', `the ${side} path is not a git repository`)
          : e;
    if (err instanceof EngineError) err.side = side;
    throw err;
  }
}
