// case-store benchmark: 100k cases and 5M evidence items, read through the gateway
// with autocannon at 16 connections. Rerun: see bench/cases/README.md (writes RESULTS.md).
// Real NATS and PostgreSQL; gateway, case-store and fact-indexer run as their built
// processes (services/*/dist), so `npx tsc -b tsconfig.build.json` first. The bench reaches the
// case-store only as the other services do: its process, its subjects and the events it consumes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { connect } from '@nats-io/transport-node';
import { createDb } from '@lineage/service-kit';
import { CasePublishedEvent, eventSubjects } from '@lineage/schemas';
import { lineageFactKey } from '@lineage/registry';
// The pipeline's stand-ins of the case-store's own tests and e2e tests: its manifest subject and its completed event.
import { completedEvent, fixtureManifest, manifestBytes } from '../../services/case-store/test/manifest-fixture';
import { Standins } from '../../services/case-store/test/standins';
import { freePort, startNats, startProcess, startService, waitFor, waitReady, type Proc } from '../../test/support/processes';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;
interface AutocannonResult {
  latency: { p50: number; p90: number; p99: number; max: number; average: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
  statusCodeStats?: Record<string, { count: number }>;
}

const CASES = Number(process.env.BENCH_CASES ?? 100_000);
const PER_CASE = Number(process.env.BENCH_EVIDENCE_PER_CASE ?? 50);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 20);
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const DB_NAME = process.env.BENCH_DATABASE ?? 'lineage_bench_cases';
const ADMIN = 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_URL = `postgres://postgres@127.0.0.1:5432/${DB_NAME}`;
/** The case-store's schema, which it creates and migrates itself when it starts (MIGRATE_ON_START). */
const SCHEMA = 'cases';
const VERDICTS = ['INDEPENDENT', 'SHARED_UPSTREAM', 'DECLARED_FORK', 'LIKELY_DERIVED', 'HEAVILY_DERIVED', 'INSUFFICIENT_EVIDENCE'];

