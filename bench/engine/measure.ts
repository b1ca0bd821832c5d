// One measurement in its own process: `node -r ./scripts/swc-register.cjs bench/engine/measure.ts <engine|dolos> <pair.json>`.
// Prints JSON: wall time, peak RSS, target regions found.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { analyze as AnalyzeFn } from '@lineage/engine';
import type { BenchPair, Region } from './pairs';

function listJs(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.js')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

async function runEngine(p: BenchPair): Promise<Region[]> {
  // The built package (libs/engine/dist), as the CLI and services run it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { analyze } = require('@lineage/engine') as { analyze: typeof AnalyzeFn };
  const r = await analyze({
    origin: { dir: p.originGit, commit: p.originCommit },
    target: { dir: p.targetGit, commit: p.targetCommit },
    workers: 2,
    limits: { maxFiles: 200_000, maxFileBytes: 16_000_000 },
  });
  return r.manifest.evidence
    .filter((e) => e.layer === 'CODE' && e.target)
    .map((e) => ({ path: e.target!.path, startLine: e.target!.startLine, endLine: e.target!.endLine }));
}

async function runDolos(p: BenchPair): Promise<Region[]> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Dolos } = require('@dodona/dolos-lib') as { Dolos: new (o: object) => { analyzePaths(p: string[]): Promise<DolosReport> } };
  const oFiles = listJs(p.originDir);
  const tFiles = listJs(p.targetDir);
  const report = await new Dolos({ language: 'javascript' }).analyzePaths([...oFiles, ...tFiles]);
  const isTarget = (path: string): boolean => path.startsWith(p.targetDir);
  const out: Region[] = [];
  for (const pair of report.allPairs()) {
    const l = pair.leftFile.path;
    const r = pair.rightFile.path;
    if (isTarget(l) === isTarget(r)) continue; // Dolos also compares files within one repository
    for (const f of pair.buildFragments()) {
      const sel = isTarget(l) ? f.leftSelection : f.rightSelection;
      const path = relative(p.targetDir, isTarget(l) ? l : r);
      out.push({ path, startLine: sel.startRow + 1, endLine: sel.endRow + 1 });
    }
  }
  return out;
}

interface DolosReport {
  allPairs(): {
    leftFile: { path: string };
    rightFile: { path: string };
    buildFragments(): { leftSelection: { startRow: number; endRow: number }; rightSelection: { startRow: number; endRow: number } }[];
  }[];
}

async function main(): Promise<void> {
  const [tool, pairFile] = process.argv.slice(2);
  const p = JSON.parse(readFileSync(pairFile!, 'utf8')) as BenchPair;
  const t0 = process.hrtime.bigint();
  const found = tool === 'dolos' ? await runDolos(p) : await runEngine(p);
  const wallMs = Number((process.hrtime.bigint() - t0) / 1_000_000n);
  let recall: number | null = null;
  if (p.copied) {
    const hit = p.copied.filter((c) => found.some((f) => f.path === c.path && f.startLine <= c.endLine && f.endLine >= c.startLine)).length;
    recall = hit / p.copied.length;
  }
  process.stdout.write(
    JSON.stringify({
      tool,
      pair: p.name,
      wallMs,
      maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
      fragments: found.length,
      recall,
    }) + '\n',
  );
  process.exit(0);
}

void main();
