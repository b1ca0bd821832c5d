// PostgreSQL going away under the running services, and coming back. Each
// schema owner reaches the (real, shared) server through a TCP proxy of its
// own that the test cuts and restores, so the machine's PostgreSQL is never
// stopped. While it is away: /ready turns 503 within 5 s on every schema owner,
// and routes that need the database answer 503 SERVICE_UNAVAILABLE promptly
// (not 500 INTERNAL, not a hang). Afterwards: ready again, an analysis that was
// running (its job held meanwhile) completes, and an analysis that completed
// while the case-store's database was away becomes exactly one case.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GitServer } from '../support/git-http';
import { serveScenarios, sqlQuery } from '../support/served';
import {
  freePort,
  freshDatabase,
  sleep,
  startNats,
  startService,
  waitFor,
  waitReady,
  type Proc,
  type ServiceName,
} from '../support/processes';
import { TcpProxy, viaProxy } from '../support/tcp-proxy';
import { json } from '../support/http';

const OWNERS = ['analysis-pipeline', 'case-store', 'fact-indexer'] as const;
type Owner = (typeof OWNERS)[number];

let root: string;
let cache: string;
let git: GitServer;
let nats: Awaited<ReturnType<typeof startNats>>;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let api: string;
const procs = {} as Record<ServiceName, Proc>;
const ports = {} as Record<ServiceName, number>;
const proxies = {} as Record<Owner, TcpProxy>;
const repos: { url: string; commit: string }[] = [];

beforeAll(async () => {
  cache = mkdtempSync(join(tmpdir(), 'lineage-cache-'));
  const served = await serveScenarios(['fork-declared', 'renamed-copy']);
  root = served.root;
  git = served.git;
  repos.push(...served.repos);
  nats = await startNats();
  db = await freshDatabase('lineage_outage');
  const pg = new URL(db.url);
  for (const s of OWNERS) {
    proxies[s] = new TcpProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
    await proxies[s].start();
  }
  const base = {
    NATS_URL: nats.url,
    LOG_LEVEL: 'info',
    MIGRATE_ON_START: 'true',
    RATE_LIMIT_ENABLED: 'false',
    SHUTDOWN_TIMEOUT_MS: '10000',
  };
  const extra: Record<ServiceName, Record<string, string>> = {
    gateway: {},
    'chain-reader': {},
    'analysis-pipeline': {
      DATABASE_URL: viaProxy(db.url, proxies['analysis-pipeline']),
      LINEAGE_REPO_ALLOWED_HOSTS: `http://127.0.0.1:${git.port}`,
      LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'true',
      REPO_CACHE_DIR: cache,
      WORKER_THREADS: '1',
      JOB_ACK_WAIT_MS: '5000',
      DEBUG_STAGE_DELAY_MS: '700',
    },
    'case-store': { DATABASE_URL: viaProxy(db.url, proxies['case-store']) },
    'fact-indexer': { DATABASE_URL: viaProxy(db.url, proxies['fact-indexer']), INDEXER_POLL_INTERVAL_MS: '500' },
  };
  for (const s of Object.keys(extra) as ServiceName[]) {
    ports[s] = await freePort();
    procs[s] = startService(s, { ...base, HTTP_PORT: String(ports[s]), ...extra[s] });
  }
  try {
    await Promise.all(Object.keys(extra).map((s) => waitReady(ports[s as ServiceName], 90_000)));
  } catch (err) {
    for (const s of Object.keys(procs)) process.stderr.write(`--- ${s}\n${procs[s as ServiceName].output().slice(-3000)}\n`);
    throw err;
  }
  api = `http://127.0.0.1:${ports.gateway}/api/v1`;
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(procs).map((p) => p.stop()));
  for (const p of Object.values(proxies)) await p.stop();
  await nats?.stop();
  await db?.drop();
  await git?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
  if (cache) rmSync(cache, { recursive: true, force: true });
}, 60_000);