const log = (msg: string) => process.stdout.write(`[bench/cases ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);

/** Create the database if needed (before the case-store starts and migrates it). */
async function createDatabase(): Promise<void> {
  const admin = new Client({ connectionString: ADMIN });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [DB_NAME])).rowCount;
  if (!exists) await admin.query(`create database ${DB_NAME}`);
  await admin.end();
}

/**
 * The report the running case-store writes for one analysis of PER_CASE evidence items, reached as the pipeline
 * reaches it: the manifest served on `lineage.analysis.manifest`, the analysis-completed event on JetStream, and the
 * case-published event it answers with.
 */
async function reportFromCaseStore(natsUrl: string, db: ReturnType<typeof createDb>): Promise<unknown> {
  const analysisId = '1';
  const o = {
    originUrl: 'https://github.com/o/r',
    targetUrl: 'https://gitlab.com/t/r',
    originCommit: 'a'.repeat(40),
    targetCommit: 'b'.repeat(40),
    evidence: PER_CASE,
  };
  const { bytes, hash } = manifestBytes(fixtureManifest(o));
  const pipeline = await Standins.connect(natsUrl);
  try {
    pipeline.manifests.set(analysisId, { bytes, hash });
    pipeline.servePipeline();
    let caseId: string | undefined;
    pipeline.nc.subscribe(eventSubjects.casePublished, {
      callback: (_e, msg) => {
        const e = CasePublishedEvent.parse(msg.json());
        if (e.analysisId === analysisId) caseId = e.caseId;
      },
    });
    await pipeline.publish(completedEvent(analysisId, o, hash, bytes.length));
    const id = await waitFor('the case-store to publish the template case', async () => caseId, 60_000, 50);
    const [row] = (await db.raw(`select report from ${SCHEMA}.cases where id = ?`, [id])).rows;
    return row.report;
  } finally {
    await pipeline.close();
  }
}

/** Seed unless the database already holds the requested sizes; the case-store is running (it made the schema). */
async function seed(natsUrl: string): Promise<{ seconds: number; reused: boolean }> {
  const db = createDb({ url: DB_URL, schema: SCHEMA, poolMax: 2, applicationName: 'bench-cases-seed' });
  try {
    const [{ n: cases }] = (await db.raw('select count(*)::int as n from cases.cases')).rows;
    const [{ n: evidence }] = (await db.raw('select count(*)::bigint as n from cases.evidence')).rows;
    if (cases === CASES && Number(evidence) === CASES * PER_CASE) return { seconds: 0, reused: true };
    const t0 = Date.now();
    // One realistic report, the one the case-store writes for a PER_CASE-item manifest, is the template of every
    // case. Analysis 1 must be new to the case-store (an existing case would be announced again, not rebuilt), and
    // its case goes again with the bulk insert below.
    await db.raw('truncate cases.evidence, cases.cases restart identity');
    const template = await reportFromCaseStore(natsUrl, db);
    await db.raw('truncate cases.evidence, cases.cases restart identity');
    const batch = 10_000;
    for (let from = 1; from <= CASES; from += batch) {
      const to = Math.min(CASES, from + batch - 1);
      const urls = { origin: [] as string[], target: [] as string[] };
      const factKeys: string[] = [];
      for (let g = from; g <= to; g++) {
        const pair = benchPair(g);
        urls.origin.push(pair.originUrl);
        urls.target.push(pair.targetUrl);
        factKeys.push(lineageFactKey(1n, pair).toString()); // as the consumer stores it (template 1)
      }
      await db.raw(
        `insert into cases.cases (analysis_id, origin_url, origin_commit, origin_committed_at, target_url, target_commit, target_committed_at,
           verdict, confidence, direction, manifest_hash, engine_version, evidence_count, fact_template_id, fact_key, report, created_at)
         select g, (?::text[])[g - ? + 1], lpad(to_hex(g * 2), 40, '0'), 1600000000 + g,
           (?::text[])[g - ? + 1], lpad(to_hex(g * 2 + 1), 40, '0'), 1600100000 + g,
           (?::text[])[1 + g % 6], (array['LOW','MEDIUM','HIGH'])[1 + g % 3], (array['ORIGIN_TO_TARGET','TARGET_TO_ORIGIN','NONE'])[1 + g % 3],
           '0x' || encode(sha256(g::text::bytea), 'hex'), 'bench-engine', ?, 1, (?::text[])[g - ? + 1], ?::jsonb, 1700000000 + g
         from generate_series(?::int, ?::int) g`,
        [urls.origin, from, urls.target, from, VERDICTS, PER_CASE, factKeys, from, JSON.stringify(template), from, to],
      );
      await db.raw(
        `insert into cases.evidence (case_id, seq, layer, strength, kind, language, origin_path, target_path, item)
         select c.id, s, l.layer, st.strength, k.kind, lang.language, p.path, p.path,
           jsonb_build_object('layer', l.layer, 'kind', k.kind, 'strength', st.strength, 'score', to_char((1000 - s) / 1000.0, 'FM0.0000'),
             'language', lang.language,
             'origin', jsonb_build_object('path', p.path, 'startLine', s * 3, 'endLine', s * 3 + 12, 'blobId', md5(c.id || ':o:' || s)),
             'target', jsonb_build_object('path', p.path, 'startLine', s * 2, 'endLine', s * 2 + 12, 'blobId', md5(c.id || ':t:' || s)),
             'detail', 'matched fragment of ' || (20 + s % 40) || ' tokens')
         from cases.cases c
         cross join generate_series(1, ?::int) s
         cross join lateral (select (array['CODE','STRUCTURE','HISTORY','TEST','LANGUAGE','DEPENDENCY'])[1 + (s + c.id::int) % 6] as layer) l
         cross join lateral (select (array['STRONG','MODERATE','WEAK'])[1 + (s * 3 / (? + 1))] as strength) st
         cross join lateral (select (array['CODE_FRAGMENT','SAME_FILE_LAYOUT','SHARED_COMMIT','SAME_TEST_NAME','RARE_IDENTIFIER','SAME_DEPENDENCY','SAME_COMMENT'])[1 + (s * 7 + c.id::int) % 7] as kind) k
         cross join lateral (select (array['typescript','python','go',null])[1 + s % 4] as language) lang
         cross join lateral (select (array['src/core/','src/util/','lib/','test/','docs/'])[1 + s % 5] || 'file' || (s % 13) || '.ts' as path) p
         where c.id between ? and ?`,
        [PER_CASE, PER_CASE, from, to],
      );
      log(`seeded cases ${from}..${to}`);
    }
    log('vacuum analyze');
    await db.raw('vacuum analyze cases.cases');
    await db.raw('vacuum analyze cases.evidence');
    return { seconds: Math.round((Date.now() - t0) / 1000), reused: false };
  } finally {
    await db.destroy();
  }
}

// Repository names of varied words, as on a real forge (a uniform "ownerN/repo-N" pattern would
// make every URL share the same trigrams, which no real index sees).
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ra',
  'ten',
  'vo',
  'zu',
  'pe',
  'shi',
  'do',
  'ne',
  'ga',
  'bri',
  'sol',
  'tar',
  'wen',
  'qui',
  'fa',
  'lu',
  'mor',
  'dex',
  'ix',
  'an',
  'el',
  'or',
  'us',
  'ny',
  'ha',
  'jo',
  'ce',
  'ri',
  'po',
];
const WORDS = [
  'core',
  'lib',
  'kit',
  'api',
  'cli',
  'ui',
  'sdk',
  'db',
  'web',
  'app',
  'engine',
  'tools',
  'server',
  'parser',
  'utils',
  'plugin',
];
const HOSTS = ['github.com', 'gitlab.com', 'codeberg.org', 'bitbucket.org'];
const word = (n: number, parts: number) =>
  Array.from({ length: parts }, (_, i) => SYLLABLES[Math.floor(n / SYLLABLES.length ** i) % SYLLABLES.length]).join('');
/** Case g's pair: 5,000 origin owners with many repositories each; every target is a different owner's repository. */
/**
 * Read the tables and indexes (and their TOAST) into the OS page cache, as on a server that has
 * been serving them: otherwise the first minutes measure the virtual disk (the evidence table
 * alone is 2.7 GB; PostgreSQL keeps its default 128 MB of shared buffers).
 */
async function prewarm(): Promise<void> {
  const db = new Client({ connectionString: DB_URL });
  await db.connect();
  try {
    await db.query('create extension if not exists pg_prewarm');
    const t0 = Date.now();
    const { rows } = await db.query<{ blocks: string }>(
      `select coalesce(sum(pg_prewarm(r.oid, 'read')), 0)::bigint as blocks from pg_class c join pg_namespace n on n.oid = c.relnamespace,
         lateral (select c.oid union all select c.reltoastrelid where c.reltoastrelid <> 0) r(oid)
       where n.nspname = $1 and c.relkind in ('r', 'i')`,
      [SCHEMA],
    );
    log(`prewarmed ${rows[0]!.blocks} blocks in ${Date.now() - t0} ms`);
  } finally {
    await db.end();
  }
}

function benchPair(g: number) {
  const owner = (k: number) => `${word(k * 7919, 3)}${k % 10}`;
  const repo = (k: number) => `${word(k * 104729, 2)}-${WORDS[k % WORDS.length]}`;
  return {
    originUrl: `https://${HOSTS[g % 2]}/${owner(g % 5000)}/${repo(g)}`,
    originCommit: (g * 2).toString(16).padStart(40, '0'),
    targetUrl: `https://${HOSTS[g % 4]}/${owner(5000 + (g % 20000))}/${repo(g + 7)}`,
    targetCommit: (g * 2 + 1).toString(16).padStart(40, '0'),
  };
}
const ownerName = (url: string) => url.split('/').slice(3, 5).join('/');

