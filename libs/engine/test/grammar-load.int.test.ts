import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { transformSync } from '@swc/core';
import { grammarLoads, GRAMMARS } from '@lineage/engine';
import { tokenizeTreeSitter } from '../src/tokenize/treesitter';

// web-tree-sitter's dynamic linker keeps process-wide state across a grammar load, so two loads in flight at once
// failed ("bad export type for '<another grammar's symbol>'"). Only a runtime that has loaded no grammar yet can
// race, so each case runs in new worker threads, every one with its own web-tree-sitter.

jest.setTimeout(60_000);

const TOKENIZE = join(__dirname, '..', 'src', 'tokenize');

// The tokenize sources compiled here: @swc/core crashes the process (SIGSEGV) when it is loaded in worker threads
// started one after another, so the workers get plain JavaScript and never load it.
const code: Record<string, string> = Object.fromEntries(
  readdirSync(TOKENIZE)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => {
      const filename = join(TOKENIZE, f);
      const src = readFileSync(filename, 'utf8');
      return [
        filename,
        transformSync(src, { filename, jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }).code,
      ];
    }),
);

// One small text per grammar, tokenised once as is and once doubled.
const TEXTS: Record<string, string> = {
  javascript: 'function sum(list) { let t = 0; for (const x of list) t += x * 2; return t; } // js\n',
  typescript: 'const add = (a: number, b: number): number => a + b;\nexport type P = { x: string };\n',
  tsx: 'export const App = ({ name }: { name: string }) => <div className="a">{name}</div>;\n',
  python: 'def f(xs):\n    """doc"""\n    return [x * 2 for x in xs if x]  # py\n',
  go: 'package main\nimport "fmt"\nfunc main() { for i := 0; i < 3; i++ { fmt.Println(i) } }\n',
  java: 'class A { static int f(int[] a) { int s = 0; for (int x : a) s += x; return s; } }\n',
  c: '#include <stdio.h>\nint main(void) { printf("%d\\n", 42); return 0; }\n',
  cpp: 'template <class T> T twice(T v) { return v + v; }\nint main() { std::string s = "x"; return twice(1); }\n',
  rust: 'fn main() { let v: Vec<i32> = (0..3).map(|x| x * 2).collect(); println!("{:?}", v); }\n',
  solidity: 'pragma solidity ^0.8.0;\ncontract C { uint public x; function set(uint v) external { x = v; } }\n',
  ruby: 'class A\n  def f(xs)\n    xs.map { |x| x * 2 } # rb\n  end\nend\n',
  php: '<?php\nfunction f($xs) { return array_map(fn($x) => $x * 2, $xs); }\necho "hi";\n',
  c_sharp: 'class A { static int F(int[] a) { var s = 0; foreach (var x in a) s += x; return s; } }\n',
  kotlin: 'fun f(xs: List<Int>): Int = xs.map { it * 2 }.sum()\nval s = "k"\n',
  swift: 'func f(_ xs: [Int]) -> Int { return xs.map { $0 * 2 }.reduce(0, +) }\nlet s = "sw"\n',
  scala: 'object A { def f(xs: List[Int]): Int = xs.map(_ * 2).sum; val s = "sc" }\n',
  lua: 'local function f(t)\n  local s = 0\n  for _, v in ipairs(t) do s = s + v end\n  return s -- lua\nend\n',
  bash: 'for f in *.txt; do\n  echo "$f" # sh\ndone\n',
  zig: 'const std = @import("std");\npub fn main() void { std.debug.print("{d}\\n", .{42}); }\n',
  dart: 'int f(List<int> xs) => xs.map((x) => x * 2).fold(0, (a, b) => a + b);\nvoid main() { print("d"); }\n',
};
const SAMPLES: [string, string][] = Object.entries(TEXTS).flatMap(
  ([lang, t]) =>
    [
      [lang, t],
      [lang, t + t],
    ] as [string, string][],
);

