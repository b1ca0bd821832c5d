import { ZodError } from 'zod';
import { ERROR_STATUS, fieldIssues, type ErrorCode, type FieldIssue, type WireError } from '@lineage/schemas';
import { STORE_UNAVAILABLE_MESSAGE, isStoreUnavailable } from './unavailable';

/** An error with a stable public code. Its message must never contain client input. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const validationError = (error: ZodError, prefix: string[] = []) =>
  new ApiError('VALIDATION_FAILED', 'The request failed validation.', fieldIssues(error, prefix));

export const notFound = (
  code: 'ANALYSIS_NOT_FOUND' | 'CASE_NOT_FOUND' | 'FACT_NOT_FOUND' | 'RESOLUTION_NOT_FOUND' | 'NOT_FOUND',
  what: string,
) => new ApiError(code, `No ${what} has that identifier.`);

/**
 * Map anything thrown to the public vocabulary. Unknown errors become INTERNAL
 * with a fixed message: their text may carry internals or input.
 */
export function toWireError(err: unknown): { wire: WireError; internal: boolean } {
  if (err instanceof ApiError) {
    return { wire: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) }, internal: false };
  }
  if (err instanceof ZodError) {
    const e = validationError(err);
    return { wire: { code: e.code, message: e.message, fields: e.fields }, internal: false };
  }
  // The database refused, dropped or could not hand out a connection: unavailable (retry later), not a bug.
  if (isStoreUnavailable(err)) return { wire: { code: 'SERVICE_UNAVAILABLE', message: STORE_UNAVAILABLE_MESSAGE }, internal: false };
  return { wire: { code: 'INTERNAL', message: 'An internal error occurred.' }, internal: true };
}

/**
 * The failure a NATS reply carries: the wire error plus, when the error sets a `Retry-After`
 * header (a 429 or 503 raised behind NATS), that delay in seconds, so the gateway can send it on.
 */
export function toReplyError(err: unknown): { wire: WireError; internal: boolean } {
  const out = toWireError(err);
  const retryAfter = err instanceof ApiError ? err.headers?.['Retry-After'] : undefined;
  if (retryAfter !== undefined && /^\d{1,9}$/.test(retryAfter))
    return { ...out, wire: { ...out.wire, retryAfterSeconds: Number(retryAfter) } };
  return out;
}

/** The error a NATS requester rethrows for a failed reply; a `retryAfterSeconds` becomes its `Retry-After` header again. */
export function fromReplyError(wire: WireError): ApiError {
  const headers = wire.retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(wire.retryAfterSeconds) };
  return new ApiError(wire.code, wire.message, wire.fields, headers);
}
