// Every public route through the gateway, with all five services running as processes.
import { validate as validateOpenApi } from './openapi-validate';
import { publicRoutes } from '@lineage/schemas';
import { startStack, type Stack } from '../support/stack';
import { SERVICES } from '../support/processes';
import { json } from '../support/http';

let stack: Stack;
beforeAll(async () => {
  // API-only pipeline: these tests exercise the routes, so nothing should pick the jobs up.
  stack = await startStack({ extraEnv: { 'analysis-pipeline': { WORKER_CONCURRENCY: '0' } } });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
}, 60_000);

const UNIQUE = 'zq-unique-7f3a9c1e-value';
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${stack.api}${path}`, { headers });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function expectError(res: Response, status: number, code: string) {
  const text = await res.text();
  expect(res.status).toBe(status);
  const body = JSON.parse(text);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  expect(body.error.requestId).toBe(res.headers.get('x-request-id'));
  expect(text).not.toContain(UNIQUE);
  expect(text).not.toMatch(/\bat .*\.(js|ts):\d+/); // no stack frames
  return body.error as { code: string; fields?: { path: string; issue: string }[] };
}

describe('probes', () => {
  it('every service is live and ready', async () => {
    for (const s of SERVICES) {
      const h = await fetch(`http://127.0.0.1:${stack.ports[s]}/health`);
      expect(h.status).toBe(200);
      const r = await fetch(`http://127.0.0.1:${stack.ports[s]}/ready`);
      expect(r.status).toBe(200);
      const body = await json(r);
      expect(body.checks.nats.ok).toBe(true);
      const m = await fetch(`http://127.0.0.1:${stack.ports[s]}/metrics`);
      expect(await m.text()).toContain('http_request_duration_seconds');
    }
  });
});

