// The route table: every public route with its method, path, schemas, the statuses and codes it answers, and
// the subject that serves it (or the gateway composition that does). The gateway registers exactly these
// routes by looping over this list, and the OpenAPI document is generated from it (openapi.ts), so neither
// can drift from the other. To follow a route: find it here, then its subject's handler in the owning service.
import { z } from './zod';
import type { ErrorCode } from './errors';
import { EmptyBody, NoQuery } from './common';
import { subjects, type Caller, type SubjectDef } from './subjects';
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

/**
 * A request as the gateway hands it on, after validating each part against the route's schemas. The values
 * are the caller's raw input (the input form), so the owning service parses them with the same schemas and
 * applies the defaults itself.
 */
export interface RouteInput<P = Record<string, unknown>, Q = Record<string, unknown>, B = unknown, H = Record<string, unknown>> {
  params: P;
  query: Q;
  body: B;
  headers: H;
  /** Who is calling, as the route's `auth` decided it (hashed key, never the raw one). */
  caller: Caller;
  /** The raw bearer credential, for `auth: 'bearer'` routes (a cancel token); null otherwise. */
  bearer: string | null;
}

/** What a subject route answers beyond the reply body: a status other than its first success, and headers. */
export interface RouteReply {
  status?: number;
  headers?: Record<string, string>;
}

/** Routes the gateway answers by composing (several requests, or none): implemented in services/gateway/src/routes.ts. */
export type Composition = 'manifest' | 'openapi';

/** How a route is served: one request to a service's subject, or a gateway composition. */
export type RouteCall =
  { subject: SubjectDef; request: (input: RouteInput) => unknown; reply?: (out: unknown) => RouteReply } | { composition: Composition };

export interface PublicRoute {
  method: 'get' | 'post';
  /** OpenAPI path template, e.g. `/api/v1/analyses/{id}`. */
  path: string;
  summary: string;
  params?: z.ZodObject;
  /** Strict: a route without query parameters refuses any (NoQuery). */
  query: z.ZodObject;
  /** Request headers the route reads, by their canonical name (matched case-insensitively). */
  headers?: z.ZodObject;
  /** A JSON body; `bodyRequired: false` when it may be absent. */
  body?: z.ZodType;
  bodyRequired?: boolean;
  ok: SuccessResponse[];
  /** The codes only this route answers; those every route of its kind answers are added by `errorCodesOf`. */
  codes: ErrorCode[];
  /** 'key': an API key (required when the gateway requires one); 'bearer': a cancel token or the creating API key. */
  auth?: 'key' | 'bearer';
  call: RouteCall;
}

/** The part of a route that does not depend on how it is served. */
type RouteBase = Omit<PublicRoute, 'call' | 'params' | 'query' | 'headers' | 'body'>;

/**
 * A route served by one subject. The generic parameters tie `request` to the route's own schemas and to the
 * subject's request schema, so the compiler checks what the gateway sends; the table then holds it erased.
 */
function viaSubject<
  D extends SubjectDef,
  P extends z.ZodObject = typeof NoQuery,
  Q extends z.ZodObject = typeof NoQuery,
  B extends z.ZodType = z.ZodUndefined,
  H extends z.ZodObject = typeof NoQuery,
>(
  route: RouteBase & { params?: P; query: Q; body?: B; headers?: H },
  subject: D,
  request: (input: RouteInput<z.input<P>, z.input<Q>, z.input<B>, z.input<H>>) => z.input<D['request']>,
  reply?: (out: z.output<D['response']>) => RouteReply,
): PublicRoute {
  return {
    ...route,
    // Safe: the gateway has validated params, query, body and headers against these very schemas.
    call: {
      subject,
      request: request as (input: RouteInput) => unknown,
      ...(reply ? { reply: reply as (out: unknown) => RouteReply } : {}),
    },
  };
}

const json = (status: number, schema: z.ZodType, description = 'Success', headers?: Record<string, string>): SuccessResponse => ({
  status,
  description,
  schema,
  headers,
});
const location = { Location: 'The analysis: `/api/v1/analyses/{id}`' };

