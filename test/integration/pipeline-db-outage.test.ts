// The analysis-pipeline's database going away for longer than a job's
// deliveries would last, and coming back. The pipeline reaches the real,
// shared PostgreSQL through a TCP proxy the test cuts; the server itself keeps
// running.
//
// The pipeline runs with JOB_ACK_WAIT_MS=3000 and JOB_MAX_DELIVER=3: a job that
// spent a delivery per failed try (nak 2 s, then an ack wait of 3 s per
// delivery whose first query fails) would be out of deliveries about 8 s into
// an outage, leaving its analysis `running` for good. The outages below last
// 20 s; a held job spends none, resumes where it was and completes once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { GitServer } from '../support/git-http';
import { serveScenarios, sqlQuery } from '../support/served';
import { freePort, freshDatabase, sleep, startNats, startService, waitFor, waitReady, type Proc } from '../support/processes';
import { TcpProxy, viaProxy } from '../support/tcp-proxy';
import { json } from '../support/http';

const ACK_WAIT_MS = 3000;
const MAX_DELIVER = 3;
/** Longer than MAX_DELIVER deliveries of a failing job last today (≈ 2 s + 2 × 3 s, plus the failing queries). */
const OUTAGE_MS = 20_000;

let root: string;
let git: GitServer;
let nats: Awaited<ReturnType<typeof startNats>>;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let api: string;
let gateway: Proc;
let pipeline: Proc;
let caseStore: Proc;
const cache: string[] = [];
const extraPipelines: Proc[] = [];
let proxy: TcpProxy;
const repos: { url: string; commit: string }[] = [];

function pipelineEnv(databaseUrl: string, port: number): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'lineage-cache-'));
  cache.push(dir);
  return {
    NATS_URL: nats.url,
    DATABASE_URL: databaseUrl,
    HTTP_PORT: String(port),
    MIGRATE_ON_START: 'true',
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '10000',
    LINEAGE_REPO_ALLOWED_HOSTS: `http://127.0.0.1:${git.port}`,
    LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'true',
    REPO_CACHE_DIR: dir,
    WORKER_THREADS: '1',
    JOB_ACK_WAIT_MS: String(ACK_WAIT_MS),
    JOB_MAX_DELIVER: String(MAX_DELIVER),
    DEBUG_STAGE_DELAY_MS: '700',
  };
}

beforeAll(async () => {
  const served = await serveScenarios(['fork-declared', 'renamed-copy']);
  root = served.root;
  git = served.git;
  repos.push(...served.repos);
  nats = await startNats();
  db = await freshDatabase('lineage_pipeline_outage');
  const pg = new URL(db.url);
  proxy = new TcpProxy({ host: pg.hostname, port: Number(pg.port || 5432) });
  await proxy.start();
  const ports = { gateway: await freePort(), pipeline: await freePort(), caseStore: await freePort() };
  gateway = startService('gateway', {
    NATS_URL: nats.url,
    HTTP_PORT: String(ports.gateway),
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
  });
  pipeline = startService('analysis-pipeline', pipelineEnv(viaProxy(db.url, proxy), ports.pipeline));
  caseStore = startService('case-store', {
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    HTTP_PORT: String(ports.caseStore),
    MIGRATE_ON_START: 'true',
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '10000',
  });
  try {
    await Promise.all(Object.values(ports).map((p) => waitReady(p, 90_000)));
  } catch (err) {
    for (const p of [gateway, pipeline, caseStore]) process.stderr.write(`--- ${p.name}\n${p.output().slice(-3000)}\n`);
    throw err;
  }
  api = `http://127.0.0.1:${ports.gateway}/api/v1`;
}, 180_000);

afterAll(async () => {
  await Promise.all([gateway, pipeline, caseStore, ...extraPipelines].filter(Boolean).map((p) => p.stop()));
  await proxy?.stop();
  await nats?.stop();
  await db?.drop();
  await git?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
  for (const d of cache) rmSync(d, { recursive: true, force: true });
}, 60_000);

