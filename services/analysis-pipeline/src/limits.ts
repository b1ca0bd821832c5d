import { ApiError } from '@lineage/service-kit';
import type { ErrorCode } from '@lineage/schemas';

/** Bounds the pipeline itself enforces (the engine's own carry their name on its errors). */
export type PipelineLimit = 'maxRepoBytes';

/**
 * An analysis ran into a configured bound: an API error whose failure records `limit`, the bound's name, so a
 * caller sees which setting it hit. Decided by type, never by reading the message.
 */
export class LimitError extends ApiError {
  readonly kind = 'limit' as const;
  constructor(
    readonly limit: PipelineLimit,
    code: ErrorCode,
    message: string,
  ) {
    super(code, message);
    this.name = 'LimitError';
  }
}
