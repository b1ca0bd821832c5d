// A soak with faults: the whole system, two replicas of every service, real
// NATS JetStream, PostgreSQL, anvil and a git smart-HTTP server, all on
// loopback; mixed traffic for a bounded time while a random replica is
// SIGKILLed every 30 s (and restarted), and NATS is restarted once.
//
//   node -r ./scripts/swc-register.cjs bench/soak/run.ts [--minutes 10] [--seed 1] [--out bench/soak/RESULTS.md]
//
// After `make build`, with PostgreSQL up (the harness starts its own NATS,
// anvil and git server). Writes RESULTS.md: requests by status and route,
// analyses submitted vs completed, duplicates, p99 of reads outside fault
// windows, and each process's memory over time.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertDev, deployDev, startAnvil } from '@lineage/registry';
import { buildRepo } from '../../test/fixtures/git-builder';
import { depsFor, makeModules, renderProject } from '../../test/fixtures/project';
import { STYLE_B } from '../../test/fixtures/codegen';
import { startGitServer } from '../../test/support/git-http';
import {
  freePort,
  freshDatabase,
  sleep,
  startProcess,
  startService,
  waitFor,
  SERVICES,
  type Proc,
  type ServiceName,
} from '../../test/support/processes';

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt;
};
const MINUTES = Number(arg('minutes', '10'));
const SEED = Number(arg('seed', '1'));
const OUT = arg('out', join(__dirname, 'RESULTS.md'));
const KILL_EVERY_MS = 30_000;
/** Every child process this run starts, so a failed run can stop them all. */
const started: ChildProcess[] = [];
const REPLICAS = 2;
const READ_CLIENTS = 3;
const ANALYSIS_EVERY_MS = 4_000;
/** Reads this long after a fault is healed still count as inside its window. */
const SETTLE_MS = 5_000;

