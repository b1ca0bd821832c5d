// Accuracy benchmark: the engine CLI's verdicts on real pairs of repositories whose lineage is known,
// in three sets (shared, development, held-out), scored strictly (score.ts) unless --lenient.
// Rerun: see bench/accuracy/README.md (writes bench/accuracy/RESULTS.md; with --urls, RESULTS-urls.md;
// held-out runs also append to heldout/FIRST-RESULTS.md and rewrite heldout/LATEST-RESULTS.md).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import {
  cell,
  firstResultsToAppend,
  latestRows,
  parseRecords,
  recordKey,
  RUN_COLUMNS,
  summarize,
  tableHeader,
  tableRow,
  type HeldOutRecord,
} from './records';
import { classTable, judge, pct, rightOfRun, truthClass, type Judgement, type Scoring } from './score';
import { PairsFileError, readPairsFile, type PairRow } from '../../test/support/pairs';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'libs', 'engine', 'dist', 'cli.js');
const CACHE = join(ROOT, '.cache', 'accuracy');
const REAL = resolve(process.env.LINEAGE_REAL_REPOS ?? join(ROOT, '..', 'shared', 'real-repos'));
const MIRRORS = resolve(process.env.LINEAGE_MIRRORS ?? '/work/.mirror');
const TIMEOUT_S = Number(process.env.LINEAGE_ACCURACY_TIMEOUT_S ?? 1800);
const HELDOUT = resolve(process.env.LINEAGE_ACCURACY_HELDOUT ?? join(__dirname, 'heldout'));
const FIRST_RESULTS = join(HELDOUT, 'FIRST-RESULTS.md');
const LATEST_RESULTS = join(HELDOUT, 'LATEST-RESULTS.md');
const SETS = ['shared', 'development', 'held-out'] as const;
type SetName = (typeof SETS)[number] | 'extra';
const FLIP: Record<string, string> = { ORIGIN_TO_TARGET: 'TARGET_TO_ORIGIN', TARGET_TO_ORIGIN: 'ORIGIN_TO_TARGET', NONE: 'NONE' };

/** A problem with the benchmark itself (arguments, pairs files, a missing build): exit non-zero. */
class HarnessError extends Error {}

/** A pair as its file states it (test/support/pairs.ts); `raw` is the line, which the held-out rule checks is committed. */
type Pair = PairRow;
interface PairsFile {
  set: SetName;
  path: string;
  label: string;
  pairs: Pair[];
  missing?: string;
}
interface Run {
  set: SetName;
  file: string;
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
  /** Scored both ways (score.ts); filled in by analyze. */
  judgement: Judgement;
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

function readPairs(path: string, label: string, set: SetName): PairsFile {
  if (!existsSync(path)) return { set, path, label, pairs: [], missing: `${path} not found` };
  try {
    return { set, path, label, pairs: readPairsFile(path) };
  } catch (e) {
    if (e instanceof PairsFileError) throw new HarnessError(e.message);
    throw e;
  }
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
function analyze(f: PairsFile, pair: Pair, orientation: 'listed' | 'swapped', o: string, t: string, urls: boolean): Run {
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
  const run: Run = {
    set: f.set,
    file: f.label,
    pair,
    orientation,
    forbid,
    judgement: judge({ accept: pair.accept, forbid }, {}),
    wallS,
    rssMB,
  };
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
    run.judgement = judge({ accept: pair.accept, forbid }, { verdict: out.verdict, direction: out.direction });
    return run;
  }
  const stderrCode = /error: ([A-Z_]+)/.exec(r.stderr ?? '')?.[1];
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') run.error = `TIMEOUT ${TIMEOUT_S} s`;
  else
    run.error = out.error?.code ?? stderrCode ?? (r.signal ? `SIGNAL ${r.signal}` : r.status === 0 ? 'NO_JSON_OUTPUT' : `EXIT ${r.status}`);
  run.message = out.error?.message ?? (r.stderr ?? '').trim().split('\n').pop()?.slice(0, 200);
  run.judgement = judge({ accept: pair.accept, forbid }, { error: run.error });
  return run;
}

interface Args {
  files: string[];
  only: string[];
  sets: SetName[];
  swap: boolean;
  urls: boolean;
  scoring: Scoring;
}

const USAGE = 'usage: run.ts [--set shared,development,held-out] [--lenient] [--no-swap] [--urls] [--only name,name] [extra pairs.tsv ...]';

function parseArgs(argv: string[]): Args {
  const a: Args = {
    files: [],
    only: list(process.env.LINEAGE_ACCURACY_ONLY ?? ''),
    sets: [...SETS],
    swap: true,
    urls: false,
    scoring: 'strict',
  };
  const sets = (v: string): SetName[] => {
    const names = list(v);
    const bad = names.filter((n) => !(SETS as readonly string[]).includes(n));
    if (bad.length || !names.length)
      throw new HarnessError(`--set: unknown set ${bad.join(', ') || '(none given)'}; the sets are ${SETS.join(', ')}`);
    return SETS.filter((s) => names.includes(s));
  };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i]!;
    if (v === '--no-swap') a.swap = false;
    else if (v === '--urls') a.urls = true;
    else if (v === '--lenient') a.scoring = 'lenient';
    else if (v === '--only') a.only = list(argv[++i] ?? '');
    else if (v.startsWith('--only=')) a.only = list(v.slice(7));
    else if (v === '--set') a.sets = sets(argv[++i] ?? '');
    else if (v.startsWith('--set=')) a.sets = sets(v.slice(6));
    else if (v.startsWith('-')) throw new HarnessError(`unknown option ${v}\n${USAGE}`);
    else a.files.push(resolve(v));
  }
  return a;
}

