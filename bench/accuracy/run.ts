// Accuracy benchmark: the engine CLI's verdicts on real pairs of repositories whose lineage is known.
// Rerun: see bench/accuracy/README.md (writes bench/accuracy/RESULTS.md; with --urls, RESULTS-urls.md).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'libs', 'engine', 'dist', 'cli.js');
const CACHE = join(ROOT, '.cache', 'accuracy');
const REAL = resolve(process.env.LINEAGE_REAL_REPOS ?? join(ROOT, '..', 'shared', 'real-repos'));
const MIRRORS = resolve(process.env.LINEAGE_MIRRORS ?? '/work/.mirror');
const TIMEOUT_S = Number(process.env.LINEAGE_ACCURACY_TIMEOUT_S ?? 1800);
const HEADER = 'name origin origin_commit target target_commit accept forbid_direction note'.split(' ');
const VERDICTS = ['INDEPENDENT', 'SHARED_UPSTREAM', 'DECLARED_FORK', 'LIKELY_DERIVED', 'HEAVILY_DERIVED', 'INSUFFICIENT_EVIDENCE'];
const FLIP: Record<string, string> = { ORIGIN_TO_TARGET: 'TARGET_TO_ORIGIN', TARGET_TO_ORIGIN: 'ORIGIN_TO_TARGET', NONE: 'NONE' };

/** A problem with the benchmark itself (arguments, pairs files, a missing build): exit non-zero. */
class HarnessError extends Error {}

interface Pair {
  name: string;
  origin: string;
  originCommit: string;
  target: string;
  targetCommit: string;
  accept: string[];
  forbid: string[];
  note: string;
}
interface PairsFile {
  path: string;
  label: string;
  pairs: Pair[];
  missing?: string;
}
interface Run {
  pair: Pair;
  orientation: 'listed' | 'swapped';
  forbid: string[];
  verdict?: string;
  direction?: string;
  confidence?: string;
  sharedCommits?: number;
  engineVersion?: string;
  error?: string;
  message?: string;
  right: boolean;
  wallS: number;
  rssMB: number | null;
}
interface Skip {
  pair: Pair;
  reason: string;
}

const list = (s: string): string[] =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

function readPairs(path: string, label: string): PairsFile {
  if (!existsSync(path)) return { path, label, pairs: [], missing: `${path} not found` };
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''));
  if (lines[0]!.split('\t').join(' ') !== HEADER.join(' '))
    throw new HarnessError(`${path}: the header must be the tab-separated columns: ${HEADER.join(' ')}`);
  const pairs: Pair[] = [];
  lines.slice(1).forEach((line, i) => {
    if (!line.trim() || line.startsWith('#')) return;
    const c = line.split('\t');
    const where = `${path}:${i + 2}`;
    if (c.length < 7 || c.length > 8) throw new HarnessError(`${where}: expected 8 tab-separated columns, found ${c.length}`);
    const [name, origin, originCommit, target, targetCommit, accept, forbid, note] = c as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string?,
    ];
    for (const repo of [origin, target])
      if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new HarnessError(`${where}: "${repo}" is not owner/name`);
    const p: Pair = { name, origin, originCommit, target, targetCommit, accept: list(accept), forbid: list(forbid), note: note ?? '' };
    for (const v of p.accept) if (!VERDICTS.includes(v)) throw new HarnessError(`${where}: unknown verdict ${v}`);
    for (const d of p.forbid) if (!(d in FLIP)) throw new HarnessError(`${where}: unknown direction ${d}`);
    if (!p.accept.length) throw new HarnessError(`${where}: empty accept list`);
    if (pairs.some((q) => q.name === name)) throw new HarnessError(`${where}: duplicate pair name ${name}`);
    pairs.push(p);
  });
  return { path, label, pairs };
}

const git = (args: string[]) => spawnSync('git', args, { encoding: 'utf8', maxBuffer: 1 << 24 });
const hasCommit = (dir: string, commit: string): boolean => git(['--git-dir', dir, 'cat-file', '-e', `${commit}^{commit}`]).status === 0;

