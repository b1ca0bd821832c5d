import type { Limits } from './types';
import { EngineError } from './errors';

export const DEFAULT_LIMITS: Limits = {
  maxFiles: 50_000,
  maxFileBytes: 1_000_000,
  maxTotalBytes: 200_000_000,
  maxCommits: 20_000,
  timeBudgetMs: 600_000,
};

export function resolveLimits(partial?: Partial<Limits>): Limits {
  const l = { ...DEFAULT_LIMITS, ...(partial ?? {}) };
  for (const [k, v] of Object.entries(l)) {
    if (!Number.isSafeInteger(v) || v <= 0) throw new EngineError('INVALID_INPUT', `limit ${k} must be a positive integer`);
  }
  return l;
}

/** A deadline shared by the stages of one analysis; checked between units of work. */
export class Deadline {
  private readonly end: number;
  constructor(
    budgetMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.end = Date.now() + budgetMs;
  }
  remainingMs(): number {
    return Math.max(1, this.end - Date.now());
  }
  /** The budget is spent: check() throws the limit. */
  expired(): boolean {
    return Date.now() > this.end;
  }
  check(): void {
    if (this.signal?.aborted) throw new EngineError('CANCELLED', 'analysis cancelled');
    if (this.expired()) throw new EngineError('REPOSITORY_TOO_LARGE', 'wall-clock budget exceeded', 'timeBudgetMs');
  }
}

/**
 * A stage's limits and deadline: the analysis's, passed by the runner (stages.ts), so every stage spends one budget;
 * a stage called on its own (a test, a library user) gets the defaults and a budget of its own.
 */
export function stageBudget(opts: { limits?: Partial<Limits>; deadline?: Deadline; signal?: AbortSignal }): {
  limits: Limits;
  deadline: Deadline;
} {
  const limits = resolveLimits(opts.limits);
  return { limits, deadline: opts.deadline ?? new Deadline(limits.timeBudgetMs, opts.signal) };
}
