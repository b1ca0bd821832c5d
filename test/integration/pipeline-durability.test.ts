// Two pipeline workers on a real JetStream work queue, real PostgreSQL and a
// real git HTTP server: every job runs to completion exactly once, a worker
// killed mid-run loses nothing and its job is taken over within the ack wait
// (retried attempt visible), cancellation lands on a stage boundary, a
// re-published job does not run again, a process killed between an analysis's
// insert and its job's publish strands nothing, and a full queue answers 429.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, AckPolicy } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';
import { analyze } from '@lineage/engine';
import { ensureStreams } from '@lineage/service-kit';
import type { GitServer } from '../support/git-http';
import { serveScenarios, sqlQuery } from '../support/served';
import { freePort, freshDatabase, startNats, startService, waitFor, waitReady, type Proc } from '../support/processes';
import { json } from '../support/http';

let root: string;
let git: GitServer;
let nats: Awaited<ReturnType<typeof startNats>>;
let db: Awaited<ReturnType<typeof freshDatabase>>;
let gateway: Proc;
let api: string;
const workers: Proc[] = [];
const repos: { url: string; dir: string; commit: string }[] = [];

type Worker = Proc & { port: number };

/** Extra env overrides the defaults below; an `undefined` value leaves the service's own default in force. */
async function startWorker(extra: Record<string, string | undefined> = {}): Promise<Worker> {
  const port = await freePort();
  const cache = mkdtempSync(join(tmpdir(), 'lineage-cache-'));
  const p = startService('analysis-pipeline', {
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    HTTP_PORT: String(port),
    MIGRATE_ON_START: 'true',
    LOG_LEVEL: 'info',
    LINEAGE_REPO_ALLOWED_HOSTS: `http://127.0.0.1:${git.port}`,
    LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'true',
    REPO_CACHE_DIR: cache,
    WORKER_THREADS: '1',
    JOB_ACK_WAIT_MS: '3000',
    SHUTDOWN_TIMEOUT_MS: '10000',
    ...extra,
  });
  await waitReady(port, 60_000);
  workers.push(p);
  return Object.assign(p, { port });
}

/** One value of a counter or gauge from a process's /metrics (0 when absent). */
const metric = async (port: number, name: string, labels = '') => {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line ? Number(line.trim().split(' ').pop()) : 0;
};

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sqlQuery<T>(db.url, text, params);

const postAnalysis = (o: (typeof repos)[number], t: (typeof repos)[number]) =>
  fetch(`${api}/analyses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pair: { origin: { url: o.url, commit: o.commit }, target: { url: t.url, commit: t.commit } } }),
  });

beforeAll(async () => {
  const served = await serveScenarios(['fork-declared', 'renamed-copy', 'same-spec-independent']);
  root = served.root;
  git = served.git;
  repos.push(...served.repos);
  nats = await startNats();
  db = await freshDatabase('lineage_pipeline');
  const gport = await freePort();
  gateway = startService('gateway', { NATS_URL: nats.url, HTTP_PORT: String(gport), RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'warn' });
  await waitReady(gport);
  api = `http://127.0.0.1:${gport}/api/v1`;
}, 120_000);

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await gateway?.stop();
  await nats?.stop();
  await db?.drop();
  await git?.stop();
  rmSync(root, { recursive: true, force: true });
}, 60_000);

const create = async (o: (typeof repos)[number], t: (typeof repos)[number]) => {
  const res = await postAnalysis(o, t);
  expect(res.status).toBe(202);
  return json(res);
};
const getAnalysis = async (id: string) => (await json(await fetch(`${api}/analyses/${id}`))).analysis;
/** The analysis once it has failed; an analysis that completes instead fails the test at once. */
const failedAnalysis = (id: string, timeoutMs: number) =>
  waitFor(
    `the failure of ${id}`,
    async () => {
      const x = await getAnalysis(id);
      if (x.state === 'completed') throw new Error('the analysis completed');
      return x.state === 'failed' ? x : undefined;
    },
    timeoutMs,
    100,
  );
