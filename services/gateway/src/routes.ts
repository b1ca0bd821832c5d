import express, { type Express, type Request, type Response } from 'express';
import type { z } from 'zod';
import {
  analysisApi as A, subjects, buildOpenApiDocument, publicRoutes, API_BASE, type PublicRoute, type SubjectDef,
} from '@lineage/schemas';
import { ApiError, sendError, requestIdOf, validationError, type ServiceRuntime } from '@lineage/service-kit';
import { ApiKeys, bearerOf } from './auth';

type Input = { params: Record<string, unknown>; query: Record<string, unknown>; body: unknown; req: Request };
type Reply = { status?: number; body: unknown; headers?: Record<string, string>; raw?: Buffer };
type Handler = (input: Input & { caller: { apiKeyHash: string | null }; bearer: string | null; requestId: string }, res: Response) => Promise<Reply>;

const BODY_LIMIT = '64kb';
/** `application/json`, with parameters (charset) or none; `application/json-seq` and the like are other types. */
const JSON_TYPE = /^application\/json[\t ]*(;|$)/i;

/**
 * Every public route: validate, authenticate, then ask the owning service over NATS. Methods, paths,
 * schemas and auth come from `publicRoutes` (libs/schemas/src/openapi.ts), the list the OpenAPI document is
 * generated from; this file adds only the handlers, and refuses to start if the two lists differ.
 */
