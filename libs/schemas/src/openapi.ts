// The public routes, and the OpenAPI 3.1 document generated from them. The gateway registers exactly
// these routes with exactly these schemas (services/gateway/src/routes.ts only adds the handlers), so
// the document cannot drift from the running API: not its inputs, and not the statuses it answers.
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from './zod';
import { ERROR_STATUS, ErrorBody, FieldIssue, type ErrorCode } from './errors';
import { EmptyBody, NoQuery } from './common';
import * as A from './api/analysis';
import * as C from './api/cases';
import * as F from './api/facts';

/** Every public route lives under this prefix. */
export const API_BASE = '/api/v1';

/** A success the route answers with; `schema: null` is a response without a body (304). */
export interface SuccessResponse {
  status: number;
  description: string;
  schema: z.ZodType | null;
  headers?: Record<string, string>;
}

export interface PublicRoute {
  method: 'get' | 'post';
  /** OpenAPI path template, e.g. `/api/v1/analyses/{id}`. */
  path: string;
  summary: string;
  params?: z.ZodObject;
  /** Strict: a route without query parameters refuses any (NoQuery). */
  query: z.ZodObject;
  /** A JSON body; `bodyRequired: false` when it may be absent. */
  body?: z.ZodType;
  bodyRequired?: boolean;
  ok: SuccessResponse[];
  /** The codes only this route answers; those every route of its kind answers are added by `errorCodesOf`. */
  codes: ErrorCode[];
  /** 'key': an API key (required when the gateway requires one); 'bearer': a cancel token or the creating API key. */
  auth?: 'key' | 'bearer';
  /** Answered by the gateway itself, with no service behind it. */
  local?: boolean;
}

const json = (status: number, schema: z.ZodType, description = 'Success', headers?: Record<string, string>): SuccessResponse => ({ status, description, schema, headers });
const location = { Location: 'The analysis: `/api/v1/analyses/{id}`' };

