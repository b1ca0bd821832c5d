// Backpressure: 500 analyses submitted at once to a stack of one replica of
// each service (real NATS, PostgreSQL, git smart-HTTP; loopback only). Every
// process's RSS is sampled each second until the queue drains; the pipeline's
// queue-depth gauge is read from its /metrics. A second round with a small
// PIPELINE_MAX_QUEUED shows the 429s that bound the queue instead.
//
//   node -r ./scripts/swc-register.cjs bench/soak/burst.ts [--analyses 500] [--bound 100]
//
// Writes bench/soak/burst.md.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRepo } from '../../test/fixtures/git-builder';
import { depsFor, makeModules, renderProject } from '../../test/fixtures/project';
import { startGitServer } from '../../test/support/git-http';
import { startStack, type Stack } from '../../test/support/stack';
import { sleep, SERVICES } from '../../test/support/processes';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('analyses', 500);
const BOUND = arg('bound', 100);

const rss = (pid: number | undefined): number => {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);
  } catch {
    return 0;
  }
};

async function pending(stack: Stack): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${stack.ports['analysis-pipeline']}/metrics`)).text();
  const m = /^lineage_pipeline_jobs_pending(?:\{[^}]*\})? (\d+)/m.exec(text);
  return m ? Number(m[1]) : -1;
}

async function round(
  pairs: { origin: { url: string; commit: string }; target: { url: string; commit: string } }[],
  git: { port: number },
  bound: number | null,
) {
  const cache = mkdtempSync(join(tmpdir(), 'lineage-burst-cache-'));
  const stack = await startStack({
    extraEnv: {
      'analysis-pipeline': {
        LINEAGE_REPO_ALLOWED_HOSTS: `http://127.0.0.1:${git.port}`,
        LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'true',
        REPO_CACHE_DIR: cache,
        WORKER_THREADS: '1',
        LOG_LEVEL: 'warn',
        ...(bound ? { PIPELINE_MAX_QUEUED: String(bound) } : {}),
      },
    },
  });
  const peak: Record<string, number> = {};
  const start: Record<string, number> = {};
  for (const s of SERVICES) start[s] = rss(stack.procs[s].child.pid);
  let maxPending = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const s of SERVICES) peak[s] = Math.max(peak[s] ?? 0, rss(stack.procs[s].child.pid));
      maxPending = Math.max(maxPending, await pending(stack).catch(() => 0));
      await sleep(1000);
    }
  })();
  const t0 = Date.now();
  const statuses = new Map<string, number>();
  let retryAfter = new Set<string>();
  const ids: string[] = [];
  await Promise.all(
    pairs.map(async (pair) => {
      const res = await fetch(`${stack.api}/analyses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pair }),
      });
      const body = (await res.json()) as { analysis?: { id: string }; error?: { code: string } };
      const key = `${res.status}${body.error ? ` ${body.error.code}` : ''}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (res.status === 429) retryAfter = new Set([...retryAfter, res.headers.get('retry-after') ?? '(none)']);
      if (body.analysis) ids.push(body.analysis.id);
    }),
  );
  const submitMs = Date.now() - t0;
  const done = new Set<string>();
  const failed: string[] = [];
  while (done.size < ids.length && Date.now() - t0 < 30 * 60_000) {
    for (const id of ids) {
      if (done.has(id)) continue;
      const a = ((await (await fetch(`${stack.api}/analyses/${id}`)).json()) as { analysis: { state: string } }).analysis;
      if (a.state === 'completed' || a.state === 'failed' || a.state === 'cancelled') {
        done.add(id);
        if (a.state !== 'completed') failed.push(`${id}: ${a.state}`);
      }
    }
    await sleep(2000);
  }
  const drainMs = Date.now() - t0;
  sampling = false;
  await sampler;
  const end: Record<string, number> = {};
  for (const s of SERVICES) end[s] = rss(stack.procs[s].child.pid);
  await stack.stop();
  rmSync(cache, { recursive: true, force: true });
  return { statuses, retryAfter, ids: ids.length, done: done.size, failed, submitMs, drainMs, start, peak, end, maxPending };
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'lineage-burst-'));
  const R = Math.ceil(Math.sqrt(N)) + 1; // R·(R−1) ordered pairs of distinct repositories
  const repos: { url: string; commit: string }[] = [];
  for (let i = 0; i < R; i++) {
    const dir = join(root, `r${i}.git`);
    const commit = buildRepo(dir, {
      commits: [
        {
          time: 1_600_000_000 + i * 3600,
          message: `r${i}`,
          files: renderProject(makeModules(7000 + (i % 6), 2, 5), { name: `burst-${i}`, deps: depsFor(i) }),
        },
      ],
    });
    repos.push({ url: `r${i}.git`, commit });
  }
  const git = await startGitServer(root);
  const pairs = [];
  for (let o = 0; o < R && pairs.length < N; o++)
    for (let t = 0; t < R && pairs.length < N; t++)
      if (o !== t)
        pairs.push({
          origin: { url: `${git.url}/${repos[o]!.url}`, commit: repos[o]!.commit },
          target: { url: `${git.url}/${repos[t]!.url}`, commit: repos[t]!.commit },
        });
  const open = await round(pairs, git, null);
  const bounded = await round(pairs, git, BOUND);
  await git.stop();
  rmSync(root, { recursive: true, force: true });

  const fmt = (r: Awaited<ReturnType<typeof round>>, title: string): string[] => [
    `## ${title}`,
    '',
    `- responses to the ${pairs.length} POSTs (sent at once, in ${(r.submitMs / 1000).toFixed(1)} s): ${[...r.statuses].map(([k, v]) => `${k}: ${v}`).join(', ')}${r.retryAfter.size ? `; Retry-After: ${[...r.retryAfter].join(', ')}` : ''}`,
    `- accepted ${r.ids} analyses, finished ${r.done} (${r.failed.length} not completed${r.failed.length ? `: ${r.failed.slice(0, 5).join('; ')}` : ''}), all done ${(r.drainMs / 1000).toFixed(0)} s after the first POST`,
    `- largest queue depth seen on lineage_pipeline_jobs_pending: ${r.maxPending}`,
    '',
    '| process | RSS before (MB) | peak | after the drain |',
    '|---|---|---|---|',
    ...SERVICES.map((s) => `| ${s} | ${r.start[s]} | ${r.peak[s]} | ${r.end[s]} |`),
    '',
  ];
  const text = [
    '# Backpressure: a burst of analyses',
    '',
    `Command: \`node -r ./scripts/swc-register.cjs bench/soak/burst.ts --analyses ${N} --bound ${BOUND}\` (after \`make build\`; PostgreSQL on 127.0.0.1:5432). ${cpus().length} cores, Node ${process.version}; ${new Date().toISOString()}. One replica of each service, one fingerprint thread; small repositories served over git smart-HTTP on loopback; RSS sampled every second.`,
    '',
    ...fmt(open, 'Default bound (PIPELINE_MAX_QUEUED 1000): every analysis queued'),
    ...fmt(bounded, `PIPELINE_MAX_QUEUED ${BOUND}: the queue is bounded by 429s`),
  ].join('\n');
  writeFileSync(join(__dirname, 'burst.md'), text);
  process.stdout.write(text);
}

main().catch((e) => {
  process.stderr.write(`burst failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
