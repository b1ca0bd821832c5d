import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// The CLI runs WebAssembly on V8's baseline compiler only (baselineWasmOnly); a service lets V8 optimise it.
// Manifests must not depend on which compiler ran the grammars: tokenise the same texts in two processes,
// one baseline only, one optimising only, and compare every stream.

const ROOT = join(__dirname, '..', '..', '..');
const SCRIPT = `
const { readFileSync } = require('node:fs');
const { tokenizeTreeSitter, baselineWasmOnly, optimiseParser } = require(${JSON.stringify(join(ROOT, 'libs', 'engine', 'src', 'tokenize', 'treesitter.ts'))});
const { FingerprintPool } = require(${JSON.stringify(join(ROOT, 'libs', 'engine', 'src', 'workers', 'pool.ts'))});
const { fingerprintFile } = require(${JSON.stringify(join(ROOT, 'libs', 'engine', 'src', 'fingerprint-file.ts'))});
const samples = [
  ['javascript', 'const t = \`multi\\n\${line} template\`;\\n/* block */ let r = /a[b]+/g;\\nfunction broken( { return [1, 2\\n'],
  ['typescript', readFileSync(${JSON.stringify(join(ROOT, 'libs', 'engine', 'src', 'compare', 'index.ts'))}, 'utf8')],
  ['python', 'def f(:\\n    """doc"""\\n    return {"k": [1, 2'],
  ['c', 'int add(int *xs, int len)\\n{\\n    int acc = 0; /* sum */\\n    for (int j = 0; j < len; j++) acc += xs[j];\\n    return acc;\\n}'],
  ['bash', 'case "$x" in\\r\\n a) echo "one";;\\r\\nesac\\n'],
  ['go', 'package main\\nfunc Add(xs []int) int { acc := 0; for _, v := range xs { acc += v }; return acc }'],
];
(async () => {
  const mode = process.argv[1];
  if (mode !== 'default') baselineWasmOnly();
  if (mode === 'mixed') optimiseParser();
  const out = [];
  if (mode === 'pool') {
    // Two workers taking turns at loading modules: the runtime optimised, the grammars not.
    const pool = new FingerprintPool(2, 15, 8, { optimiseParser: true });
    const jobs = samples.map(([language, text], i) => ({ path: 'f' + i, blobId: '0'.repeat(40), language, isTest: false, text }));
    const runs = await Promise.all(jobs.map((j) => pool.run([j])));
    await pool.close();
    const local = [];
    for (const j of jobs) local.push((await fingerprintFile(j, 15, 8)).fp.hashes); // this thread: baseline only
    out.push(runs.map(([r]) => r.fp.hashes), local);
  } else for (const [lang, text] of samples) out.push(await tokenizeTreeSitter(lang, text));
  process.stdout.write(JSON.stringify(out));
})();
`;

function streams(flags: string[], mode: string): unknown[] {
  const out = execFileSync(process.execPath, [...flags, '-r', join(ROOT, 'scripts', 'swc-register.cjs'), '-e', SCRIPT, mode], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, LINEAGE_PARSER: 'wasm' }, // the native parser's languages through WASM too
  });
  return JSON.parse(out) as unknown[];
}

describe('grammars under either WebAssembly compiler', () => {
  it('give the same token streams baseline-only (as the CLI runs) and optimising-only', () => {
    const baseline = streams([], 'baseline');
    const optimised = streams(['--no-liftoff'], 'default');
    expect(baseline).toHaveLength(6);
    for (const s of baseline) expect((s as { kinds: number[] }).kinds.length).toBeGreaterThan(0);
    expect(baseline).toEqual(optimised);
  });

  it('give the same token streams with the parser runtime optimised and the grammars not (the CLI on a large pair)', () => {
    expect(streams([], 'mixed')).toEqual(streams([], 'baseline'));
  });

  it('give the same fingerprints on two workers taking turns at loading modules as on one thread baseline-only', () => {
    const [pooled, local] = streams([], 'pool') as number[][][];
    expect(pooled).toHaveLength(6);
    expect(pooled!.flat().length).toBeGreaterThan(0);
    expect(pooled).toEqual(local);
  });
});
