import { z } from './zod';

/** Every stable error code of the public API and its HTTP status (docs/api.md lists them with their meaning). */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  REPOSITORY_NOT_ALLOWED: 403,
  NOT_FOUND: 404,
  ANALYSIS_NOT_FOUND: 404,
  CASE_NOT_FOUND: 404,
  FACT_NOT_FOUND: 404,
  RESOLUTION_NOT_FOUND: 404,
  ANALYSIS_FINISHED: 409,
  MANIFEST_NOT_READY: 409,
  /** The manifest of a cancelled analysis: it will never exist (MANIFEST_NOT_READY means it will once the analysis completes). */
  ANALYSIS_CANCELLED: 409,
  /** The manifest of a failed analysis: it will never exist either. */
  ANALYSIS_FAILED: 409,
  INDEXER_BEHIND: 409,
  /** Challenge preparation: the case's fact has no assertion open to challenge (none, already challenged, or resolved). */
  FACT_NOT_CHALLENGEABLE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** The request line and headers together exceed the HTTP server's limit (16 KiB): a query string too long, say. */
  HEADERS_TOO_LARGE: 431,
  REPOSITORY_UNREACHABLE: 422,
  REF_NOT_FOUND: 422,
  COMMIT_NOT_FOUND: 422,
  REPOSITORY_TOO_LARGE: 422,
  /** The remote answered but its objects fail git's integrity checks (fsck); see docs/pipeline.md. */
  REPOSITORY_UNREADABLE: 422,
  /** `lineage.analysis.fragment`: the repository (or the pinned commit's objects) is no longer in the pipeline's cache. */
  REPOSITORY_NOT_CACHED: 410,
  RATE_LIMITED: 429,
  /** `POST /analyses` while the pipeline already holds its bound of queued and running analyses (with `Retry-After`); see docs/pipeline.md. */
  QUEUE_FULL: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  CHAIN_UNAVAILABLE: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** A field that failed validation: its path and the kind of issue, never its value. */
export const FieldIssue = z.object({ path: z.string(), issue: z.string() });
export type FieldIssue = z.infer<typeof FieldIssue>;

export const ErrorBody = z
  .object({
    error: z.object({
      code: ErrorCodeSchema,
      message: z.string(),
      fields: z.array(FieldIssue).optional(),
      requestId: z.string(),
    }),
  })
  .openapi('Error');
export type ErrorBody = z.infer<typeof ErrorBody>;

/** What travels in a NATS reply when a handler fails: the same vocabulary as the HTTP API. */
export const WireError = z.object({
  code: ErrorCodeSchema,
  message: z.string().max(500),
  fields: z.array(FieldIssue).max(50).optional(),
  /** Seconds the caller should wait before retrying (the HTTP `Retry-After` of a 429 or 503 raised behind NATS). */
  retryAfterSeconds: z.number().int().nonnegative().optional(),
});
export type WireError = z.infer<typeof WireError>;

/**
 * Turn zod issues into field descriptions. Only paths and issue codes survive:
 * zod messages can quote the received value, which must never be echoed.
 */
export function fieldIssues(error: z.ZodError, prefix: string[] = []): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const i of error.issues) {
    if (out.length >= MAX_FIELD_ISSUES) break;
    const at = [...prefix, ...i.path.map(String)];
    if (i.code === 'unrecognized_keys') {
      // An unknown key is named: its name is a field the client sent, not a value. A name that does not look
      // like a field (too long, punctuation, control or non-ASCII characters) is reported at its parent instead.
      const named = i.keys.filter((k) => FIELD_NAME.test(k)).slice(0, MAX_FIELD_ISSUES);
      for (const k of named) out.push({ path: [...at, k].join('.'), issue: 'unrecognized_key' });
      if (named.length < i.keys.length) out.push({ path: at.join('.') || '(root)', issue: 'unrecognized_key' });
    } else {
      out.push({ path: at.join('.') || '(root)', issue: issueName(i) });
    }
  }
  return out.slice(0, MAX_FIELD_ISSUES);
}

/** A validation error lists at most this many fields (WireError's bound). */
const MAX_FIELD_ISSUES = 50;
/** What an unknown key must look like to be named in a validation error. */
const FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$/;

function issueName(i: z.core.$ZodIssue): string {
  switch (i.code) {
    case 'invalid_type':
      // zod v4 leaves `input` off issues unless asked; its message ends with what it received.
      return /received undefined$/.test(i.message) ? 'required' : 'invalid_type';
    case 'invalid_format':
      // Our regexes carry a code-like message (e.g. `commit_sha`); use it as the issue name.
      if (i.format === 'regex') return /^[a-z0-9_]+$/.test(i.message) ? `invalid_${i.message}` : 'invalid_format';
      return `invalid_${i.format}`;
    case 'too_small':
      return 'too_small';
    case 'too_big':
      return 'too_big';
    case 'invalid_value':
      return 'invalid_enum_value';
    case 'unrecognized_keys':
      return 'unrecognized_key';
    case 'custom':
      // Custom refinements carry a code-like message of our own, never a value.
      return /^[a-z_]+$/.test(i.message) ? i.message : 'invalid';
    default:
      return i.code;
  }
}
