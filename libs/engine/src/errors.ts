// Typed engine errors. Messages never carry repository contents.
export type EngineErrorCode =
  | 'REPOSITORY_TOO_LARGE'
  | 'COMMIT_NOT_FOUND'
  | 'REPOSITORY_UNREADABLE'
  | 'REPOSITORY_NOT_ALLOWED'
  | 'REPOSITORY_UNREACHABLE'
  | 'CANCELLED'
  | 'GIT_FAILED'
  | 'INVALID_INPUT';

export type LimitName = 'maxFiles' | 'maxFileBytes' | 'maxTotalBytes' | 'maxCommits' | 'timeBudgetMs' | 'gitOutputBytes';

export class EngineError extends Error {
  readonly code: EngineErrorCode;
  readonly limit?: LimitName;
  constructor(code: EngineErrorCode, message: string, limit?: LimitName) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
    if (limit) this.limit = limit;
  }
  toJSON(): { code: EngineErrorCode; message: string; limit?: LimitName } {
    return this.limit ? { code: this.code, message: this.message, limit: this.limit } : { code: this.code, message: this.message };
  }
}

export function isEngineError(e: unknown): e is EngineError {
  return e instanceof EngineError;
}
