// Benchmark pairs: the same files on disk (for Dolos) and in git (for the engine).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildRepo } from '../../test/fixtures/git-builder';
import { genModule, render, renamed, Rng, STYLE_A, STYLE_B, type Module } from '../../test/fixtures/codegen';
import { packageFiles } from '../../test/fixtures/npm-packages';

export interface Region {
  path: string;
  startLine: number;
  endLine: number;
}

export interface BenchPair {
  name: string;
  originDir: string;
  targetDir: string;
  originGit: string;
  targetGit: string;
  originCommit: string;
  targetCommit: string;
  lines: { origin: number; target: number };
  /** known copied regions in the target (for recall), when known */
  copied: Region[] | null;
}

function materialise(
  root: string,
  name: string,
  files: Record<string, string | Buffer>,
  time: number,
): { dir: string; git: string; commit: string; lines: number } {
  const dir = join(root, name, 'files');
  rmSync(dir, { recursive: true, force: true });
  let lines = 0;
  for (const [p, c] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), c);
    lines += String(c).split('\n').length;
  }
  const git = join(root, name, 'repo.git');
  return { dir, git, commit: buildRepo(git, { commits: [{ time, message: name, files }] }), lines };
}

function jsOnly(files: Record<string, Buffer>, under: RegExp): Record<string, Buffer> {
  return Object.fromEntries(Object.entries(files).filter(([p]) => under.test(p) && p.endsWith('.js') && !/\.min\.js$/.test(p)));
}

export function npmPair(root: string, name: string, a: string, b: string, under: RegExp): BenchPair {
  const o = materialise(root, `${name}/origin`, jsOnly(packageFiles(a), under), 1_500_000_000);
  const t = materialise(root, `${name}/target`, jsOnly(packageFiles(b), under), 1_530_000_000);
  return {
    name,
    originDir: o.dir,
    targetDir: t.dir,
    originGit: o.git,
    targetGit: t.git,
    originCommit: o.commit,
    targetCommit: t.commit,
    lines: { origin: o.lines, target: t.lines },
    copied: null,
  };
}

/** One one-line JavaScript file per side: what a run costs before its input matters. */
export function tinyPair(root: string): BenchPair {
  const o = materialise(root, 'tiny/origin', { 'index.js': 'function inc(x) { return x + 1; }\n' }, 1_500_000_000);
  const t = materialise(root, 'tiny/target', { 'index.js': 'function dec(y) { return y - 1; }\n' }, 1_530_000_000);
  return {
    name: 'tiny',
    originDir: o.dir,
    targetDir: t.dir,
    originGit: o.git,
    targetGit: t.git,
    originCommit: o.commit,
    targetCommit: t.commit,
    lines: { origin: o.lines, target: t.lines },
    copied: null,
  };
}

/** Merge some functions of `from` into `into` (name tables concatenated). */
function withCopied(into: Module, from: Module, idx: number[]): { module: Module; copiedNames: Set<number> } {
  const off = into.names.length;
  const shift = <T>(x: T): T =>
    JSON.parse(JSON.stringify(x), (k, v) =>
      (k === 'v' || k === 'f' || k === 'name') && typeof v === 'number'
        ? v + off
        : k === 'params' && Array.isArray(v)
          ? v.map((n: number) => n + off)
          : v,
    ) as T;
  const copied = idx.map((i) => shift(from.funcs[i]!));
  const funcs = [...into.funcs];
  // interleave: copied functions go after every other own function
  copied.forEach((f, j) => funcs.splice(Math.min(funcs.length, 1 + j * 2), 0, f));
  return { module: { funcs, names: [...into.names, ...from.names] }, copiedNames: new Set(copied.map((f) => f.name)) };
}

/**
 * Synthetic pair of `modules` JavaScript files per side (20 functions each):
 * the target is independent code into which 2 functions of every 4th origin
 * module were copied, renamed and reformatted; their target line ranges are
 * the known copied regions.
 */
export function syntheticPair(root: string, name: string, modules: number, seed = 1): BenchPair {
  const oFiles: Record<string, string> = {};
  const tFiles: Record<string, string> = {};
  const copied: Region[] = [];
  const r = new Rng(seed);
  for (let i = 0; i < modules; i++) {
    const om = genModule(seed * 100000 + i, 20);
    oFiles[`src/m${i}.js`] = render(om, 'javascript', STYLE_A);
    let tm = genModule(seed * 100000 + 50000 + i, 20);
    let names = new Set<number>();
    if (i % 4 === 0) {
      const picks = r.shuffle(om.funcs.map((_, j) => j)).slice(0, 2);
      const merged = withCopied(tm, om, picks);
      tm = renamed(merged.module, i + 7);
      names = merged.copiedNames;
    }
    const path = `lib/t${i}.js`;
    const text = render(tm, 'javascript', i % 2 ? STYLE_B : STYLE_A);
    tFiles[path] = text;
    if (names.size) {
      const lines = text.split('\n');
      for (const n of names) {
        const header = lines.findIndex((l) => l.startsWith(`function ${tm.names[n]}(`));
        let end = header + 1;
        while (end < lines.length && lines[end] !== '}') end++;
        copied.push({ path, startLine: header + 1, endLine: end + 1 });
      }
    }
  }
  const o = materialise(root, `${name}/origin`, oFiles, 1_500_000_000);
  const t = materialise(root, `${name}/target`, tFiles, 1_530_000_000);
  return {
    name,
    originDir: o.dir,
    targetDir: t.dir,
    originGit: o.git,
    targetGit: t.git,
    originCommit: o.commit,
    targetCommit: t.commit,
    lines: { origin: o.lines, target: t.lines },
    copied,
  };
}
