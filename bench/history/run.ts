// The engine on real repositories with their whole history, against its own
// HEAD-only cost and against Dolos, in one run. For each pair, measured
// alternately (full history, HEAD only, Dolos; repeated), median of the runs:
//   - full:  the CLI on the repositories as they are (whole history);
//   - head:  the CLI on one-commit repositories holding the same pinned trees;
//   - Dolos: @dodona/dolos-lib on the checked-out pinned trees (.js files; JavaScript pairs only).
// Each run is its own process; wall time is the whole process, peak RSS its
// maxRSS (worker threads included, git subprocesses not). Verdicts and manifest
// hashes of the full runs are recorded, and compared with the previous RESULTS.md.
//
//   node -r ./scripts/swc-register.cjs bench/history/run.ts [--runs 3] [--only name,name] [--no-dolos]
//
// Pairs: ../shared/real-repos (LINEAGE_REAL_REPOS), and repositories fetched as
// bare mirrors under LINEAGE_BENCH_MIRRORS (default ../.mirror, laid out as
// owner+name/repo or owner+name.git): mishoo/UglifyJS × terser/terser and
// redis/redis × valkey-io/valkey. A pair whose repositories are absent is skipped, and says so.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { repoDir } from './repos';

const ROOT = resolve(__dirname, '..', '..');
const WORK = join(ROOT, '.cache', 'bench-history');
const CLI = join(ROOT, 'libs', 'engine', 'dist', 'cli.js');
const RSS = join(ROOT, 'bench', 'accuracy', 'maxrss.cjs');
const REAL = process.env.LINEAGE_REAL_REPOS ?? resolve(ROOT, '..', 'shared', 'real-repos');
/**
 * The environment of every timed process (Lineage's CLI and Dolos alike) leaves out NODE_EXTRA_CA_CERTS: with it
 * set, Node reads and parses that CA bundle as it starts, before any of the tool's code runs. Neither tool opens a
 * TLS connection here. On the development machine, which sets it to the system bundle, it cost every Node process
 * about 40 ms (`node -e 0`: 0.06-0.09 s with it, 0.02 s without).
 */
const TIMED_ENV: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));
const OUT = join(__dirname, 'RESULTS.md');

