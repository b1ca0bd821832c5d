import express, { type Express, type Request } from 'express';
import type { z } from 'zod';
import {
  subjects,
  buildOpenApiDocument,
  publicRoutes,
  API_BASE,
  type Composition,
  type PublicRoute,
  type RouteInput,
} from '@lineage/schemas';
import { ApiError, sendError, requestIdOf, validationError, type ServiceRuntime } from '@lineage/service-kit';
import { ApiKeys, bearerOf } from './auth';

type Reply = { status: number; body: unknown; headers?: Record<string, string>; raw?: Buffer };
type Composer = (route: PublicRoute, input: RouteInput, ctx: { requestId: string; req: Request }) => Promise<Reply>;

const BODY_LIMIT = '64kb';
/** `application/json`, with parameters (charset) or none; `application/json-seq` and the like are other types. */
const JSON_TYPE = /^application\/json[\t ]*(;|$)/i;

/**
 * Registers every route of the route table (libs/schemas/src/routes.ts): validate, authenticate, then ask the
 * route's subject over NATS, or run its composition. Nothing here is specific to one route but the compositions.
 */
export function registerRoutes(app: Express, rt: ServiceRuntime, keys: ApiKeys, opts: { version: string; baseUrl?: string }): void {
  const openapi = buildOpenApiDocument({ version: opts.version, serverUrl: opts.baseUrl });

  const compositions: Record<Composition, Composer> = {
    openapi: async () => ({ status: 200, body: openapi }),
    manifest: async (_route, { params }, { requestId, req }): Promise<Reply> => {
      const id = (params as { id: string }).id;
      const read = (offset: number) => rt.nats().request(subjects.analysis.manifest, { id, offset }, { requestId });
      const first = await read(0);
      const etag = `"${first.manifestHash}"`;
      if (noneMatch(req.get('if-none-match'), etag)) return { status: 304, body: null, headers: { ETag: etag } };
      const chunks = [Buffer.from(first.bytesBase64, 'base64')];
      for (let got = chunks[0]!.length; got < first.totalBytes;) {
        const next = await read(got);
        if (next.manifestHash !== first.manifestHash) throw new Error('manifest changed while being read');
        const chunk = Buffer.from(next.bytesBase64, 'base64');
        if (chunk.length === 0) throw new Error('manifest chunk was empty');
        chunks.push(chunk);
        got += chunk.length;
      }
      return { status: 200, body: null, raw: Buffer.concat(chunks), headers: { ETag: etag, 'Content-Type': 'application/json' } };
    },
  };

  const serve = async (r: PublicRoute, input: RouteInput, ctx: { requestId: string; req: Request }): Promise<Reply> => {
    if ('composition' in r.call) return compositions[r.call.composition](r, input, ctx);
    const out = await rt.nats().request(r.call.subject, r.call.request(input), { requestId: ctx.requestId });
    const extra = r.call.reply?.(out) ?? {};
    return { status: extra.status ?? r.ok[0]!.status, body: out, headers: extra.headers };
  };

  const router = express.Router({ strict: false });
  // Any JSON value is parsed (`null` too), so that a well-formed body of the wrong shape is VALIDATION_FAILED, not MALFORMED_JSON.
  const json = express.json({ limit: BODY_LIMIT, type: () => true, strict: false });
  for (const r of publicRoutes) {
    const chain: express.RequestHandler[] = [];
    if (r.body) {
      chain.push((req, _res, next) => {
        const type = req.get('content-type');
        const hasBody =
          req.get('content-length') !== '0' && (req.get('content-length') !== undefined || req.get('transfer-encoding') !== undefined);
        if (hasBody && type !== undefined && !JSON_TYPE.test(type)) {
          return next(new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json.'));
        }
        next();
      }, json);
    }
    chain.push(async (req, res) => {
      try {
        const input: RouteInput = {
          params: parse(r.params, req.params),
          query: parse(r.query, req.query ?? {}),
          headers: parse(r.headers, headersOf(r.headers, req)),
          body: r.body ? parse(r.body, req.body) : undefined,
          bearer: null,
          caller: { apiKeyHash: null },
        };
        if (r.auth === 'key') input.caller = { apiKeyHash: keys.authenticate(bearerOf(req)) };
        if (r.auth === 'bearer') {
          input.bearer = bearerOf(req);
          input.caller = { apiKeyHash: input.bearer && keys.isKey(input.bearer) ? keys.authenticate(input.bearer) : null };
        }
        const out = await serve(r, input, { requestId: requestIdOf(res), req });
        for (const [k, v] of Object.entries(out.headers ?? {})) res.setHeader(k, v);
        res.status(out.status);
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

/** The headers a route declares, by their canonical names, read case-insensitively; absent ones omitted. */
function headersOf(schema: z.ZodObject | undefined, req: Request): Record<string, string> {
  if (!schema) return {};
  const out: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = req.get(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
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
