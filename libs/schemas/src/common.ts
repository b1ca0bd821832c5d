import {
  ACTIVITY_KINDS,
  ASSERTION_STATUSES,
  CONFIDENCES,
  DIRECTIONS,
  LAYERS,
  OUTCOMES,
  STAGE_NAMES,
  STRENGTHS,
  VERDICTS,
} from '@lineage/vocabulary';
import { z } from './zod';

export { ACTIVITY_KINDS, LAYERS, OUTCOMES, STAGE_NAMES, VERDICTS };

const UINT256_MAX = 2n ** 256n - 1n;
/**
 * Identifiers are decimal strings everywhere: a uint256 (0 .. 2^256-1) without leading zeros. Anything else is
 * malformed (400). A well-formed id beyond what a store can hold (e.g. 2^63 for a bigint column) is not an
 * error of form: the store answers that it has no such id (404), see docs/api.md.
 */
export const DecimalId = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, 'decimal_string')
  // Only 78 digits can exceed uint256 (the regex has already refused anything else, but refinements run anyway:
  // BigInt must never see a non-number). Issue name `too_big` (a custom issue's message is its name).
  .refine((s) => !/^[1-9][0-9]{77}$/.test(s) || BigInt(s) <= UINT256_MAX, 'too_big')
  .openapi({ example: '4211' });
/** Unix seconds as a decimal string. */
export const Timestamp = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,15})$/, 'decimal_string')
  .openapi({ example: '1763763900' });
export const Commit = z
  .string()
  .regex(/^[0-9a-f]{40}$/, 'commit_sha')
  .openapi({ example: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3' });
export const Hash32 = z
  .string()
  .regex(/^0x[0-9a-f]{64}$/, 'hash32')
  .openapi({ example: '0x' + 'ab'.repeat(32) });
export const Address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'address')
  .openapi({ example: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' });

// The vocabularies are declared once, in @lineage/vocabulary; here they become zod enums for the wire.
export const Verdict = z.enum(VERDICTS);
export const Confidence = z.enum(CONFIDENCES);
export const Direction = z.enum(DIRECTIONS);
export const Layer = z.enum(LAYERS);
export const Strength = z.enum(STRENGTHS);

export const ANALYSIS_STATES = ['queued', 'running', 'cancelling', 'cancelled', 'failed', 'completed'] as const;
export const AnalysisState = z.enum(ANALYSIS_STATES);
export const StageState = z.enum(['pending', 'running', 'done', 'cancelled', 'failed']);
export const StageName = z.enum(STAGE_NAMES);

export const Outcome = z.enum(OUTCOMES);
export const FactStatus = z.enum(ASSERTION_STATUSES);
export const ActivityKind = z.enum(ACTIVITY_KINDS);

/**
 * Page size: default 20, 1..100; anything else is a validation error, never clamped silently. From a query
 * string only plain decimal digits count (`0x10`, `1e1` or ` 5` are not page sizes); callers over NATS may send a number.
 */
export const Limit = z
  .preprocess((v) => (typeof v === 'string' && !/^[0-9]{1,6}$/.test(v) ? Number.NaN : v), z.coerce.number().int().min(1).max(100))
  .default(20);
/** Opaque, signed keyset cursor; its content is the owning service's business. */
export const Cursor = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[A-Za-z0-9_-]+$/, 'cursor');

export const page = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), nextCursor: z.string().nullable() });

/** Query-string booleans: only the literal words, so `fresh=yes` is an error rather than a guess. */
export const QueryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

/**
 * Free text a client searches or filters with (search terms, repository and path filters): no control characters.
 * PostgreSQL's text cannot hold NUL, and no URL, path or verdict contains a control character. Issue `invalid_text`.
 */
export const QueryText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    .regex(/^[^\x00-\x1f\x7f]*$/, 'text');

/** The query of a route that takes no parameters: any parameter is `unrecognized_key`, as elsewhere. */
export const NoQuery = z.strictObject({});
/** The body of a route that needs none: absent, or an empty JSON object. */
export const EmptyBody = z.strictObject({}).optional();
