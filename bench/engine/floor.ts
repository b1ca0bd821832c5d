// The fixed costs under a small pair: what any run pays before its input matters, and what
// parsing alone costs cold. Rerun: `node -r ./scripts/swc-register.cjs bench/engine/floor.ts`
// (writes bench/engine/floor.md). Every figure is the best of RUNS fresh processes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { npmPair, tinyPair, type BenchPair } from './pairs';

const ROOT = resolve(__dirname, '..', '..');
const WORK = join(ROOT, '.cache', 'bench');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

type Probe = Record<string, number>;

function jsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...jsFiles(p));
    else if (p.endsWith('.js')) out.push(readFileSync(p, 'utf8'));
  }
  return out;
}

interface Cursor {
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  readonly nodeTypeId: number;
  readonly startIndex: number;
  readonly endIndex: number;
}

/** Every node once, reading what a tokeniser reads (type id and byte range). */
function walk(c: Cursor): number {
  let nodes = 0;
  let sink = 0;
  for (;;) {
    nodes++;
    sink ^= c.nodeTypeId + c.startIndex + c.endIndex;
    if (c.gotoFirstChild()) continue;
    while (!c.gotoNextSibling()) if (!c.gotoParent()) return sink === -1 ? -nodes : nodes;
  }
}

/** Parse and walk every file, three rounds: the first is cold, the third is closer to warm. */
function rounds(files: string[], parse: (src: string) => { walk(): Cursor; delete?(): void }): Probe {
  const out: Probe = {};
  for (let r = 1; r <= 3; r++) {
    const t = performance.now();
    for (const f of files) {
      const tree = parse(f);
      walk(tree.walk());
      tree.delete?.();
    }
    out[`round${r}Ms`] = performance.now() - t;
  }
  return out;
}

/** One probe in this process (child mode). */
async function probe(kind: string, arg: string): Promise<Probe> {
  const t0 = performance.now();
  if (kind === 'engine') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { analyze } = require('@lineage/engine') as typeof import('@lineage/engine');
    const loaded = performance.now();
    const p = JSON.parse(readFileSync(arg, 'utf8')) as BenchPair;
    await analyze({
      origin: { dir: p.originGit, commit: p.originCommit },
      target: { dir: p.targetGit, commit: p.targetCommit },
      workers: 2,
    });
    return { loadMs: loaded - t0, totalMs: performance.now() - t0 };
  }
  if (kind === 'dolos-load') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@dodona/dolos-lib');
    return { loadMs: performance.now() - t0 };
  }
  const files = [...jsFiles(join(arg, 'origin', 'files')), ...jsFiles(join(arg, 'target', 'files'))];
  if (kind === 'tokenize') {
    // The engine's own tokeniser: the same parse, its raw-cursor walk, and the normalised token stream.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { tokenize, grammarLoads } = require('@lineage/engine') as typeof import('@lineage/engine');
    await grammarLoads('javascript');
    const ready = performance.now();
    const out: Probe = { loadMs: ready - t0 };
    for (let r = 1; r <= 3; r++) {
      const t = performance.now();
      for (const f of files) await tokenize('javascript', f);
      out[`round${r}Ms`] = performance.now() - t;
    }
    return out;
  }
  if (kind === 'wasm') {
    // The engine's parser: web-tree-sitter and the JavaScript grammar of tree-sitter-wasms.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const TS = require('web-tree-sitter') as typeof import('web-tree-sitter');
    await TS.Parser.init();
    const lang = await TS.Language.load(readFileSync(require.resolve('tree-sitter-wasms/out/tree-sitter-javascript.wasm')));
    const parser = new TS.Parser();
    parser.setLanguage(lang);
    const ready = performance.now();
    return { loadMs: ready - t0, ...rounds(files, (s) => parser.parse(s)! as never) };
  }
  // Dolos's parser: native node-tree-sitter and the JavaScript grammar of @dodona/dolos-parsers.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Parser = require('tree-sitter') as new () => { setLanguage(l: unknown): void; parse(s: string): { walk(): Cursor } };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { javascript } = require('@dodona/dolos-parsers') as { javascript: unknown };
  const parser = new Parser();
  parser.setLanguage(javascript);
  const ready = performance.now();
  return { loadMs: ready - t0, ...rounds(files, (s) => parser.parse(s)) };
}