/** mulberry32: a small seeded generator, so a run's choices repeat with its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

interface Replica {
  service: ServiceName;
  index: number;
  port: number;
  proc: Proc;
  starts: number;
  memory: { t: number; rssMb: number }[];
}
interface Window {
  from: number;
  to: number | null;
  what: string;
}

function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

async function ready(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/ready`, { signal: AbortSignal.timeout(2000) })).status === 200;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const now = (): number => Date.now() - t0;
  const root = mkdtempSync(join(tmpdir(), 'lineage-soak-'));
  const natsStore = join(root, 'nats');
  const natsPort = await freePort();
  const startNatsServer = async (): Promise<Proc> => {
    const p = startProcess('nats', process.env.NATS_SERVER_BIN ?? 'nats-server', [
      '-a',
      '127.0.0.1',
      '-p',
      String(natsPort),
      '-js',
      '-sd',
      natsStore,
    ]);
    started.push(p.child);
    await waitFor('nats-server', async () => /Server is ready/.test(p.output()), 15_000, 50);
    return p;
  };
  let nats = await startNatsServer();
  const db = await freshDatabase('lineage_soak');
  const anvil = await startAnvil({ slotsInAnEpoch: 1 });
  const registry = await deployDev(anvil.rpcUrl);

  // Small repositories with history, all distinct, so every analysis is a new pinned pair.
  const REPOS = 16;
  const repos: { url: string; commit: string; dir: string }[] = [];
  for (let i = 0; i < REPOS; i++) {
    const dir = join(root, 'git', `r${i}.git`);
    const mods = makeModules(5000 + (i % 8), 3, 6); // pairs of repositories share modules: derived pairs as well as independent ones
    const files = renderProject(mods, { name: `soak-${i}`, deps: depsFor(i), ...(i >= 8 ? { style: STYLE_B, renameSeed: i } : {}) });
    const commit = buildRepo(dir, {
      commits: [
        { time: 1_600_000_000 + i * 86_400, message: `r${i}`, files },
        { time: 1_600_000_000 + i * 86_400 + 3600, message: `r${i} more`, files: { [`extra-${i}.md`]: `# repo ${i}\n` } },
      ],
    });
    repos.push({ dir, commit, url: '' });
  }
  const git = await startGitServer(join(root, 'git'));
  for (let i = 0; i < REPOS; i++) repos[i]!.url = `${git.url}/r${i}.git`;

  const env = {
    NATS_URL: `nats://127.0.0.1:${natsPort}`,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'warn',
    MIGRATE_ON_START: 'true',
    RATE_LIMIT_ENABLED: 'false',
    SHUTDOWN_TIMEOUT_MS: '10000',
  };
  const perService: Partial<Record<ServiceName, Record<string, string>>> = {
    'analysis-pipeline': { LINEAGE_REPO_ALLOWED_HOSTS: git.url, LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'true', WORKER_THREADS: '1' },
    'chain-reader': { RPC_URL: anvil.rpcUrl, REGISTRY_ADDRESS: registry.address, REGISTRY_DEPLOYED_BLOCK: String(registry.deployedBlock) },
  };
  const replicas: Replica[] = [];
  for (const service of SERVICES) {
    for (let index = 0; index < REPLICAS; index++) {
      const port = await freePort();
      const extra = {
        ...(perService[service] ?? {}),
        ...(service === 'analysis-pipeline' ? { REPO_CACHE_DIR: join(root, `cache-${index}`) } : {}),
      };
      replicas.push({
        service,
        index,
        port,
        starts: 1,
        memory: [],
        proc: startService(service, { ...env, ...extra, HTTP_PORT: String(port) }),
      });
      started.push(replicas[replicas.length - 1]!.proc.child);
    }
  }
  const restart = (r: Replica): void => {
    const extra = {
      ...(perService[r.service] ?? {}),
      ...(r.service === 'analysis-pipeline' ? { REPO_CACHE_DIR: join(root, `cache-${r.index}`) } : {}),
    };
    r.proc = startService(r.service, { ...env, ...extra, HTTP_PORT: String(r.port) });
    started.push(r.proc.child);
    r.starts++;
    r.memory.push({ t: now(), rssMb: -1 }); // a restart: the series starts over
  };
  await waitFor(
    'every replica ready',
    async () => (await Promise.all(replicas.map((r) => ready(r.port)))).every(Boolean),
    120_000,
    250,
  ).catch(async (e) => {
    for (const r of replicas)
      if (!(await ready(r.port))) process.stderr.write(`--- ${r.service}#${r.index} not ready\n${r.proc.output().slice(-3000)}\n`);
    throw e;
  });
  const gateways = replicas.filter((r) => r.service === 'gateway');
  const allReady = async (): Promise<boolean> => (await Promise.all(replicas.map((r) => ready(r.port)))).every(Boolean);

  // ---- traffic ----
  const byStatus = new Map<string, number>();
  const byRoute = new Map<string, Map<string, number>>();
  const latencies: { t: number; ms: number }[] = [];
  let retriedOnOtherGateway = 0;
  const windows: Window[] = [];
  const statusAt: { t: number; status: string }[] = [];
  const count = (route: string, status: string): void => {
    statusAt.push({ t: now(), status });
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    const m = byRoute.get(route) ?? new Map<string, number>();
    m.set(status, (m.get(status) ?? 0) + 1);
    byRoute.set(route, m);
  };
  /** A client that tries one gateway, then the other if the first refuses the connection (as a load balancer would). */
  async function call(route: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const first = Math.floor(rand() * gateways.length);
    for (let k = 0; k < gateways.length; k++) {
      const g = gateways[(first + k) % gateways.length]!;
      const start = performance.now();
      try {
        const res = await fetch(`http://127.0.0.1:${g.port}/api/v1${path}`, {
          method,
          headers: body ? { 'content-type': 'application/json' } : {},
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        const ms = performance.now() - start;
        count(route, String(res.status));
        if (method === 'GET') latencies.push({ t: now(), ms });
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON: counted by status */
        }
        return { status: res.status, json };
      } catch (e) {
        if (k + 1 < gateways.length && (e as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') {
          retriedOnOtherGateway++;
          continue;
        }
        count(route, (e as Error).name === 'TimeoutError' ? 'timeout' : 'connection error');
        return { status: 0, json: null };
      }
    }
    return { status: 0, json: null };
  }

  const submitted = new Map<string, number>(); // analysis id -> submit time
  const pairsUsed = new Set<string>();
  const caseIds: string[] = [];
  const factKeys: string[] = [];
  const endAt = t0 + MINUTES * 60_000;
  let running = true;

  const analysesLoop = (async () => {
    while (running) {
      let o = 0;
      let t = 0;
      for (let tries = 0; tries < 50; tries++) {
        o = Math.floor(rand() * REPOS);
        t = Math.floor(rand() * REPOS);
        if (o !== t && !pairsUsed.has(`${o}:${t}`)) break;
      }
      if (o !== t && !pairsUsed.has(`${o}:${t}`)) {
        const r = await call('POST /analyses', 'POST', '/analyses', {
          pair: { origin: { url: repos[o]!.url, commit: repos[o]!.commit }, target: { url: repos[t]!.url, commit: repos[t]!.commit } },
        });
        const a = (r.json as { analysis?: { id: string } } | null)?.analysis;
        if ((r.status === 202 || r.status === 200) && a) {
          pairsUsed.add(`${o}:${t}`);
          if (!submitted.has(a.id)) submitted.set(a.id, now());
        }
      }
      await sleep(ANALYSIS_EVERY_MS);
    }
  })();

  const reader = async (): Promise<void> => {
    while (running) {
      const x = rand();
      if (x < 0.3) {
        const r = await call('GET /cases', 'GET', '/cases?limit=20');
        const items = (r.json as { items?: { id: string }[] } | null)?.items ?? [];
        for (const c of items) if (!caseIds.includes(c.id)) caseIds.push(c.id);
      } else if (x < 0.45 && caseIds.length) await call('GET /cases/{id}', 'GET', `/cases/${pick(caseIds)}`);
      else if (x < 0.55 && caseIds.length) await call('GET /cases/{id}/evidence', 'GET', `/cases/${pick(caseIds)}/evidence?limit=20`);
      else if (x < 0.7)
        await call(
          'GET /search',
          'GET',
          `/search?q=${pick(['soak', 'LIKELY_DERIVED', 'INDEPENDENT', 'r1', String(1 + Math.floor(rand() * 50))])}&limit=10`,
        );
      else if (x < 0.8) await call('GET /facts', 'GET', '/facts?limit=20');
      else if (x < 0.87 && factKeys.length) await call('GET /facts/{key}', 'GET', `/facts/${pick(factKeys)}`);
      else if (x < 0.93) await call('GET /protocol', 'GET', '/protocol');
      else if (submitted.size) await call('GET /analyses/{id}', 'GET', `/analyses/${pick([...submitted.keys()])}`);
      await sleep(50 + rand() * 100);
    }
  };
  const readers = Array.from({ length: READ_CLIENTS }, reader);

  // A few facts on the chain, for the facts reads: asserted for the first cases as they appear.
  const factsLoop = (async () => {
    const done = new Set<string>();
    while (running && done.size < 3) {
      for (const id of caseIds.slice(0, 3)) {
        if (done.has(id)) continue;
        const r = await call('GET /cases/{id}', 'GET', `/cases/${id}`);
        const c = (
          r.json as {
            case?: { pair: { origin: { url: string; commit: string }; target: { url: string; commit: string } }; manifestHash: string };
          } | null
        )?.case;
        if (!c) continue;
        try {
          const a = await assertDev({
            rpcUrl: anvil.rpcUrl,
            address: registry.address,
            pair: {
              originUrl: c.pair.origin.url,
              originCommit: c.pair.origin.commit,
              targetUrl: c.pair.target.url,
              targetCommit: c.pair.target.commit,
            },
            outcome: 'TRUE',
            manifestHash: c.manifestHash as `0x${string}`,
          });
          factKeys.push(String(a.factKey));
          done.add(id);
        } catch {
          /* retried next round */
        }
      }
      await sleep(2000);
    }
  })();

  // ---- memory samples ----
  const memLoop = (async () => {
    while (running) {
      for (const r of replicas) {
        const mb = rssMb(r.proc.child.pid);
        if (mb !== null) r.memory.push({ t: now(), rssMb: mb });
      }
      await sleep(10_000);
    }
  })();

  // ---- faults ----
  const faults: string[] = [];
  const natsAt = Math.floor((MINUTES * 60_000) / 2);
  let natsDone = false;
  let nextKill = KILL_EVERY_MS;
  while (Date.now() < endAt) {
    await sleep(1000);
    if (!natsDone && now() >= natsAt) {
      natsDone = true;
      const w: Window = { from: now(), to: null, what: 'NATS restarted' };
      windows.push(w);
      await nats.stop('SIGTERM');
      await sleep(2000);
      nats = await startNatsServer();
      await waitFor('all replicas ready after NATS', allReady, 120_000, 250).catch(() => undefined);
      w.to = now() + SETTLE_MS;
      faults.push(
        `${(w.from / 1000).toFixed(0)} s: NATS stopped for 2 s and restarted; every replica ready again after ${((now() - w.from) / 1000).toFixed(1)} s`,
      );
      nextKill = now() + KILL_EVERY_MS;
      continue;
    }
    if (now() >= nextKill) {
      nextKill += KILL_EVERY_MS;
      const r = pick(replicas);
      const w: Window = { from: now(), to: null, what: `${r.service}#${r.index} killed` };
      windows.push(w);
      await r.proc.stop('SIGKILL');
      await sleep(1000 + rand() * 4000);
      restart(r);
      await waitFor(`${r.service}#${r.index} ready`, () => ready(r.port), 120_000, 250).catch(() => undefined);
      w.to = now() + SETTLE_MS;
      faults.push(
        `${(w.from / 1000).toFixed(0)} s: ${r.service}#${r.index} SIGKILLed, restarted, ready after ${((now() - w.from) / 1000).toFixed(1)} s`,
      );
    }
  }
  running = false;
  await Promise.all([analysesLoop, ...readers, factsLoop, memLoop]);
  const trafficEnd = now();

  // ---- drain: every submitted analysis must finish ----
  const states = new Map<string, string>();
  const drainUntil = Date.now() + 10 * 60_000;
  while (Date.now() < drainUntil) {
    for (const id of submitted.keys()) {
      if (['completed', 'failed', 'cancelled'].includes(states.get(id) ?? '')) continue;
      const r = await call('GET /analyses/{id} (drain)', 'GET', `/analyses/${id}`);
      const a = (r.json as { analysis?: { state: string; caseId: string | null } } | null)?.analysis;
      if (a) states.set(id, a.state === 'completed' && !a.caseId ? 'completed, no case yet' : a.state);
    }
    if ([...submitted.keys()].every((id) => ['completed', 'failed', 'cancelled'].includes(states.get(id) ?? ''))) break;
    await sleep(2000);
  }
  const drainMs = now() - trafficEnd;

  // ---- duplicates, from the database itself ----
  const { Client } = await import('pg');
  const pg = new Client({ connectionString: db.url });
  await pg.connect();
  const dupCases = Number(
    (await pg.query('select count(*)::int as n from (select analysis_id from cases.cases group by analysis_id having count(*) > 1) d'))
      .rows[0].n,
  );
  const cases = Number((await pg.query('select count(*)::int as n from cases.cases')).rows[0].n);
  const dupAnalyses = Number(
    (
      await pg.query(
        'select count(*)::int as n from (select origin_url, origin_commit, target_url, target_commit from analysis.analyses group by 1, 2, 3, 4 having count(*) > 1) d',
      )
    ).rows[0].n,
  );
  await pg.end();

  // ---- report ----
  const inWindow = (t: number): boolean => windows.some((w) => t >= w.from && t <= (w.to ?? Infinity));
  const quiet = latencies
    .filter((l) => !inWindow(l.t))
    .map((l) => l.ms)
    .sort((a, b) => a - b);
  const faulty = latencies
    .filter((l) => inWindow(l.t))
    .map((l) => l.ms)
    .sort((a, b) => a - b);
  const pct = (xs: number[], p: number): string =>
    xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!.toFixed(1) : '-';
  const completed = [...states.values()].filter((s) => s === 'completed').length;
  const failed = [...states.values()].filter((s) => s === 'failed').length;
  const total = [...byStatus.values()].reduce((a, b) => a + b, 0);
  const lines: string[] = [];
  lines.push('# Soak with faults: results', '');
  lines.push(
    `Command: \`node -r ./scripts/swc-register.cjs bench/soak/run.ts --minutes ${MINUTES} --seed ${SEED}\` (after \`make build\`; PostgreSQL on 127.0.0.1:5432).`,
  );
  lines.push(
    `Run: ${new Date(t0).toISOString()}, ${cpus().length} cores, Node ${process.version}; ${REPLICAS} replicas of each of the five services, ${READ_CLIENTS} read clients, one analysis submitted every ${ANALYSIS_EVERY_MS / 1000} s, a random replica SIGKILLed every ${KILL_EVERY_MS / 1000} s, NATS restarted once at mid-run. Everything on loopback.`,
    '',
  );
  lines.push('## Outcome', '');
  lines.push('| what | value |', '|---|---|');
  lines.push(`| traffic time | ${(trafficEnd / 60_000).toFixed(1)} min |`);
  lines.push(`| requests | ${total} (${retriedOnOtherGateway} retried on the other gateway after a refused connection) |`);
  lines.push(`| analyses submitted / completed / failed | ${submitted.size} / ${completed} / ${failed} |`);
  lines.push(`| drain after traffic stopped | ${(drainMs / 1000).toFixed(1)} s |`);
  lines.push(`| cases | ${cases} |`);
  lines.push(`| duplicate cases for one analysis | ${dupCases} |`);
  lines.push(`| duplicate analyses for one pinned pair | ${dupAnalyses} |`);
  lines.push(
    `| GET latency outside fault windows: p50 / p99 / max (${quiet.length} requests) | ${pct(quiet, 50)} / ${pct(quiet, 99)} / ${quiet.length ? quiet[quiet.length - 1]!.toFixed(1) : '-'} ms |`,
  );
  lines.push(
    `| GET latency inside fault windows: p50 / p99 (${faulty.length} requests) | ${pct(faulty, 50)} / ${pct(faulty, 99)} ms |`,
    '',
  );
  lines.push(
    '## Requests by status',
    '',
    'A fault window runs from the kill (or NATS stop) until every replica is ready again, plus 5 s.',
    '',
    '| status | count | outside fault windows | inside |',
    '|---|---|---|---|',
  );
  for (const [s, n] of [...byStatus].sort()) {
    const outside = statusAt.filter((x) => x.status === s && !inWindow(x.t)).length;
    lines.push(`| ${s} | ${n} | ${outside} | ${n - outside} |`);
  }
  lines.push('', '## Requests by route and status', '', '| route | statuses |', '|---|---|');
  for (const [route, m] of [...byRoute].sort())
    lines.push(
      `| ${route} | ${[...m]
        .sort()
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ')} |`,
    );
  lines.push('', '## Faults', '');
  for (const f of faults) lines.push(`- ${f}`);
  lines.push(
    '',
    '## Memory (RSS, MB) of each process',
    '',
    'Sampled every 10 s; a replica that was killed starts a new series at its restart (the figures are of its last life).',
    '',
  );
  lines.push(
    '| replica | starts | first sample of last life | last sample | min / max of last life | samples |',
    '|---|---|---|---|---|---|',
  );
  for (const r of replicas) {
    const lastStart = r.memory.map((m) => m.rssMb).lastIndexOf(-1);
    const life = r.memory.slice(lastStart + 1).filter((m) => m.rssMb > 0);
    const v = life.map((m) => m.rssMb);
    lines.push(
      `| ${r.service}#${r.index} | ${r.starts} | ${v[0] ?? '-'} | ${v[v.length - 1] ?? '-'} | ${v.length ? `${Math.min(...v)} / ${Math.max(...v)}` : '-'} | ${v.length} |`,
    );
  }
  lines.push('');
  const text = lines.join('\n');
  writeFileSync(OUT, text);
  process.stdout.write(text);

  for (const r of replicas) await r.proc.stop();
  await nats.stop();
  await git.stop();
  await anvil.stop();
  await db.drop();
  rmSync(root, { recursive: true, force: true });
}

main().catch((e) => {
  process.stderr.write(`soak failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  // Leave nothing running: every service replica and NATS server this run started (a failed start-up left them before).
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  process.exit(1);
});
