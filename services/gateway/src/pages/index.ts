// Server-rendered pages outside /api/v1: `/` (start an analysis), `/analyses/{id}` (its progress), `/cases`,
// `/cases/{id}` (the case page), `/search`, and their static files under `/assets`. Data comes over NATS
// through the API's own subjects and zod schemas; errors are pages with the API's codes and statuses.
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import type { z } from 'zod';
import { analysisApi, casesApi, fragmentApi, subjects, type SubjectDef } from '@lineage/schemas';
import { ApiError, requestBodyError, requestIdOf, toWireError, validationError, type ServiceRuntime } from '@lineage/service-kit';
import type { ApiKeys } from '../auth';
import { TokenBuckets } from '../rate-limit';
import { serveAsset } from './assets';
import { sendErrorPage, sendPage } from './layout';
import { casePage, casesPage, challengePage, homePage, progressPage, searchPage, type Outcome, type SideBySide } from './views';

export interface PagesOptions {
  /** The same limits as the API's (RATE_LIMIT_*); the pages have their own buckets per client address. */
  rateLimit: { enabled: boolean; perSecond: number; burst: number };
  /** PUBLIC_BASE_URL: the API's public origin in the verify recipe (else the request's own). */
  baseUrl?: string;
}

/** Side-by-side views on a case page, and the bounded time a page waits for optional parts. */
const FRAGMENTS = 3;
const CONTEXT_LINES = 3;
const OPTIONAL_TIMEOUT_MS = 4000;