/** Each figure's minimum over RUNS fresh processes running `args` (each prints one JSON object last). */
function bestOf(args: string[]): Probe {
  let out: Probe | null = null;
  for (let i = 0; i < RUNS; i++) {
    const raw = execFileSync(process.execPath, ['-r', join(ROOT, 'scripts', 'swc-register.cjs'), ...args], { cwd: ROOT, encoding: 'utf8' });
    const p = JSON.parse(raw.trim().split('\n').pop()!) as Probe;
    if (!out) out = p;
    else for (const k of Object.keys(p)) if (typeof p[k] === 'number') out[k] = Math.min(out[k]!, p[k]!);
  }
  return out!;
}

const best = (kind: string, arg: string): Probe => bestOf([__filename, kind, arg]);
const measureFull = (tool: 'engine' | 'dolos', pairFile: string): number => bestOf([join(__dirname, 'measure.ts'), tool, pairFile]).wallMs!;

function main(): void {
  mkdirSync(WORK, { recursive: true });
  const loadBefore = os.loadavg()[0]!.toFixed(1);
  const tiny = tinyPair(WORK);
  const small = npmPair(WORK, 'express@4.16.0 vs koa@2.5.0', 'express@4.16.0', 'koa@2.5.0', /^lib\//);
  const tinyFile = join(WORK, 'floor-tiny.json');
  const smallFile = join(WORK, 'floor-small.json');
  writeFileSync(tinyFile, JSON.stringify(tiny));
  writeFileSync(smallFile, JSON.stringify(small));
  const pairDir = join(WORK, small.name);
  const texts = [...jsFiles(join(pairDir, 'origin', 'files')), ...jsFiles(join(pairDir, 'target', 'files'))];
  const bytes = texts.reduce((a, f) => a + Buffer.byteLength(f), 0);

  const dolosFull = measureFull('dolos', smallFile);
  const engineFull = measureFull('engine', smallFile);
  const engineTiny = best('engine', tinyFile);
  const dolosLoad = best('dolos-load', '');
  const wasm = best('wasm', pairDir);
  const native = best('native', pairDir);
  const tok = best('tokenize', pairDir);
  const ms = (x: number | undefined) => (x === undefined ? '–' : `${Math.round(x)} ms`);
  const out = [
    '# Engine floor on a small pair',
    '',
    'Generated by `node -r ./scripts/swc-register.cjs bench/engine/floor.ts` (see README.md). Every figure is the best of',
    `${RUNS} fresh Node processes. Machine: ${os.cpus().length} cores, Node ${process.version}; 1-minute load average ${loadBefore} at the start.`,
    '',
    `| what | time |`,
    '|---|---:|',
    `| Dolos on express@4.16.0 vs koa@2.5.0 (${small.lines.origin + small.lines.target} lines, as in results.md) | ${ms(dolosFull)} |`,
    `| one third of that (the 3× target) | ${ms(dolosFull / 3)} |`,
    `| engine on the same pair | ${ms(engineFull)} |`,
    `| engine on a pair of one-line files (fixed cost: loading, git, grammar, manifest) | ${ms(engineTiny.totalMs)} |`,
    `| … of which loading the engine | ${ms(engineTiny.loadMs)} |`,
    `| loading Dolos (\`require('@dodona/dolos-lib')\`) | ${ms(dolosLoad.loadMs)} |`,
    '',
    `Parsing the pair's ${texts.length} JavaScript files (${Math.round(bytes / 1024)} KB) and walking every node once (type id and byte range),`,
    'in a fresh process, round 1 cold:',
    '',
    '| parser | load + grammar | round 1 | round 2 | round 3 |',
    '|---|---:|---:|---:|---:|',
    `| web-tree-sitter 0.25 + tree-sitter-wasms (the engine's parser), public cursor API | ${ms(wasm.loadMs)} | ${ms(wasm.round1Ms)} | ${ms(wasm.round2Ms)} | ${ms(wasm.round3Ms)} |`,
    `| the engine's \`tokenize()\` (same parser, raw cursor walk, token stream); load includes the engine | ${ms(tok.loadMs)} | ${ms(tok.round1Ms)} | ${ms(tok.round2Ms)} | ${ms(tok.round3Ms)} |`,
    `| native tree-sitter 0.25 + @dodona/dolos-parsers (Dolos's) | ${ms(native.loadMs)} | ${ms(native.round1Ms)} | ${ms(native.round2Ms)} | ${ms(native.round3Ms)} |`,
    '',
  ];
  writeFileSync(join(__dirname, 'floor.md'), out.join('\n'));
  process.stdout.write(out.join('\n'));
}

if (require.main === module) {
  const [kind, arg] = process.argv.slice(2);
  if (kind) {
    void probe(kind, arg ?? '').then((p) => {
      process.stdout.write(JSON.stringify(p) + '\n');
      process.exit(0);
    });
  } else main();
}