/** The held-out files: every heldout/*.tsv, in name order (none when the folder does not exist). */
const heldOutFiles = (): string[] =>
  existsSync(HELDOUT)
    ? readdirSync(HELDOUT)
        .filter((n) => n.endsWith('.tsv'))
        .sort()
        .map((n) => join(HELDOUT, n))
    : [];

/**
 * The held-out rule: a pair's expectation is committed before the engine first runs on it. The
 * pairs given (those about to get their first result) whose line is not, as written, in the file at
 * HEAD of the repository that holds it.
 */
function notCommitted(f: PairsFile, pairs: Pair[]): string[] {
  if (!pairs.length) return [];
  const r = spawnSync('git', ['-C', dirname(f.path), 'show', `HEAD:./${basename(f.path)}`], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
  });
  if (r.status !== 0) return pairs.map((p) => `${p.name} (${f.label} is not committed)`);
  const committed = new Set(r.stdout.split('\n').map((l) => l.replace(/\r$/, '')));
  return pairs.filter((p) => !committed.has(p.raw)).map((p) => `${p.name} (its line in ${f.label} differs from HEAD's or is not there)`);
}

const SET_TITLE: Record<SetName, string> = {
  shared: 'shared set',
  development: 'development set',
  'held-out': 'held-out set',
  extra: 'extra files',
};
const expectedCell = (r: Run) => `${r.pair.accept.join(', ')} / ${r.forbid.length ? r.forbid.join(', ') : '–'}`;
const verdictCell = (r: Run) => (r.error ? `ERROR ${r.error}` : r.verdict!);
const yesNo = (right: boolean, wrong: string | undefined) => (right ? 'yes' : `no (${wrong})`);

/** One run's row of the per-run table (RUN_COLUMNS). */
function runCells(r: Run): string[] {
  const j = r.judgement;
  return [
    r.pair.name,
    r.orientation,
    j.truth,
    expectedCell(r),
    verdictCell(r),
    r.direction ?? '–',
    r.confidence ?? '–',
    String(r.sharedCommits ?? '–'),
    yesNo(j.strict, j.strictWrong),
    yesNo(j.lenient, j.lenientWrong),
    r.error ? '–' : j.falseAccusation ? 'YES' : 'no',
    r.wallS.toFixed(1),
    String(r.rssMB ?? '–'),
  ];
}

