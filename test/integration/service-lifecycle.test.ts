// Readiness follows the NATS connection; queue groups share load and survive a
// replica's death; SIGTERM lets in-flight work finish. Real nats-server processes.
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import { subjects } from '@lineage/schemas';
import { json } from '../support/http';
import { freePort, sleep, startNats, startService, waitFor, waitReady, type Proc } from '../support/processes';

const readyStatus = async (port: number) => (await fetch(`http://127.0.0.1:${port}/ready`)).status;
const handled = async (port: number, subject: string) => {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('nats_handled_requests_total') && l.includes(`subject="${subject}"`) && l.includes('outcome="ok"'));
  return line ? Number(line.trim().split(' ').pop()) : 0;
};

describe('readiness follows NATS', () => {
  it('turns 503 when NATS goes away and 200 when it returns', async () => {
    const nats = await startNats();
    const port = await freePort();
    const svc = startService('chain-reader', { NATS_URL: nats.url, HTTP_PORT: String(port), LOG_LEVEL: 'warn' });
    let again: Awaited<ReturnType<typeof startNats>> | null = null;
    try {
      await waitReady(port);
      await nats.stop();
      // Requirement: 503 within 5 s of losing NATS.
      await waitFor('readiness 503', async () => (await readyStatus(port)) === 503, 5_000);
      const body = await json(await fetch(`http://127.0.0.1:${port}/ready`));
      expect(body.checks.nats.ok).toBe(false);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      again = await startNats(nats.port);
      await waitFor('readiness 200 again', async () => (await readyStatus(port)) === 200, 15_000);
    } finally {
      await svc.stop();
      await again?.stop();
    }
  }, 60_000);
});

describe('queue groups', () => {
  let nats: Awaited<ReturnType<typeof startNats>>;
  let nc: NatsConnection;
  const replicas: { proc: Proc; port: number }[] = [];
  beforeAll(async () => {
    nats = await startNats();
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      replicas.push({ port, proc: startService('chain-reader', { NATS_URL: nats.url, HTTP_PORT: String(port), LOG_LEVEL: 'warn' }) });
    }
    await Promise.all(replicas.map((r) => waitReady(r.port)));
    nc = await connect({ servers: nats.url });
  }, 60_000);
  afterAll(async () => {
    await nc?.close();
    await Promise.all(replicas.map((r) => r.proc.stop()));
    await nats?.stop();
  });

  const ask = async () => {
    const msg = await nc.request(subjects.chain.contract.subject, '{}', { timeout: 3000 });
    return msg.json<{ ok: boolean; result: { status: string } }>();
  };

  it('both replicas take traffic, and one dying loses nothing the other can serve', async () => {
    for (let i = 0; i < 60; i++) expect((await ask()).ok).toBe(true);
    const a = await handled(replicas[0]!.port, subjects.chain.contract.subject);
    const b = await handled(replicas[1]!.port, subjects.chain.contract.subject);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
    expect(a + b).toBe(60);

    replicas[0]!.proc.child.kill('SIGKILL');
    await waitFor('replica exit', async () => replicas[0]!.proc.child.exitCode !== null || replicas[0]!.proc.child.signalCode !== null);
    await sleep(300); // the server notices the closed socket and drops its subscription
    const results = await Promise.all(Array.from({ length: 30 }, () => ask()));
    expect(results.every((r) => r.ok && r.result.status === 'unconfigured')).toBe(true);
    expect(await handled(replicas[1]!.port, subjects.chain.contract.subject)).toBe(b + 30);
  }, 60_000);
});

describe('graceful shutdown', () => {
  it('SIGTERM during a slow request: readiness 503 first, the request completes, exit 0', async () => {
    const nats = await startNats();
    const port = await freePort();
    const gateway = startService('gateway', {
      NATS_URL: nats.url,
      HTTP_PORT: String(port),
      LOG_LEVEL: 'info',
      RATE_LIMIT_ENABLED: 'false',
      SHUTDOWN_DELAY_MS: '800',
      NATS_REQUEST_TIMEOUT_MS: '10000',
    });
    // A slow chain-reader stand-in on the real bus: answers after 2 s.
    const nc = await connect({ servers: nats.url });
    nc.subscribe(subjects.chain.contract.subject, {
      queue: 'chain-reader',
      callback: (_e, m) => {
        setTimeout(
          () =>
            m.respond(
              JSON.stringify({
                ok: true,
                result: {
                  name: 'LineageRegistry',
                  chainId: null,
                  address: null,
                  deployedBlock: null,
                  capabilities: [],
                  eip712Domain: null,
                  status: 'unconfigured',
                },
              }),
            ),
          2000,
        );
      },
    });
    try {
      await waitReady(port);
      const slow = fetch(`http://127.0.0.1:${port}/api/v1/chain/contract`);
      await sleep(300);
      gateway.child.kill('SIGTERM');
      await waitFor('readiness 503', async () => (await readyStatus(port)) === 503, 2_000, 50);
      const res = await slow;
      expect(res.status).toBe(200);
      expect((await json(res)).status).toBe('unconfigured');
      const code = await new Promise<number | null>((resolve) => {
        if (gateway.child.exitCode !== null) resolve(gateway.child.exitCode);
        else gateway.child.once('exit', (c) => resolve(c));
      });
      expect(code).toBe(0);
      expect(gateway.output()).toContain('shutdown complete');
    } finally {
      await nc.close();
      await gateway.stop();
      await nats.stop();
    }
  }, 60_000);
});