export function registerRoutes(app: Express, rt: ServiceRuntime, keys: ApiKeys, opts: { version: string; baseUrl?: string }): void {
  const call = <D extends SubjectDef>(def: D, payload: z.input<D['request']>, requestId: string) =>
    rt.nats().request(def, payload, { requestId });

  const openapi = buildOpenApiDocument({ version: opts.version, serverUrl: opts.baseUrl });

  const handlers: Record<string, Handler> = {
    'post /repositories/validate': async ({ body, requestId }) => ({ body: await call(subjects.analysis.validate, body as z.input<typeof A.ValidateRequest>, requestId) }),
    'post /analyses': async ({ body, req, caller, requestId }) => {
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
    'get /analyses/{id}': async ({ params, requestId }) => ({ body: await call(subjects.analysis.get, params as { id: string }, requestId) }),
    'post /analyses/{id}/cancel': async ({ params, bearer, caller, requestId }) => ({
      status: 202,
      body: await call(subjects.analysis.cancel, { id: (params as { id: string }).id, bearer, caller }, requestId),
    }),
    'get /analyses/{id}/manifest': async ({ params, requestId, req }, res) => {
      const id = (params as { id: string }).id;
      const first = await call(subjects.analysis.manifest, { id }, requestId);
      const etag = `"${first.manifestHash}"`;
      if (noneMatch(req.get('if-none-match'), etag)) {
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
    'get /cases': async ({ query, requestId }) => ({ body: await call(subjects.cases.list, query as never, requestId) }),
    'get /cases/{id}': async ({ params, requestId }) => ({ body: await call(subjects.cases.get, params as never, requestId) }),
    'get /cases/{id}/evidence': async ({ params, query, requestId }) => ({ body: await call(subjects.cases.evidence, { ...query, ...params } as never, requestId) }),
    'post /cases/{id}/challenge-preparation': async ({ params, body, requestId }) => ({
      body: await call(subjects.cases.challengePrepare, { id: (params as { id: string }).id, body: body as never }, requestId),
    }),
    'get /search': async ({ query, requestId }) => ({ body: await call(subjects.cases.search, query as never, requestId) }),
    'get /chain/contract': async ({ requestId }) => ({ body: await call(subjects.chain.contract, {}, requestId) }),
    'get /facts/{factKey}': async ({ params, query, requestId }) => {
      const q = query as { source?: string; minBlock?: string };
      const factKey = (params as { factKey: string }).factKey;
      if (q.source === 'chain') return { body: await call(subjects.facts.verify, { factKey }, requestId) };
      return { body: await call(subjects.facts.get, { factKey, ...(q.minBlock ? { minBlock: q.minBlock } : {}) }, requestId) };
    },
    'get /facts': async ({ query, requestId }) => {
      // `source` picks the subject and is not sent on (an older fact-indexer's list query does not know it).
      const { source, ...q } = query as { source?: string };
      return { body: await call(source === 'chain' ? subjects.facts.verifyList : subjects.facts.list, q as never, requestId) };
    },
    'get /resolutions/{resolutionId}': async ({ params, query, requestId }) => ({ body: await call(subjects.facts.resolution, { ...query, ...params } as never, requestId) }),
    'get /policies': async ({ query, requestId }) => ({ body: await call(subjects.facts.policies, query as never, requestId) }),
    'get /templates': async ({ query, requestId }) => ({ body: await call(subjects.facts.templates, query as never, requestId) }),
    'get /activity': async ({ query, requestId }) => ({ body: await call(subjects.facts.activity, query as never, requestId) }),
    'get /protocol': async ({ requestId }) => ({ body: await call(subjects.facts.protocol, {}, requestId) }),
    'get /openapi.json': async () => ({ body: openapi }),
  };

  const keyOf = (r: PublicRoute) => `${r.method} ${r.path.slice(API_BASE.length)}`;
  const missing = publicRoutes.filter((r) => !handlers[keyOf(r)]).map(keyOf);
  const extra = Object.keys(handlers).filter((k) => !publicRoutes.some((r) => keyOf(r) === k));
  if (missing.length || extra.length) throw new Error(`gateway handlers and publicRoutes differ: missing ${missing.join(', ') || 'none'}; not public ${extra.join(', ') || 'none'}`);

  const router = express.Router({ strict: false });
  // Any JSON value is parsed (`null` too), so that a well-formed body of the wrong shape is VALIDATION_FAILED, not MALFORMED_JSON.
  const json = express.json({ limit: BODY_LIMIT, type: () => true, strict: false });
  for (const r of publicRoutes) {
    const handle = handlers[keyOf(r)]!;
    const chain: express.RequestHandler[] = [];
    if (r.body) {
      chain.push((req, _res, next) => {
        const type = req.get('content-type');
        const hasBody = req.get('content-length') !== '0' && (req.get('content-length') !== undefined || req.get('transfer-encoding') !== undefined);
        if (hasBody && type !== undefined && !JSON_TYPE.test(type)) {
          return next(new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json.'));
        }
        next();
      }, json);
    }
    chain.push(async (req, res) => {
      try {
        const params = parse(r.params, req.params);
        const query = parse(r.query, req.query ?? {});
        const body = r.body ? parse(r.body, req.body) : undefined;
        let bearer: string | null = null;
        let caller = { apiKeyHash: null as string | null };
        if (r.auth === 'key') caller = { apiKeyHash: keys.authenticate(bearerOf(req)) };
        if (r.auth === 'bearer') {
          bearer = bearerOf(req);
          caller = { apiKeyHash: bearer && keys.isKey(bearer) ? keys.authenticate(bearer) : null };
        }
        const out = await handle({ params, query, body, req, bearer, caller, requestId: requestIdOf(res) }, res);
        for (const [k, v] of Object.entries(out.headers ?? {})) res.setHeader(k, v);
        res.status(out.status ?? 200);
        if (out.raw) res.end(out.raw);
        else if (out.status === 304) res.end();
        else res.json(out.body);
      } catch (err) {
        sendError(res, err);
      }
    });
    router[r.method](r.path.slice(API_BASE.length).replace(/\{(\w+)\}/g, ':$1'), ...chain);
  }
  app.use(API_BASE, router);
}

/** Validate one part of the request; the caller's raw input (not the parsed form) goes on the wire. */
function parse(schema: z.ZodType | undefined, value: unknown): Record<string, unknown> {
  if (!schema) return {};
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return value as Record<string, unknown>;
}

/** `If-None-Match` (RFC 9110 §13.1.2): `*`, or a list of entity tags, weak or strong, one of which is ours. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