function main(): number {
  const started = new Date();
  // The repository as the run starts: the engine that runs is the build of this tree, whatever changes during the run.
  const head = git(['-C', ROOT, 'rev-parse', '--short', 'HEAD']).stdout.trim();
  const engineDirty =
    spawnSync('git', ['-C', ROOT, 'diff', '--quiet', 'HEAD', '--', 'libs/engine'], { env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } })
      .status !== 0;
  const loadBefore = os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(CLI)) throw new HarnessError(`${CLI} not found: build the engine first (npx tsc -b libs/engine)`);
  const mode = args.urls ? 'urls' : 'plain';
  const label = (path: string) => {
    const rel = relative(ROOT, path);
    return rel.startsWith('../..') ? path : rel;
  };
  // The files of each selected set, then the extra files (a file in the held-out folder counts as held-out).
  const wanted: { path: string; set: SetName; optional: boolean }[] = [];
  if (args.sets.includes('shared')) wanted.push({ path: join(REAL, 'pairs.tsv'), set: 'shared', optional: true });
  if (args.sets.includes('development')) wanted.push({ path: join(__dirname, 'pairs.tsv'), set: 'development', optional: true });
  if (args.sets.includes('held-out')) for (const path of heldOutFiles()) wanted.push({ path, set: 'held-out', optional: true });
  for (const path of args.files)
    wanted.push({ path, set: dirname(path) === HELDOUT && path.endsWith('.tsv') ? 'held-out' : 'extra', optional: false });
  const files: PairsFile[] = [];
  for (const w of wanted) {
    if (files.some((f) => f.path === w.path)) continue;
    if (!w.optional && !existsSync(w.path)) throw new HarnessError(`${w.path} not found`);
    files.push(readPairs(w.path, label(w.path), w.set));
  }
  const setsRun: SetName[] = [...args.sets, ...(files.some((f) => f.set === 'extra') ? (['extra'] as const) : [])];
  if (args.sets.includes('held-out') && !files.some((f) => f.set === 'held-out'))
    files.push({
      set: 'held-out',
      path: HELDOUT,
      label: label(HELDOUT),
      pairs: [],
      missing: `no held-out pairs file (${label(HELDOUT)}/*.tsv)`,
    });
  const unknown = args.only.filter((n) => !files.some((f) => f.pairs.some((p) => p.name === n)));
  if (unknown.length) throw new HarnessError(`--only: no pair named ${unknown.join(', ')} in the selected sets (${args.sets.join(', ')})`);
  const selected = (p: Pair) => !args.only.length || args.only.includes(p.name);
  const orientations = args.swap ? (['listed', 'swapped'] as const) : (['listed'] as const);

  // The held-out rule, before anything runs: a held-out pair about to get its first result has its expectation committed.
  const firstText = existsSync(FIRST_RESULTS) ? readFileSync(FIRST_RESULTS, 'utf8') : undefined;
  const recorded = new Set(firstText === undefined ? [] : parseRecords(firstText).map((r) => r.key));
  const unseen = (p: Pair) => orientations.some((o) => !recorded.has(recordKey(p.name, o, mode)));
  const uncommitted = files
    .filter((f) => f.set === 'held-out')
    .flatMap((f) =>
      notCommitted(
        f,
        f.pairs.filter((p) => selected(p) && unseen(p)),
      ),
    );
  if (uncommitted.length)
    throw new HarnessError(
      `held-out pairs must be committed before the engine first runs on them (README, "The held-out set"); not committed: ${uncommitted.join('; ')}`,
    );
  mkdirSync(CACHE, { recursive: true });

  const results = files.map((f) => ({ f, runs: [] as Run[], skips: [] as Skip[] }));
  for (const { f, runs, skips } of results) {
    for (const pair of f.pairs) {
      if (!selected(pair)) continue;
      const o = locate(pair.origin, pair.originCommit, dirname(f.path));
      const t = locate(pair.target, pair.targetCommit, dirname(f.path));
      if ('skip' in o || 'skip' in t) {
        skips.push({ pair, reason: ['skip' in o ? o.skip : '', 'skip' in t ? t.skip : ''].filter(Boolean).join('; ') });
        process.stderr.write(`${pair.name}: SKIPPED (${skips.at(-1)!.reason})\n`);
        continue;
      }
      for (const orientation of orientations) {
        const r = analyze(f, pair, orientation, o.dir, t.dir, args.urls);
        runs.push(r);
        const j = r.judgement;
        process.stderr.write(
          `${pair.name} ${orientation}: ${r.error ? `ERROR ${r.error}` : `${r.verdict} ${r.direction} ${r.confidence}`} ${j.strict ? 'right' : `WRONG (${j.strictWrong})`}${j.strict !== j.lenient ? ` (lenient: ${j.lenient ? 'right' : 'wrong'})` : ''}${j.falseAccusation ? ' FALSE ACCUSATION' : ''} ${r.wallS.toFixed(1)} s ${r.rssMB ?? '?'} MB\n`,
        );
      }
    }
  }

  const primary = args.scoring;
  const secondary: Scoring = primary === 'strict' ? 'lenient' : 'strict';
  const out: string[] = [];
  for (const set of setsRun) {
    const inSet = results.filter((x) => x.f.set === set);
    out.push(`## ${SET_TITLE[set]}`, '');
    for (const { f, runs, skips } of inSet) {
      out.push(`### ${f.label}`, '');
      if (f.missing) {
        out.push(`Not run: ${f.missing}${set === 'shared' ? ' (set LINEAGE_REAL_REPOS to the folder that holds it)' : ''}.`, '');
        continue;
      }
      if (!runs.length && !skips.length) {
        out.push(args.only.length && f.pairs.length ? 'No pair selected by --only.' : 'No pairs.', '');
        continue;
      }
      out.push(...tableHeader(RUN_COLUMNS));
      for (const r of runs) out.push(tableRow(runCells(r)));
      for (const s of skips)
        out.push(
          tableRow([
            s.pair.name,
            '–',
            truthClass(s.pair.accept),
            `${s.pair.accept.join(', ')} / ${s.pair.forbid.join(', ') || '–'}`,
            'SKIPPED',
            '–',
            '–',
            '–',
            `skipped: ${s.reason}`,
            '–',
            '–',
            '–',
            '–',
          ]),
        );
      out.push('');
    }
  }

  // Scores per set and in total.
  const all = results.flatMap((x) => x.runs);
  const bySet = setsRun.map((set) => ({
    set,
    files: results.filter((x) => x.f.set === set),
    runs: results.filter((x) => x.f.set === set).flatMap((x) => x.runs),
  }));
  const scoredOf = (runs: Run[]) =>
    runs.map((r) => ({ outcome: { verdict: r.verdict, direction: r.direction, error: r.error }, judgement: r.judgement }));
  const line = (name: string, runs: Run[], skipped: number | string) => {
    const s = scoredOf(runs);
    const fa = runs.filter((r) => r.judgement.falseAccusation).length;
    return `| ${name} | ${rightOfRun(s, primary)} | ${rightOfRun(s, secondary)} | ${rightOfRun(
      s.filter((_, i) => runs[i]!.orientation === 'listed'),
      primary,
    )} | ${rightOfRun(
      s.filter((_, i) => runs[i]!.orientation === 'swapped'),
      primary,
    )} | ${fa} | ${runs.filter((r) => r.error).length} | ${skipped} |`;
  };
  out.push(
    '## Scores',
    '',
    `Scoring: **${primary}**${primary === 'strict' ? ' (the default; `--lenient` for the pairs\u2019 lists alone)' : ' (the pairs\u2019 lists alone, as before strict scoring; the default is strict)'}; README.md, "Scoring", defines both, the truth classes and false accusations.`,
    '',
    `| set | right / run (${primary}) | ${secondary} | listed (${primary}) | swapped (${primary}) | false accusations | errors | skipped pairs |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const { set, files: fs, runs } of bySet) {
    if (fs.every((x) => x.f.missing)) out.push(`| ${SET_TITLE[set]} | not run: ${fs.map((x) => x.f.missing).join('; ')} | | | | | | |`);
    else
      out.push(
        line(
          SET_TITLE[set],
          runs,
          fs.reduce((n, x) => n + x.skips.length, 0),
        ),
      );
  }
  const totalLine = line(
    '**total**',
    all,
    results.reduce((n, x) => n + x.skips.length, 0),
  ).split(' | ');
  totalLine[1] = `**${totalLine[1]}**`;
  out.push(totalLine.join(' | '), '');

  out.push(
    `### Per class (${primary})`,
    '',
    'Classes: derived (DECLARED_FORK, HEAVILY_DERIVED, LIKELY_DERIVED), shared-upstream (SHARED_UPSTREAM), not-derived (INDEPENDENT, INSUFFICIENT_EVIDENCE). A run is *expected* in its pair\u2019s truth class and *predicted* in its verdict\u2019s class; a *right prediction* is a run predicted in the class, expected in it and right. Recall = right predictions / runs expected; precision = right predictions / runs predicted.',
    '',
    '| set | class | runs predicted | right predictions | runs expected | recall | precision |',
    '|---|---|---:|---:|---:|---:|---:|',
  );
  const notes: string[] = [];
  for (const { set, runs } of [
    ...bySet.filter((x) => x.runs.length).map((x) => ({ set: SET_TITLE[x.set], runs: x.runs })),
    { set: '**total**', runs: all },
  ]) {
    const t = classTable(scoredOf(runs), primary);
    for (const row of t.rows)
      out.push(`| ${set} | ${row.cls} | ${row.predicted} | ${row.right} | ${row.expected} | ${pct(row.recall)} | ${pct(row.precision)} |`);
    if (t.errors || t.rightOtherClass)
      notes.push(
        `* ${set}: ${t.errors} error run(s) (expected in their class, predicted in none); ${t.rightOtherClass} right run(s) whose verdict is an accepted alternative of another class (right, but a right prediction of no class).`,
      );
  }
  out.push('', ...(notes.length ? [...notes, ''] : []));

  const accusations = all.filter((r) => r.judgement.falseAccusation);
  out.push(
    `### False accusations: ${accusations.length}`,
    '',
    ...(accusations.length
      ? accusations.map(
          (r) =>
            `* ${SET_TITLE[r.set]}, ${r.pair.name} ${r.orientation}: ${r.verdict} ${r.direction} ${r.confidence ?? ''} (truth: ${r.judgement.truth}; accept ${r.pair.accept.join(', ')})`,
        )
      : ['None: no derived verdict and no direction on a pair whose truth is not-derived or shared-upstream.']),
    '',
  );
  const strictOnly = all.filter((r) => r.judgement.lenient && !r.judgement.strict);
  if (strictOnly.length)
    out.push(
      'Wrong only under strict scoring (right by the lists alone):',
      '',
      ...strictOnly.map(
        (r) => `* ${SET_TITLE[r.set]}, ${r.pair.name} ${r.orientation}: ${r.verdict} ${r.direction} – ${r.judgement.strictWrong}`,
      ),
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
  const env = ['LINEAGE_REAL_REPOS', 'LINEAGE_MIRRORS', 'LINEAGE_ACCURACY_ONLY', 'LINEAGE_ACCURACY_TIMEOUT_S', 'LINEAGE_ACCURACY_HELDOUT']
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
    `Generated by \`${command}\` (from the repository root, after \`npx tsc -b libs/engine\`; see README.md for the method, the sets and the pairs). Sets: ${setsRun.map((s) => SET_TITLE[s]).join(', ')}.`,
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

  const heldOutRuns = all.filter((r) => r.set === 'held-out');
  if (heldOutRuns.length) {
    const commit = `${head}${engineDirty ? ' (libs/engine modified)' : ''}`;
    let cliVersion: string | undefined;
    const version = (r: Run) =>
      r.engineVersion ??
      versions[0] ??
      (cliVersion ??= spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' }).stdout.split(' ')[0]?.trim() || 'unknown');
    const records: HeldOutRecord[] = heldOutRuns.map((r) => {
      const c = runCells(r);
      const rec = Object.fromEntries(RUN_COLUMNS.map((k, i) => [k, c[i]!])) as Omit<
        HeldOutRecord,
        'engine' | 'date' | 'commit' | 'mode' | 'pairs file'
      >;
      return { ...rec, engine: version(r), date: started.toISOString().slice(0, 10), commit, mode, 'pairs file': r.file };
    });
    recordHeldOut(records, firstText, files, command);
  }
  return 0;
}

/** Appends the first results not yet recorded (never rewriting a row) and rewrites LATEST-RESULTS.md. */
function recordHeldOut(records: HeldOutRecord[], firstText: string | undefined, files: PairsFile[], command: string): void {
  const now = existsSync(FIRST_RESULTS) ? readFileSync(FIRST_RESULTS, 'utf8') : undefined;
  if (now !== firstText) process.stderr.write('bench/accuracy: FIRST-RESULTS.md changed during the run; appending to it as it is now\n');
  const intro = [
    '# Held-out set: first results',
    '',
    'The first result of each held-out pair, orientation and mode (`plain`: the repositories alone; `urls`: with `--urls`), as it came out:',
    'bench/accuracy/run.ts appends a row the first time a pair/orientation/mode runs and never rewrites one (README.md, "The held-out set").',
    'Do not edit the rows. LATEST-RESULTS.md holds the latest result of each.',
  ];
  const { text, added } = firstResultsToAppend(now, records, intro);
  if (text) {
    if (now === undefined) writeFileSync(FIRST_RESULTS, text);
    else appendFileSync(FIRST_RESULTS, text);
  }
  process.stderr.write(`bench/accuracy: ${added.length} first result(s) recorded in ${relative(ROOT, FIRST_RESULTS)}\n`);

  const heldOutPairs = new Set(files.filter((f) => f.set === 'held-out').flatMap((f) => f.pairs.map((p) => p.name)));
  const previous = existsSync(LATEST_RESULTS) ? readFileSync(LATEST_RESULTS, 'utf8') : undefined;
  const rows = latestRows(previous, records, (pair) => heldOutPairs.has(pair));
  const first = parseRecords(readFileSync(FIRST_RESULTS, 'utf8')).filter((r) => heldOutPairs.has(r.cells.get('pair') ?? ''));
  const latest = parseRecords([...tableHeader([...RUN_COLUMNS, 'engine', 'date', 'commit', 'mode', 'pairs file']), ...rows].join('\n'));
  const summary = (title: string, rs: typeof first) => [
    `${title}:`,
    '',
    ...(rs.length
      ? summarize(rs).map(
          (s) =>
            `* ${s.mode}: strict ${s.strictRight} / ${s.runs}, lenient ${s.lenientRight} / ${s.runs}, false accusations ${s.falseAccusations}`,
        )
      : ['* none']),
    '',
  ];
  writeFileSync(
    LATEST_RESULTS,
    [
      '# Held-out set: latest results',
      '',
      `The latest result of each held-out pair, orientation and mode; rewritten by each run that runs held-out pairs (the last: \`${cell(command)}\`). The first results, which count, are in FIRST-RESULTS.md.`,
      '',
      ...summary('First results (FIRST-RESULTS.md, pairs still held out)', first),
      ...summary('Latest results (below)', latest),
      ...tableHeader([...RUN_COLUMNS, 'engine', 'date', 'commit', 'mode', 'pairs file']),
      ...rows,
      '',
    ].join('\n'),
  );
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
