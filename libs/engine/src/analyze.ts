import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isCodeClass } from './classify';
import { compare } from './compare';
import { decide } from './decide/index';
import { EngineError, inStage, type ErrorSide } from './errors';
import { fingerprint, type FingerprintMemo } from './fingerprint';
import { BlobReader } from './git/catfile';
import { resolveGitDir } from './git/runner';
import { histories } from './history';
import { inventory } from './inventory';
import { Deadline, resolveLimits } from './limits';
import { buildManifest } from './manifest';
import { GRAMMARS } from './tokenize/treesitter';
import { DEFAULT_K, DEFAULT_WINDOW } from './winnow';
import { FingerprintPool } from './workers/pool';
import type { AnalysisResult, Comparison, History, Inventory, Limits, ProgressFn, RepoRef } from './types';

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
}

/** Runs inventory → fingerprint → compare → decide → manifest, the history stage beside the first two; cancellable between stages. */
export async function analyze(input: AnalyzeInput): Promise<AnalysisResult> {
  const limits = resolveLimits(input.limits);
  const deadline = new Deadline(limits.timeBudgetMs, input.signal);
  const stage = { limits, onProgress: input.onProgress, signal: input.signal, deadline };
  const workers = Math.max(1, input.workers ?? Math.min(2, availableParallelism()));
  const between = (): void => {
    if (input.signal?.aborted) throw new EngineError('CANCELLED', 'analysis cancelled');
    deadline.check();
  };

  // One cat-file process per side serves every stage: each git process started is a fork of this one.
  const dirs = { origin: repositoryDir(input.origin, 'origin'), target: repositoryDir(input.target, 'target') };
  const readers = { origin: new BlobReader(dirs.origin), target: new BlobReader(dirs.target) };
  // Ends the history walks when the analysis stops early (they run beside the inventory).
  const stopHistory = new AbortController();
  const onAbort = (): void => stopHistory.abort();
  input.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const o = { ...stage, side: 'origin' as const, reader: readers.origin };
    const t = { ...stage, side: 'target' as const, reader: readers.target };
    const [oCommit, tCommit] = await Promise.all([
      inStage('inventory', 'origin', () => readers.origin.resolveCommit(input.origin.commit)),
      inStage('inventory', 'target', () => readers.target.resolveCommit(input.target.commit)),
    ]);
    const inventories = {
      origin: inStage('inventory', 'origin', () => inventory({ ...input.origin, commit: oCommit }, o)),
      target: inStage('inventory', 'target', () => inventory({ ...input.target, commit: tCommit }, t)),
    };
    // git log runs in its own processes while this one lists, classifies and then fingerprints: the history
    // stage starts with the inventory and keeps the code paths it names once it is known.
    const pairHistory = inStage('history', null, () =>
      histories(
        input.origin,
        input.target,
        { origin: { commit: oCommit, inventory: inventories.origin }, target: { commit: tCommit, inventory: inventories.target } },
        { ...stage, signal: stopHistory.signal, readers },
      ),
    );
    pairHistory.catch(() => undefined); // awaited below; an earlier failure must not leave it unhandled
    const [oInv, tInv] = await Promise.all([inventories.origin, inventories.target]);
    between();
    // Each worker pays for loading and warming up the WASM grammars; below this much code one thread is faster.
    // (Measured: on 2 cores a second thread does not pay for its start-up below ~1 MB either.)
    const { codeBytes, parsedBytes } = codeSize(oInv, tInv);
    const pool =
      input.pool ??
      new FingerprintPool(codeBytes < MIN_BYTES_FOR_WORKERS && !input.forceWorkers ? 1 : workers, DEFAULT_K, DEFAULT_WINDOW, {
        optimiseParser: parsedBytes >= OPTIMISE_PARSER_MIN_BYTES,
      });
    let comparison;
    try {
      // A blob both sides hold (a fork's unchanged files) is tokenised once.
      const memo: FingerprintMemo = new Map();
      const [oFp, tFp] = await Promise.all([
        inStage('fingerprint', 'origin', () => fingerprint(input.origin, oInv, { ...o, pool, memo })),
        inStage('fingerprint', 'target', () => fingerprint(input.target, tInv, { ...t, pool, memo })),
      ]);
      memo.clear();
      const { origin: oHist, target: tHist, topology } = await pairHistory;
      between();
      // The pool stays up for compare: dating fingerprints old versions in its workers, off this thread.
      comparison = await inStage('compare', null, () =>
        compare(
          { repo: input.origin, inventory: oInv, fingerprints: oFp, history: oHist },
          { repo: input.target, inventory: tInv, fingerprints: tFp, history: tHist },
          { ...stage, readers, topology, pool, closePoolAfterDating: !input.pool },
        ),
      );
    } finally {
      if (!input.pool) await pool.close();
    }
    const { origin: oHist, target: tHist } = await pairHistory;
    between();
    return await inStage('decide', null, async () => finish(input, limits, oInv, tInv, oHist, tHist, comparison));
  } finally {
    input.signal?.removeEventListener('abort', onAbort);
    stopHistory.abort();
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

function finish(
  input: AnalyzeInput,
  limits: Limits,
  oInv: Inventory,
  tInv: Inventory,
  oHist: History,
  tHist: History,
  comparison: Comparison,
): AnalysisResult {
  const decision = decide(comparison);
  input.onProgress?.({ stage: 'decide', done: 1, total: 1, unit: 'items' });
  const m = buildManifest({
    pair: { origin: input.origin, target: input.target },
    commits: { origin: oInv.commit, target: tInv.commit },
    limits,
    parameters: { k: DEFAULT_K, window: DEFAULT_WINDOW },
    inventories: { origin: oInv, target: tInv },
    history: { origin: oHist, target: tHist },
    comparison,
    decision,
  });
  input.onProgress?.({ stage: 'manifest', done: 1, total: 1, unit: 'items' });
  return { ...m, decision, comparison, inventories: { origin: oInv, target: tInv } };
}