const create = async (o: { url: string; commit: string }, t: { url: string; commit: string }) => {
  const res = await fetch(`${api}/analyses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pair: { origin: { url: o.url, commit: o.commit }, target: { url: t.url, commit: t.commit } } }),
  });
  expect(res.status).toBe(202);
  return (await json(res)).analysis.id as string;
};

/** Straight to PostgreSQL (not through a proxy, and whichever pipeline replica would answer). */
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sqlQuery<T>(db.url, text, params);
interface Row {
  state: string;
  case_id: string | null;
  error: { code: string } | null;
  stages: { name: string; state: string; attempt?: number }[];
}
const analysis = async (id: string) =>
  (await sql<Row>('SELECT state, case_id, error, stages FROM analysis.analyses WHERE id = $1', [id]))[0]!;
const casesOf = async (id: string) =>
  Number((await sql<{ n: number }>('SELECT count(*)::int AS n FROM cases.cases WHERE analysis_id = $1', [id]))[0]!.n);

/** Parsed log lines of one message about one analysis, from the given processes. */
const lines = (procs: Proc[], msg: string, analysisId: string) =>
  procs
    .flatMap((p) => p.output().split('\n'))
    .filter((l) => l.includes(`"msg":"${msg}"`) && l.includes(`"analysisId":"${analysisId}"`))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const deliveries = (procs: Proc[], msg: string, analysisId: string) => lines(procs, msg, analysisId).map((l) => l.delivery);

/** The work queue consumer as JetStream sees it. */
async function workQueue() {
  const nc = await connect({ servers: nats.url });
  try {
    const jsm = await jetstreamManager(nc);
    const c = await jsm.consumers.info('LINEAGE_ANALYSIS_JOBS', 'analysis-workers');
    const s = await jsm.streams.info('LINEAGE_ANALYSIS_JOBS');
    return {
      delivered: c.delivered.consumer_seq,
      redelivered: c.num_redelivered,
      ackPending: c.num_ack_pending,
      pending: c.num_pending,
      maxDeliver: c.config.max_deliver,
      messages: s.state.messages,
    };
  } finally {
    await nc.close();
  }
}

const completed = (id: string, timeoutMs = 120_000) =>
  waitFor(
    `analysis ${id} completed`,
    async () => {
      const a = await analysis(id);
      if (a.state === 'failed' || a.state === 'cancelled') throw new Error(`analysis ${a.state}: ${JSON.stringify(a.error)}`);
      return a.state === 'completed' ? a : false;
    },
    timeoutMs,
    250,
  );

describe("the pipeline's database away for longer than a job's deliveries last", () => {
  it('a running job is held through the outage and completes once; a job queued behind it spends no delivery; each gets one case, linked once', async () => {
    expect((await workQueue()).maxDeliver).toBe(MAX_DELIVER); // JOB_MAX_DELIVER reached the consumer
    const running = await create(repos[0]!, repos[1]!);
    const queued = await create(repos[2]!, repos[3]!);
    await waitFor(
      'the first analysis mid-run',
      async () => (await analysis(running)).stages.some((s) => s.name === 'inventory' && s.state !== 'pending'),
      90_000,
      100,
    );
    await proxy.cut();
    const cutAt = Date.now();

    // The next database step of the running job fails: the job is held, on its first delivery.
    await waitFor(
      'the job held',
      async () => lines([pipeline], 'database unavailable; job held until it returns', running).length > 0,
      15_000,
      100,
    );
    const before = await workQueue();
    expect(before).toMatchObject({ ackPending: 1, pending: 1, redelivered: 0 }); // the running job in hand, the other one waiting on the server
    await sleep(OUTAGE_MS - (Date.now() - cutAt));
    // Not one delivery in all that time: the held job kept its delivery, and the queued one was never pulled.
    expect(await workQueue()).toMatchObject({ delivered: before.delivered, ackPending: 1, pending: 1, redelivered: 0 });
    expect(pipeline.child.exitCode).toBeNull();
    await proxy.restore();

    await completed(running);
    await completed(queued);
    for (const id of [running, queued]) {
      await waitFor(`analysis ${id} linked to its case`, async () => (await analysis(id)).case_id !== null, 60_000, 250);
      expect(lines([pipeline], 'analysis completed', id)).toHaveLength(1);
      expect(await casesOf(id)).toBe(1);
      expect(lines([caseStore], 'case published', id).filter((l) => l.created === true)).toHaveLength(1);
      expect(lines([pipeline], 'case linked', id)).toHaveLength(1);
      // Every delivery the job saw was its first: nothing failed, nothing was redelivered, no stage ran twice.
      expect(new Set(lines([pipeline], 'stage done', id).map((l) => l.delivery))).toEqual(new Set([1]));
      expect(lines([pipeline], 'transient failure; job will be redelivered', id)).toEqual([]);
      expect(lines([pipeline], 'job handling failed', id)).toEqual([]);
      expect((await analysis(id)).stages.map((s) => [s.name, s.state, s.attempt])).toEqual(
        (await analysis(id)).stages.map((s) => [s.name, 'done', 1]),
      );
    }
    expect(new Set(deliveries([pipeline], 'database unavailable; job held until it returns', running))).toEqual(new Set([1]));
    expect(lines([pipeline], 'database back; job continues', running).length).toBeGreaterThan(0);
    // The lease ran out during the outage (4 s), nobody took the job over: the worker renewed it and went on.
    expect(lines([pipeline], 'lease taken over by another worker; abandoning the job', running)).toEqual([]);
    await waitFor('work queue drained', async () => (await workQueue()).messages === 0, 30_000, 200);
  }, 300_000);

  it('a case.published event that meets the pipeline without its database is held and linked once it returns, on its first delivery', async () => {
    // The case-store publishes a case only after reading its manifest from the pipeline, so the event meets a
    // pipeline without its database when the outage starts right after that read (or on one replica of several).
    // Set up directly: an analysis whose case exists, unlinked again, and the case-store's event published again.
    const id = await create(repos[1]!, repos[0]!);
    await completed(id);
    await waitFor('linked the first time', async () => (await analysis(id)).case_id !== null, 60_000, 250);
    const [c] = await sql<{ id: string; manifest_hash: string; created_at: string }>(
      'SELECT id, manifest_hash, created_at FROM cases.cases WHERE analysis_id = $1',
      [id],
    );
    await sql('UPDATE analysis.analyses SET case_id = NULL WHERE id = $1', [id]);
    await proxy.cut();
    const nc = await connect({ servers: nats.url });
    try {
      const event = { analysisId: id, caseId: String(c!.id), manifestHash: c!.manifest_hash, publishedAt: String(c!.created_at) };
      await jetstream(nc).publish('lineage.events.case.published', JSON.stringify(event), { msgID: `case-${id}-again` });
    } finally {
      await nc.close();
    }
    await waitFor(
      'the link held',
      async () => lines([pipeline], 'database unavailable; case link held until it returns', id).length > 0,
      15_000,
      100,
    );
    await sleep(8_000); // several tries while away
    expect((await analysis(id)).case_id).toBeNull();
    await proxy.restore();

    await waitFor('linked again', async () => (await analysis(id)).case_id !== null, 60_000, 250);
    expect(String((await analysis(id)).case_id)).toBe(String(c!.id));
    expect(await casesOf(id)).toBe(1);
    // Linked once per event: the first from the case-store's own event, the second held through the outage on its first delivery.
    const linked = lines([pipeline], 'case linked', id).map((l) => [l.delivery, l.held]);
    const want = [
      [1, false],
      [1, true],
    ];
    // On a mismatch, say what the pipeline logged for this analysis (a delivery spent by a failure the outage caused
    // once showed a query in flight ending in knex's "<sql> - Connection terminated unexpectedly").
    if (JSON.stringify(linked) !== JSON.stringify(want))
      process.stderr.write(
        `pipeline lines for analysis ${id}:\n${pipeline
          .output()
          .split('\n')
          .filter((l) => l.includes(`"analysisId":"${id}"`))
          .join('\n')}\n`,
      );
    expect(linked).toEqual(want);
    expect(deliveries([pipeline], 'database unavailable; case link held until it returns', id)).toEqual([1]);
    expect(lines([pipeline], 'could not link case; will retry', id)).toEqual([]);
  }, 240_000);

  it('a lease that ran out during the outage and was taken over by another replica: the held worker stops, the job completes once', async () => {
    const id = await create(repos[3]!, repos[0]!);
    await waitFor(
      'mid-run (past fetch)',
      async () => (await analysis(id)).stages.some((s) => s.name === 'inventory' && s.state !== 'pending'),
      90_000,
      100,
    );
    await proxy.cut();
    let other: Proc | null = null;
    try {
      try {
        await waitFor(
          'the job held',
          async () => lines([pipeline], 'database unavailable; job held until it returns', id).length > 0,
          15_000,
          100,
        );
        // A second replica that can reach the database (with a cache of its own).
        const port = await freePort();
        other = startService('analysis-pipeline', pipelineEnv(db.url, port));
        extraPipelines.push(other);
        await waitReady(port, 90_000);
        // Once the held worker's lease has run out, a copy of the job (as a republish after the duplicate window would
        // make) reaches the other replica, which takes the lease over and runs the job.
        await waitFor(
          'the lease run out',
          async () => {
            const [r] = await sql<{ lease_until: string | null }>('SELECT lease_until FROM analysis.analyses WHERE id = $1', [id]);
            return Number(r!.lease_until) < Math.floor(Date.now() / 1000);
          },
          30_000,
          250,
        );
        const nc = await connect({ servers: nats.url });
        try {
          await jetstream(nc).publish('lineage.jobs.analysis', JSON.stringify({ analysisId: id }), { msgID: `analysis-${id}-copy` });
        } finally {
          await nc.close();
        }
        await completed(id);
        // The log line follows the commit that marks the row completed: wait for it rather than race it.
        const replica = other;
        await waitFor(
          'the other replica logs the completion',
          async () => lines([replica], 'analysis completed', id).length > 0,
          10_000,
          100,
        );
        expect(lines([other], 'analysis completed', id)).toHaveLength(1);
        // It took the job over past fetch, with neither repository in its cache: it fetched them again first.
        expect(lines([other], "repositories not in this replica's cache; fetching them again", id)).toHaveLength(1);
      } finally {
        await proxy.restore();
      }

      // The held worker finds its lease gone and stops without writing anything; its delivery is then acked as finished.
      await waitFor(
        'the held worker gives up',
        async () => lines([pipeline], 'lease taken over by another worker; abandoning the job', id).length > 0,
        30_000,
        200,
      );
      await waitFor('work queue drained', async () => (await workQueue()).messages === 0, 30_000, 200);
      expect(lines([pipeline, other], 'analysis completed', id)).toHaveLength(1);
      expect(lines([pipeline], 'database back; job continues', id)).toEqual([]);
      // No stage was written twice (fetch is done once in each replica's cache).
      const done = lines([pipeline, other], 'stage done', id).map((l) => String(l.stage));
      const times = (n: string) => done.filter((x) => x === n).length;
      expect(times('fetch')).toBe(2);
      expect(Math.max(...['resolve', 'inventory', 'fingerprint', 'history', 'compare', 'decide', 'manifest'].map(times))).toBe(1);
      expect((await analysis(id)).stages.every((s) => s.state === 'done')).toBe(true);
      await waitFor('linked', async () => (await analysis(id)).case_id !== null, 60_000, 250);
      expect(await casesOf(id)).toBe(1);
    } finally {
      if (other) {
        await other.stop();
        extraPipelines.splice(extraPipelines.indexOf(other), 1);
      }
    }
  }, 300_000);

  it("a failure that is not the database's still spends deliveries and fails the analysis on the last one (JOB_MAX_DELIVER)", async () => {
    // A repository the git server does not have: REPOSITORY_UNREACHABLE, which is retried (the remote may come back).
    const id = await create({ url: `${git.url}/no-such-repo`, commit: 'a'.repeat(40) }, repos[1]!);
    const failed = await waitFor(
      'failed',
      async () => {
        const a = await analysis(id);
        return a.state === 'failed' ? a : false;
      },
      120_000,
      250,
    );
    expect(failed.error).toMatchObject({ code: 'REPOSITORY_UNREACHABLE' });
    expect(failed.stages.find((s) => s.name === 'fetch')).toMatchObject({ state: 'failed', attempt: MAX_DELIVER });
    expect(deliveries([pipeline], 'transient failure; job will be redelivered', id)).toEqual([1, 2]);
    expect(deliveries([pipeline], 'job failed on its last delivery', id)).toEqual([MAX_DELIVER]);
    expect(lines([pipeline], 'database unavailable; job held until it returns', id)).toEqual([]);
  }, 180_000);
});