const argv = process.argv.slice(2);
const flag = (n: string): string | undefined => {
  const i = argv.indexOf(`--${n}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const RUNS = Number(flag('runs') ?? 3);
const ONLY = flag('only')?.split(',') ?? null;
const DOLOS = !argv.includes('--no-dolos');

interface Pair {
  name: string;
  origin: string;
  originCommit: string;
  target: string;
  targetCommit: string;
  js: boolean;
  note: string;
}
interface Run {
  wallMs: number;
  rssMb: number;
  verdict?: string;
  hash?: string;
  commits?: string;
}

const EXTRA: Pair[] = [
  {
    name: 'uglify-terser',
    origin: 'mishoo/UglifyJS',
    originCommit: '111746bbae5f55c88e3b82b42f14fd0f3129ea53',
    target: 'terser/terser',
    targetCommit: '9fc8a85aaa7087d2b8c9b4b31d267202b731b5f1',
    js: true,
    note: 'JavaScript; terser forked uglify-es: 3.4k and 3.5k commits',
  },
  {
    name: 'redis-valkey',
    origin: 'redis/redis',
    originCommit: '4f8cdc2a1ea53e42955af758aabffee67cb455dd',
    target: 'valkey-io/valkey',
    targetCommit: '55bbbe09a3b37a98c907dbfbc225768ff253e84f',
    js: false,
    note: 'C; valkey forked redis in 2024: about 12k commits a side',
  },
];
const JS_REAL = new Set(['coco-hard-fork', 'axios-redaxios']);

const git = (gitDir: string, args: string[], input?: Buffer): Buffer =>
  execFileSync('git', ['--git-dir', gitDir, ...args], {
    input,
    maxBuffer: 1 << 30,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });

/** A one-commit repository holding `commit`'s tree (objects borrowed through alternates): the HEAD-only input. */
function headOnly(dir: string, commit: string, name: string): string {
  const out = join(WORK, 'head', `${name}.git`);
  if (existsSync(out)) return out;
  execFileSync('git', ['init', '--quiet', '--bare', out]);
  writeFileSync(join(out, 'objects', 'info', 'alternates'), join(resolve(dir), 'objects') + '\n');
  const tree = git(dir, ['rev-parse', `${commit}^{tree}`])
    .toString()
    .trim();
  const date = git(dir, ['log', '-1', '--format=%ct', commit]).toString().trim();
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@localhost',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@localhost',
    GIT_AUTHOR_DATE: `${date} +0000`,
    GIT_COMMITTER_DATE: `${date} +0000`,
  };
  const c = execFileSync('git', ['--git-dir', out, 'commit-tree', tree, '-m', 'head only'], { env }).toString().trim();
  git(out, ['update-ref', 'refs/heads/main', c]);
  git(out, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
  return out;
}

/** The pinned tree checked out as files (for Dolos), without running anything from it. */
function checkout(dir: string, commit: string, name: string): string {
  const out = join(WORK, 'trees', name);
  if (existsSync(out)) return out;
  mkdirSync(out, { recursive: true });
  execFileSync('tar', ['-x', '-C', out], { input: git(dir, ['archive', '--format=tar', commit]), maxBuffer: 1 << 30 });
  return out;
}

function cli(o: string, oc: string, t: string, tc: string): Run {
  const rssFile = join(WORK, 'rss');
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['-r', RSS, CLI, 'analyze', o, t, '--origin-ref', oc, '--target-ref', tc, '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...TIMED_ENV, LINEAGE_ACCURACY_RSS_FILE: rssFile },
  });
  const wallMs = Number((process.hrtime.bigint() - t0) / 1_000_000n);
  if (r.status !== 0) throw new Error(`the CLI failed (${r.status}): ${r.stderr.slice(-500)}`);
  const j = JSON.parse(r.stdout) as {
    verdict: string;
    manifestHash: string;
    manifest: { metrics: { sharedCommits: number }; chronology: { kind: string; side: string; detail: string }[] };
  };
  const walked = j.manifest.chronology
    .filter((c) => c.kind === 'PINNED_COMMIT')
    .map((c) => c.detail.split(' ')[0])
    .join(' / ');
  return {
    wallMs,
    rssMb: Math.round(Number(readFileSync(rssFile, 'utf8')) / 1024),
    verdict: j.verdict,
    hash: j.manifestHash,
    commits: walked,
  };
}

function dolos(pair: Pair, oTree: string, tTree: string): Run {
  const file = join(WORK, `${pair.name}.dolos.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name: pair.name,
      originDir: oTree,
      targetDir: tTree,
      originGit: '',
      targetGit: '',
      originCommit: '',
      targetCommit: '',
      lines: { origin: 0, target: 0 },
      copied: null,
    }),
  );
  const t0 = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    ['-r', join(ROOT, 'scripts', 'swc-register.cjs'), join(ROOT, 'bench', 'engine', 'measure.ts'), 'dolos', file],
    { encoding: 'utf8', maxBuffer: 1 << 28, cwd: ROOT, env: TIMED_ENV },
  );
  const wallMs = Number((process.hrtime.bigint() - t0) / 1_000_000n);
  if (r.status !== 0) throw new Error(`Dolos failed: ${r.stderr.slice(-500)}`);
  const j = JSON.parse(r.stdout.trim().split('\n').pop()!) as { maxRssMB: number };
  return { wallMs, rssMb: j.maxRssMB };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

function previousHashes(): Map<string, string> {
  const m = new Map<string, string>();
  if (!existsSync(OUT)) return m;
  for (const line of readFileSync(OUT, 'utf8').split('\n')) {
    const r = /^\| ([\w-]+) \| [^|]+ \| [^|]+ \| (0x[0-9a-f]{64}) \|/.exec(line);
    if (r) m.set(r[1]!, r[2]!);
  }
  return m;
}

