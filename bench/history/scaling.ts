// History scaling: synthetic repositories of 5k, 10k, 20k and 100k commits
// (each commit changes one of 200 code files), walked by the engine's history
// stage with the default limits (maxCommits 20 000: the 100k history is
// truncated there). Each walk runs in its own process; wall time and peak RSS
// of that process, interleaved, median of the runs.
//
//   node -r ./scripts/swc-register.cjs bench/history/scaling.ts [--runs 3]
//   (one walk: node -r ./scripts/swc-register.cjs bench/history/scaling.ts --walk <gitDir>)
//
// Writes bench/history/scaling.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { histories, inventory } from '@lineage/engine';
import { fastImportStream } from '../../test/fixtures/git-builder';

const ROOT = resolve(__dirname, '..', '..');
const WORK = join(ROOT, '.cache', 'bench-history', 'scaling');
const FILES = 200;

/** A history of n commits, built with fast-import (same ids on every machine). */
function build(n: number): string {
  const dir = join(WORK, `h${n}.git`);
  if (existsSync(join(dir, 'HEAD'))) return dir;
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  execFileSync('git', ['init', '--quiet', '--bare', dir], { env });
  const commits = [];
  for (let i = 0; i < n; i++) {
    const f = i % FILES;
    commits.push({
      time: 1_500_000_000 + i * 600,
      message: `c${i}`,
      files: { [`src/m${f}.js`]: `export function f${f}(a) {\n  return a + ${i};\n}\n` },
    });
  }
  execFileSync('git', ['--git-dir', dir, 'fast-import', '--quiet'], { input: fastImportStream({ commits }), env, maxBuffer: 1 << 30 });
  execFileSync('git', ['--git-dir', dir, 'symbolic-ref', 'HEAD', 'refs/heads/main'], { env });
  return dir;
}

async function walk(dir: string): Promise<void> {
  const repo = { dir, commit: 'HEAD' };
  const inv = await inventory(repo);
  const t0 = process.hrtime.bigint();
  const h = await histories(repo, repo, { origin: inv, target: inv });
  const ms = Number((process.hrtime.bigint() - t0) / 1_000_000n);
  process.stdout.write(
    JSON.stringify({
      ms,
      walked: h.origin.commitsWalked,
      truncated: h.origin.truncated,
      rssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    }) + '\n',
  );
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function main(): Promise<void> {
  const w = process.argv.indexOf('--walk');
  if (w > 0) return walk(process.argv[w + 1]!);
  const r = process.argv.indexOf('--runs');
  const runs = r > 0 ? Number(process.argv[r + 1]) : 3;
  mkdirSync(WORK, { recursive: true });
  const sizes = [5_000, 10_000, 20_000, 100_000];
  const dirs = sizes.map(build);
  const results = new Map<number, { ms: number; walked: number; truncated: boolean; rssMb: number }[]>();
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < sizes.length; k++) {
      const out = execFileSync(process.execPath, ['-r', join(ROOT, 'scripts', 'swc-register.cjs'), __filename, '--walk', dirs[k]!], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      const row = JSON.parse(out.trim().split('\n').pop()!);
      (results.get(sizes[k]!) ?? results.set(sizes[k]!, []).get(sizes[k]!)!).push(row);
    }
  }
  const rows = sizes.map((n) => {
    const rs = results.get(n)!;
    return {
      n,
      ms: median(rs.map((x) => x.ms)),
      rss: median(rs.map((x) => x.rssMb)),
      walked: rs[0]!.walked,
      truncated: rs[0]!.truncated,
      all: rs.map((x) => x.ms).join(', '),
    };
  });
  const by = (n: number) => rows.find((x) => x.n === n)!;
  const text = [
    '# History stage scaling',
    '',
    `Command: \`node -r ./scripts/swc-register.cjs bench/history/scaling.ts --runs ${runs}\` (after \`make build\`). ${cpus().length} cores, Node ${process.version}, load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} at the end; ${new Date().toISOString()}.`,
    '',
    'Both sides of the pair are the same repository (two walks and the topology, as in an analysis); default limits (maxCommits 20 000). Each commit changes one of 200 code files. Interleaved runs, medians.',
    '',
    '| commits | walked | history stage (runs, ms) | median | peak RSS of the process |',
    '|---|---|---|---|---|',
    ...rows.map((x) => `| ${x.n} | ${x.walked}${x.truncated ? ' (truncated)' : ''} | ${x.all} | ${x.ms} ms | ${x.rss} MB |`),
    '',
    `Doubling: 10k / 5k commits took ${(by(10_000).ms / by(5_000).ms).toFixed(2)}× the time, 20k / 10k ${(by(20_000).ms / by(10_000).ms).toFixed(2)}×. The 100k history stops at the limit: ${by(100_000).ms} ms and ${by(100_000).rss} MB against ${by(20_000).ms} ms and ${by(20_000).rss} MB for 20k (git log is read as a stream and stopped at the limit; nothing holds its whole output).`,
    '',
  ].join('\n');
  writeFileSync(join(__dirname, 'scaling.md'), text);
  process.stdout.write(text);
}

void main();
