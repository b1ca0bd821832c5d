import { availableParallelism } from 'node:os';
import { compare } from './compare';
import { decide } from './decide';
import { EngineError } from './errors';
import { fingerprint } from './fingerprint';
import { history } from './history';
import { inventory } from './inventory';
import { Deadline, resolveLimits } from './limits';
import { buildManifest } from './manifest';
import { DEFAULT_K, DEFAULT_WINDOW } from './winnow';
import { FingerprintPool } from './workers/pool';
import type { AnalysisResult, Limits, ProgressFn, RepoRef } from './types';

/** Below this many bytes of code (both sides) fingerprinting stays on the calling thread. */
export const MIN_BYTES_FOR_WORKERS = 4_000_000;

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
}

/** Runs inventory → fingerprint → history → compare → decide → manifest; cancellable between stages. */
export async function analyze(input: AnalyzeInput): Promise<AnalysisResult> {
  const limits = resolveLimits(input.limits);
  const deadline = new Deadline(limits.timeBudgetMs, input.signal);
  const stage = { limits, onProgress: input.onProgress, signal: input.signal, deadline };
  const workers = Math.max(1, input.workers ?? Math.min(2, availableParallelism()));
  const between = (): void => {
    if (input.signal?.aborted) throw new EngineError('CANCELLED', 'analysis cancelled');
    deadline.check();
  };

  const [oInv, tInv] = await Promise.all([inventory(input.origin, { ...stage, side: 'origin' }), inventory(input.target, { ...stage, side: 'target' })]);
  between();
  // Each worker pays for loading and warming up the WASM grammars; below this much code one thread is faster.
  let codeBytes = 0;
  for (const inv of [oInv, tInv]) for (const f of inv.files) if (f.class === 'source' || f.class === 'test') codeBytes += f.size;
  const pool = new FingerprintPool(codeBytes < MIN_BYTES_FOR_WORKERS && !input.forceWorkers ? 1 : workers, DEFAULT_K, DEFAULT_WINDOW);
  let oFp, tFp;
  try {
    [oFp, tFp] = await Promise.all([
      fingerprint(input.origin, oInv, { ...stage, pool, side: 'origin' }),
      fingerprint(input.target, tInv, { ...stage, pool, side: 'target' }),
    ]);
  } finally {
    await pool.close();
  }
  between();
  const [oHist, tHist] = await Promise.all([history(input.origin, oInv, { ...stage, side: 'origin' }), history(input.target, tInv, { ...stage, side: 'target' })]);
  between();
  const comparison = await compare(
    { repo: input.origin, inventory: oInv, fingerprints: oFp, history: oHist },
    { repo: input.target, inventory: tInv, fingerprints: tFp, history: tHist },
    stage,
  );
  between();
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