function main(): void {
  if (!existsSync(CLI)) {
    process.stderr.write('build first: make build\n');
    process.exit(2);
  }
  mkdirSync(WORK, { recursive: true });
  const before = previousHashes();
  const pairs: Pair[] = [];
  if (existsSync(join(REAL, 'pairs.tsv'))) {
    for (const l of readFileSync(join(REAL, 'pairs.tsv'), 'utf8').trim().split('\n').slice(1)) {
      const [name, origin, originCommit, target, targetCommit, , , note] = l.split('\t');
      pairs.push({
        name: name!,
        origin: origin!,
        originCommit: originCommit!,
        target: target!,
        targetCommit: targetCommit!,
        js: JS_REAL.has(name!),
        note: note ?? '',
      });
    }
  }
  pairs.push(...EXTRA);
  const skipped: string[] = [];
  const rows: string[] = [];
  const verdictRows: string[] = [];
  const load0 = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  for (const p of pairs) {
    if (ONLY && !ONLY.includes(p.name)) continue;
    const o = repoDir(p.origin);
    const t = repoDir(p.target);
    if (!o || !t) {
      skipped.push(
        `${p.name}: ${[!o ? p.origin : '', !t ? p.target : ''].filter(Boolean).join(' and ')} not found (fetch the repositories as bare mirrors under LINEAGE_BENCH_MIRRORS, or set LINEAGE_REAL_REPOS)`,
      );
      continue;
    }
    const tc = p.targetCommit || git(t, ['rev-parse', 'HEAD']).toString().trim();
    const oc = p.originCommit;
    const oh = headOnly(o, oc, `${p.name}-origin`);
    const th = headOnly(t, tc, `${p.name}-target`);
    const trees = DOLOS && p.js ? [checkout(o, oc, `${p.name}-origin`), checkout(t, tc, `${p.name}-target`)] : null;
    const full: Run[] = [];
    const head: Run[] = [];
    const dol: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      full.push(cli(o, oc, t, tc));
      head.push(cli(oh, 'HEAD', th, 'HEAD'));
      if (trees) dol.push(dolos(p, trees[0]!, trees[1]!));
      process.stderr.write(
        `${p.name} run ${i + 1}: full ${full[i]!.wallMs} ms, head ${head[i]!.wallMs} ms${trees ? `, Dolos ${dol[i]!.wallMs} ms` : ''}\n`,
      );
    }
    const f = median(full.map((r) => r.wallMs));
    const h = median(head.map((r) => r.wallMs));
    const d = dol.length ? median(dol.map((r) => r.wallMs)) : null;
    const hashes = new Set(full.map((r) => r.hash));
    rows.push(
      `| ${p.name} | ${full[0]!.commits} | ${s(f)} (${full.map((r) => (r.wallMs / 1000).toFixed(2)).join(', ')}) | ${median(full.map((r) => r.rssMb))} MB | ${s(h)} | ${median(head.map((r) => r.rssMb))} MB | ${(f / h).toFixed(2)}× | ${d === null ? '—' : `${s(d)}, ${median(dol.map((r) => r.rssMb))} MB`} | ${d === null ? '—' : `${(d / f).toFixed(1)}×`} |`,
    );
    const prev = before.get(p.name);
    verdictRows.push(
      `| ${p.name} | ${full[0]!.verdict} | ${hashes.size === 1 ? 'same in every run' : 'DIFFERS between runs'} | ${full[0]!.hash} | ${prev === undefined ? 'no previous run' : prev === full[0]!.hash ? 'unchanged' : `CHANGED (was ${prev})`} |`,
    );
  }
  const lines = [
    '# Engine on whole histories: results',
    '',
    `Command: \`node -r ./scripts/swc-register.cjs bench/history/run.ts --runs ${RUNS}${ONLY ? ` --only ${ONLY.join(',')}` : ''}${DOLOS ? '' : ' --no-dolos'}\` (after \`make build\`).`,
    `Machine: ${cpus().length} cores, Node ${process.version}; load average ${load0} at the start, ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} at the end. ${new Date().toISOString()}.`,
    '',
    'Wall times are whole processes (Node start-up included), medians of the runs listed; the three tools were run alternately. Peak RSS is the process maximum (worker threads included). Every timed process runs without NODE_EXTRA_CA_CERTS (Node would read that CA bundle as it starts; see run.ts).',
    '',
    '| pair | commits walked (origin / target) | full history: wall (runs) | peak RSS | HEAD only: wall | peak RSS | full / HEAD | Dolos on the HEAD trees (.js) | Dolos / full |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '## Verdicts and manifest hashes (full history)',
    '',
    '| pair | verdict | across runs | manifest hash | against the previous RESULTS.md |',
    '|---|---|---|---|---|',
    ...verdictRows,
    '',
    ...(skipped.length ? ['## Skipped', '', ...skipped.map((x) => `- ${x}`), ''] : []),
  ];
  writeFileSync(OUT, lines.join('\n'));
  process.stdout.write(lines.join('\n'));
  rmSync(join(WORK, 'rss'), { force: true });
}

main();