const rand = (n: number) => 1 + Math.floor(Math.random() * n);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)]!;

interface Scenario {
  /** short key for BENCH_ONLY */
  key: string;
  name: string;
  path: () => string;
  /** The same request as a NATS request straight to the case-store (no gateway). */
  nats: () => { subject: string; payload: Record<string, unknown> };
  /** The HTTP status every request answers (200 unless the scenario measures an error path). */
  status?: number;
}

const SCENARIOS: Scenario[] = [
  {
    key: 'cases',
    name: 'GET /cases (newest first, half with a verdict filter)',
    path: () => (Math.random() < 0.5 ? '/api/v1/cases?limit=20' : `/api/v1/cases?limit=20&verdict=${pick(VERDICTS)}`),
    nats: () => ({ subject: 'lineage.cases.list', payload: Math.random() < 0.5 ? { limit: 20 } : { limit: 20, verdict: pick(VERDICTS) } }),
  },
  {
    key: 'case',
    name: 'GET /cases/{id} (random of 100k)',
    path: () => `/api/v1/cases/${rand(CASES)}`,
    nats: () => ({ subject: 'lineage.cases.get', payload: { id: String(rand(CASES)) } }),
  },
  {
    key: 'evidence',
    name: 'GET /cases/{id}/evidence filtered, with facets',
    path: () => {
      const f = pick([
        `layer=${pick(['CODE', 'STRUCTURE', 'HISTORY', 'TEST'])}`,
        'strength=STRONG',
        `kind=${pick(['CODE_FRAGMENT', 'SHARED_COMMIT'])}`,
        'path=src/',
        'layer=CODE&path=src/core/',
        'strength=MODERATE&layer=TEST',
      ]);
      return `/api/v1/cases/${rand(CASES)}/evidence?${f}&limit=20`;
    },
    nats: () => ({
      subject: 'lineage.cases.evidence',
      payload: {
        id: String(rand(CASES)),
        limit: 20,
        ...pick<Record<string, string>>([
          { layer: 'CODE' },
          { strength: 'STRONG' },
          { kind: 'SHARED_COMMIT' },
          { path: 'src/' },
          { layer: 'CODE', path: 'src/core/' },
        ]),
      },
    }),
  },
  {
    // The cost of the hops alone: a 20-digit id is a valid id to the gateway, but larger than any
    // bigint, so the case-store answers CASE_NOT_FOUND without asking PostgreSQL. A route that reads
    // the database cannot be cheaper than this row.
    key: 'floor',
    name: 'GET /cases/{id} for an id that cannot exist (404, no database read)',
    path: () => `/api/v1/cases/9${String(rand(CASES)).padStart(19, '0')}`,
    nats: () => ({ subject: 'lineage.cases.get', payload: { id: `9${String(rand(CASES)).padStart(19, '0')}` } }),
    status: 404,
  },
  {
    key: 'search',
    name: 'GET /search (owner/name or owner, case id, verdict)',
    path: () => {
      const r = Math.random();
      if (r < 0.35) return `/api/v1/search?q=${encodeURIComponent(ownerName(benchPair(rand(CASES)).originUrl))}&limit=20`;
      if (r < 0.5) return `/api/v1/search?q=${encodeURIComponent(ownerName(benchPair(rand(CASES)).targetUrl).split('/')[0]!)}&limit=20`;
      if (r < 0.75) return `/api/v1/search?q=${rand(CASES)}&limit=20`;
      return `/api/v1/search?q=${pick(VERDICTS).toLowerCase()}&limit=20`;
    },
    nats: () => {
      const r = Math.random();
      const q = r < 0.5 ? ownerName(benchPair(rand(CASES)).originUrl) : r < 0.75 ? String(rand(CASES)) : pick(VERDICTS).toLowerCase();
      return { subject: 'lineage.cases.search', payload: { q, limit: 20 } };
    },
  },
];

