import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@lineage/schemas';
import type { Logger } from './logger';
import type { ServiceMetrics } from './metrics';
import type { Readiness } from './readiness';
import { ApiError, toWireError } from './errors';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A client-supplied request id is kept only if it is well formed; otherwise we mint one. */
export function acceptRequestId(value: unknown): string {
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : randomUUID();
}

export interface HttpAppOptions {
  logger: Logger;
  metrics: ServiceMetrics;
  readiness: Readiness;
  /** Trusted reverse-proxy hops in front of this process (for the client address). */
  trustProxy?: number;
}

export const requestIdOf = (res: Response): string => res.locals.requestId as string;
export const loggerOf = (res: Response): Logger => res.locals.log as Logger;

/** Express app with request ids, security headers, metrics, /health, /ready and /metrics. */
export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', opts.trustProxy ?? false);
  app.set('etag', false);
  app.use(helmet());

  app.use((req, res, next) => {
    const requestId = acceptRequestId(req.get('x-request-id'));
    res.locals.requestId = requestId;
    res.locals.log = opts.logger.child({ requestId });
    res.setHeader('X-Request-Id', requestId);
    next();
  });

  // Express answers 304 to any request it thinks fresh: `If-None-Match: *` made every JSON route answer 304 with
  // no body. Only a route that sets its own ETag serves conditional requests (the gateway's manifest); for the
  // rest, a request is never fresh.
  app.use((req, _res, next) => {
    Object.defineProperty(req, 'fresh', { value: false });
    next();
  });

  // Express answers OPTIONS by itself for any path it has a route for: 200, text/plain, `Allow: GET, HEAD`. No
  // service speaks CORS or OPTIONS, so it is what every other method a path lacks is: 404 NOT_FOUND.
  app.use((req, res, next) => {
    if (req.method === 'OPTIONS') return sendError(res, new ApiError('NOT_FOUND', 'No route matches this method and path.'));
    next();
  });

  // HTTP/1.1 requires a Host header (RFC 9112 §3.2). Node's own check (requireHostHeader) answers with a bare
  // 400 and no body, so `listen` turns it off and the refusal is made here, in the error envelope.
  app.use((req, res, next) => {
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
      return sendError(
        res,
        new ApiError('VALIDATION_FAILED', 'An HTTP/1.1 request needs a Host header.', [{ path: 'Host', issue: 'required' }]),
      );
    }
    next();
  });

  app.use((req, res, next) => {
    const end = opts.metrics.httpDuration.startTimer();
    res.on('finish', () => {
      // Route templates, never raw paths: bounded label cardinality.
      const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  });

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/ready', async (_req, res) => {
    const report = await opts.readiness.evaluate();
    opts.metrics.ready.set(report.status === 'ok' ? 1 : 0);
    res.status(report.status === 'ok' ? 200 : 503).json(report);
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', opts.metrics.registry.contentType);
    res.send(await opts.metrics.registry.metrics());
  });
  return app;
}

export function sendError(res: Response, err: unknown): void {
  const { wire, internal } = toWireError(err);
  const log = loggerOf(res);
  if (internal) log.error({ err }, 'unhandled error');
  else if (wire.code === 'SERVICE_UNAVAILABLE' || wire.code === 'UPSTREAM_TIMEOUT') log.warn({ code: wire.code }, 'upstream problem');
  if (err instanceof ApiError && err.headers) for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
  const body: ErrorBody = { error: { ...wire, requestId: requestIdOf(res) } };
  res.status(ERROR_STATUS[wire.code]).json(body);
}

/** JSON 404 for unknown routes, and the last-resort error handler (no stack traces, no echoes). */
export function finishHttpApp(app: Express): void {
  const notFound: RequestHandler = (_req, res) => sendError(res, new ApiError('NOT_FOUND', 'No route matches this method and path.'));
  app.use(notFound);
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    if (res.headersSent) return;
    sendError(res, requestBodyError(err) ?? err);
  };
  app.use(onError);
}

/**
 * body-parser's (and express's) client errors as the public vocabulary: they carry a known `type` or a 4xx
 * `status`. Null for anything else (an ApiError passes through; the rest is the caller's to report).
 */
export function requestBodyError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  const e = err as { type?: string; status?: number } | null;
  if (e?.type === 'entity.parse.failed') return new ApiError('MALFORMED_JSON', 'The request body is not valid JSON.');
  if (e?.type === 'entity.too.large' || e?.type === 'parameters.too.many')
    return new ApiError('PAYLOAD_TOO_LARGE', 'The request body exceeds the size limit.');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The request body encoding is not supported.');
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500)
    return new ApiError('VALIDATION_FAILED', 'The request could not be read.');
  return null;
}

export interface HttpServerHandle {
  server: Server;
  port: number;
  /** Stop accepting, let in-flight requests finish, then force-close what remains. */
  close(timeoutMs: number): Promise<void>;
}

/**
 * Requests Node's HTTP parser refuses before Express sees them (a request line and headers over the 16 KiB
 * limit, a malformed request line or header): answered with the API's error envelope instead of Node's bare
 * status line, with the code that status has in ERROR_STATUS. The connection is closed afterwards, as Node does.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node does: answer only if no response on this connection has started (keep-alive connections included).
  const inflight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inflight?.headersSent) {
    socket.destroy();
    return;
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    return;
  }
  const [code, reason, message]: [ErrorCode, string, string] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ['HEADERS_TOO_LARGE', 'Request Header Fields Too Large', 'The request line and headers exceed the size limit.']
      : err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
        ? ['PAYLOAD_TOO_LARGE', 'Payload Too Large', 'The request body exceeds the size limit.']
        : ['VALIDATION_FAILED', 'Bad Request', 'The request could not be read.'];
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { code, message, requestId } } satisfies ErrorBody);
  // A response to HEAD has no body (the client would read it as the next response). The parser failed before
  // the request was made, so the method is read from the bytes it failed on, which start with the request
  // line when the head arrived in one read (as heads this small do).
  const head = (err as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${ERROR_STATUS[code]} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  );
}

export function listen(app: Express, port: number, host = '0.0.0.0'): Promise<HttpServerHandle> {
  return new Promise((resolve, reject) => {
    const server = createServer({ requireHostHeader: false }, app);
    server.on('clientError', answerClientError);
    server.once('error', reject);
    server.listen(port, host);
    server.once('listening', () => {
      server.off('error', reject);
      server.keepAliveTimeout = 65_000; // longer than common load balancer idle timeouts
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        port: actual,
        close: (timeoutMs) =>
          new Promise<void>((done) => {
            const idle = setInterval(() => server.closeIdleConnections(), 250);
            const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
            server.close(() => {
              clearInterval(idle);
              clearTimeout(force);
              done();
            });
            server.closeIdleConnections();
          }),
      });
    });
  });
}
