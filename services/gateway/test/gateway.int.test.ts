// The gateway alone against a real NATS: rate limiting and API-key auth on write routes.
import { createHash } from 'node:crypto';
import { freePort, startNats, startService, waitReady, type Proc } from '../../../test/support/processes';
import { json } from '../../../test/support/http';

const KEY = 'lk_integration_key';
let nats: Awaited<ReturnType<typeof startNats>>;
let gateway: Proc;
let api: string;

beforeAll(async () => {
  nats = await startNats();
  const port = await freePort();
  gateway = startService('gateway', {
    NATS_URL: nats.url,
    HTTP_PORT: String(port),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ENABLED: 'true',
    RATE_LIMIT_PER_SECOND: '0.5',
    RATE_LIMIT_BURST: '3',
    AUTH_REQUIRED: 'true',
    API_KEY_HASHES: createHash('sha256').update(KEY).digest('hex'),
    NATS_REQUEST_TIMEOUT_MS: '500',
  });
  await waitReady(port);
  api = `http://127.0.0.1:${port}/api/v1`;
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
  await nats?.stop();
});

it('write routes need a valid API key when auth is required; reads do not', async () => {
  const body = JSON.stringify({ origin: { url: 'a/b' }, target: { url: 'c/d' } });
  const headers = { 'content-type': 'application/json' };
  const none = await fetch(`${api}/repositories/validate`, { method: 'POST', headers, body });
  expect(none.status).toBe(401);
  expect((await json(none)).error.code).toBe('UNAUTHENTICATED');
  const wrong = await fetch(`${api}/repositories/validate`, {
    method: 'POST',
    headers: { ...headers, authorization: 'Bearer not-the-key' },
    body,
  });
  expect(wrong.status).toBe(401);
  // With the key the request passes auth and reaches the bus, where no pipeline is running.
  const ok = await fetch(`${api}/repositories/validate`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${KEY}` }, body });
  expect(ok.status).toBe(503);
  expect((await json(ok)).error.code).toBe('SERVICE_UNAVAILABLE');
});

it('limits each client with a token bucket and says when to retry', async () => {
  let limited: Response | undefined;
  for (let i = 0; i < 10 && !limited; i++) {
    const res = await fetch(`${api}/cases`);
    if (res.status === 429) limited = res;
    else expect(res.status).toBe(503); // no case-store on this bus
  }
  expect(limited).toBeDefined();
  expect((await json(limited!)).error.code).toBe('RATE_LIMITED');
  expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  // Probes are never limited.
  expect((await fetch(api.replace('/api/v1', '/health'))).status).toBe(200);
});
