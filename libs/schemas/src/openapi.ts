// The OpenAPI 3.1 document, generated from the route table (routes.ts) the gateway registers, so the
// document cannot drift from the running API: not its inputs, and not the statuses it answers.
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from './zod';
import { ERROR_STATUS, ErrorBody, FieldIssue, type ErrorCode } from './errors';
import { publicRoutes, isLocal, type PublicRoute } from './routes';

/**
 * Every error code a route can answer: its own, plus those of every route of its kind. Every route: a
 * malformed input (VALIDATION_FAILED: even a route without parameters refuses unknown ones), the rate limit
 * and an oversized request line or header block. A route with a body: unreadable JSON, an oversized body and
 * a non-JSON content type. A route with auth: a missing or wrong credential. A route a service answers over
 * NATS: that service being down or slow. INTERNAL (500) is a bug, never an answer a route is documented to give.
 */
export function errorCodesOf(route: PublicRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(['VALIDATION_FAILED', 'RATE_LIMITED', 'HEADERS_TOO_LARGE']);
  if (route.body) for (const c of ['MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'] as const) codes.add(c);
  if (route.auth) codes.add('UNAUTHENTICATED');
  if (!isLocal(route)) for (const c of ['SERVICE_UNAVAILABLE', 'UPSTREAM_TIMEOUT'] as const) codes.add(c);
  for (const c of route.codes) codes.add(c);
  return [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b));
}

/** The error codes a route documents for one status (empty when it documents none). */
export const documentedCodes = (route: PublicRoute, status: number): ErrorCode[] =>
  errorCodesOf(route).filter((c) => ERROR_STATUS[c] === status);

/** Every status a route is documented to answer, successes first. */
export function documentedStatuses(route: PublicRoute): number[] {
  const errors = [...new Set(errorCodesOf(route).map((c) => ERROR_STATUS[c]))].sort((a, b) => a - b);
  return [...route.ok.map((o) => o.status), ...errors];
}

/** Headers of error responses, by status. */
const ERROR_HEADERS: Record<number, Record<string, string>> = {
  429: { 'Retry-After': 'Whole seconds to wait before retrying' },
};

const routeMatchers = publicRoutes.map((route) => ({
  route,
  re: new RegExp(`^${route.path.replace(/\./g, '\\.').replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i'),
}));

/**
 * The public route a request path (percent-encoded, without its query) is for, the way the gateway's
 * router matches it (case-insensitive, an optional trailing slash); null when no route has that method and path.
 */
export function findRoute(method: string, path: string): PublicRoute | null {
  const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  return routeMatchers.find(({ route, re }) => route.method === m && re.test(path))?.route ?? null;
}

const probeResponse = z.object({
  status: z.enum(['ok', 'unready', 'stopping']),
  checks: z.record(z.string(), z.object({ ok: z.boolean(), detail: z.string().optional() })).optional(),
});

const errorSchema = (codes: ErrorCode[]) =>
  z.object({
    error: z.object({
      code: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      fields: z.array(FieldIssue).optional(),
      requestId: z.string(),
    }),
  });

const headerObjects = (headers: Record<string, string> | undefined) =>
  headers
    ? Object.fromEntries(Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' as const } }]))
    : undefined;

export function buildOpenApiDocument(opts: { version: string; serverUrl?: string }): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.register('Error', ErrorBody);
  const bearer = registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  for (const r of publicRoutes) {
    const responses: RouteConfig['responses'] = {};
    for (const ok of r.ok) {
      responses[ok.status] = {
        description: ok.description,
        ...(ok.headers ? { headers: headerObjects(ok.headers) } : {}),
        ...(ok.schema ? { content: { 'application/json': { schema: ok.schema } } } : {}),
      };
    }
    for (const status of new Set(errorCodesOf(r).map((c) => ERROR_STATUS[c]))) {
      const codes = documentedCodes(r, status);
      responses[status] = {
        description: `Error: ${codes.join(', ')}`,
        ...(ERROR_HEADERS[status] ? { headers: headerObjects(ERROR_HEADERS[status]) } : {}),
        content: { 'application/json': { schema: errorSchema(codes) } },
      };
    }
    registry.registerPath({
      method: r.method,
      path: r.path,
      summary: r.summary,
      ...(r.auth === 'key' ? { security: [{ [bearer.name]: [] }, {}] } : r.auth === 'bearer' ? { security: [{ [bearer.name]: [] }] } : {}),
      request: {
        ...(r.params ? { params: r.params } : {}),
        ...(r.headers ? { headers: r.headers } : {}),
        ...(r.query.shape && Object.keys(r.query.shape).length > 0 ? { query: r.query } : {}),
        ...(r.body ? { body: { required: r.bodyRequired ?? true, content: { 'application/json': { schema: r.body } } } } : {}),
      },
      responses,
    });
  }
  for (const path of ['/health', '/ready']) {
    registry.registerPath({
      method: 'get',
      path,
      summary: path === '/health' ? 'Liveness' : 'Readiness',
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: probeResponse } } },
        ...(path === '/ready' ? { 503: { description: 'Not ready', content: { 'application/json': { schema: probeResponse } } } } : {}),
      },
    });
  }
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Lineage API',
      version: opts.version,
      description: 'Development lineage of two git repositories pinned at exact commits.',
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
  }) as unknown as Record<string, unknown>;
}
