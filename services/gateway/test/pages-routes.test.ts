// The page routes without a stack: headers, the rate limit as a page, a service that is down, bad input.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { ApiError, createLogger, type ServiceRuntime } from '@lineage/service-kit';
import { ApiKeys } from '../src/auth';
import { mountPages } from '../src/pages';
import { PAGE_CSP } from '../src/pages/layout';

function start(rateLimit: { enabled: boolean; perSecond: number; burst: number }): Promise<{ url: string; server: Server }> {
  const app = express();
  const log = createLogger('gateway-test', 'silent');
  app.use((_req, res, next) => {
    res.locals.requestId = 'req-1';
    res.locals.log = log;
    next();
  });
  const rt = {
    nats: () => {
      throw new ApiError('SERVICE_UNAVAILABLE', 'The message bus is not connected yet.');
    },
  } as unknown as ServiceRuntime;
  mountPages(app, rt, new ApiKeys([], false), { rateLimit });
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'NOT_FOUND' } });
  });
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }));
  });
}

describe('page routes', () => {
  it('serve pages with the CSP, a 503 page when a service is down, 400 pages for bad input', async () => {
    const { url, server } = await start({ enabled: false, perSecond: 1, burst: 1 });
    try {
      const home = await fetch(`${url}/`);
      expect(home.status).toBe(200);
      expect(home.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const down = await fetch(`${url}/cases/1`);
      expect(down.status).toBe(503);
      expect(await down.text()).toContain('<code class="error-code">SERVICE_UNAVAILABLE</code>');
      for (const p of ['/cases/x', '/cases?limit=1000', '/cases/1?strength=HUGE', '/analyses/1?x=1', '/search?q=']) {
        const res = await fetch(`${url}${p}`);
        expect([p, res.status]).toEqual([p, 400]);
        expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
      }
      // Unknown paths stay the API's JSON 404.
      expect((await fetch(`${url}/nope`)).headers.get('content-type')).toMatch(/^application\/json/);
    } finally {
      server.close();
    }
  });

  it('apply the rate limit to pages and their assets, as a 429 page with Retry-After', async () => {
    const { url, server } = await start({ enabled: true, perSecond: 0.001, burst: 2 });
    try {
      expect((await fetch(`${url}/`)).status).toBe(200);
      expect((await fetch(`${url}/assets/pages.css`)).status).toBe(200);
      const limited = await fetch(`${url}/`);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect(await limited.text()).toContain('<code class="error-code">RATE_LIMITED</code>');
    } finally {
      server.close();
    }
  });
});
