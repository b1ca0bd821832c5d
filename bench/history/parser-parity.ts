// The native parser against WebAssembly on real pairs: the CLI run on each pair twice, LINEAGE_PARSER=wasm and
// native alternately, and the two manifests' hashes compared (they must be equal), with wall time, CPU and peak RSS.
//
//   node -r ./scripts/swc-register.cjs bench/history/parser-parity.ts PAIR_NAME...
//
// Pairs by name from bench/accuracy's files (pairs.tsv and heldout/*.tsv), origin as listed; repositories as
// repos.ts finds them (mirrors under LINEAGE_BENCH_MIRRORS, default ../.mirror, or ../shared/real-repos bundles).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { repoDir } from './repos';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'libs', 'engine', 'dist', 'cli.js');

const files = [
  join(ROOT, 'bench/accuracy/pairs.tsv'),
  ...readdirSync(join(ROOT, 'bench/accuracy/heldout'))
    .filter((f) => f.endsWith('.tsv'))
    .map((f) => join(ROOT, 'bench/accuracy/heldout', f)),
];
const pairs = new Map<string, string[]>();
for (const f of files)
  for (const line of readFileSync(f, 'utf8').split('\n')) {
    const cols = line.split('\t');
    if (cols.length >= 5 && cols[0] !== 'name' && !line.startsWith('#')) pairs.set(cols[0]!, cols);
  }

function run(parser: string, args: string[]) {
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS')), LINEAGE_PARSER: parser };
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, CLI, 'analyze', ...args, '--json'], {
    env,
    maxBuffer: 1 << 30,
  });
  const [wall, user, sys, kb] = r.stderr.toString().trim().split('\n').pop()!.split(' ').map(Number);
  let out: { verdict?: string; manifestHash?: string; error?: { code: string } } = {};
  try {
    out = JSON.parse(r.stdout.toString());
  } catch {
    out = { error: { code: `exit ${r.status}` } };
  }
  return {
    result: out.error ? out.error.code : `${out.verdict} ${out.manifestHash?.slice(0, 12)}`,
    hash: out.manifestHash,
    wall: wall!,
    cpu: user! + sys!,
    mb: kb! / 1024,
  };
}

console.log('| pair | verdict, manifest hash (first 12) | same | WebAssembly wall s / CPU s / MB | native wall s / CPU s / MB |');
console.log('|---|---|---|---|---|');
let same = 0;
let total = 0;
for (const name of process.argv.slice(2)) {
  const p = pairs.get(name);
  const [origin, target] = p ? [repoDir(p[1]!), repoDir(p[3]!)] : [null, null];
  if (!p || !origin || !target) {
    console.log(`| ${name} | skipped (${p ? 'repositories absent' : 'no such pair'}) | | | |`);
    continue;
  }
  const args = [origin, target, '--origin-ref', p[2]!, '--target-ref', p[4]!];
  const w = run('wasm', args);
  const n = run('native', args);
  const equal = w.hash !== undefined && w.hash === n.hash;
  total++;
  if (equal) same++;
  const cell = (x: typeof w) => `${x.wall.toFixed(1)} / ${x.cpu.toFixed(1)} / ${Math.round(x.mb)}`;
  console.log(`| ${name} | ${w.result}${equal ? '' : ` → ${n.result}`} | ${equal ? 'yes' : '**NO**'} | ${cell(w)} | ${cell(n)} |`);
}
console.log(`\n${same} of ${total} pairs: the same manifest hash.`);