export function mountPages(app: Express, rt: ServiceRuntime, keys: ApiKeys, opts: PagesOptions): void {
  const call = <D extends SubjectDef>(def: D, payload: z.input<D['request']>, res: Response, timeoutMs?: number) =>
    rt.nats().request(def, payload, { requestId: requestIdOf(res), ...(timeoutMs ? { timeoutMs } : {}) });
  /** A part of a page that may fail on its own (a fact, a fragment): its error is shown in place. */
  const settle = async <T>(p: Promise<T>): Promise<Outcome<T>> => {
    try {
      return { ok: true, value: await p };
    } catch (err) {
      return { ok: false, error: toWireError(err).wire };
    }
  };

  const router = express.Router({ strict: false });
  // Every page route (not unmatched paths, which stay the API's JSON 404) goes through the limiter first.
  const limited: RequestHandler[] = [];
  if (opts.rateLimit.enabled) {
    const buckets = new TokenBuckets(opts.rateLimit.perSecond, opts.rateLimit.burst);
    limited.push((req, res, next) => {
      const wait = buckets.take(req.ip ?? 'unknown');
      if (wait === 0) return next();
      sendErrorPage(res, new ApiError('RATE_LIMITED', 'Too many requests; retry later.', undefined, { 'Retry-After': String(wait) }));
    });
  }
  const page =
    (fn: (req: Request, res: Response) => Promise<void>): RequestHandler =>
    (req, res) => {
      fn(req, res).catch((err) => sendErrorPage(res, err));
    };
  const parse = <S extends z.ZodType>(schema: S, value: unknown): z.output<S> => {
    const r = schema.safeParse(value);
    if (!r.success) throw validationError(r.error);
    return r.data;
  };
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });

  router.get('/assets/:name', ...limited, (req, res) => {
    if (!serveAsset(req, res)) sendErrorPage(res, new ApiError('NOT_FOUND', 'No route matches this method and path.'));
  });

  router.get(
    '/',
    ...limited,
    page(async (_req, res) => sendPage(res, 200, homePage({ authRequired: keys.required }))),
  );

  router.post(
    '/analyses',
    ...limited,
    sameSite,
    form,
    page(async (req, res) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const text = (k: string) => (typeof b[k] === 'string' ? (b[k] as string).trim() : undefined);
      const side = (p: string) => ({ url: text(`${p}_url`) ?? '', ...(text(`${p}_ref`) ? { ref: text(`${p}_ref`) } : {}) });
      const input = { origin: side('origin'), target: side('target') };
      const checked = analysisApi.ValidateRequest.safeParse(input);
      if (!checked.success) {
        // The form again with what failed (field paths and issue names; never the values).
        return sendPage(res, 400, homePage({ authRequired: keys.required, error: toWireError(validationError(checked.error)).wire }));
      }
      const apiKey = text('api_key');
      const caller = { apiKeyHash: keys.authenticate(apiKey ? apiKey : null) };
      const { pair } = await call(subjects.analysis.validate, input, res);
      const out = await call(
        subjects.analysis.create,
        {
          body: {
            pair: {
              origin: { url: pair.origin.url, commit: pair.origin.commit },
              target: { url: pair.target.url, commit: pair.target.commit },
            },
          },
          idempotencyKey: null,
          caller,
        },
        res,
      );
      res.redirect(303, `/analyses/${out.analysis.id}`);
    }),
  );

  router.get(
    '/analyses/:id',
    ...limited,
    page(async (req, res) => {
      const { id } = parse(analysisApi.AnalysisIdParams, { id: req.params.id });
      noQuery(req);
      const { analysis } = await call(subjects.analysis.get, { id }, res);
      sendPage(res, 200, progressPage(analysis));
    }),
  );

  router.get(
    '/cases',
    ...limited,
    page(async (req, res) => {
      const q = parse(casesApi.CaseListQuery, req.query);
      const raw = req.query as Record<string, string>;
      const list = await call(subjects.cases.list, q, res);
      sendPage(res, 200, casesPage(list, { verdict: q.verdict, repository: q.repository, limit: raw.limit, cursor: q.cursor }));
    }),
  );

  router.get(
    '/search',
    ...limited,
    page(async (req, res) => {
      if (Object.keys(req.query).length === 0) return sendPage(res, 200, searchPage(undefined, null));
      const q = parse(casesApi.SearchQuery, req.query);
      const results = await call(subjects.cases.search, q, res);
      sendPage(res, 200, searchPage(q.q, results, (req.query as Record<string, string>).limit));
    }),
  );

  router.get(
    '/cases/:id',
    ...limited,
    page(async (req, res) => {
      const { id } = parse(casesApi.CaseIdParams, { id: req.params.id });
      const filters = parse(casesApi.EvidenceQuery, req.query);
      const rawQuery = req.query as Record<string, string>;
      const { case: report } = await call(subjects.cases.get, { id }, res);
      const [evidence, history] = await Promise.all([
        call(subjects.cases.evidence, { id, ...filters, limit: rawQuery.limit === undefined ? 50 : filters.limit }, res),
        settle(call(subjects.cases.evidence, { id, layer: 'HISTORY', limit: 100 }, res)),
      ]);
      // The strongest items located on both sides, code first: their text from the pipeline's cache.
      const located = report.highlights.filter((h) => h.origin && h.target);
      const picked = [...located.filter((h) => h.layer === 'CODE'), ...located.filter((h) => h.layer !== 'CODE')].slice(0, FRAGMENTS);
      const fragment = (item: (typeof picked)[number], side: 'origin' | 'target') => {
        const l = item[side]!;
        const from = Math.max(1, Math.max(1, l.startLine) - CONTEXT_LINES);
        const to = Math.min(Math.max(from, l.endLine) + CONTEXT_LINES, from + fragmentApi.FRAGMENT_MAX_LINES - 1);
        const req = { analysisId: report.analysisId, side, path: l.path, startLine: from, endLine: to };
        if (!fragmentApi.FragmentRequest.safeParse(req).success) {
          return Promise.resolve<Outcome<never>>({
            ok: false,
            error: { code: 'VALIDATION_FAILED', message: 'The location cannot be read as a file path and line range.' },
          });
        }
        return settle(call(subjects.analysis.fragment, req, res, OPTIONAL_TIMEOUT_MS));
      };
      const factKey = report.factKey;
      const [fragments, projection, chain] = await Promise.all([
        Promise.all(
          picked.map(async (item): Promise<SideBySide> => {
            const [origin, target] = await Promise.all([fragment(item, 'origin'), fragment(item, 'target')]);
            return { item, origin, target };
          }),
        ),
        // The API's own subject for `GET /facts/{factKey}`, once from the projection and once read from the chain.
        factKey
          ? settle(call(subjects.facts.read, { factKey, source: 'projection' }, res, OPTIONAL_TIMEOUT_MS).then(projectionReply))
          : Promise.resolve(null),
        factKey
          ? settle(call(subjects.facts.read, { factKey, source: 'chain' }, res, OPTIONAL_TIMEOUT_MS).then(chainReply))
          : Promise.resolve(null),
      ]);
      const base = opts.baseUrl ? opts.baseUrl.replace(/\/+$/, '') : `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      sendPage(
        res,
        200,
        casePage({
          report,
          evidence,
          signals: history.ok ? history.value.items : [],
          filters: {
            layer: filters.layer,
            strength: filters.strength,
            kind: filters.kind,
            path: filters.path,
            limit: rawQuery.limit,
            cursor: filters.cursor,
          },
          fragments,
          fact: { projection, chain },
          caseApiUrl: `${base}/api/v1/cases/${report.id}`,
        }),
      );
    }),
  );

  router.post(
    '/cases/:id/challenge',
    ...limited,
    sameSite,
    form,
    page(async (req, res) => {
      const { id } = parse(casesApi.CaseIdParams, { id: req.params.id });
      const b = (req.body ?? {}) as Record<string, unknown>;
      const body = {
        challenger: b.challenger,
        rationale: b.rationale,
        ...(typeof b.evidenceDigest === 'string' && b.evidenceDigest !== '' ? { evidenceDigest: b.evidenceDigest } : {}),
      };
      const checked = casesApi.ChallengePreparationRequest.safeParse(body);
      if (!checked.success) throw validationError(checked.error, ['body']);
      const prep = await call(subjects.cases.challengePrepare, { id, body: checked.data }, res);
      sendPage(res, 200, challengePage({ id }, prep));
    }),
  );

  // A form post from another site is refused before anything is parsed.
  function sameSite(req: Request, res: Response, next: () => void): void {
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const host = req.get('host');
    let cross = site !== undefined && site !== 'same-origin' && site !== 'none';
    if (!cross && origin !== undefined) {
      try {
        cross = origin === 'null' || new URL(origin).host !== host;
      } catch {
        cross = true;
      }
    }
    if (cross) return sendErrorPage(res, new ApiError('FORBIDDEN', "Forms are accepted from this site's own pages only."));
    next();
  }

  // Body-parser's errors on a page route are pages too (the API's envelope is for /api).
  router.use((err: unknown, _req: Request, res: Response, next: (e?: unknown) => void) => {
    if (res.headersSent) return next(err);
    sendErrorPage(res, requestBodyError(err) ?? err);
  });

  app.use(router);
}

type FactRead = z.output<typeof subjects.facts.read.response>;
/** `facts.read` answers the projection's shape or the chain's, by the `source` asked for. */
function projectionReply(r: FactRead): Extract<FactRead, { fact: unknown }> {
  if ('fact' in r) return r;
  throw new Error('facts.read answered a chain read for source=projection');
}
function chainReply(r: FactRead): Exclude<FactRead, { fact: unknown }> {
  if (!('fact' in r)) return r;
  throw new Error('facts.read answered the projection for source=chain');
}

/** A page that takes no query parameters refuses any, as the API does. */
function noQuery(req: Request): void {
  const keys = Object.keys(req.query ?? {});
  if (keys.length)
    throw new ApiError(
      'VALIDATION_FAILED',
      'The request failed validation.',
      keys
        .filter((k) => /^[A-Za-z_$][A-Za-z0-9_$-]{0,63}$/.test(k))
        .slice(0, 10)
        .map((k) => ({ path: k, issue: 'unrecognized_key' })),
    );
}