/** CPU time (user + system, ms) of a process and its threads, from /proc. */
function cpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return ((Number(rest[11]) + Number(rest[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0; // the process ended between listing and reading
  }
}
const CLOCK_TICKS = 100; // USER_HZ: /proc reports times in 1/100 s on Linux

/** Every PostgreSQL server process (the postmaster and its backends): their CPU is the database's share. */
function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((d) => /^[0-9]+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    });
}

/** CPU of each part of the system over a measurement: named processes, PostgreSQL (all its processes), and this load generator. */
function cpuSnapshot(procs: { name: string; pid: number }[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of procs) m.set(p.name, cpuMs(p.pid));
  m.set(
    'postgres',
    postgresPids().reduce((a, pid) => a + cpuMs(pid), 0),
  );
  const self = process.cpuUsage();
  m.set('load generator', (self.user + self.system) / 1000);
  return m;
}

async function measure(base: string, s: Scenario, seconds: number): Promise<AutocannonResult> {
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'GET', setupRequest: (req: Record<string, unknown>) => ({ ...req, path: s.path() }) }],
  });
}

/** Closed-loop NATS requests from `connections` concurrent callers; latencies in ms. */
async function measureNats(
  url: string,
  s: Scenario,
  seconds: number,
): Promise<{ rps: number; p50: number; p90: number; p99: number; max: number; total: number; failed: number }> {
  const nc = await connect({ servers: url });
  const latencies: number[] = [];
  let failed = 0;
  const end = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < end) {
      const { subject, payload } = s.nats();
      const t0 = performance.now();
      try {
        const reply = (await nc.request(subject, JSON.stringify(payload), { timeout: 5000 })).json<{ ok: boolean }>();
        if (reply.ok !== !s.status) failed += 1;
      } catch {
        failed += 1;
      }
      latencies.push(performance.now() - t0);
    }
  };
  const t0 = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (Date.now() - t0) / 1000;
  await nc.drain();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!);
  return {
    rps: Math.round(latencies.length / elapsed),
    p50: q(0.5),
    p90: q(0.9),
    p99: q(0.99),
    max: q(1),
    total: latencies.length,
    failed,
  };
}