describe('error model', () => {
  it('malformed JSON', async () => {
    await expectError(await post('/analyses', '{"pair": ' + UNIQUE), 400, 'MALFORMED_JSON');
  });
  it('oversized body', async () => {
    await expectError(await post('/analyses', { pad: UNIQUE + 'x'.repeat(70 * 1024) }), 413, 'PAYLOAD_TOO_LARGE');
  });
  it('unknown route is a JSON 404', async () => {
    await expectError(await get('/no-such-route'), 404, 'NOT_FOUND');
    await expectError(await fetch(`http://127.0.0.1:${stack.ports.gateway}/elsewhere`), 404, 'NOT_FOUND');
  });
  it('unknown ids', async () => {
    await expectError(await get('/analyses/987654'), 404, 'ANALYSIS_NOT_FOUND');
    await expectError(await get('/analyses/987654/manifest'), 404, 'ANALYSIS_NOT_FOUND');
    await expectError(await get('/cases/987654'), 404, 'CASE_NOT_FOUND');
    await expectError(await get('/cases/987654/evidence'), 404, 'CASE_NOT_FOUND');
    await expectError(
      await post('/cases/987654/challenge-preparation', {
        challenger: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        rationale: 'the evidence is wrong here',
      }),
      404,
      'CASE_NOT_FOUND',
    );
    await expectError(await get('/facts/123456789'), 404, 'FACT_NOT_FOUND');
    await expectError(await get('/resolutions/42'), 404, 'RESOLUTION_NOT_FOUND');
  });
  it('ids beyond what a store holds are not found, never a 500; beyond uint256 they are malformed', async () => {
    // 2^63 is past PostgreSQL's bigint (analyses and cases); 2^256 − 1 is the largest uint256 (fact keys, resolutions).
    const bigint = '9223372036854775808';
    const uint256 = (2n ** 256n - 1n).toString();
    const challenge = { challenger: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', rationale: 'the evidence is wrong here' };
    for (const id of [bigint, '18446744073709551616', uint256]) {
      await expectError(await get(`/analyses/${id}`), 404, 'ANALYSIS_NOT_FOUND');
      await expectError(await get(`/analyses/${id}/manifest`), 404, 'ANALYSIS_NOT_FOUND');
      await expectError(await post(`/analyses/${id}/cancel`, {}, { authorization: 'Bearer some-token' }), 404, 'ANALYSIS_NOT_FOUND');
      await expectError(await get(`/cases/${id}`), 404, 'CASE_NOT_FOUND');
      await expectError(await get(`/cases/${id}/evidence`), 404, 'CASE_NOT_FOUND');
      await expectError(await post(`/cases/${id}/challenge-preparation`, challenge), 404, 'CASE_NOT_FOUND');
      await expectError(await get(`/facts/${id}`), 404, 'FACT_NOT_FOUND');
      await expectError(await get(`/resolutions/${id}`), 404, 'RESOLUTION_NOT_FOUND');
      expect((await get(`/search?q=${id}`)).status).toBe(200);
    }
    const over = (2n ** 256n).toString();
    for (const path of [
      `/analyses/${over}`,
      `/cases/${over}`,
      `/facts/${over}`,
      `/facts/${over}?source=chain`,
      `/resolutions/${over}`,
      `/facts?minBlock=${over}`,
    ]) {
      const e = await expectError(await get(path), 400, 'VALIDATION_FAILED');
      expect(e.fields![0]!.issue).toBe('too_big');
    }
  });
  it('a JSON null body is a validation failure at the root, not malformed JSON', async () => {
    const e = await expectError(await post('/analyses', 'null'), 400, 'VALIDATION_FAILED');
    expect(e.fields).toEqual([{ path: '(root)', issue: 'invalid_type' }]);
  });
  it('unknown keys and query parameters are named; their values are not echoed', async () => {
    const e = await expectError(
      await post('/repositories/validate', { origin: { url: 'a/b' }, target: { url: 'c/d' }, bogusKey: UNIQUE }),
      400,
      'VALIDATION_FAILED',
    );
    expect(e.fields).toEqual([{ path: 'bogusKey', issue: 'unrecognized_key' }]);
    const q = await expectError(await get(`/protocol?verbose=${UNIQUE}`), 400, 'VALIDATION_FAILED');
    expect(q.fields).toEqual([{ path: 'verbose', issue: 'unrecognized_key' }]);
  });
  it('control characters in search text are refused, not sent to PostgreSQL', async () => {
    for (const path of ['/search?q=a%00b', '/cases?repository=%00', '/cases/1/evidence?path=src%00']) {
      const e = await expectError(await get(path), 400, 'VALIDATION_FAILED');
      expect(e.fields![0]!.issue).toBe('invalid_text');
    }
  });
  it('a request head over 16 KiB is 431 in the error envelope', async () => {
    await expectError(await get(`/search?q=${UNIQUE}${'x'.repeat(20_000)}`), 431, 'HEADERS_TOO_LARGE');
  });
  it('schema violations name the fields and never echo the value', async () => {
    const e = await expectError(
      await post('/analyses', { pair: { origin: { url: UNIQUE, commit: UNIQUE }, target: { url: 'a/b' } } }),
      400,
      'VALIDATION_FAILED',
    );
    const paths = e.fields!.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['pair.origin.commit', 'pair.target.commit']));
    await expectError(await get(`/cases/${UNIQUE}`), 400, 'VALIDATION_FAILED');
    await expectError(await get(`/cases?verdict=${UNIQUE}`), 400, 'VALIDATION_FAILED');
    await expectError(await get(`/facts?outcome=${UNIQUE}`), 400, 'VALIDATION_FAILED');
    await expectError(await get(`/facts?fresh=${UNIQUE}`), 400, 'VALIDATION_FAILED');
    await expectError(
      await post('/repositories/validate', { origin: { url: UNIQUE }, target: { url: 'a/b', ref: '--upload-pack=x' } }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(await post('/cases/1/challenge-preparation', { challenger: UNIQUE, rationale: 'short' }), 400, 'VALIDATION_FAILED');
  });
  it('page size bounds and forged cursors', async () => {
    for (const q of ['limit=0', 'limit=101', 'limit=abc']) await expectError(await get(`/cases?${q}`), 400, 'VALIDATION_FAILED');
    await expectError(await get('/facts?limit=1000'), 400, 'VALIDATION_FAILED');
    const e = await expectError(
      await get(`/cases?cursor=${Buffer.from('{"id":"1"}').toString('base64url')}AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`),
      400,
      'VALIDATION_FAILED',
    );
    expect(e.fields).toEqual([{ path: 'cursor', issue: 'invalid_cursor' }]);
    await expectError(await get('/activity?cursor=not-a-real-cursor-value'), 400, 'VALIDATION_FAILED');
  });
  it('a non-JSON body is refused', async () => {
    const res = await fetch(`${stack.api}/analyses`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: UNIQUE });
    await expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('empty stores answer with empty pages', () => {
  it.each([
    '/cases',
    '/search?q=example',
    '/facts',
    '/facts?outcome=TRUE&fresh=true&limit=5',
    '/policies',
    '/templates',
    '/activity',
    '/activity?kind=FactAsserted',
  ])('%s', async (path) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.items).toEqual([]);
    expect(body.nextCursor).toBeNull();
  });
  it('evidence of a missing case is a 404, search by verdict is empty', async () => {
    const res = await get('/search?q=heavily_derived');
    expect((await json(res)).items).toEqual([]);
  });
  it('protocol and chain contract describe an unconfigured chain', async () => {
    const p = await json(await get('/protocol'));
    expect(p.outcomes).toEqual(['TRUE', 'FALSE', 'UNDETERMINED']);
    expect(p.indexer.indexedBlock).toBeNull();
    const c = await json(await get('/chain/contract'));
    expect(c.status).toBe('unconfigured');
    await expectError(await get('/facts/1?source=chain'), 503, 'CHAIN_UNAVAILABLE');
  });
});

describe('analyses', () => {
  const pair = {
    origin: { url: 'https://github.com/example/origin', commit: 'a'.repeat(40) },
    target: { url: 'example/target', commit: 'b'.repeat(40) },
  };
  it('creates once, deduplicates, cancels with its token only', async () => {
    const first = await post('/analyses', { pair });
    expect(first.status).toBe(202);
    const created = await json(first);
    expect(first.headers.get('location')).toBe(`/api/v1/analyses/${created.analysis.id}`);
    expect(created.analysis.state).toBe('queued');
    expect(created.analysis.pair.target.url).toBe('https://github.com/example/target');
    expect(created.analysis.stages.map((s: { name: string }) => s.name)).toEqual([
      'resolve',
      'fetch',
      'inventory',
      'fingerprint',
      'history',
      'compare',
      'decide',
      'manifest',
      'publish',
    ]);
    expect(typeof created.cancelToken).toBe('string');

    const again = await post('/analyses', { pair });
    expect(again.status).toBe(200);
    const dup = await json(again);
    expect(dup.analysis.id).toBe(created.analysis.id);
    expect(dup.cancelToken).toBeNull();

    const id = created.analysis.id;
    expect((await json(await get(`/analyses/${id}`))).analysis.state).toBe('queued');
    await expectError(await get(`/analyses/${id}/manifest`), 409, 'MANIFEST_NOT_READY');
    await expectError(await post(`/analyses/${id}/cancel`, {}), 401, 'UNAUTHENTICATED');
    await expectError(await post(`/analyses/${id}/cancel`, {}, { authorization: 'Bearer wrong-token' }), 403, 'FORBIDDEN');
    const cancel = await post(`/analyses/${id}/cancel`, {}, { authorization: `Bearer ${created.cancelToken}` });
    expect(cancel.status).toBe(202);
    expect(await json(cancel)).toEqual({ id, state: 'cancelled' });
    const twice = await post(`/analyses/${id}/cancel`, {}, { authorization: `Bearer ${created.cancelToken}` });
    expect((await json(twice)).state).toBe('cancelled');
    // A cancelled analysis will never have a manifest: not "not ready", but a code of its own.
    const gone = await expectError(await get(`/analyses/${id}/manifest`), 409, 'ANALYSIS_CANCELLED');
    expect(gone.fields).toBeUndefined();
  });
  it('Idempotency-Key replays the first response and refuses a different body', async () => {
    const other = { ...pair, target: { ...pair.target, commit: 'c'.repeat(40) } };
    const a = await json(await post('/analyses', { pair: other }, { 'idempotency-key': 'k-1' }));
    const b = await json(await post('/analyses', { pair: other }, { 'idempotency-key': 'k-1' }));
    expect(b).toEqual(a);
    expect(a.cancelToken).toEqual(expect.any(String));
    const third = { ...pair, target: { ...pair.target, commit: 'd'.repeat(40) } };
    await expectError(await post('/analyses', { pair: third }, { 'idempotency-key': 'k-1' }), 400, 'VALIDATION_FAILED');
  });
  it('the same repository on both sides is refused', async () => {
    await expectError(
      await post('/analyses', {
        pair: { origin: pair.origin, target: { url: 'https://github.com/example/origin.git', commit: 'a'.repeat(40) } },
      }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('request ids and the API description', () => {
  it('a client request id is returned and logged by the service that handled the NATS hop', async () => {
    const rid = 'e2e-rid-' + Date.now();
    const res = await get('/cases/424242', { 'x-request-id': rid });
    expect(res.headers.get('x-request-id')).toBe(rid);
    expect((await json(res)).error.requestId).toBe(rid);
    await new Promise((r) => setTimeout(r, 200));
    const lines = stack.procs['case-store']
      .output()
      .split('\n')
      .filter((l) => l.includes(rid));
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.parse(lines[0]!).subject).toBe('lineage.cases.get');
  });
  it('a malformed request id is replaced', async () => {
    const res = await get('/cases', { 'x-request-id': 'bad id with spaces' });
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
  it('serves a valid OpenAPI 3.1 document listing every route', async () => {
    const doc = await json(await get('/openapi.json'));
    expect(doc.openapi).toBe('3.1.0');
    const result = await validateOpenApi(doc);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    for (const r of publicRoutes) expect(doc.paths[r.path]?.[r.method]).toBeDefined();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health', '/ready']));
  });
  it('sets security headers', async () => {
    const res = await get('/cases');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
  });
});
