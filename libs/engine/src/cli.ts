#!/usr/bin/env node
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from './analyze';
import { cloneToCache } from './clone';
import { EngineError } from './errors';
import { ENGINE_VERSION, MANIFEST_VERSION } from './version';
import type { AnalysisResult, Progress, RepoRef } from './types';

/** Exit codes (docs/engine.md). */
export const EXIT = { OK: 0, USAGE: 2, TOO_LARGE: 3, NOT_FOUND: 4, NOT_ALLOWED: 5, FAILED: 1 } as const;

const USAGE = `usage: lineage analyze <origin> <target> [--origin-ref R] [--target-ref R] [--json] [--manifest FILE] [--workers N] [--cache DIR]
       lineage --help | --version
  <origin>/<target>: a local git directory (bare or not) or an https URL (cloned into the cache first)`;

const HELP = `${USAGE}

Compares two git repositories pinned at exact commits and decides their lineage
(independent, shared upstream, declared fork, likely or heavily derived, or
insufficient evidence), with a direction and a confidence.

  --origin-ref R, --target-ref R   branch, tag or commit to pin (default HEAD)
  --json                           one JSON line: verdict, confidence, direction, manifestHash, manifest
  --manifest FILE                  write the canonical manifest bytes (their sha256 is the manifest hash)
  --workers N                      fingerprinting worker threads (default: cores - 1)
  --cache DIR                      where URLs are cloned (default ./.cache/repos)

exit codes: 0 done, 1 analysis failed, 2 usage, 3 a limit was hit,
            4 repository/commit not found, unreadable or unreachable, 5 refused input
docs: docs/engine.md`;

interface Args {
  origin: string;
  target: string;
  originRef: string;
  targetRef: string;
  json: boolean;
  manifest: string | null;
  workers: number | undefined;
  cache: string;
}

function parse(argv: string[]): Args | null {
  if (argv[0] !== 'analyze') return null;
  const pos: string[] = [];
  const a: Args = { origin: '', target: '', originRef: 'HEAD', targetRef: 'HEAD', json: false, manifest: null, workers: undefined, cache: join(process.cwd(), '.cache', 'repos') };
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i]!;
    const next = (): string => {
      const n = argv[++i];
      if (n === undefined) throw new Error(`${v} needs a value`);
      return n;
    };
    if (v === '--origin-ref') a.originRef = next();
    else if (v === '--target-ref') a.targetRef = next();
    else if (v === '--json') a.json = true;
    else if (v === '--manifest') a.manifest = next();
    else if (v === '--workers') a.workers = Number(next());
    else if (v === '--cache') a.cache = next();
    else if (v.startsWith('--')) throw new Error(`unknown option ${v}`);
    else pos.push(v);
  }
  if (pos.length !== 2) return null;
  [a.origin, a.target] = pos as [string, string];
  return a;
}

/** A URL (`scheme://…`) or GitHub's `owner/name` shorthand is cloned; anything else is a local path. */
const REMOTE = /^[a-z][a-z0-9+.-]*:\/\/|^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}\/[A-Za-z0-9_.-]{1,100}$/;

async function repoRef(spec: string, ref: string, cache: string, side: 'origin' | 'target'): Promise<RepoRef> {
  if (existsSync(spec)) return { dir: spec, commit: ref };
  if (!REMOTE.test(spec)) {
    const e = new EngineError('REPOSITORY_NOT_FOUND', `the ${side} path does not exist`);
    e.side = side;
    throw e;
  }
  const dir = await cloneToCache(spec, cache).catch((e: unknown) => {
    if (e instanceof EngineError) e.side ??= side;
    throw e;
  });
  return { dir, commit: ref, url: spec };
}

function progressBar(): ((p: Progress) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (p) => {
    const width = 30;
    const filled = p.total ? Math.min(width, Math.round((p.done / p.total) * width)) : 0;
    process.stderr.write(`\r${p.stage.padEnd(12)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total} ${p.unit}${p.side ? ` (${p.side})` : ''}   `);
  };
}

