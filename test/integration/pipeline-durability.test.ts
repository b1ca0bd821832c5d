// Two pipeline workers on a real JetStream work queue, real PostgreSQL and a
// real git HTTP server: every job runs to completion exactly once, a worker
// killed mid-run loses nothing, cancellation lands on a stage boundary, and a
// re-published job does not run again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { analyze } from '@lineage/engine';
import { SCENARIOS } from '../fixtures/scenarios';
import { startGitServer, type GitServer } from '../support/git-http';
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

async function startWorker(extra: Record<string, string> = {}): Promise<Proc> {
  const port = await freePort();
  const cache = mkdtempSync(join(tmpdir(), 'lineage-cache-'));
  const p = startService('analysis-pipeline', {
    NATS_URL: nats.url, DATABASE_URL: db.url, HTTP_PORT: String(port), MIGRATE_ON_START: 'true', LOG_LEVEL: 'info',
    LINEAGE_REPO_ALLOWED_HOSTS: `http://127.0.0.1:${git.port}`, LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'true',
    REPO_CACHE_DIR: cache, WORKER_THREADS: '1', JOB_ACK_WAIT_MS: '3000', SHUTDOWN_TIMEOUT_MS: '10000', ...extra,
  });
  await waitReady(port, 60_000);
  workers.push(p);
  return p;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lineage-repos-'));
  for (const s of SCENARIOS.filter((x) => ['fork-declared', 'renamed-copy', 'same-spec-independent'].includes(x.name))) {
    const built = await s.build(root);
    for (const side of ['origin', 'target'] as const) repos.push({ url: '', dir: built[side].dir, commit: built[side].commit });
  }
  git = await startGitServer(root);
  for (const r of repos) r.url = `${git.url}/${r.dir.slice(root.length + 1)}`;
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
  const res = await fetch(`${api}/analyses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pair: { origin: { url: o.url, commit: o.commit }, target: { url: t.url, commit: t.commit } } }),
  });
  expect(res.status).toBe(202);
  return json(res);
};
const getAnalysis = async (id: string) => (await json(await fetch(`${api}/analyses/${id}`))).analysis;
const completedLines = (id: string) =>
  workers.flatMap((w) => w.output().split('\n')).filter((l) => l.includes('"msg":"analysis completed"') && l.includes(`"analysisId":"${id}"`)).length;

describe('durable pipeline', () => {
  it('20 analyses on two workers, one killed mid-run: all complete exactly once, manifests equal uninterrupted runs', async () => {
    const a = await startWorker({ DEBUG_STAGE_DELAY_MS: '150' });
    await startWorker({ DEBUG_STAGE_DELAY_MS: '150' });
    const pairs: [number, number][] = [];
    for (let i = 0; i < repos.length && pairs.length < 20; i++) for (let j = 0; j < repos.length && pairs.length < 20; j++) if (i !== j) pairs.push([i, j]);
    const created = await Promise.all(pairs.map(([i, j]) => create(repos[i]!, repos[j]!)));
    const ids = created.map((c) => c.analysis.id as string);
    expect(new Set(ids).size).toBe(20);

    // Kill worker A while it is in the middle of a stage.
    await waitFor('worker A mid-stage', async () => a.output().includes('"msg":"stage done"'), 60_000, 50);
    a.child.kill('SIGKILL');

    const finals = await waitFor('all analyses completed', async () => {
      const all = await Promise.all(ids.map(getAnalysis));
      if (all.some((x) => x.state === 'failed')) throw new Error('an analysis failed');
      return all.every((x) => x.state === 'completed') ? all : undefined;
    }, 240_000, 500);
    for (const id of ids) expect(completedLines(id)).toBe(1);

    // Every manifest equals what the bare engine computes for the same pair.
    for (const [k, [i, j]] of pairs.entries()) {
      if (k % 4 !== 0) continue; // a sample keeps the test short; the pairs cover every repository
      const o = repos[i]!;
      const t = repos[j]!;
      // The pipeline records canonical URLs (no `.git`).
      const canonical = (u: string) => u.replace(/\.git$/, '');
      const direct = await analyze({ origin: { dir: o.dir, commit: o.commit, url: canonical(o.url) }, target: { dir: t.dir, commit: t.commit, url: canonical(t.url) }, workers: 1 });
      expect(finals[k].manifestHash).toBe(direct.hash);
    }
    // Later tests bring their own workers.
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  }, 300_000);

  it('cancel during a long stage: the stage finishes, the next never starts', async () => {
    const w = await startWorker({ DEBUG_STAGE_DELAY_MS: '2500' });
    const created = await create(repos[4]!, repos[1]!); // a pair the first test did not use
    const id = created.analysis.id as string;
    const running = await waitFor('a running stage', async () => {
      const x = await getAnalysis(id);
      return x.stages.find((s: { state: string }) => s.state === 'running') as { name: string } | undefined;
    }, 60_000, 50);
    const refused = await fetch(`${api}/analyses/${id}/cancel`, { method: 'POST' });
    expect(refused.status).toBe(401);
    const res = await fetch(`${api}/analyses/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${created.cancelToken}` } });
    expect(res.status).toBe(202);
    expect((await json(res)).state).toBe('cancelling');
    const final = await waitFor('cancelled', async () => {
      const x = await getAnalysis(id);
      return x.state === 'cancelled' ? x : undefined;
    }, 60_000, 100);
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
    expect(completedLines(id)).toBe(1);
    expect((await getAnalysis(id)).state).toBe('completed');
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  }, 180_000);

  it('a bound from configuration fails the analysis with its code and names the bound; a retry is allowed', async () => {
    const w = await startWorker({ ANALYSIS_MAX_FILES: '3' });
    const created = await create(repos[4]!, repos[2]!);
    const failed = await waitFor('failed', async () => {
      const x = await getAnalysis(created.analysis.id);
      return x.state === 'failed' ? x : undefined;
    }, 60_000, 100);
    expect(failed.error).toMatchObject({ code: 'REPOSITORY_TOO_LARGE', limit: 'maxFiles' });
    expect(failed.stages.find((s: { name: string }) => s.name === 'inventory').state).toBe('failed');
    // A failed analysis does not block the pair: a new request makes a new analysis.
    const again = await create(repos[4]!, repos[2]!);
    expect(again.analysis.id).not.toBe(created.analysis.id);
    await w.stop();
  }, 120_000);
});
