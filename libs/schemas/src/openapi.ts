// The OpenAPI 3.1 document, generated from the same zod schemas that validate
// requests and replies, so it cannot drift from the running API.
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from './zod';
import { ErrorBody } from './errors';
import * as A from './api/analysis';
import * as C from './api/cases';
import * as F from './api/facts';

type Route = {
  method: RouteConfig['method'];
  path: string;
  summary: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  ok: { status: number; schema: z.ZodType };
  errors: number[];
  auth?: boolean;
};

const idParam = (name: string) => z.object({ [name]: z.string().openapi({ param: { name, in: 'path' }, example: '4211' }) });

/** Every public route. The gateway's router is checked against this list by a test. */
export const publicRoutes: Route[] = [
  { method: 'post', path: '/api/v1/repositories/validate', summary: 'Validate both repositories and pin their commits', body: A.ValidateRequest, ok: { status: 200, schema: A.ValidateResponse }, errors: [400, 401, 403, 413, 422, 429, 503, 504], auth: true },
  { method: 'post', path: '/api/v1/analyses', summary: 'Create a durable analysis for a pinned pair', body: A.CreateAnalysisRequest, ok: { status: 202, schema: A.CreateAnalysisResponse }, errors: [400, 401, 403, 413, 429, 503, 504], auth: true },
  { method: 'get', path: '/api/v1/analyses/{id}', summary: 'Real pipeline progress', params: idParam('id'), ok: { status: 200, schema: z.object({ analysis: A.Analysis }) }, errors: [400, 404, 503, 504] },
  { method: 'post', path: '/api/v1/analyses/{id}/cancel', summary: 'Request cancellation at the next stage boundary', params: idParam('id'), ok: { status: 202, schema: A.CancelResponse }, errors: [400, 401, 403, 404, 409, 503, 504], auth: true },
  { method: 'get', path: '/api/v1/analyses/{id}/manifest', summary: 'The canonical evidence manifest (RFC 8785 bytes, ETag = hash)', params: idParam('id'), ok: { status: 200, schema: z.record(z.string(), z.unknown()) }, errors: [400, 404, 409, 503, 504] },
  { method: 'get', path: '/api/v1/cases', summary: 'Bounded page of public cases, newest first', query: C.CaseListQuery, ok: { status: 200, schema: C.CaseList }, errors: [400, 503, 504] },
  { method: 'get', path: '/api/v1/cases/{id}', summary: 'The full case report', params: idParam('id'), ok: { status: 200, schema: C.CaseResponse }, errors: [400, 404, 503, 504] },
  { method: 'get', path: '/api/v1/cases/{id}/evidence', summary: 'Filterable evidence with facets', params: idParam('id'), query: C.EvidenceQuery, ok: { status: 200, schema: C.EvidencePage }, errors: [400, 404, 503, 504] },
  { method: 'post', path: '/api/v1/cases/{id}/challenge-preparation', summary: 'EIP-712 payload for the challenger\'s wallet to sign', params: idParam('id'), body: C.ChallengePreparationRequest, ok: { status: 200, schema: C.ChallengePreparationResponse }, errors: [400, 401, 404, 409, 413, 503, 504], auth: true },
  { method: 'get', path: '/api/v1/search', summary: 'Search by repository, case id or verdict', query: C.SearchQuery, ok: { status: 200, schema: C.SearchResults }, errors: [400, 503, 504] },
  { method: 'get', path: '/api/v1/chain/contract', summary: 'Where the registry lives and what it can do', ok: { status: 200, schema: F.ChainContract }, errors: [503, 504] },
  { method: 'get', path: '/api/v1/facts/{factKey}', summary: 'One fact from the projection, or `source=chain` for a finalized direct read', params: idParam('factKey'), query: F.FactGetQuery, ok: { status: 200, schema: z.union([F.FactResponse, F.ChainFactResponse]) }, errors: [400, 404, 409, 503, 504] },
  { method: 'get', path: '/api/v1/facts', summary: 'Facts filtered by outcome and freshness', query: F.FactListQuery, ok: { status: 200, schema: F.FactList }, errors: [400, 409, 503, 504] },
  { method: 'get', path: '/api/v1/resolutions/{resolutionId}', summary: 'One resolution', params: idParam('resolutionId'), query: F.ResolutionQuery, ok: { status: 200, schema: F.ResolutionResponse }, errors: [400, 404, 409, 503, 504] },
  { method: 'get', path: '/api/v1/policies', summary: 'Policies (immutable versions)', query: F.ListQuery, ok: { status: 200, schema: F.PolicyList }, errors: [400, 503, 504] },
  { method: 'get', path: '/api/v1/templates', summary: 'Templates', query: F.ListQuery, ok: { status: 200, schema: F.TemplateList }, errors: [400, 503, 504] },
  { method: 'get', path: '/api/v1/activity', summary: 'Every registry event, newest first', query: F.ActivityQuery, ok: { status: 200, schema: F.ActivityList }, errors: [400, 503, 504] },
  { method: 'get', path: '/api/v1/protocol', summary: 'Chain, registry and indexer state', ok: { status: 200, schema: F.Protocol }, errors: [503, 504] },
  { method: 'get', path: '/api/v1/openapi.json', summary: 'This document', ok: { status: 200, schema: z.record(z.string(), z.unknown()) }, errors: [] },
];

const probeResponse = z.object({ status: z.enum(['ok', 'unready', 'stopping']), checks: z.record(z.string(), z.object({ ok: z.boolean(), detail: z.string().optional() })).optional() });

export function buildOpenApiDocument(opts: { version: string; serverUrl?: string }): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.register('Error', ErrorBody);
  const bearer = registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  for (const r of publicRoutes) {
    const responses: RouteConfig['responses'] = {
      [r.ok.status]: { description: 'Success', content: { 'application/json': { schema: r.ok.schema } } },
    };
    for (const s of r.errors) responses[s] = { description: 'Error', content: { 'application/json': { schema: ErrorBody } } };
    registry.registerPath({
      method: r.method,
      path: r.path,
      summary: r.summary,
      ...(r.auth ? { security: [{ [bearer.name]: [] }, {}] } : {}),
      request: {
        ...(r.params ? { params: r.params } : {}),
        ...(r.query ? { query: r.query } : {}),
        ...(r.body ? { body: { content: { 'application/json': { schema: r.body } } } } : {}),
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