const completedLines = (id: string) =>
  workers
    .flatMap((w) => w.output().split('\n'))
    .filter((l) => l.includes('"msg":"analysis completed"') && l.includes(`"analysisId":"${id}"`)).length;
/**
 * Exactly one worker logged the analysis's completion. The log line follows the completed row (the event is
 * published in between) and crosses a pipe, so a loaded machine can show the row first: wait for the line.
 */
const completedOnce = async (id: string) => {
  await waitFor(`the completion of ${id} logged`, async () => completedLines(id) >= 1, 30_000, 50);
  expect(completedLines(id)).toBe(1);
};

// A test that fails midway must not leave its workers to take the next test's jobs.
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
}, 60_000);

describe('durable pipeline', () => {
  it('20 analyses on two workers, one killed mid-run: all complete exactly once, manifests equal uninterrupted runs', async () => {
    const a = await startWorker({ DEBUG_STAGE_DELAY_MS: '150' });
    const b = await startWorker({ DEBUG_STAGE_DELAY_MS: '150' });
    // make build builds the engine's native parser; the workers say they use it
    expect(await metric(a.port, 'lineage_engine_native_parser')).toBe(1);
    const pairs: [number, number][] = [];
    for (let i = 0; i < repos.length && pairs.length < 20; i++)
      for (let j = 0; j < repos.length && pairs.length < 20; j++) if (i !== j) pairs.push([i, j]);
    const created = await Promise.all(pairs.map(([i, j]) => create(repos[i]!, repos[j]!)));
    const ids = created.map((c) => c.analysis.id as string);
    expect(new Set(ids).size).toBe(20);

    // Kill worker A while it is in the middle of a stage.
    await waitFor('worker A mid-stage', async () => a.output().includes('"msg":"stage done"'), 60_000, 50);
    a.child.kill('SIGKILL');

    const finals = await waitFor(
      'all analyses completed',
      async () => {
        const all = await Promise.all(ids.map(getAnalysis));
        if (all.some((x) => x.state === 'failed')) throw new Error('an analysis failed');
        return all.every((x) => x.state === 'completed') ? all : undefined;
      },
      240_000,
      500,
    );
    for (const id of ids) await completedOnce(id);

    // Every manifest equals what the bare engine computes for the same pair.
    for (const [k, [i, j]] of pairs.entries()) {
      if (k % 4 !== 0) continue; // a sample keeps the test short; the pairs cover every repository
      const o = repos[i]!;
      const t = repos[j]!;
      // The pipeline records canonical URLs (no `.git`).
      const canonical = (u: string) => u.replace(/\.git$/, '');
      const direct = await analyze({
        origin: { dir: o.dir, commit: o.commit, url: canonical(o.url) },
        target: { dir: t.dir, commit: t.commit, url: canonical(t.url) },
        workers: 1,
      });
      expect(finals[k].manifestHash).toBe(direct.hash);
    }
    // The pairs repeat their repositories: the surviving worker took files earlier analyses had tokenised from its
    // fingerprint cache (FINGERPRINT_CACHE_MB, on by default), and the manifests above are the bare engine's all the same.
    expect(await metric(b.port, 'lineage_fingerprint_cache_hits_total')).toBeGreaterThan(0);
    expect(await metric(b.port, 'lineage_fingerprint_cache_files')).toBeGreaterThan(0);
    // Later tests bring their own workers.
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  }, 300_000);

  it('cancel during a long stage: the stage finishes, the next never starts', async () => {
    const w = await startWorker({ DEBUG_STAGE_DELAY_MS: '2500' });
    const created = await create(repos[4]!, repos[1]!); // a pair the first test did not use
    const id = created.analysis.id as string;
    const running = await waitFor(
      'a running stage',
      async () => {
        const x = await getAnalysis(id);
        return x.stages.find((s: { state: string }) => s.state === 'running') as { name: string } | undefined;
      },
      60_000,
      50,
    );
    const refused = await fetch(`${api}/analyses/${id}/cancel`, { method: 'POST' });
    expect(refused.status).toBe(401);
    const res = await fetch(`${api}/analyses/${id}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.cancelToken}` },
    });
    expect(res.status).toBe(202);
    expect((await json(res)).state).toBe('cancelling');
    const final = await waitFor(
      'cancelled',
      async () => {
        const x = await getAnalysis(id);
        return x.state === 'cancelled' ? x : undefined;
      },
      60_000,
      100,
    );
    const names = final.stages.map((s: { name: string }) => s.name);
    const at = names.indexOf(running.name);
    expect(final.stages[at].state).toBe('done');
    for (const s of final.stages.slice(at + 1)) expect(s.state).toBe('cancelled');
    expect(final.manifestHash).toBeNull();
    await Promise.all(workers.splice(0).map((x) => x.stop()));
    expect(w.child.exitCode).toBe(0);
  }, 120_000);

  it('a job published twice runs once', async () => {
    await startWorker();
    const created = await create(repos[5]!, repos[2]!);
    const id = created.analysis.id as string;
    await waitFor('completed', async () => (await getAnalysis(id)).state === 'completed', 120_000, 200);
    const nc = await connect({ servers: nats.url });
    try {
      const js = jetstream(nc);
      const dup = await js.publish('lineage.jobs.analysis', JSON.stringify({ analysisId: id }), { msgID: `analysis-${id}` });
      expect(dup.duplicate).toBe(true);
      // A copy that escapes deduplication (another message id) is recognised and acknowledged without running.
      const copy = await js.publish('lineage.jobs.analysis', JSON.stringify({ analysisId: id }), { msgID: `analysis-${id}-again` });
      expect(copy.duplicate).toBe(false);
      const jsm = await js.jetstreamManager();
      await waitFor('work queue drained', async () => (await jsm.streams.info('LINEAGE_ANALYSIS_JOBS')).state.messages === 0, 30_000, 100);
    } finally {
      await nc.close();
    }
    await completedOnce(id);
    expect((await getAnalysis(id)).state).toBe('completed');
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  }, 180_000);

  it('a worker SIGKILLed mid-stage with the default ack wait: another takes the job over within a minute, and the retry shows', async () => {
    // The durable consumer outlives the processes: give it a long, old-style ack wait first. Workers starting with
    // the default (20 s) must bring it down, or the takeover below would wait for the old ack wait.
    const nc = await connect({ servers: nats.url });
    try {
      await ensureStreams(nc); // when this test runs alone
      const jsm = await jetstreamManager(nc);
      const old = { ack_wait: nanos(150_000), max_deliver: 10, max_ack_pending: 1000 };
      await jsm.consumers.update('LINEAGE_ANALYSIS_JOBS', 'analysis-workers', old).catch(() =>
        jsm.consumers.add('LINEAGE_ANALYSIS_JOBS', {
          durable_name: 'analysis-workers',
          ack_policy: AckPolicy.Explicit,
          filter_subject: 'lineage.jobs.analysis',
          ...old,
        }),
      );
      const env = { JOB_ACK_WAIT_MS: undefined, DEBUG_STAGE_DELAY_MS: '1500' };
      const pool = [await startWorker(env), await startWorker(env)];
      expect((await jsm.consumers.info('LINEAGE_ANALYSIS_JOBS', 'analysis-workers')).config.ack_wait).toBe(nanos(20_000));

      const created = await create(repos[5]!, repos[0]!);
      const id = created.analysis.id as string;
      const mine = (w: Proc) => w.output().includes(`"analysisId":"${id}"`) && w.output().includes('"msg":"stage done"');
      const holder = await waitFor('a worker done with a stage of the analysis', async () => pool.find(mine), 60_000, 50);
      const other = pool.find((w) => w !== holder)!;
      // The next stage is running (each takes at least 1.5 s): kill its worker in the act.
      const interrupted = await waitFor(
        'a running stage',
        async () => {
          const x = await getAnalysis(id);
          return x.stages.find((s: { state: string }) => s.state === 'running') as { name: string; attempt: number } | undefined;
        },
        10_000,
        25,
      );
      expect(interrupted.attempt).toBe(1);
      holder.child.kill('SIGKILL');
      const killedAt = Date.now();

      // Taken over: the interrupted stage runs again, as attempt 2, on the other worker.
      await waitFor(
        'the interrupted stage retried',
        async () => {
          const x = await getAnalysis(id);
          return x.stages.find((s: { name: string }) => s.name === interrupted.name).attempt >= 2;
        },
        60_000,
        250,
      );
      const tookOverMs = Date.now() - killedAt;
      const final = await waitFor(
        'completed',
        async () => {
          const x = await getAnalysis(id);
          if (x.state === 'failed') throw new Error('the analysis failed');
          return x.state === 'completed' ? x : undefined;
        },
        75_000 - (Date.now() - killedAt),
        250,
      );
      // Generous bounds for a loaded machine: the design takes ack wait + one heartbeat (~25 s) to take over.
      expect(tookOverMs).toBeLessThan(60_000);
      expect(Date.now() - killedAt).toBeLessThan(75_000);
      const stage = (n: string) => final.stages.find((s: { name: string }) => s.name === n);
      expect(stage(interrupted.name)).toMatchObject({ state: 'done', attempt: 2 });
      for (const s of final.stages) expect(s.attempt).toBe(s.name === interrupted.name ? 2 : 1);
      expect(other.output()).toContain('"msg":"stage retried"');
      expect(await metric(other.port, 'lineage_pipeline_stage_retries_total', `stage="${interrupted.name}"`)).toBe(1);
      await completedOnce(id);
    } finally {
      await nc.close();
    }
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  }, 180_000);

  it('a process killed between the analysis insert and the job publish: the reconciler publishes the job and it completes', async () => {
    const dying = await startWorker({ LINEAGE_FAULT_AFTER_INSERT: 'exit', WORKER_CONCURRENCY: '0' });
    const res = await postAnalysis(repos[5]!, repos[1]!);
    // The pipeline died before answering: the gateway reports the upstream's silence, not a created analysis.
    expect([503, 504]).toContain(res.status);
    await waitFor('the pipeline died', async () => dying.child.signalCode === 'SIGKILL', 10_000, 50);
    const [row] = await sql<{ id: string; state: string; job_published_at: string | null }>(
      'SELECT id, state, job_published_at FROM analysis.analyses WHERE origin_url = $1 AND target_url = $2',
      [repos[5]!.url.replace(/\.git$/, ''), repos[1]!.url.replace(/\.git$/, '')],
    );
    // Stranded: the row committed, no job on the work queue.
    expect(row).toMatchObject({ state: 'queued', job_published_at: null });
    const nc = await connect({ servers: nats.url });
    try {
      const jsm = await jetstreamManager(nc);
      expect((await jsm.streams.info('LINEAGE_ANALYSIS_JOBS')).state.messages).toBe(0);
    } finally {
      await nc.close();
    }

    const w = await startWorker({ JOB_RECONCILE_INTERVAL_MS: '1000', JOB_RECONCILE_MIN_AGE_MS: '1000' });
    const id = String(row!.id);
    await waitFor('completed after the restart', async () => (await getAnalysis(id)).state === 'completed', 120_000, 250);
    expect(await metric(w.port, 'lineage_pipeline_jobs_republished_total', 'outcome="published"')).toBe(1);
    expect(w.output()).toContain('"msg":"republished the job of a queued analysis"');
    await completedOnce(id);
    // Nothing doubled: the pair has exactly this analysis, and asking again returns it.
    const again = await postAnalysis(repos[5]!, repos[1]!);
    expect(again.status).toBe(200);
    expect((await json(again)).analysis.id).toBe(id);
    expect((await sql('SELECT job_published_at FROM analysis.analyses WHERE id = $1', [id]))[0]!.job_published_at).not.toBeNull();
    await Promise.all(workers.splice(0).map((x) => x.stop()));
  }, 180_000);

  it('a full queue: with PIPELINE_MAX_QUEUED=3 and no worker the 4th analysis is 429 QUEUE_FULL with Retry-After, and nothing is lost', async () => {
    const apiOnly = await startWorker({ PIPELINE_MAX_QUEUED: '3', WORKER_CONCURRENCY: '0' });
    const pairs: [number, number][] = [
      [4, 0],
      [4, 3],
      [4, 5],
      [5, 3],
    ];
    const accepted: string[] = [];
    for (const [i, j] of pairs.slice(0, 3)) accepted.push((await create(repos[i]!, repos[j]!)).analysis.id);
    const refused = await postAnalysis(repos[5]!, repos[3]!);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect((await json(refused)).error.code).toBe('QUEUE_FULL');
    // Refused means not written: no row for the fourth pair.
    expect(
      await sql('SELECT id FROM analysis.analyses WHERE origin_url = $1 AND target_url = $2', [
        repos[5]!.url.replace(/\.git$/, ''),
        repos[3]!.url.replace(/\.git$/, ''),
      ]),
    ).toHaveLength(0);
    // A pair already in the queue is still answered with its analysis: it adds no work.
    const same = await postAnalysis(repos[4]!, repos[0]!);
    expect(same.status).toBe(200);
    expect((await json(same)).analysis.id).toBe(accepted[0]);

    // A worker drains the queue: every accepted analysis completes, and the refused one is accepted again.
    const w = await startWorker({ PIPELINE_MAX_QUEUED: '3' });
    const depth = async () =>
      Number(
        /^lineage_pipeline_jobs_pending(?:\{[^}]*\})? (\d+)/m.exec(await (await fetch(`http://127.0.0.1:${w.port}/metrics`)).text())?.[1] ??
          -1,
      );
    expect(await depth()).toBeGreaterThan(0); // the three accepted jobs, waiting or in progress
    await waitFor(
      'accepted analyses completed',
      async () => (await Promise.all(accepted.map(getAnalysis))).every((x) => x.state === 'completed'),
      120_000,
      250,
    );
    // The gauge is read from the server at each scrape, so it falls back to 0 when the queue drains.
    await waitFor('queue depth 0', async () => (await depth()) === 0, 30_000, 250);
    const late = await create(repos[5]!, repos[3]!);
    await waitFor('the late one completed', async () => (await getAnalysis(late.analysis.id)).state === 'completed', 120_000, 250);
    expect(await metric(apiOnly.port, 'nats_handled_requests_total', 'outcome="QUEUE_FULL"')).toBe(1);
    await Promise.all(workers.splice(0).map((x) => x.stop()));
  }, 300_000);

  /** Waits for the analysis to fail and checks it failed on the time budget, in a stage it names; returns it and that stage. */
  const outOfTime = async (id: string, budgetMs: number) => {
    const failed = await failedAnalysis(id, 120_000);
    expect(failed.error).toMatchObject({ code: 'REPOSITORY_TOO_LARGE', limit: 'timeBudgetMs' });
    const stage = /ran out in the ([a-z]+) stage$/.exec(failed.error.message)?.[1];
    expect(failed.error.message).toContain(`(timeBudgetMs, ${budgetMs} ms across all its stages)`);
    expect(failed.stages.find((s: { name: string }) => s.name === stage)?.state).toBe('failed');
    return { failed, stage: stage! };
  };
  const seconds = (s: { startedAt: string | null; finishedAt: string | null }) => Number(s.finishedAt) - Number(s.startedAt);

  it('the time budget is one for the analysis, not one per stage: stages of 1.5 s run out a 5 s budget after the first ones', async () => {
    // Each stage alone is well inside the budget (9 stages), so a budget per stage would let the analysis complete.
    await startWorker({ DEBUG_STAGE_DELAY_MS: '1500', ANALYSIS_TIMEOUT_MS: '5000' });
    const created = await create(repos[4]!, repos[1]!); // cancelled by an earlier test: free again
    const { failed, stage } = await outOfTime(created.analysis.id, 5000);
    const names = failed.stages.map((s: { name: string }) => s.name);
    const done = failed.stages.filter((s: { state: string }) => s.state === 'done').map((s: { name: string }) => s.name);
    // The stages before the one that ran out are done, in order; at least the first two fitted in the budget.
    expect(done).toEqual(names.slice(0, names.indexOf(stage)));
    expect(done.length).toBeGreaterThanOrEqual(2);
    expect(names.indexOf(stage)).toBeLessThan(names.indexOf('publish'));
  }, 120_000);

  it('the time budget survives a worker killed mid-analysis: the worker that takes the job over gets only what is left', async () => {
    const env = { DEBUG_STAGE_DELAY_MS: '1000', ANALYSIS_TIMEOUT_MS: '7000' };
    const pool = [await startWorker(env), await startWorker(env)];
    const created = await create(repos[5]!, repos[4]!); // a pair no other test uses
    const id = created.analysis.id as string;
    const stagesDone = (w: Proc) =>
      w
        .output()
        .split('\n')
        .filter((l) => l.includes(`"analysisId":"${id}"`) && l.includes('"msg":"stage done"')).length;
    const holder = await waitFor(
      'a worker with three stages of the analysis done',
      async () => pool.find((w) => stagesDone(w) >= 3),
      60_000,
      25,
    );
    holder.child.kill('SIGKILL');
    const killedAt = Math.floor(Date.now() / 1000);
    const { failed } = await outOfTime(id, 7000);
    // The other worker took the job over with what was left: the three stages done (each at least 1 s) were spent.
    const other = pool.find((w) => w !== holder)!;
    const resumed = other
      .output()
      .split('\n')
      .filter((l) => l.includes(`"analysisId":"${id}"`) && l.includes('"msg":"analysis resumed with what is left of its time budget"'))
      .map((l) => JSON.parse(l) as { spentMs: number; budgetLeftMs: number });
    expect(resumed.length).toBeGreaterThanOrEqual(1);
    expect(resumed[0]!.spentMs).toBeGreaterThanOrEqual(3000);
    expect(resumed[0]!.budgetLeftMs).toBe(7000 - resumed[0]!.spentMs);
    // It ran out having run less than a whole budget itself.
    const after = failed.stages.filter((s: { startedAt: string | null }) => s.startedAt !== null && Number(s.startedAt) >= killedAt);
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after.reduce((n: number, s: Parameters<typeof seconds>[0]) => n + seconds(s), 0)).toBeLessThan(7);
    // Stages the killed worker ran and nobody ran again (a stage it had done may run again: the taking worker's cache
    // lacks the repositories, so fetch runs again there), and a stage it was running, run again as a second attempt.
    const before = failed.stages.filter((s: { startedAt: string | null }) => s.startedAt !== null && Number(s.startedAt) < killedAt);
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(failed.stages.some((s: { attempt: number }) => s.attempt >= 2)).toBe(true);
  }, 180_000);

  it('a bound from configuration fails the analysis with its code and names the bound; a retry is allowed', async () => {
    const w = await startWorker({ ANALYSIS_MAX_FILES: '3' });
    const created = await create(repos[4]!, repos[2]!);
    const failed = await failedAnalysis(created.analysis.id, 60_000);
    expect(failed.error).toMatchObject({ code: 'REPOSITORY_TOO_LARGE', limit: 'maxFiles' });
    expect(failed.stages.find((s: { name: string }) => s.name === 'inventory').state).toBe('failed');
    // A failed analysis does not block the pair: a new request makes a new analysis.
    const again = await create(repos[4]!, repos[2]!);
    expect(again.analysis.id).not.toBe(created.analysis.id);
    await w.stop();
  }, 120_000);
});