const readyStatus = async (s: ServiceName) => (await fetch(`http://127.0.0.1:${ports[s]}/ready`)).status;
const getAnalysis = async (id: string) => (await json(await fetch(`${api}/analyses/${id}`))).analysis;
const create = async (o: (typeof repos)[number], t: (typeof repos)[number]) => {
  const res = await fetch(`${api}/analyses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pair: { origin: { url: o.url, commit: o.commit }, target: { url: t.url, commit: t.commit } } }),
  });
  expect(res.status).toBe(202);
  return (await json(res)).analysis.id as string;
};
/** Straight to PostgreSQL (not through a proxy): what the case-store stored. */
const casesOf = async (analysisId: string) =>
  Number((await sqlQuery<{ n: number }>(db.url, 'select count(*)::int as n from cases.cases where analysis_id = $1', [analysisId]))[0]!.n);
/** Whether the fact-indexer holds its writer lease (a PostgreSQL session lock), from its metrics. */
const isWriter = async () =>
  /^lineage_indexer_is_writer(\{[^}]*\})? 1$/m.test(await (await fetch(`http://127.0.0.1:${ports['fact-indexer']}/metrics`)).text());
const lines = (s: ServiceName, msg: string, analysisId: string) =>
  procs[s]
    .output()
    .split('\n')
    .filter((l) => l.includes(`"msg":"${msg}"`) && l.includes(`"analysisId":"${analysisId}"`));

/** A route that needs the database: 503 SERVICE_UNAVAILABLE, and promptly (a hang would be the gateway's 504). */
async function expectUnavailable(method: 'GET' | 'POST', path: string, body?: unknown) {
  const t0 = Date.now();
  const res = await fetch(
    `${api}${path}`,
    body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
  );
  const elapsed = Date.now() - t0;
  const b = await json(res);
  expect([path, res.status, b.error?.code]).toEqual([path, 503, 'SERVICE_UNAVAILABLE']);
  expect(b.error.message).not.toMatch(/ECONN|pg|knex|127\.0\.0\.1/i);
  expect(elapsed).toBeLessThan(4_500);
}

describe('PostgreSQL going away', () => {
  it('every schema owner turns unready within 5 s, database routes answer 503, and all recovers with nothing lost', async () => {
    await waitFor('the fact-indexer is the writer', isWriter, 30_000, 250);
    const [o, t] = [repos[0]!, repos[1]!];
    const running = await create(o, t);
    // Take the database away while the analysis is in the middle of its stages.
    await waitFor(
      'analysis mid-run',
      async () => {
        const a = await getAnalysis(running);
        return a.stages.some((s: { name: string; state: string }) => s.name === 'inventory' && s.state !== 'pending');
      },
      90_000,
      100,
    );
    const cutAt = Date.now();
    await Promise.all(OWNERS.map((s) => proxies[s].cut()));

    await Promise.all(OWNERS.map((s) => waitFor(`${s} unready`, async () => (await readyStatus(s)) === 503, 5_000, 100)));
    expect(Date.now() - cutAt).toBeLessThan(5_000 + 1_000);
    for (const s of OWNERS) {
      const r = await json(await fetch(`http://127.0.0.1:${ports[s]}/ready`));
      expect([s, r.status, r.checks.postgres]).toEqual([
        s,
        'unready',
        { ok: false, detail: expect.stringMatching(/^(unreachable|timed out)$/) },
      ]);
      expect(r.checks.nats.ok).toBe(true);
    }
    expect(await readyStatus('gateway')).toBe(200); // the gateway owns no database

    // Again and again: the first request after the cut meets dead pooled connections, later ones refused connects.
    for (let round = 0; round < 2; round++) {
      await expectUnavailable('GET', '/cases');
      await expectUnavailable('GET', `/analyses/${running}`);
      await expectUnavailable('GET', '/facts');
      await expectUnavailable('GET', '/facts/1');
      await expectUnavailable('GET', '/search?q=lattice');
    }
    await expectUnavailable('POST', '/analyses', {
      pair: { origin: { url: repos[2]!.url, commit: repos[2]!.commit }, target: { url: repos[3]!.url, commit: repos[3]!.commit } },
    });
    // Routes that do not need the database keep answering.
    expect((await fetch(`${api}/chain/contract`)).status).toBe(200);
    expect((await fetch(`${api}/openapi.json`)).status).toBe(200);

    // Stay away long enough for the worker to meet the outage at a stage boundary and the writer to lose its lease.
    await sleep(4_000);
    for (const s of OWNERS) expect([s, procs[s].child.exitCode]).toEqual([s, null]);
    await Promise.all(OWNERS.map((s) => proxies[s].restore()));

    // The outage reached the work in flight: the running analysis's job is held (on its first delivery, none spent:
    // pipeline-db-outage.test.ts outlasts the deliveries), the writer lost its lease.
    expect(
      lines('analysis-pipeline', 'database unavailable; job held until it returns', running).map((l) => JSON.parse(l).delivery),
    ).toContain(1);
    expect(lines('analysis-pipeline', 'transient failure; job will be redelivered', running)).toEqual([]);
    expect(procs['fact-indexer'].output()).toMatch(/"msg":"writer lease connection lost"/);
    expect(await isWriter()).toBe(false);

    await Promise.all(OWNERS.map((s) => waitFor(`${s} ready again`, async () => (await readyStatus(s)) === 200, 30_000, 200)));
    expect((await fetch(`${api}/facts`)).status).toBe(200);
    expect((await fetch(`${api}/protocol`)).status).toBe(200);
    // The fact-indexer takes its writer lease again.
    await waitFor('writer again', isWriter, 30_000, 250);

    // The analysis that was running completes, once, and becomes one case.
    const done = await waitFor(
      'the running analysis completes and gets its case',
      async () => {
        const a = await getAnalysis(running);
        if (a.state === 'failed' || a.state === 'cancelled') throw new Error(`analysis ${a.state}: ${JSON.stringify(a.error)}`);
        return a.state === 'completed' && a.caseId ? a : false;
      },
      180_000,
      250,
    );
    expect(lines('analysis-pipeline', 'analysis completed', running)).toHaveLength(1);
    expect(await casesOf(running)).toBe(1);
    // The only analysis so far: the only case.
    const listed = await json(await fetch(`${api}/cases?limit=100`));
    expect(listed.items.map((c: { id: string }) => c.id)).toEqual([done.caseId]);
    expect((await json(await fetch(`${api}/cases/${done.caseId}`))).case.analysisId).toBe(running);
  }, 360_000);

  it('an analysis that completes while the case-store has no database becomes exactly one case once it returns', async () => {
    const id = await create(repos[2]!, repos[3]!);
    await proxies['case-store'].cut();
    await waitFor('case-store unready', async () => (await readyStatus('case-store')) === 503, 5_000, 100);
    // The pipeline's own database is there: the analysis completes and its event is published…
    const completed = await waitFor(
      'completed in the pipeline',
      async () => {
        const a = await getAnalysis(id);
        if (a.state === 'failed') throw new Error('analysis failed');
        return a.state === 'completed' ? a : false;
      },
      180_000,
      250,
    );
    expect(completed.caseId).toBeNull();
    // …and the case-store cannot take it yet: it holds the event (its first delivery) until the database returns.
    await waitFor(
      'the event held',
      async () => lines('case-store', 'database unavailable; event held until it returns', id).length > 0,
      30_000,
      200,
    );
    await expectUnavailable('GET', '/cases');
    await sleep(3_000); // a few tries while away
    await proxies['case-store'].restore();

    const linked = await waitFor(
      'the case exists and is linked',
      async () => {
        const a = await getAnalysis(id);
        return a.caseId ? a : false;
      },
      120_000,
      250,
    );
    expect(await casesOf(id)).toBe(1);
    expect(lines('case-store', 'case published', id).filter((l) => l.includes('"created":true'))).toHaveLength(1);
    // The outage spent no JetStream deliveries: the event was held on its first one, never failed or redelivered.
    expect(lines('case-store', 'database unavailable; event held until it returns', id).map((l) => JSON.parse(l).delivery)).toEqual([1]);
    expect(lines('case-store', 'event failed; will be redelivered', id)).toEqual([]);
    expect(lines('analysis-pipeline', 'analysis completed', id)).toHaveLength(1);
    expect((await json(await fetch(`${api}/cases/${linked.caseId}`))).case.analysisId).toBe(id);
    expect((await json(await fetch(`${api}/cases?limit=100`))).items).toHaveLength(2);
    // Redeliveries after the case exists change nothing: still one case, and every other service stayed up.
    await sleep(1_000);
    expect(await casesOf(id)).toBe(1);
    for (const s of Object.keys(procs) as ServiceName[]) expect([s, procs[s].child.exitCode]).toEqual([s, null]);
  }, 360_000);
});
