// Parse and tokenise throughput per language, the native addon against WebAssembly, on one thread: the same
// files, the same token streams (the comparison test checks that), alternating, median of the runs.
//
//   npx tsc -b libs/engine && node -r ./scripts/swc-register.cjs bench/history/parsers.ts [--runs 5]
//
// Sources: those of libs/engine/test/native-parser.test.ts (knex's JavaScript, this repository's TypeScript, the
// vendored tree-sitter runtime's C, the Java and Python of test/data/native-parser).
import { readFileSync } from 'node:fs';
import { parserChoice, tokenizeTreeSitter } from '../../libs/engine/dist/tokenize/treesitter';
import { nativeCorpus } from '../../libs/engine/test/native-corpus';

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1] || 5);

const corpus = nativeCorpus();
const CORPORA: [string, string, string[]][] = [
  ['javascript', "knex's lib/", corpus.knex],
  ['typescript', "this repository's libs/*/src and services/*/src", corpus.ours],
  ['c', 'the vendored tree-sitter runtime', corpus.runtime],
  ['java', 'test/data/native-parser/java', corpus.java],
  ['python', 'test/data/native-parser/python', corpus.python],
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