/** Every public route. */
export const publicRoutes: PublicRoute[] = [
  {
    method: 'post', path: '/api/v1/repositories/validate', summary: 'Validate both repositories and pin their commits', query: NoQuery, body: A.ValidateRequest, auth: 'key',
    ok: [json(200, A.ValidateResponse)],
    codes: ['REPOSITORY_NOT_ALLOWED', 'REPOSITORY_UNREACHABLE', 'REF_NOT_FOUND', 'COMMIT_NOT_FOUND', 'REPOSITORY_TOO_LARGE', 'REPOSITORY_UNREADABLE'],
  },
  {
    method: 'post', path: '/api/v1/analyses', summary: 'Create a durable analysis for a pinned pair', query: NoQuery, body: A.CreateAnalysisRequest, auth: 'key',
    ok: [
      json(202, A.CreateAnalysisResponse, 'Created (`created: true`, with the cancel token)', location),
      json(200, A.CreateAnalysisResponse, 'The same pinned pair and engine version already has a live or completed analysis: that one (`created: false`, `cancelToken: null`)', location),
    ],
    codes: ['REPOSITORY_NOT_ALLOWED', 'QUEUE_FULL'],
  },
  {
    method: 'get', path: '/api/v1/analyses/{id}', summary: 'Real pipeline progress', params: A.AnalysisIdParams, query: NoQuery,
    ok: [json(200, z.object({ analysis: A.Analysis }))],
    codes: ['ANALYSIS_NOT_FOUND'],
  },
  {
    method: 'post', path: '/api/v1/analyses/{id}/cancel', summary: 'Request cancellation at the next stage boundary', params: A.AnalysisIdParams, query: NoQuery, body: EmptyBody, bodyRequired: false, auth: 'bearer',
    ok: [json(202, A.CancelResponse)],
    codes: ['ANALYSIS_NOT_FOUND', 'FORBIDDEN', 'ANALYSIS_FINISHED'],
  },
  {
    method: 'get', path: '/api/v1/analyses/{id}/manifest', summary: 'The canonical evidence manifest (RFC 8785 bytes, ETag = hash)', params: A.AnalysisIdParams, query: NoQuery,
    ok: [
      json(200, z.record(z.string(), z.unknown()), 'The manifest\'s exact bytes', { ETag: 'The manifest hash, quoted: `"0x…"`' }),
      { status: 304, description: 'Not modified: `If-None-Match` named the current ETag', schema: null, headers: { ETag: 'The manifest hash, quoted' } },
    ],
    codes: ['ANALYSIS_NOT_FOUND', 'MANIFEST_NOT_READY', 'ANALYSIS_CANCELLED', 'ANALYSIS_FAILED'],
  },
  { method: 'get', path: '/api/v1/cases', summary: 'Bounded page of public cases, newest first', query: C.CaseListQuery, ok: [json(200, C.CaseList)], codes: [] },
  { method: 'get', path: '/api/v1/cases/{id}', summary: 'The full case report', params: C.CaseIdParams, query: NoQuery, ok: [json(200, C.CaseResponse)], codes: ['CASE_NOT_FOUND'] },
  {
    method: 'get', path: '/api/v1/cases/{id}/evidence', summary: 'Filterable evidence with facets', params: C.CaseIdParams, query: C.EvidenceQuery,
    ok: [json(200, C.EvidencePage)], codes: ['CASE_NOT_FOUND'],
  },
  {
    method: 'post', path: '/api/v1/cases/{id}/challenge-preparation', summary: 'EIP-712 payload for the challenger\'s wallet to sign', params: C.CaseIdParams, query: NoQuery, body: C.ChallengePreparationRequest, auth: 'key',
    ok: [json(200, C.ChallengePreparationResponse)], codes: ['CASE_NOT_FOUND', 'FACT_NOT_CHALLENGEABLE', 'CHAIN_UNAVAILABLE'],
  },
  { method: 'get', path: '/api/v1/search', summary: 'Search by repository, case id or verdict', query: C.SearchQuery, ok: [json(200, C.SearchResults)], codes: [] },
  { method: 'get', path: '/api/v1/chain/contract', summary: 'Where the registry lives and what it can do', query: NoQuery, ok: [json(200, F.ChainContract)], codes: [] },
  {
    method: 'get', path: '/api/v1/facts/{factKey}', summary: 'One fact from the projection, or `source=chain` for direct reads at the finalized and head blocks compared with it', params: F.FactKeyParams, query: F.FactGetQuery,
    ok: [json(200, z.union([F.FactResponse, F.ChainFactResponse]))], codes: ['FACT_NOT_FOUND', 'INDEXER_BEHIND', 'CHAIN_UNAVAILABLE'],
  },
  {
    method: 'get', path: '/api/v1/facts', summary: 'Facts filtered by outcome and freshness; `source=chain` reads each from the chain at its finalized block', query: F.FactListQuery,
    ok: [json(200, z.union([F.FactList, F.ChainFactList]))], codes: ['INDEXER_BEHIND', 'CHAIN_UNAVAILABLE'],
  },
  {
    method: 'get', path: '/api/v1/resolutions/{resolutionId}', summary: 'One resolution', params: F.ResolutionParams, query: F.ResolutionQuery,
    ok: [json(200, F.ResolutionResponse)], codes: ['RESOLUTION_NOT_FOUND', 'INDEXER_BEHIND'],
  },
  { method: 'get', path: '/api/v1/policies', summary: 'Policies (immutable versions)', query: F.ListQuery, ok: [json(200, F.PolicyList)], codes: [] },
  { method: 'get', path: '/api/v1/templates', summary: 'Templates', query: F.ListQuery, ok: [json(200, F.TemplateList)], codes: [] },
  { method: 'get', path: '/api/v1/activity', summary: 'Every registry event, newest first', query: F.ActivityQuery, ok: [json(200, F.ActivityList)], codes: [] },
  { method: 'get', path: '/api/v1/protocol', summary: 'Chain, registry and indexer state', query: NoQuery, ok: [json(200, F.Protocol)], codes: [] },
  { method: 'get', path: '/api/v1/openapi.json', summary: 'This document', query: NoQuery, ok: [json(200, z.record(z.string(), z.unknown()))], codes: [], local: true },
];

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
  if (!route.local) for (const c of ['SERVICE_UNAVAILABLE', 'UPSTREAM_TIMEOUT'] as const) codes.add(c);
  for (const c of route.codes) codes.add(c);
  return [...codes].sort((a, b) => ERROR_STATUS[a] - ERROR_STATUS[b] || a.localeCompare(b));
}

/** The error codes a route documents for one status (empty when it documents none). */
export const documentedCodes = (route: PublicRoute, status: number): ErrorCode[] => errorCodesOf(route).filter((c) => ERROR_STATUS[c] === status);

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

const probeResponse = z.object({ status: z.enum(['ok', 'unready', 'stopping']), checks: z.record(z.string(), z.object({ ok: z.boolean(), detail: z.string().optional() })).optional() });

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
  headers ? Object.fromEntries(Object.entries(headers).map(([name, description]) => [name, { description, schema: { type: 'string' as const } }])) : undefined;

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
    info: { title: 'Lineage API', version: opts.version, description: 'Development lineage of two git repositories pinned at exact commits.' },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
  }) as unknown as Record<string, unknown>;
}
