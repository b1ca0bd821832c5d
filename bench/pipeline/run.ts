// Pipeline throughput and service-path overhead. Rerun (after `make build`, with
// PostgreSQL and NATS up):
//   node -r ./scripts/swc-register.cjs bench/pipeline/run.ts
// Writes bench/pipeline/RESULTS.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@lineage/engine';
import { SCENARIOS } from '../../test/fixtures/scenarios';
import { buildRepo } from '../../test/fixtures/git-builder';
import { makeModules, renderProject, depsFor } from '../../test/fixtures/project';
import { STYLE_B } from '../../test/fixtures/codegen';
import { startGitServer } from '../../test/support/git-http';
import { freePort, freshDatabase, startNats, startService, waitReady, type Proc } from '../../test/support/processes';

type Repo = { dir: string; commit: string; url: string };

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'lineage-bench-pipeline-'));
  const small: Repo[] = [];
  for (const s of SCENARIOS.filter((x) => ['fork-declared', 'renamed-copy', 'same-spec-independent', 'heavy-rewrite'].includes(x.name))) {
    const b = await s.build(root);
    small.push({ ...b.origin, url: '' }, { ...b.target, url: '' });
  }
  // One mid-size pair: 120 modules of 20 functions each side, the target a renamed, restyled copy of half.
  const mods = makeModules(900, 120, 20);
  const oDir = join(root, 'mid', 'origin.git');
  const tDir = join(root, 'mid', 'target.git');
  const mid: Repo[] = [
    {
      dir: oDir,
      commit: buildRepo(oDir, {
        commits: [{ time: 1_600_000_000, message: 'origin', files: renderProject(mods, { name: 'mid-origin', deps: depsFor(9) }) }],
      }),
      url: '',
    },
    {
      dir: tDir,
      commit: buildRepo(tDir, {
        commits: [
          {
            time: 1_610_000_000,
            message: 'target',
            files: renderProject([...mods.slice(0, 60), ...makeModules(901, 60, 20)], {
              name: 'mid-target',
              deps: depsFor(9),
              renameSeed: 3,
              style: STYLE_B,
            }),
          },
        ],
      }),
      url: '',
    },
  ];
  const git = await startGitServer(root);
  for (const r of [...small, ...mid]) r.url = `${git.url}/${r.dir.slice(root.length + 1).replace(/\.git$/, '')}`;

  const rows: string[] = [];
  for (const workerCount of [1, 2]) {
    const { api, stop } = await stack(git.port, workerCount);
    const pairs: [Repo, Repo][] = [];
    for (const o of small) for (const t of small) if (o !== t) pairs.push([o, t]);
    const t0 = Date.now();
    const ids = await Promise.all(pairs.map(([o, t]) => create(api, o, t)));
    await Promise.all(ids.map((id) => waitCompleted(api, id)));
    const ms = Date.now() - t0;
    rows.push(
      `| small pairs, ${workerCount} worker${workerCount > 1 ? 's' : ''} | ${pairs.length} | ${(ms / 1000).toFixed(1)} s | ${((pairs.length / ms) * 60_000).toFixed(1)} analyses/min |`,
    );
    if (workerCount === 1) {
      // Service path vs bare engine on the mid-size pair (the engine run first warms the OS cache equally for both).
      const e0 = Date.now();
      await analyze({
        origin: { dir: mid[0]!.dir, commit: mid[0]!.commit, url: mid[0]!.url },
        target: { dir: mid[1]!.dir, commit: mid[1]!.commit, url: mid[1]!.url },
        workers: 2,
      });
      const engineMs = Date.now() - e0;
      const s0 = Date.now();
      const id = await create(api, mid[0]!, mid[1]!);
      await waitCompleted(api, id);
      const serviceMs = Date.now() - s0;
      rows.push(`| mid-size pair (120 modules/side), bare engine | 1 | ${(engineMs / 1000).toFixed(2)} s | — |`);
      rows.push(
        `| mid-size pair, through gateway → queue → worker → completed | 1 | ${(serviceMs / 1000).toFixed(2)} s | overhead ${serviceMs - engineMs} ms (${((serviceMs / engineMs - 1) * 100).toFixed(0)} %) |`,
      );
    }
    await stop();
  }
  await git.stop();
  rmSync(root, { recursive: true, force: true });
  const table = ['| run | analyses | wall time | rate / overhead |', '|---|---|---|---|', ...rows].join('\n');
  writeFileSync(
    join(__dirname, 'RESULTS.md'),
    `# Pipeline benchmark\n\nMeasured on ${new Date().toISOString().slice(0, 10)} on this 2-core machine with\n\`node -r ./scripts/swc-register.cjs bench/pipeline/run.ts\` (after \`make build\`; PostgreSQL and NATS up).\nSmall pairs: every ordered pair of 8 fixture repositories (56 analyses, a few dozen files each).\nWorkers: analysis-pipeline processes with WORKER_CONCURRENCY=1, WORKER_THREADS=1 each.\n\n${table}\n`,
  );
  console.log(table);
}

async function stack(gitPort: number, workerCount: number) {
  const nats = await startNats();
  const db = await freshDatabase('lineage_bench');
  const procs: Proc[] = [];
  const gport = await freePort();
  procs.push(startService('gateway', { NATS_URL: nats.url, HTTP_PORT: String(gport), RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'warn' }));
  for (let i = 0; i < workerCount; i++) {
    const port = await freePort();
    procs.push(
      startService('analysis-pipeline', {
        NATS_URL: nats.url,
        DATABASE_URL: db.url,
        HTTP_PORT: String(port),
        MIGRATE_ON_START: 'true',
        LOG_LEVEL: 'warn',
        LINEAGE_REPO_ALLOWED_HOSTS: `http://127.0.0.1:${gitPort}`,
        LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'true',
        REPO_CACHE_DIR: mkdtempSync(join(tmpdir(), 'lineage-bench-cache-')),
        WORKER_THREADS: '1',
      }),
    );
    await waitReady(port, 60_000);
  }
  await waitReady(gport);
  return {
    api: `http://127.0.0.1:${gport}/api/v1`,
    stop: async () => {
      await Promise.all(procs.map((p) => p.stop()));
      await nats.stop();
      await db.drop();
    },
  };
}

async function create(api: string, o: Repo, t: Repo): Promise<string> {
  const res = await fetch(`${api}/analyses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pair: { origin: { url: o.url, commit: o.commit }, target: { url: t.url, commit: t.commit } } }),
  });
  if (res.status !== 202) throw new Error(`create: ${res.status}`);
  return ((await res.json()) as { analysis: { id: string } }).analysis.id;
}

async function waitCompleted(api: string, id: string): Promise<void> {
  for (;;) {
    const a = ((await (await fetch(`${api}/analyses/${id}`)).json()) as { analysis: { state: string } }).analysis;
    if (a.state === 'completed') return;
    if (a.state === 'failed') throw new Error(`analysis ${id} failed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
