import express, { type Express, type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  analysisApi as A, casesApi as C, factsApi as F, subjects, buildOpenApiDocument, type SubjectDef,
} from '@lineage/schemas';
import { ApiError, sendError, requestIdOf, validationError, type ServiceRuntime } from '@lineage/service-kit';
import { ApiKeys, bearerOf } from './auth';

type Input = { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown; req: Request };
type Reply = { status?: number; body: unknown; headers?: Record<string, string>; raw?: Buffer };

interface RouteSpec {
  method: 'get' | 'post';
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** 'key': API key (required when auth.required); 'bearer': pass the bearer through (cancel token). */
  auth?: 'key' | 'bearer';
  handle(input: Input & { caller: { apiKeyHash: string | null }; bearer: string | null; requestId: string }, res: Response): Promise<Reply>;
}

const BODY_LIMIT = '64kb';

/** Every public route: validate, authenticate, then ask the owning service over NATS. */
export function registerRoutes(app: Express, rt: ServiceRuntime, keys: ApiKeys, opts: { version: string; baseUrl?: string }): void {
  const call = <D extends SubjectDef>(def: D, payload: z.input<D['request']>, requestId: string) =>
    rt.nats().request(def, payload, { requestId });

  const openapi = buildOpenApiDocument({ version: opts.version, serverUrl: opts.baseUrl });

  const routes: RouteSpec[] = [
    {
      method: 'post', path: '/repositories/validate', body: A.ValidateRequest, auth: 'key',
      handle: async ({ body, requestId }) => ({ body: await call(subjects.analysis.validate, body as z.input<typeof A.ValidateRequest>, requestId) }),
    },
    {
      method: 'post', path: '/analyses', body: A.CreateAnalysisRequest, auth: 'key',
      handle: async ({ body, req, caller, requestId }) => {
        const key = req.get('idempotency-key');
        if (key !== undefined && !/^[\x21-\x7e]{1,128}$/.test(key)) {
          throw new ApiError('VALIDATION_FAILED', 'The request failed validation.', [{ path: 'Idempotency-Key', issue: 'invalid_format' }]);
        }
        const out = await call(subjects.analysis.create, { body: body as z.input<typeof A.CreateAnalysisRequest>, idempotencyKey: key ?? null, caller }, requestId);
        return {
          status: out.created ? 202 : 200,
          body: out,
          headers: { Location: `/api/v1/analyses/${out.analysis.id}` },
        };
      },
    },
    {
      method: 'get', path: '/analyses/:id', params: A.AnalysisIdParams,
      handle: async ({ params, requestId }) => ({ body: await call(subjects.analysis.get, params as { id: string }, requestId) }),
    },
    {
      method: 'post', path: '/analyses/:id/cancel', params: A.AnalysisIdParams, auth: 'bearer',
      handle: async ({ params, bearer, caller, requestId }) => ({
        status: 202,
        body: await call(subjects.analysis.cancel, { id: (params as { id: string }).id, bearer, caller }, requestId),
      }),
    },
    {
      method: 'get', path: '/analyses/:id/manifest', params: A.AnalysisIdParams,
      handle: async ({ params, requestId, req }, res) => {
        const id = (params as { id: string }).id;
        const first = await call(subjects.analysis.manifest, { id }, requestId);
        const etag = `"${first.manifestHash}"`;
        if (req.get('if-none-match') === etag) {
          res.setHeader('ETag', etag);
          return { status: 304, body: null };
        }
        const chunks = [Buffer.from(first.bytesBase64, 'base64')];
        for (let got = chunks[0]!.length; got < first.totalBytes; ) {
          const next = await call(subjects.analysis.manifest, { id, offset: got }, requestId);
          if (next.manifestHash !== first.manifestHash) throw new Error('manifest changed while being read');
          const chunk = Buffer.from(next.bytesBase64, 'base64');
          if (chunk.length === 0) throw new Error('manifest chunk was empty');
          chunks.push(chunk);
          got += chunk.length;
        }
        return { body: null, raw: Buffer.concat(chunks), headers: { ETag: etag, 'Content-Type': 'application/json' } };
      },
    },
    { method: 'get', path: '/cases', query: C.CaseListQuery, handle: async ({ query, requestId }) => ({ body: await call(subjects.cases.list, query as never, requestId) }) },
    { method: 'get', path: '/cases/:id', params: C.CaseIdParams, handle: async ({ params, requestId }) => ({ body: await call(subjects.cases.get, params as never, requestId) }) },
    {
      method: 'get', path: '/cases/:id/evidence', params: C.CaseIdParams, query: C.EvidenceQuery,
      handle: async ({ params, query, requestId }) => ({ body: await call(subjects.cases.evidence, { ...query, ...params } as never, requestId) }),
    },
    {
      method: 'post', path: '/cases/:id/challenge-preparation', params: C.CaseIdParams, body: C.ChallengePreparationRequest, auth: 'key',
      handle: async ({ params, body, requestId }) => ({
        body: await call(subjects.cases.challengePrepare, { id: (params as { id: string }).id, body: body as never }, requestId),
      }),
    },
    { method: 'get', path: '/search', query: C.SearchQuery, handle: async ({ query, requestId }) => ({ body: await call(subjects.cases.search, query as never, requestId) }) },
    { method: 'get', path: '/chain/contract', handle: async ({ requestId }) => ({ body: await call(subjects.chain.contract, {}, requestId) }) },
    {
      method: 'get', path: '/facts/:factKey', params: F.FactKeyParams, query: F.FactGetQuery,
      handle: async ({ params, query, requestId }) => {
        const q = query as { source?: string; minBlock?: string };
        const factKey = (params as { factKey: string }).factKey;
        if (q.source === 'chain') return { body: await call(subjects.facts.verify, { factKey }, requestId) };
        return { body: await call(subjects.facts.get, { factKey, ...(q.minBlock ? { minBlock: q.minBlock } : {}) }, requestId) };
      },
    },
    { method: 'get', path: '/facts', query: F.FactListQuery, handle: async ({ query, requestId }) => ({ body: await call(subjects.facts.list, query as never, requestId) }) },
    {
      method: 'get', path: '/resolutions/:resolutionId', params: F.ResolutionParams, query: F.ResolutionQuery,
      handle: async ({ params, query, requestId }) => ({ body: await call(subjects.facts.resolution, { ...query, ...params } as never, requestId) }),
    },
    { method: 'get', path: '/policies', query: F.ListQuery, handle: async ({ query, requestId }) => ({ body: await call(subjects.facts.policies, query as never, requestId) }) },
    { method: 'get', path: '/templates', query: F.ListQuery, handle: async ({ query, requestId }) => ({ body: await call(subjects.facts.templates, query as never, requestId) }) },
    { method: 'get', path: '/activity', query: F.ActivityQuery, handle: async ({ query, requestId }) => ({ body: await call(subjects.facts.activity, query as never, requestId) }) },
    { method: 'get', path: '/protocol', handle: async ({ requestId }) => ({ body: await call(subjects.facts.protocol, {}, requestId) }) },
    { method: 'get', path: '/openapi.json', handle: async () => ({ body: openapi }) },
  ];

  const router = express.Router({ strict: false });
  const json = express.json({ limit: BODY_LIMIT, type: () => true });
  for (const r of routes) {
    const handlers: express.RequestHandler[] = [];
    if (r.method === 'post') {
      handlers.push((req, _res, next) => {
        const type = req.get('content-type');
        const hasBody = req.get('content-length') !== '0' && (req.get('content-length') !== undefined || req.get('transfer-encoding') !== undefined);
        if (hasBody && type !== undefined && !/^application\/json\b/i.test(type)) {
          return next(new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json.'));
        }
        next();
      }, json);
    }
    handlers.push(async (req, res) => {
      try {
        const params = parse(r.params, req.params);
        const query = parse(r.query, req.query ?? {});
        const body = r.body ? parse(r.body, req.body ?? undefined) : undefined;
        let bearer: string | null = null;
        let caller = { apiKeyHash: null as string | null };
        if (r.auth === 'key') caller = { apiKeyHash: keys.authenticate(bearerOf(req)) };
        if (r.auth === 'bearer') {
          bearer = bearerOf(req);
          caller = { apiKeyHash: bearer && keys.isKey(bearer) ? keys.authenticate(bearer) : null };
        }
        const out = await r.handle({ params, query, body, req, bearer, caller, requestId: requestIdOf(res) }, res);
        for (const [k, v] of Object.entries(out.headers ?? {})) res.setHeader(k, v);
        res.status(out.status ?? 200);
        if (out.raw) res.end(out.raw);
        else if (out.status === 304) res.end();
        else res.json(out.body);
      } catch (err) {
        sendError(res, err);
      }
    });
    router[r.method](r.path, ...handlers);
  }
  app.use('/api/v1', router);
}

/** Validate one part of the request; the caller's raw input (not the parsed form) goes on the wire. */
function parse(schema: z.ZodType | undefined, value: unknown): Record<string, unknown> {
  if (!schema) return {};
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return value as Record<string, unknown>;
}
