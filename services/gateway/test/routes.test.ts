// The gateway's router in-process, with NATS replaced by a recorder: what reaches a service, and what the
// gateway answers by itself (validation, content types, oversized heads).
import { connect } from 'node:net';
import {
  createHttpApp,
  createLogger,
  createMetrics,
  finishHttpApp,
  listen,
  Readiness,
  type HttpServerHandle,
  type ServiceRuntime,
} from '@lineage/service-kit';
import { publicRoutes, API_BASE } from '@lineage/schemas';
import { noneMatch, registerRoutes } from '../src/routes';
import { ApiKeys } from '../src/auth';

const sent: { subject: string; payload: unknown }[] = [];
/** Replies that satisfy each subject's response schema well enough for the routes under test. */
const analysis = {
  id: '5',
  state: 'queued',
  pair: {
    origin: { url: 'https://github.com/a/b', commit: 'a'.repeat(40) },
    target: { url: 'https://github.com/c/d', commit: 'b'.repeat(40) },
  },
  engineVersion: 'x',
  stages: [],
  caseId: null,
  manifestHash: null,
  error: null,
  createdAt: '1',
  updatedAt: '1',
};
const replies: Record<string, unknown> = {
  'lineage.analysis.create': { analysis, cancelToken: 't', created: true },
  'lineage.analysis.cancel': { id: '5', state: 'cancelled' },
  'lineage.analysis.get': { analysis },
  'lineage.facts.protocol': {
    chainId: null,
    registryAddress: null,
    outcomes: [],
    eventKinds: [],
    indexer: { headBlock: null, finalizedBlock: null, indexedBlock: null, lagBlocks: null, writer: false, state: 'idle', halted: null },
  },
};
const fakeNats = {
  async request(def: { subject: string; response: { parse(v: unknown): unknown } }, payload: unknown) {
    sent.push({ subject: def.subject, payload });
    const reply = replies[def.subject];
    if (reply === undefined) throw Object.assign(new Error('no reply configured'), { subject: def.subject });
    return def.response.parse(reply);
  },
};

let server: HttpServerHandle;
let base: string;
beforeAll(async () => {
  const app = createHttpApp({
    logger: createLogger('gateway-test', 'silent'),
    metrics: createMetrics('gateway-test'),
    readiness: new Readiness(),
  });
  const rt = { nats: () => fakeNats } as unknown as ServiceRuntime;
  registerRoutes(app, rt, new ApiKeys([], false), { version: 'test' });
  finishHttpApp(app);
  server = await listen(app, 0, '127.0.0.1');
  base = `http://127.0.0.1:${server.port}${API_BASE}`;
});
afterAll(async () => {
  await server?.close(1000);
});
beforeEach(() => {
  sent.length = 0;
});

