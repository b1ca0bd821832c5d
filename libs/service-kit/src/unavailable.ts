// Failures that mean "a backing store (PostgreSQL) is not reachable right now", as opposed to a bug: they
// become 503 SERVICE_UNAVAILABLE (retry later) wherever errors are turned into replies (errors.ts), never
// 500 INTERNAL. See docs/architecture.md (Storage: the database going away).

/** Socket-level failures of a connection (to the database, in practice: every other dependency maps its own). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs of an unavailable server: class 08 (connection exception), 57P01 admin_shutdown,
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down, recovering), 53300 too_many_connections.
 */
const isUnavailableSqlState = (code: string) => /^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code);

/**
 * What node-postgres and knex say, without a code, when a connection dies or cannot be had: at the start of the
 * message, or after the `<sql> - ` that knex puts before the driver's message when a query fails (a query in flight
 * when the connection dies: `update "analysis"."analyses" set … - Connection terminated unexpectedly`).
 */
const MESSAGES = [
  /(?:^| - )Connection terminated/, // unexpectedly, or due to connection timeout
  /(?:^| - )timeout expired$/, // connect timeout (connectionTimeoutMillis)
  /is not queryable/, // a client whose connection already failed
  /^Knex: Timeout acquiring a connection/, // the pool could not hand out a connection in acquireConnectionTimeout
  /^Unable to acquire a connection$/,
];

/**
 * True when `err` (or an error it wraps: `cause`, or any of an AggregateError's `errors`, as Node gives for a
 * connect tried on several addresses) says the database cannot be reached or is going away.
 */
export function isStoreUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || isUnavailableSqlState(e.code))) return true;
  if (e.name === 'KnexTimeoutError') return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isStoreUnavailable(x, depth + 1))) return true;
  return isStoreUnavailable(e.cause, depth + 1);
}

/** The public message of such a failure: says what to do, names nothing internal. */
export const STORE_UNAVAILABLE_MESSAGE = 'The service cannot reach its database right now; retry shortly.';