function report(r: AnalysisResult, names: { origin: string; target: string }): string {
  const m = r.manifest;
  const lines: string[] = [];
  lines.push(`Verdict:    ${m.verdict}`, `Confidence: ${m.confidence}`, `Direction:  ${m.direction}`, '');
  lines.push(`Origin: ${m.pair.origin.url ?? names.origin} @ ${m.pair.origin.commit}`, `Target: ${m.pair.target.url ?? names.target} @ ${m.pair.target.commit}`, '');
  lines.push('Layers:');
  for (const l of m.layers) lines.push(`  ${l.layer.padEnd(11)} ${l.score}  (${l.items} items)`);
  lines.push('', `Code containment: target ${m.metrics.targetContainment}, origin ${m.metrics.originContainment}; shared commits: ${m.metrics.sharedCommits}`, '');
  lines.push('Strongest evidence:');
  const top = [...m.evidence].sort((a, b) => Number(b.score) - Number(a.score) || (a.id < b.id ? -1 : 1)).slice(0, 10);
  for (const e of top) {
    const loc = (x: typeof e.origin): string => (x ? `${x.path}${x.startLine ? `:${x.startLine}-${x.endLine}` : ''}` : '-');
    lines.push(`  [${e.layer}/${e.strength}] ${e.kind}  origin ${loc(e.origin)}  target ${loc(e.target)}  ${e.detail}`);
  }
  lines.push('', 'Alternatives:');
  for (const a of m.alternatives) lines.push(`  ${a.verdict.padEnd(22)} ${a.score}  ${a.reason}`);
  lines.push('', `Manifest hash: ${r.hash}`);
  return lines.join('\n') + '\n';
}

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(HELP + '\n');
    return EXIT.OK;
  }
  if (argv[0] === '--version' || argv[0] === '-V') {
    process.stdout.write(`${ENGINE_VERSION} (manifest version ${MANIFEST_VERSION})\n`);
    return EXIT.OK;
  }
  let args: Args | null;
  try {
    args = parse(argv);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`);
    return EXIT.USAGE;
  }
  if (!args) {
    process.stderr.write(USAGE + '\n');
    return EXIT.USAGE;
  }
  try {
    const origin = await repoRef(args.origin, args.originRef, args.cache, 'origin');
    const target = await repoRef(args.target, args.targetRef, args.cache, 'target');
    const onProgress = progressBar();
    const r = await analyze({ origin, target, workers: args.workers, onProgress });
    if (onProgress) process.stderr.write('\n');
    if (args.manifest) writeFileSync(args.manifest, r.bytes);
    if (args.json) process.stdout.write(JSON.stringify({ verdict: r.manifest.verdict, confidence: r.manifest.confidence, direction: r.manifest.direction, manifestHash: r.hash, manifest: r.manifest }) + '\n');
    else process.stdout.write(report(r, { origin: args.origin, target: args.target }));
    return EXIT.OK;
  } catch (e) {
    if (e instanceof EngineError) {
      const out = { error: e.toJSON() };
      if (args.json) process.stdout.write(JSON.stringify(out) + '\n');
      const where = [e.limit ? `limit ${e.limit}` : '', e.stage ? `stage ${e.stage}` : '', e.side ? `${e.side}` : ''].filter(Boolean).join(', ');
      process.stderr.write(`error: ${e.code}${where ? ` (${where})` : ''}: ${e.message}\n`);
      if (e.code === 'REPOSITORY_TOO_LARGE') return EXIT.TOO_LARGE;
      if (e.code === 'COMMIT_NOT_FOUND' || e.code === 'REPOSITORY_NOT_FOUND' || e.code === 'REPOSITORY_UNREADABLE' || e.code === 'REPOSITORY_UNREACHABLE') return EXIT.NOT_FOUND;
      if (e.code === 'REPOSITORY_NOT_ALLOWED' || e.code === 'INVALID_INPUT') return EXIT.NOT_ALLOWED;
      return EXIT.FAILED;
    }
    process.stderr.write(`error: INTERNAL: ${e instanceof Error ? e.name : 'unknown failure'} outside the analysis stages\n`);
    return EXIT.FAILED;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