interface Job {
  mode: 'stress' | 'broken';
  seed: number;
  /** stress: load every grammar at once before tokenising (else the first tokenise of each language loads it) */
  loadFirst: boolean;
  /** broken: grammars whose wasm file reads as these bytes */
  bad: Record<string, Uint8Array>;
}
interface Report {
  failures: string[];
  /** stress: token kinds per SAMPLES entry */
  kinds: (number[] | null)[];
  /** broken: each language's load outcome in start order ('ok' or the error) */
  outcomes: [string, string][];
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { code, samples, tokenizeDir, job } = workerData;
require.extensions['.ts'] = (m, filename) => {
  if (code[filename] === undefined) throw new Error('not precompiled for the worker: ' + filename);
  m._compile(code[filename], filename);
};
const fs = require('node:fs');
const readFileSync = fs.readFileSync;
// The bad grammars' bytes, read where the real ones are read (treesitter.ts reads fs.readFileSync at each call).
fs.readFileSync = (file, ...rest) => {
  const name = /tree-sitter-(\\w+)\\.wasm$/.exec(String(file))?.[1];
  return name !== undefined && name in job.bad ? Buffer.from(job.bad[name]) : readFileSync(file, ...rest);
};
const { GRAMMARS, grammarLoads, tokenizeTreeSitter } = require(tokenizeDir + '/treesitter.ts');
const { tokenize } = require(tokenizeDir + '/index.ts');
let seed = job.seed;
const shuffle = (xs) => {
  xs = [...xs];
  for (let i = xs.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const j = seed % (i + 1);
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
};
const message = (e) => (e instanceof Error ? e.message : String(e));
const load = (lang) => grammarLoads(lang).then((ok) => (ok ? 'ok' : 'no grammar'), message);

async function stress() {
  const failures = [];
  if (job.loadFirst) {
    const langs = shuffle(Object.keys(GRAMMARS));
    const results = await Promise.all(langs.map(load));
    results.forEach((r, i) => r === 'ok' || failures.push(langs[i] + ': ' + r));
  }
  const kinds = samples.map(() => null);
  await Promise.all(shuffle(samples.map((_, i) => i)).map((i) => {
    const [lang, text] = samples[i];
    return tokenizeTreeSitter(lang, text).then(
      (s) => (s ? (kinds[i] = s.kinds) : failures.push(lang + ': fell back to the generic lexer')),
      (e) => failures.push(lang + ': ' + message(e)),
    );
  }));
  return { failures, kinds, outcomes: [] };
}

async function broken() {
  const names = Object.keys(job.bad);
  for (const n of names) GRAMMARS[n] = n;
  const real = shuffle(Object.keys(GRAMMARS).filter((l) => !names.includes(l)));
  // A bad grammar first, so every other load queues behind a failed one; the next bad one in the middle.
  const langs = [names[0], ...real.slice(0, 10), ...names.slice(1), ...real.slice(10)];
  const outcomes = (await Promise.all(langs.map(load))).map((r, i) => [langs[i], r]);
  // Asked again, and through tokenize, a bad grammar is still an error, never the generic lexer.
  outcomes.push([names[0] + ' again', await load(names[0])]);
  outcomes.push([names[0] + ' tokenize', await tokenize(names[0], 'x = 1').then(() => 'ok', message)]);
  return { failures: [], kinds: [], outcomes };
}

(job.mode === 'broken' ? broken() : stress()).then(
  (r) => parentPort.postMessage(r),
  (e) => parentPort.postMessage({ failures: ['worker: ' + message(e)], kinds: [], outcomes: [] }),
);
`;

/** Runs the jobs at once, each in a new worker thread. */
function inWorkers(jobs: Job[]): Promise<Report[]> {
  return Promise.all(
    jobs.map(
      (job) =>
        new Promise<Report>((resolve, reject) => {
          // Every language through WASM, those of the native parser too (JavaScript, TypeScript, C, Java, Python).
          const env = { ...process.env, LINEAGE_PARSER: 'wasm' };
          const w = new Worker(WORKER, { eval: true, env, workerData: { code, samples: SAMPLES, tokenizeDir: TOKENIZE, job } });
          w.once('message', (r: Report) => void w.terminate().then(() => resolve(r)));
          w.once('error', reject);
        }),
    ),
  );
}

const stressJobs = (loadFirst: boolean, seeds: number[]): Job[] => seeds.map((seed) => ({ mode: 'stress', seed, loadFirst, bad: {} }));

describe('grammar loads', () => {
  let reference: number[][];
  beforeAll(async () => {
    // One load at a time (the cases below are the concurrent ones), all before any parse: a load that follows
    // parsing waits for V8's optimising compiler, busy with the grammars already run (seconds on 2 cores).
    for (const lang of Object.keys(GRAMMARS)) await grammarLoads(lang);
    reference = [];
    for (const [lang, text] of SAMPLES) reference.push((await tokenizeTreeSitter(lang, text))!.kinds);
  });

  it('every grammar has a sample text', () => {
    expect(Object.keys(TEXTS).sort()).toEqual(Object.keys(GRAMMARS).sort());
    expect(reference.every((k) => k.length > 0)).toBe(true);
  });

  it('all 20 grammars loading at once, in varied orders, in fresh runtimes: no failures, then the same tokens as one at a time', async () => {
    const reports = await inWorkers(stressJobs(true, [1, 2, 3, 4]));
    expect(reports.flatMap((r) => r.failures)).toEqual([]);
    for (const r of reports) expect(r.kinds).toEqual(reference);
  });

  it('mixed languages tokenised at once in fresh runtimes (each first use loads its grammar): the same tokens', async () => {
    const reports = await inWorkers(stressJobs(false, [5, 6, 7]));
    expect(reports.flatMap((r) => r.failures)).toEqual([]);
    for (const r of reports) expect(r.kinds).toEqual(reference);
  });

  it('a grammar whose wasm bytes are bad fails to load, stays an error, and every other grammar still loads', async () => {
    const js = readFileSync(join(dirname(require.resolve('tree-sitter-wasms/package.json')), 'out', 'tree-sitter-javascript.wasm'));
    const bad = {
      garbage: Uint8Array.from(Buffer.from('not a grammar at all')),
      truncated: Uint8Array.from(js.subarray(0, js.length >> 1)),
    };
    const [r] = await inWorkers([{ mode: 'broken', seed: 8, loadFirst: true, bad }]);
    expect(r!.failures).toEqual([]);
    const outcomes = new Map(r!.outcomes);
    expect(r!.outcomes[0]![0]).toBe('garbage');
    for (const lang of Object.keys(GRAMMARS)) expect(`${lang}: ${outcomes.get(lang)}`).toBe(`${lang}: ok`);
    for (const name of ['garbage', 'truncated', 'garbage again', 'garbage tokenize']) {
      expect(outcomes.get(name)).not.toBe('ok');
      expect(outcomes.get(name)).not.toMatch(/ENOENT/); // the bad bytes were read, not a missing file
    }
    expect(outcomes.get('garbage again')).toBe(outcomes.get('garbage'));
    expect(outcomes.get('garbage tokenize')).toBe(outcomes.get('garbage'));
  });
});