async function main(): Promise<void> {
  await createDatabase();
  const nats = await startNats();
  const procs: Proc[] = [];
  try {
    const env = { NATS_URL: nats.url, DATABASE_URL: DB_URL, LOG_LEVEL: 'warn', MIGRATE_ON_START: 'true', RATE_LIMIT_ENABLED: 'false' };
    const ports = { gateway: await freePort(), 'case-store': await freePort(), 'fact-indexer': await freePort() };
    // BENCH_PROFILE_DIR: each service writes a V8 CPU profile there when it stops.
    const prof = process.env.BENCH_PROFILE_DIR;
    for (const name of ['case-store', 'fact-indexer', 'gateway'] as const) {
      const e = { ...env, HTTP_PORT: String(ports[name]) };
      procs.push(
        prof
          ? startProcess(
              name,
              process.execPath,
              ['--cpu-prof', `--cpu-prof-dir=${prof}`, `--cpu-prof-name=${name}.cpuprofile`, join('services', name, 'dist', 'main.js')],
              e,
            )
          : startService(name, e),
      );
    }
    await Promise.all(Object.values(ports).map((p) => waitReady(p, 60_000)));
    log(`seeding ${CASES} cases × ${PER_CASE} evidence items into ${DB_NAME} (reused when already seeded)`);
    const seeded = await seed(nats.url);
    log(seeded.reused ? 'seed reused' : `seeded in ${seeded.seconds}s`);
    if (process.env.BENCH_SEED_ONLY === '1') return;
    await prewarm();
    const base = `http://127.0.0.1:${ports.gateway}`;
    const only = process.env.BENCH_ONLY?.split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    const scenarios = only ? SCENARIOS.filter((s) => only.includes(s.key)) : SCENARIOS;
    // Sanity: every scenario answers as expected before it is measured.
    for (const s of SCENARIOS) {
      const res = await fetch(base + s.path());
      if (res.status !== (s.status ?? 200)) throw new Error(`${s.name}: ${res.status} ${await res.text()}`);
    }
    const loadBefore = loadavg()[0]!.toFixed(1);
    const measured: { key: string; name: string; rps: number; r: Awaited<ReturnType<typeof measure>>; failed: number }[] = [];
    const cpuRows: string[] = [];
    const watched = [...procs.map((p) => ({ name: p.name, pid: p.child.pid! })), { name: 'nats-server', pid: nats.child.pid! }];
    const parts = ['gateway', 'case-store', 'fact-indexer', 'nats-server', 'postgres', 'load generator'];
    for (const s of scenarios) {
      log(`warm-up ${s.name}`);
      await measure(base, s, WARMUP);
      log(`measure ${s.name} (${DURATION}s, ${CONNECTIONS} connections)`);
      const before = cpuSnapshot(watched);
      const r = await measure(base, s, DURATION);
      const after = cpuSnapshot(watched);
      // A scenario that measures an error path expects every answer to be that error.
      const failed = (s.status ? r.requests.total - (r.statusCodeStats?.[String(s.status)]?.count ?? 0) : r.non2xx) + r.errors + r.timeouts;
      measured.push({ key: s.key, name: s.name, rps: r.requests.average, r, failed });
      const per = parts.map((n) => (after.get(n)! - before.get(n)!) / Math.max(1, r.requests.total));
      // Busy cores ÷ CPU per request caps throughput; in a closed loop the mean latency is connections ÷ throughput.
      const total = per.reduce((a, b) => a + b, 0);
      const ceiling = (cpus().length * 1000) / Math.max(total, 0.001);
      cpuRows.push(
        `| ${s.name} | ${per.map((x) => x.toFixed(2)).join(' | ')} | ${total.toFixed(2)} | ${Math.round(ceiling)} | ${Math.round((CONNECTIONS * 1000) / ceiling)} |`,
      );
      log(`| ${s.name} | ${Math.round(r.requests.average)} | ${r.latency.p99} |`);
      log(cpuRows[cpuRows.length - 1]!);
    }
    // Each route's throughput as a share of the floor's in the same run: the machine's speed varies from run to
    // run (a shared virtual machine), the ratio much less.
    const floor = measured.find((m) => m.key === 'floor')?.rps;
    const rows = measured.map(
      ({ name, rps, r, failed }) =>
        `| ${name} | ${Math.round(rps)} | ${floor ? (rps / floor).toFixed(2) : 'n/a'} | ${r.latency.p50} | ${r.latency.p90} | ${r.latency.p99} | ${r.latency.max} | ${r.requests.total} | ${failed} |`,
    );
    for (const row of rows) log(row);
    if (only) {
      log('BENCH_ONLY is set: RESULTS.md is not rewritten');
      return;
    }
    // The same requests straight to the case-store over NATS: what the service itself sustains.
    const direct: string[] = [];
    for (const s of scenarios) {
      await measureNats(nats.url, s, WARMUP);
      const r = await measureNats(nats.url, s, DURATION);
      direct.push(
        `| ${s.name.replace(/^GET /, 'NATS ')} | ${r.rps} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.total} | ${r.failed} |`,
      );
      log(direct[direct.length - 1]!);
    }
    const md = [
      '# case-store benchmark',
      '',
      `Seeded ${CASES.toLocaleString('en')} cases and ${(CASES * PER_CASE).toLocaleString('en')} evidence items (${PER_CASE} per case; realistic report JSON per case).`,
      `Measured through the gateway (gateway → NATS → case-store → PostgreSQL; \`GET /cases/{id}\` checks the fact presence set; the fact-indexer has no facts here, so the set is empty and no read asks it)`,
      `with autocannon, ${CONNECTIONS} connections, ${WARMUP}s warm-up then ${DURATION}s per row. Services log at \`warn\`; rate limit off.`,
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; load generator, services and PostgreSQL share it.`,
      '',
      '| scenario | req/s | of floor | p50 ms | p90 ms | p99 ms | max ms | requests | unexpected status/errors |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      'The same requests sent straight to the case-store as NATS requests (no gateway; a closed loop of',
      `${CONNECTIONS} concurrent callers in one Node process), to separate the case-store's share from the HTTP hop:`,
      '',
      '| scenario | req/s | p50 ms | p90 ms | p99 ms | max ms | requests | errors |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...direct,
      '',
      `CPU per request through the gateway, by process (ms; from /proc over each ${DURATION} s measurement; PostgreSQL is all its processes).`,
      `The ceiling is ${cpus().length} cores ÷ the total: no run on this machine can go faster. At the ceiling, ${CONNECTIONS} connections in a closed loop`,
      "have a mean latency of connections ÷ throughput (Little's law): no run here can have a lower mean.",
      '',
      `| scenario | ${parts.join(' | ')} | total | ceiling req/s | least mean latency ms |`,
      `|---|${parts.map(() => '---:').join('|')}|---:|---:|---:|`,
      ...cpuRows,
      '',
      `1-minute load average ${loadBefore} before and ${loadavg()[0]!.toFixed(1)} after the runs (anything above ~2.5 means other work shared the 2 cores).`,
      '',
      `Run ${new Date().toISOString().slice(0, 16)}Z. ${seeded.reused ? 'Seed reused from an earlier run.' : `Seeding took ${seeded.seconds}s.`}`,
      '',
      'Rerun (after `npx tsc -b tsconfig.build.json`):',
      '',
      '```',
      'node -r ./scripts/swc-register.cjs bench/cases/run.ts',
      '```',
      '',
      'See README.md for the knobs and what each scenario requests.',
      '',
    ].join('\n');
    writeFileSync(join(__dirname, 'RESULTS.md'), md);
    log('wrote bench/cases/RESULTS.md');
  } finally {
    for (const p of procs) await p.stop();
    await nats.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
