// Where the CLI's CPU goes, by stage: `node --cpu-prof` on the engine's CLI (the main thread and every worker
// write a profile), each sample's self time put in the stage its function belongs to (by source file; the
// table below), summed over threads. Prints a markdown table per pair; nothing is written.
//
//   node -r ./scripts/swc-register.cjs bench/history/profile.ts [--only uglify-terser,ta4j-fork]
//
// Repositories: bare mirrors under LINEAGE_BENCH_MIRRORS (default ../.mirror, `owner+name/repo` or
// `owner+name.git`), or the shared bundles of ../shared/real-repos (cloned once under .cache/bench-history/repos).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { repoDir } from './repos';

const ROOT = resolve(__dirname, '../..');
const CLI = join(ROOT, 'libs', 'engine', 'dist', 'cli.js');

const PAIRS = [
  {
    name: 'uglify-terser',
    origin: 'mishoo/UglifyJS',
    o: '111746bbae5f55c88e3b82b42f14fd0f3129ea53',
    target: 'terser/terser',
    t: '9fc8a85aaa7087d2b8c9b4b31d267202b731b5f1',
  },
  {
    name: 'redis-valkey',
    origin: 'redis/redis',
    o: '4f8cdc2a1ea53e42955af758aabffee67cb455dd',
    target: 'valkey-io/valkey',
    t: '55bbbe09a3b37a98c907dbfbc225768ff253e84f',
  },
  {
    name: 'ta4j-fork',
    origin: 'mdeverdelhan/ta4j-origins',
    o: '38db6856b6b04c00cc52f07715c1caa461ae0c93',
    target: 'ta4j/ta4j',
    t: '42e1a941ebdf4f8b122b12ab65bfd012c6bee7f3',
  },
  {
    name: 'pyjwt-jose',
    origin: 'jpadilla/pyjwt',
    o: 'dcc27a9d3182a2349c30b160758785c6ce7a6508',
    target: 'mpdavis/python-jose',
    t: '018b310ddb8b50dcfd09a0c152117835a21dd656',
  },
];

/** Stage of a profile frame, first match wins: [stage, test on the frame's source URL and function name]. */
const STAGES: [string, (url: string, fn: string) => boolean][] = [
  ['idle', (_u, f) => f === '(idle)'],
  ['garbage collection', (_u, f) => f === '(garbage collector)'],
  ['parse (tree-sitter, WebAssembly)', (u) => u.startsWith('wasm://') || u.includes('web-tree-sitter')],
  // The native addon parses and walks in one call (JavaScript, TypeScript, TSX); its time is this frame's.
  ['parse and walk (native tree-sitter)', (_u, f) => f === 'nativeStream'],
  ['lex (generic lexer)', (u) => u.includes('/tokenize/generic')],
  ['token walk', (u) => /\/tokenize\/(treesitter|grammar-fixes|index|types)\./.test(u)],
  ['hashing', (u) => u.includes('/tokenize/token-hash') || u.includes('node:internal/crypto') || u.includes('@noble/hashes')],
  ['winnowing', (u) => u.includes('/src/winnow.') || u.includes('/dist/winnow.')],
  ['fingerprinting (rest)', (u) => /\/(fingerprint|fingerprint-file)\./.test(u)],
  ['worker messages', (u) => u.includes('/workers/') || u.includes('node:internal/worker')],
  ['code index and matching', (u) => /\/(corpus|compare\/code|compare\/code-items|compare\/common|compare\/imported)\./.test(u)],
  ['dating', (u) => u.includes('/compare/dating')],
  ['history and lineage', (u) => /\/(history|lineage\/|compare\/history|compare\/founding|compare\/pace)/.test(u)],
  ['other layers', (u) => /\/compare\/(structure|dependency|tests|language|format|side)/.test(u)],
  ['decision, manifest, report', (u) => /\/(decide\/|manifest|report|html-report|classify|verify)/.test(u)],
  ['git reads', (u) => u.includes('/git/') || u.includes('child_process') || u.includes('node:internal/streams') || u.includes('node:net')],
  ['inventory', (u) => /\/(inventory|analyze|stages|limits|clone)\./.test(u)],
];

interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** With PROFILE_OTHER set, the frames left in "other", to extend STAGES. */
const OTHER = new Map<string, number>();

/** Self time (ms) per stage in one profile. */
function stagesOf(p: Profile): Map<string, number> {
  const stageOf = new Map<number, string>();
  const frameOf = new Map(p.nodes.map((n) => [n.id, n.callFrame]));
  for (const n of p.nodes) {
    const { url, functionName } = n.callFrame;
    stageOf.set(n.id, STAGES.find(([, test]) => test(url, functionName))?.[0] ?? 'other (Node, V8, libraries)');
  }
  const out = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const s = stageOf.get(id)!;
    out.set(s, (out.get(s) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
    if (process.env.PROFILE_OTHER && s.startsWith(process.env.PROFILE_OTHER)) {
      const f = frameOf.get(id)!;
      const k = `${f.functionName} ${f.url}`;
      OTHER.set(k, (OTHER.get(k) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
    }
  });
  return out;
}

const only = (() => {
  const i = process.argv.indexOf('--only');
  return i >= 0 ? process.argv[i + 1]!.split(',') : null;
})();
for (const pair of PAIRS.filter((p) => !only || only.includes(p.name))) {
  const [origin, target] = [repoDir(pair.origin), repoDir(pair.target)];
  if (!origin || !target) {
    console.log(`\n${pair.name}: skipped (repositories absent)`);
    continue;
  }
  const dir = mkdtempSync(join(tmpdir(), 'lineage-prof-'));
  const t0 = Date.now();
  const out = execFileSync(
    process.execPath,
    ['--cpu-prof', '--cpu-prof-dir', dir, CLI, 'analyze', origin, target, '--origin-ref', pair.o, '--target-ref', pair.t, '--json'],
    { maxBuffer: 1 << 30, env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS')) },
  );
  const wall = Date.now() - t0;
  const verdict = (JSON.parse(out.toString()) as { verdict?: string }).verdict;
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  const total = new Map<string, number>();
  const main = new Map<string, number>();
  for (const f of files) {
    const stages = stagesOf(JSON.parse(readFileSync(join(dir, f), 'utf8')) as Profile);
    // The main thread's profile is the one written by the process itself (file CPU.date.time.pid.0.seq).
    const isMain = /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f);
    for (const [s, ms] of stages) {
      total.set(s, (total.get(s) ?? 0) + ms);
      if (isMain) main.set(s, (main.get(s) ?? 0) + ms);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const busy = [...total].filter(([s]) => s !== 'idle').reduce((a, [, ms]) => a + ms, 0);
  console.log(
    `\n### ${pair.name} (${pair.origin} × ${pair.target}): ${verdict}, ${(wall / 1000).toFixed(1)} s wall, ${files.length} threads, ${(busy / 1000).toFixed(1)} s busy\n`,
  );
  console.log('| stage | all threads, s | share of busy | main thread, s |');
  console.log('|---|---:|---:|---:|');
  for (const [s, ms] of [...total].filter(([s]) => s !== 'idle').sort((a, b) => b[1] - a[1])) {
    console.log(`| ${s} | ${(ms / 1000).toFixed(2)} | ${((100 * ms) / busy).toFixed(1)} % | ${((main.get(s) ?? 0) / 1000).toFixed(2)} |`);
  }
}
if (process.env.PROFILE_OTHER) for (const [k, ms] of [...OTHER].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(ms.toFixed(0), k);