/** `Idempotency-Key`: printable ASCII without spaces. */
const IdempotencyHeaders = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,128}$/)
    .optional()
    .openapi({ description: 'Replays the first response for the same key and body; a different body with the same key is refused' }),
});

/** Every public route. */
export const publicRoutes: PublicRoute[] = [
  viaSubject(
    {
      method: 'post',
      path: '/api/v1/repositories/validate',
      summary: 'Validate both repositories and pin their commits',
      query: NoQuery,
      body: A.ValidateRequest,
      auth: 'key',
      ok: [json(200, A.ValidateResponse)],
      codes: [
        'REPOSITORY_NOT_ALLOWED',
        'REPOSITORY_UNREACHABLE',
        'REF_NOT_FOUND',
        'COMMIT_NOT_FOUND',
        'REPOSITORY_TOO_LARGE',
        'REPOSITORY_UNREADABLE',
      ],
    },
    subjects.analysis.validate,
    ({ body }) => body,
  ),
  viaSubject(
    {
      method: 'post',
      path: '/api/v1/analyses',
      summary: 'Create a durable analysis for a pinned pair',
      query: NoQuery,
      headers: IdempotencyHeaders,
      body: A.CreateAnalysisRequest,
      auth: 'key',
      ok: [
        json(202, A.CreateAnalysisResponse, 'Created (`created: true`, with the cancel token)', location),
        json(
          200,
          A.CreateAnalysisResponse,
          'The same pinned pair and engine version already has a live or completed analysis: that one (`created: false`, `cancelToken: null`)',
          location,
        ),
      ],
      codes: ['REPOSITORY_NOT_ALLOWED', 'QUEUE_FULL'],
    },
    subjects.analysis.create,
    ({ body, headers, caller }) => ({ body, idempotencyKey: headers['Idempotency-Key'] ?? null, caller }),
    (out) => ({ status: out.created ? 202 : 200, headers: { Location: `${API_BASE}/analyses/${out.analysis.id}` } }),
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/analyses/{id}',
      summary: 'Real pipeline progress',
      params: A.AnalysisIdParams,
      query: NoQuery,
      ok: [json(200, z.object({ analysis: A.Analysis }))],
      codes: ['ANALYSIS_NOT_FOUND'],
    },
    subjects.analysis.get,
    ({ params }) => params,
  ),
  viaSubject(
    {
      method: 'post',
      path: '/api/v1/analyses/{id}/cancel',
      summary: 'Request cancellation at the next stage boundary',
      params: A.AnalysisIdParams,
      query: NoQuery,
      body: EmptyBody,
      bodyRequired: false,
      auth: 'bearer',
      ok: [json(202, A.CancelResponse)],
      codes: ['ANALYSIS_NOT_FOUND', 'FORBIDDEN', 'ANALYSIS_FINISHED'],
    },
    subjects.analysis.cancel,
    ({ params, bearer, caller }) => ({ id: params.id, bearer, caller }),
  ),
  {
    method: 'get',
    path: '/api/v1/analyses/{id}/manifest',
    summary: 'The canonical evidence manifest (RFC 8785 bytes, ETag = hash)',
    params: A.AnalysisIdParams,
    query: NoQuery,
    ok: [
      json(200, z.record(z.string(), z.unknown()), "The manifest's exact bytes", { ETag: 'The manifest hash, quoted: `"0x…"`' }),
      {
        status: 304,
        description: 'Not modified: `If-None-Match` named the current ETag',
        schema: null,
        headers: { ETag: 'The manifest hash, quoted' },
      },
    ],
    codes: ['ANALYSIS_NOT_FOUND', 'MANIFEST_NOT_READY', 'ANALYSIS_CANCELLED', 'ANALYSIS_FAILED'],
    // Read in chunks from `subjects.analysis.manifest` (a manifest can outgrow one NATS message).
    call: { composition: 'manifest' },
  },
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/cases',
      summary: 'Bounded page of public cases, newest first',
      query: C.CaseListQuery,
      ok: [json(200, C.CaseList)],
      codes: [],
    },
    subjects.cases.list,
    ({ query }) => query,
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/cases/{id}',
      summary: 'The full case report',
      params: C.CaseIdParams,
      query: NoQuery,
      ok: [json(200, C.CaseResponse)],
      codes: ['CASE_NOT_FOUND'],
    },
    subjects.cases.get,
    ({ params }) => params,
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/cases/{id}/evidence',
      summary: 'Filterable evidence with facets',
      params: C.CaseIdParams,
      query: C.EvidenceQuery,
      ok: [json(200, C.EvidencePage)],
      codes: ['CASE_NOT_FOUND'],
    },
    subjects.cases.evidence,
    ({ params, query }) => ({ ...query, ...params }),
  ),
  viaSubject(
    {
      method: 'post',
      path: '/api/v1/cases/{id}/challenge-preparation',
      summary: "EIP-712 payload for the challenger's wallet to sign",
      params: C.CaseIdParams,
      query: NoQuery,
      body: C.ChallengePreparationRequest,
      auth: 'key',
      ok: [json(200, C.ChallengePreparationResponse)],
      codes: ['CASE_NOT_FOUND', 'FACT_NOT_CHALLENGEABLE', 'CHAIN_UNAVAILABLE'],
    },
    subjects.cases.challengePrepare,
    ({ params, body }) => ({ id: params.id, body }),
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/search',
      summary: 'Search by repository, case id or verdict',
      query: C.SearchQuery,
      ok: [json(200, C.SearchResults)],
      codes: [],
    },
    subjects.cases.search,
    ({ query }) => query,
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/chain/contract',
      summary: 'Where the registry lives and what it can do',
      query: NoQuery,
      ok: [json(200, F.ChainContract)],
      codes: [],
    },
    subjects.chain.contract,
    () => ({}),
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/facts/{factKey}',
      summary: 'One fact from the projection, or `source=chain` for direct reads at the finalized and head blocks compared with it',
      params: F.FactKeyParams,
      query: F.FactGetQuery,
      ok: [json(200, z.union([F.FactResponse, F.ChainFactResponse]))],
      codes: ['FACT_NOT_FOUND', 'INDEXER_BEHIND', 'CHAIN_UNAVAILABLE'],
    },
    subjects.facts.read,
    ({ params, query }) => ({ ...query, ...params }),
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/facts',
      summary: 'Facts filtered by outcome and freshness; `source=chain` reads each from the chain at its finalized block',
      query: F.FactListQuery,
      ok: [json(200, z.union([F.FactList, F.ChainFactList]))],
      codes: ['INDEXER_BEHIND', 'CHAIN_UNAVAILABLE'],
    },
    subjects.facts.readList,
    ({ query }) => query,
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/resolutions/{resolutionId}',
      summary: 'One resolution',
      params: F.ResolutionParams,
      query: F.ResolutionQuery,
      ok: [json(200, F.ResolutionResponse)],
      codes: ['RESOLUTION_NOT_FOUND', 'INDEXER_BEHIND'],
    },
    subjects.facts.resolution,
    ({ params, query }) => ({ ...query, ...params }),
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/policies',
      summary: 'Policies (immutable versions)',
      query: F.ListQuery,
      ok: [json(200, F.PolicyList)],
      codes: [],
    },
    subjects.facts.policies,
    ({ query }) => query,
  ),
  viaSubject(
    { method: 'get', path: '/api/v1/templates', summary: 'Templates', query: F.ListQuery, ok: [json(200, F.TemplateList)], codes: [] },
    subjects.facts.templates,
    ({ query }) => query,
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/activity',
      summary: 'Every registry event, newest first',
      query: F.ActivityQuery,
      ok: [json(200, F.ActivityList)],
      codes: [],
    },
    subjects.facts.activity,
    ({ query }) => query,
  ),
  viaSubject(
    {
      method: 'get',
      path: '/api/v1/protocol',
      summary: 'Chain, registry and indexer state',
      query: NoQuery,
      ok: [json(200, F.Protocol)],
      codes: [],
    },
    subjects.facts.protocol,
    () => ({}),
  ),
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    summary: 'This document',
    query: NoQuery,
    ok: [json(200, z.record(z.string(), z.unknown()))],
    codes: [],
    call: { composition: 'openapi' },
  },
];

/** Answered by the gateway alone, with no service behind it. */
export const isLocal = (route: PublicRoute): boolean => 'composition' in route.call && route.call.composition === 'openapi';