/** A bundle is cloned once into .cache/accuracy/repos (named after the bundle's path, so equal names from two folders do not collide). */
function cloneBundle(bundle: string): string {
  const dir = join(
    CACHE,
    'repos',
    `${bundle
      .split('/')
      .pop()!
      .replace(/\.bundle$/, '')}-${createHash('sha1').update(bundle).digest('hex').slice(0, 8)}.git`,
  );
  if (existsSync(dir)) return dir;
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = `${dir}.part${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const r = git(['clone', '--bare', '--quiet', bundle, tmp]);
  if (r.status !== 0) throw new Error(`git clone of ${bundle} failed: ${r.stderr.trim().split('\n').pop()}`);
  renameSync(tmp, dir);
  return dir;
}

const located = new Map<string, { dir: string } | { skip: string }>();

/**
 * owner/name at a commit, looked for in this order: a bundle next to the pairs file, the mirror's
 * `owner+name/repo` (bare, or a work tree with .git), the mirror's `owner+name.git`, a bundle in the
 * shared real-repos folder. The first place that holds the commit wins.
 */
function locate(repo: string, commit: string, pairsDir: string): { dir: string } | { skip: string } {
  const key = `${repo}@${commit}@${pairsDir}`;
  const known = located.get(key);
  if (known) return known;
  const base = repo.replace('/', '+');
  const places = [
    ...new Set([join(pairsDir, `${base}.bundle`), join(MIRRORS, base, 'repo'), join(MIRRORS, `${base}.git`), join(REAL, `${base}.bundle`)]),
  ];
  const without: string[] = [];
  let result: { dir: string } | { skip: string } | undefined;
  for (const place of places) {
    if (!existsSync(place)) continue;
    let dir = place;
    try {
      if (place.endsWith('.bundle')) dir = cloneBundle(place);
      else if (existsSync(join(place, '.git'))) dir = join(place, '.git');
    } catch (e) {
      without.push(`${place} (${(e as Error).message})`);
      continue;
    }
    if (hasCommit(dir, commit)) {
      result = { dir };
      break;
    }
    without.push(place);
  }
  result ??= {
    skip: without.length
      ? `${repo}: commit ${commit.slice(0, 12)} not in ${without.join(', ')}`
      : `${repo}: no repository (looked for ${places.join(', ')})`,
  };
  located.set(key, result);
  return result;
}

/** One CLI run in its own process; wall time around the process, peak RSS from maxrss.cjs. */
function analyze(pair: Pair, orientation: 'listed' | 'swapped', o: string, t: string, urls: boolean): Run {
  const swap = orientation === 'swapped';
  const [origin, oc, target, tc] = swap ? [t, pair.targetCommit, o, pair.originCommit] : [o, pair.originCommit, t, pair.targetCommit];
  // --urls: each side's public URL, as a request to the service carries it (the CLI records it and reads its owner/name).
  const [originRepo, targetRepo] = swap ? [pair.target, pair.origin] : [pair.origin, pair.target];
  const withUrls = urls ? ['--origin-url', `https://github.com/${originRepo}`, '--target-url', `https://github.com/${targetRepo}`] : [];
  const forbid = swap ? pair.forbid.map((d) => FLIP[d]!) : pair.forbid;
  const rssFile = join(CACHE, `rss-${process.pid}`);
  rmSync(rssFile, { force: true });
  const t0 = process.hrtime.bigint();
  const r = spawnSync(
    process.execPath,
    ['-r', join(__dirname, 'maxrss.cjs'), CLI, 'analyze', origin, target, '--origin-ref', oc, '--target-ref', tc, ...withUrls, '--json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      timeout: TIMEOUT_S * 1000,
      killSignal: 'SIGKILL',
      env: { ...process.env, LINEAGE_ACCURACY_RSS_FILE: rssFile },
    },
  );
  const wallS = Number(process.hrtime.bigint() - t0) / 1e9;
  const rssMB = existsSync(rssFile) ? Math.round(Number(readFileSync(rssFile, 'utf8')) / 1024) : null;
  const run: Run = { pair, orientation, forbid, right: false, wallS, rssMB };
  let out: {
    verdict?: string;
    direction?: string;
    confidence?: string;
    manifest?: { engineVersion?: string; metrics?: { sharedCommits?: number } };
    error?: { code?: string; message?: string };
  } = {};
  try {
    out = JSON.parse((r.stdout ?? '').trim().split('\n').pop() || '{}');
  } catch {
    /* not JSON: reported as an error below */
  }
  if (r.status === 0 && out.verdict) {
    Object.assign(run, {
      verdict: out.verdict,
      direction: out.direction,
      confidence: out.confidence,
      sharedCommits: out.manifest?.metrics?.sharedCommits,
      engineVersion: out.manifest?.engineVersion,
    });
    run.right = pair.accept.includes(out.verdict) && !forbid.includes(out.direction ?? '');
    return run;
  }
  const stderrCode = /error: ([A-Z_]+)/.exec(r.stderr ?? '')?.[1];
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') run.error = `TIMEOUT ${TIMEOUT_S} s`;
  else
    run.error = out.error?.code ?? stderrCode ?? (r.signal ? `SIGNAL ${r.signal}` : r.status === 0 ? 'NO_JSON_OUTPUT' : `EXIT ${r.status}`);
  run.message = out.error?.message ?? (r.stderr ?? '').trim().split('\n').pop()?.slice(0, 200);
  return run;
}