const post = (path: string, body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${base}${path}`, { method: 'POST', headers, body });
async function error(res: Response) {
  const body = (await res.json()) as { error: { code: string; fields?: { path: string; issue: string }[] } };
  return { status: res.status, code: body.error.code, fields: body.error.fields };
}
const rawRequest = (bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.on('data', (d) => (out += d));
    socket.on('end', () => resolve(out));
    socket.on('error', reject);
  });
const pair = {
  origin: { url: 'https://github.com/a/b', commit: 'a'.repeat(40) },
  target: { url: 'https://github.com/c/d', commit: 'b'.repeat(40) },
};

describe('bodies', () => {
  it.each(['null', '42', '"text"', '[]', 'true'])('a JSON body of %s is VALIDATION_FAILED at (root), not MALFORMED_JSON', async (text) => {
    expect(await error(await post('/analyses', text))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: [{ path: '(root)', issue: 'invalid_type' }],
    });
    expect(sent).toEqual([]);
  });
  it('text that is not JSON is MALFORMED_JSON; an empty body is a missing field', async () => {
    expect((await error(await post('/analyses', '{"pair":'))).code).toBe('MALFORMED_JSON');
    expect(await error(await post('/analyses', ''))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: [{ path: 'pair', issue: 'required' }],
    });
  });
  it('unknown keys are named by path, values never', async () => {
    const res = await post(
      '/analyses',
      JSON.stringify({ pair: { ...pair, origin: { ...pair.origin, extra: 'zq-value-1' } }, bogusKey: 'zq-value-2' }),
    );
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(JSON.parse(text).error.fields).toEqual([
      { path: 'pair.origin.extra', issue: 'unrecognized_key' },
      { path: 'bogusKey', issue: 'unrecognized_key' },
    ]);
    expect(text).not.toContain('zq-value');
  });
  it('content types: application/json with parameters passes, look-alikes are 415', async () => {
    expect((await post('/analyses', JSON.stringify({ pair }), { 'content-type': 'application/json; charset=utf-8' })).status).toBe(202);
    expect((await post('/analyses', JSON.stringify({ pair }), { 'content-type': 'Application/JSON' })).status).toBe(202);
    for (const type of ['application/json-seq', 'application/jsonx', 'text/plain', 'application/x-www-form-urlencoded']) {
      expect(await error(await post('/analyses', JSON.stringify({ pair }), { 'content-type': type }))).toEqual({
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        fields: undefined,
      });
    }
    expect((await error(await post('/analyses', '{}', { 'content-type': 'application/json; charset=latin1' }))).status).toBe(415);
  });
  it('Idempotency-Key: a valid one travels with the request, a malformed one is named and never echoed', async () => {
    const ok = await post('/analyses', JSON.stringify({ pair }), { 'content-type': 'application/json', 'idempotency-key': 'k-1' });
    expect(ok.status).toBe(202);
    expect(ok.headers.get('location')).toBe('/api/v1/analyses/5');
    expect(sent.map((s) => (s.payload as { idempotencyKey: unknown }).idempotencyKey)).toEqual(['k-1']);
    const res = await post('/analyses', JSON.stringify({ pair }), { 'content-type': 'application/json', 'idempotency-key': 'zq secret' });
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(JSON.parse(text).error.fields).toEqual([{ path: 'Idempotency-Key', issue: expect.any(String) }]);
    expect(text).not.toContain('zq');
    expect(sent).toHaveLength(1);
  });
  it('cancel takes no body or {} and refuses anything else', async () => {
    const auth = { authorization: 'Bearer t' };
    expect((await fetch(`${base}/analyses/5/cancel`, { method: 'POST', headers: auth })).status).toBe(202);
    expect((await post('/analyses/5/cancel', '{}', { ...auth, 'content-type': 'application/json' })).status).toBe(202);
    expect(await error(await post('/analyses/5/cancel', '{"force":true}', { ...auth, 'content-type': 'application/json' }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: [{ path: 'force', issue: 'unrecognized_key' }],
    });
    expect((await error(await post('/analyses/5/cancel', 'x', { ...auth, 'content-type': 'text/plain' }))).status).toBe(415);
    expect(sent.map((s) => s.subject)).toEqual(['lineage.analysis.cancel', 'lineage.analysis.cancel']);
  });
});

describe('queries and ids', () => {
  it('a route without query parameters refuses any, by name', async () => {
    expect(await error(await fetch(`${base}/protocol?verbose=1`))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: [{ path: 'verbose', issue: 'unrecognized_key' }],
    });
    expect((await fetch(`${base}/protocol`)).status).toBe(200);
    expect(await error(await fetch(`${base}/analyses/5?x=1`))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: [{ path: 'x', issue: 'unrecognized_key' }],
    });
  });
  it('an id beyond uint256 is malformed; one beyond bigint goes to the store, which owns that range', async () => {
    expect(await error(await fetch(`${base}/analyses/${2n ** 256n}`))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: [{ path: 'id', issue: 'too_big' }],
    });
    expect((await fetch(`${base}/analyses/${2n ** 63n}`)).status).toBe(200); // the fake store has it; the real one answers 404
    expect(sent).toEqual([{ subject: 'lineage.analysis.get', payload: { id: String(2n ** 63n) } }]);
  });
});

describe('methods', () => {
  it("OPTIONS is what any method a path lacks is: 404 NOT_FOUND in the envelope (not Express's text/plain 200)", async () => {
    const res = await fetch(`${base}/cases`, { method: 'OPTIONS' });
    expect(res.status).toBe(404);
    expect(res.headers.get('allow')).toBeNull();
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
  it('HEAD answers like GET, without a body', async () => {
    const res = await fetch(`${base}/protocol`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('conditional requests', () => {
  it('If-None-Match: * does not turn a JSON answer into an empty 304', async () => {
    const res = await fetch(`${base}/protocol`, { headers: { 'if-none-match': '*' } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { indexer: unknown }).indexer).toBeDefined();
  });
  it('the manifest matches a list of entity tags, weak ones and *', () => {
    const etag = '"0xab"';
    expect(noneMatch(undefined, etag)).toBe(false);
    expect(noneMatch('"0xcd"', etag)).toBe(false);
    expect(noneMatch('"0xcd", W/"0xab"', etag)).toBe(true);
    expect(noneMatch(' * ', etag)).toBe(true);
    expect(noneMatch('"0xab"', etag)).toBe(true);
  });
});

describe('what the HTTP server refuses before routing', () => {
  it('a request head over 16 KiB is 431 HEADERS_TOO_LARGE with the error envelope', async () => {
    const res = await fetch(`${base}/cases?repository=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    const body = (await res.json()) as { error: { code: string; requestId: string } };
    expect(body.error.code).toBe('HEADERS_TOO_LARGE');
    expect(body.error.requestId).toBe(res.headers.get('x-request-id'));
  });
  it('to HEAD, the 431 has no body (the client would read one as the next response)', async () => {
    const raw = await rawRequest(`HEAD /api/v1/cases HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\n`);
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw.endsWith('\r\n\r\n')).toBe(true);
  });
  it("an HTTP/1.1 request without Host is 400 in the error envelope (not Node's bare 400)", async () => {
    const raw = await rawRequest('GET /api/v1/protocol HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: [{ path: 'Host', issue: 'required' }],
    });
    expect(await rawRequest('GET /api/v1/protocol HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });
  it('a malformed request line is 400 VALIDATION_FAILED with the error envelope', async () => {
    const raw = await rawRequest('GET /api/v1/cases\x01 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)).error.code).toBe('VALIDATION_FAILED');
  });
});

describe('the route list', () => {
  it('every public route is served (none falls through to the 404 of unknown routes)', async () => {
    for (const r of publicRoutes) {
      const path = r.path.slice(API_BASE.length).replace(/\{\w+\}/g, '1');
      const res = r.method === 'post' ? await post(path, '{}') : await fetch(`${base}${path}`);
      const body = await res.text();
      expect({ route: `${r.method} ${r.path}`, notFound: res.status === 404 && body.includes('"NOT_FOUND"') }).toEqual({
        route: `${r.method} ${r.path}`,
        notFound: false,
      });
    }
  });
  it('each route asks the subject its table entry names, with the path parameters and query it was given', async () => {
    for (const r of publicRoutes) {
      if (!('subject' in r.call) || r.method !== 'get') continue;
      sent.length = 0;
      const path = r.path.slice(API_BASE.length).replace(/\{\w+\}/g, '7');
      await fetch(`${base}${path}${r.path.endsWith('/search') ? '?q=abc' : ''}`);
      expect({ route: r.path, subjects: sent.map((s) => s.subject) }).toEqual({ route: r.path, subjects: [r.call.subject.subject] });
      const payload = sent[0]!.payload as Record<string, unknown>;
      for (const name of Object.keys(r.params?.shape ?? {})) expect(payload[name]).toBe('7');
    }
  });
});
