// Typed engine errors. Messages never carry repository contents.
export type EngineErrorCode =
  | 'REPOSITORY_TOO_LARGE'
  | 'COMMIT_NOT_FOUND'
  | 'REPOSITORY_NOT_FOUND'
  | 'REPOSITORY_UNREADABLE'
  | 'REPOSITORY_NOT_ALLOWED'
  | 'REPOSITORY_UNREACHABLE'
  | 'CANCELLED'
  | 'GIT_FAILED'
  | 'INVALID_INPUT'
  | 'STAGE_FAILED';

export type LimitName = 'maxFiles' | 'maxFileBytes' | 'maxTotalBytes' | 'maxCommits' | 'timeBudgetMs' | 'gitOutputBytes';
export type ErrorSide = 'origin' | 'target';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly limit?: LimitName;
  /** the stage that failed and the side it was working on, when known */
  stage?: string;
  side?: ErrorSide;
  constructor(code: EngineErrorCode, message: string, limit?: LimitName) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    if (limit) this.limit = limit;
  }
  toJSON(): { code: EngineErrorCode; message: string; limit?: LimitName; stage?: string; side?: ErrorSide } {
    return {
      code: this.code,
      message: this.message,
      ...(this.limit ? { limit: this.limit } : {}),
      ...(this.stage ? { stage: this.stage } : {}),
      ...(this.side ? { side: this.side } : {}),
    };
  }
}

export function isEngineError(e: unknown): e is EngineError {
  return e instanceof EngineError;
}

/**
 * An error of one stage (for one side, or both): an engine error gains the
 * stage and side it came from; anything else (a bug, a library's exception)
 * becomes STAGE_FAILED naming them, never a bare internal error. The original
 * message is not passed on (it may quote repository content); its class is.
 */
export function stageError(stage: string, side: ErrorSide | null, e: unknown): EngineError {
  const err =
    e instanceof EngineError
      ? e
      : new EngineError(
          'STAGE_FAILED',
          `the ${stage} stage failed${side ? ` on the ${side}` : ''} (${e instanceof Error ? e.name : typeof e})`,
        );
  err.stage ??= stage;
  if (side) err.side ??= side;
  if (!(e instanceof EngineError)) (err as EngineError & { cause?: unknown }).cause = e;
  return err;
}

/** Runs one stage; its failure is a `stageError`. */
export async function inStage<T>(stage: string, side: ErrorSide | null, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw stageError(stage, side, e);
  }
}