function parseArgs(argv: string[]): { files: string[]; only: string[]; swap: boolean; urls: boolean } {
  const a = { files: [] as string[], only: list(process.env.LINEAGE_ACCURACY_ONLY ?? ''), swap: true, urls: false };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i]!;
    if (v === '--no-swap') a.swap = false;
    else if (v === '--urls') a.urls = true;
    else if (v === '--only') a.only = list(argv[++i] ?? '');
    else if (v.startsWith('--only=')) a.only = list(v.slice(7));
    else if (v.startsWith('-'))
      throw new HarnessError(`unknown option ${v}\nusage: run.ts [--no-swap] [--urls] [--only name,name] [extra pairs.tsv ...]`);
    else a.files.push(resolve(v));
  }
  return a;
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

function main(): number {
  const started = new Date();
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI)) throw new HarnessError(`${CLI} not found: build the engine first (npx tsc -b libs/engine)`);
  const files: PairsFile[] = [];
  const defaults = [join(REAL, 'pairs.tsv'), join(__dirname, 'pairs.tsv')];
  for (const path of [...new Set([...defaults, ...args.files])]) {
    if (!defaults.includes(path) && !existsSync(path)) throw new HarnessError(`${path} not found`);
    const rel = relative(ROOT, path);
    files.push(readPairs(path, rel.startsWith('../..') ? path : rel));
  }
  const unknown = args.only.filter((n) => !files.some((f) => f.pairs.some((p) => p.name === n)));
  if (unknown.length) throw new HarnessError(`--only: no pair named ${unknown.join(', ')}`);
  mkdirSync(CACHE, { recursive: true });

  const results = files.map((f) => ({ f, runs: [] as Run[], skips: [] as Skip[] }));
  for (const { f, runs, skips } of results) {
    for (const pair of f.pairs) {
      if (args.only.length && !args.only.includes(pair.name)) continue;
      const o = locate(pair.origin, pair.originCommit, dirname(f.path));
      const t = locate(pair.target, pair.targetCommit, dirname(f.path));
      if ('skip' in o || 'skip' in t) {
        skips.push({ pair, reason: ['skip' in o ? o.skip : '', 'skip' in t ? t.skip : ''].filter(Boolean).join('; ') });
        process.stderr.write(`${pair.name}: SKIPPED (${skips.at(-1)!.reason})\n`);
        continue;
      }
      for (const orientation of args.swap ? (['listed', 'swapped'] as const) : (['listed'] as const)) {
        const r = analyze(pair, orientation, o.dir, t.dir, args.urls);
        runs.push(r);
        process.stderr.write(
          `${pair.name} ${orientation}: ${r.error ? `ERROR ${r.error}` : `${r.verdict} ${r.direction} ${r.confidence}`} ${r.right ? 'right' : 'WRONG'} ${r.wallS.toFixed(1)} s ${r.rssMB ?? '?'} MB\n`,
        );
      }
    }
  }

  const out: string[] = [];
  const score = (runs: Run[]) => `${runs.filter((r) => r.right).length} / ${runs.length}`;
  for (const { f, runs, skips } of results) {
    out.push(`### ${f.label}`, '');
    if (f.missing) {
      out.push(`Not run: ${f.missing} (set LINEAGE_REAL_REPOS to the folder that holds it).`, '');
      continue;
    }
    if (!runs.length && !skips.length) {
      out.push(args.only.length ? 'No pair selected by --only.' : 'No pairs.', '');
      continue;
    }
    out.push(
      '| pair | orientation | expected (accept / forbidden) | got verdict | direction | confidence | shared commits | right? | wall s | peak RSS MB |',
      '|---|---|---|---|---|---|---:|---|---:|---:|',
    );
    for (const r of runs) {
      const expected = `${r.pair.accept.join(', ')} / ${r.forbid.length ? r.forbid.join(', ') : '–'}`;
      const got = r.error ? `ERROR ${r.error}` : r.verdict!;
      const why = r.right ? 'yes' : r.error ? 'no (error)' : !r.pair.accept.includes(r.verdict!) ? 'no (verdict)' : 'no (direction)';
      out.push(
        `| ${r.pair.name} | ${r.orientation} | ${expected} | ${got} | ${r.direction ?? '–'} | ${r.confidence ?? '–'} | ${r.sharedCommits ?? '–'} | ${why} | ${r.wallS.toFixed(1)} | ${r.rssMB ?? '–'} |`,
      );
    }
    for (const s of skips)
      out.push(
        `| ${s.pair.name} | – | ${s.pair.accept.join(', ')} / ${s.pair.forbid.join(', ') || '–'} | SKIPPED | – | – | – | skipped: ${cell(s.reason)} | – | – |`,
      );
    out.push('');
  }
  const all = results.flatMap((x) => x.runs);
  out.push('### Scores', '', '| pairs file | right / run | listed | swapped | skipped pairs |', '|---|---:|---:|---:|---:|');
  for (const { f, runs, skips } of results) {
    if (f.missing) out.push(`| ${f.label} | not run: file missing | | | |`);
    else
      out.push(
        `| ${f.label} | ${score(runs)} | ${score(runs.filter((r) => r.orientation === 'listed'))} | ${score(runs.filter((r) => r.orientation === 'swapped'))} | ${skips.length} |`,
      );
  }
  out.push(
    `| **total** | **${score(all)}** | ${score(all.filter((r) => r.orientation === 'listed'))} | ${score(all.filter((r) => r.orientation === 'swapped'))} | ${results.reduce((n, x) => n + x.skips.length, 0)} |`,
    '',
  );
  const skipped = results.flatMap((x) => x.skips);
  if (skipped.length) out.push('Skipped (not counted in the scores):', '', ...skipped.map((s) => `* ${s.pair.name}: ${s.reason}`), '');
  const errors = all.filter((r) => r.error);
  if (errors.length)
    out.push(
      'Errors (counted as wrong):',
      '',
      ...errors.map((r) => `* ${r.pair.name} ${r.orientation}: ${r.error}${r.message ? ` – ${r.message}` : ''}`),
      '',
    );

  const finished = new Date();
  const versions = [...new Set(all.map((r) => r.engineVersion).filter(Boolean))];
  const head = git(['-C', ROOT, 'rev-parse', '--short', 'HEAD']).stdout.trim();
  const engineDirty =
    spawnSync('git', ['-C', ROOT, 'diff', '--quiet', 'HEAD', '--', 'libs/engine'], { env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } })
      .status !== 0;
  const env = ['LINEAGE_REAL_REPOS', 'LINEAGE_MIRRORS', 'LINEAGE_ACCURACY_ONLY', 'LINEAGE_ACCURACY_TIMEOUT_S']
    .filter((k) => process.env[k])
    .map((k) => `${k}=${process.env[k]} `)
    .join('');
  const command = `${env}node -r ./scripts/swc-register.cjs bench/accuracy/run.ts${process.argv
    .slice(2)
    .map((a) => ` ${a}`)
    .join('')}`;
  const header = [
    '# Accuracy benchmark: results',
    '',
    `Generated by \`${command}\` (from the repository root, after \`npx tsc -b libs/engine\`; see README.md for the method and the pairs).`,
    `Engine: ${versions.join(', ') || 'unknown (no run produced a manifest)'} (manifest \`engineVersion\`), \`libs/engine/dist/cli.js\` built ${statSync(CLI).mtime.toISOString()}, repository at ${head}${engineDirty ? ' with uncommitted changes under libs/engine' : ''}.`,
    `Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, ${git(['--version']).stdout.trim()}, load average ${loadBefore} at the start and ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} at the end (the machine is shared: wall times vary with its load).`,
    `Run ${started.toISOString()} – ${finished.toISOString()} (${((finished.getTime() - started.getTime()) / 1000).toFixed(0)} s). Each run is the CLI in its own process with default workers, one run at a time; wall time is the whole process, peak RSS is its \`maxRSS\` (worker threads included, git subprocesses not).`,
    '',
  ];
  if (args.urls)
    header.push(
      "Each side was given its public URL (`--origin-url` / `--target-url` https://github.com/owner/name), as a request to the service carries it; RESULTS.md's runs give none, so the engine reads each repository alone.",
      '',
    );
  writeFileSync(join(__dirname, args.urls ? 'RESULTS-urls.md' : 'RESULTS.md'), [...header, ...out].join('\n'));
  process.stdout.write([...header.slice(2), ...out].join('\n') + '\n');
  return 0;
}

if (require.main === module) {
  try {
    process.exitCode = main();
  } catch (e) {
    process.stderr.write(
      `bench/accuracy: ${e instanceof HarnessError ? '' : 'harness failure: '}${(e as Error).stack && !(e instanceof HarnessError) ? (e as Error).stack : (e as Error).message}\n`,
    );
    process.exitCode = 2;
  }
}
