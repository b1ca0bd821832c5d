// Parse and tokenise throughput per language, the native addon against WebAssembly, on one thread: the same
// files, the same token streams (the comparison test checks that), alternating, median of the runs.
//
//   npx tsc -b libs/engine && node -r ./scripts/swc-register.cjs bench/history/parsers.ts [--runs 5]
//
// Sources: those of libs/engine/test/native-parser.test.ts (knex's JavaScript, this repository's TypeScript, the
// vendored tree-sitter runtime's C, the Java and Python of test/data/native-parser).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parserChoice, tokenizeTreeSitter } from '../../libs/engine/dist/tokenize/treesitter';

const ROOT = resolve(__dirname, '../..');
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1] || 5);

function files(dir: string, ext: RegExp, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) files(p, ext, out);
    else if (ext.test(name)) out.push(p);
  }
  return out;
}

const CORPORA: [string, string, string[]][] = [
  ['javascript', "knex's lib/", files(join(ROOT, 'node_modules', 'knex', 'lib'), /\.js$/)],
  [
    'typescript',
    "this repository's libs/*/src and services/*/src",
    ['libs', 'services'].flatMap((top) => readdirSync(join(ROOT, top)).flatMap((pkg) => files(join(ROOT, top, pkg, 'src'), /\.ts$/))),
  ],
  ['c', 'the vendored tree-sitter runtime', files(join(ROOT, 'libs', 'engine', 'native', 'vendor', 'tree-sitter', 'lib'), /\.[ch]$/)],
  ['java', 'test/data/native-parser/java', files(join(ROOT, 'test', 'data', 'native-parser', 'java'), /\.java$/)],
  ['python', 'test/data/native-parser/python', files(join(ROOT, 'test', 'data', 'native-parser', 'python'), /\.py$/)],
];

async function time(language: string, texts: string[], native: boolean): Promise<number> {
  parserChoice.native = native;
  const t0 = process.hrtime.bigint();
  for (const t of texts) await tokenizeTreeSitter(language, t, true);
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function main() {
  console.log(`| language | source | MB | WebAssembly MB/s | native MB/s | native ÷ WebAssembly |`);
  console.log('|---|---|---:|---:|---:|---:|');
  for (const [language, source, paths] of CORPORA) {
    const texts = paths.map((p) => readFileSync(p, 'utf8'));
    const mb = texts.reduce((a, t) => a + Buffer.byteLength(t), 0) / 1e6;
    await time(language, texts, false); // grammar load, JIT warm-up
    await time(language, texts, true);
    const wasm: number[] = [];
    const native: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      wasm.push(await time(language, texts, false));
      native.push(await time(language, texts, true));
    }
    const [w, n] = [mb / median(wasm), mb / median(native)];
    console.log(`| ${language} | ${source} | ${mb.toFixed(2)} | ${w.toFixed(2)} | ${n.toFixed(2)} | ${(n / w).toFixed(2)}× |`);
  }
}
void main();
