#!/usr/bin/env node
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from './analyze';
import { cloneToCache } from './clone';
import { EngineError } from './errors';
import { terminalProgress } from './progress';
import { humanReport, terminalSafe } from './report';
import { baselineWasmOnly } from './tokenize/treesitter';
import { loadManifest, verify } from './verify';
import { ENGINE_VERSION, MANIFEST_VERSION } from './version';
import type { RepoRef } from './types';

/** Exit codes (docs/engine.md). */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2, TOO_LARGE: 3, NOT_FOUND: 4, NOT_ALLOWED: 5, DIFFERS: 6 } as const;

const USAGE = `usage: lineage analyze <origin> <target> [--origin-ref R] [--target-ref R] [--origin-url U] [--target-url U]
                       [--json] [--manifest FILE] [--workers N] [--cache DIR]
       lineage verify <manifest.json | case or analysis URL> <origin> <target> [--json] [--workers N]
       lineage --help | --version
  <origin>/<target>: a local git directory (bare or not), or for analyze an https URL (cloned into the cache first)`;

const HELP = `${USAGE}

Compares two git repositories pinned at exact commits and decides their lineage
(independent, shared upstream, declared fork, likely or heavily derived, or
insufficient evidence), with a direction and a confidence.

analyze
  --origin-ref R, --target-ref R   branch, tag or commit to pin (default HEAD)
  --origin-url U, --target-url U   the public URL to record in the manifest for a local clone,
                                   so a local run reproduces the service's manifest hash
  --json                           one JSON line: verdict, confidence, direction, manifestHash, manifest
  --manifest FILE                  write the canonical manifest bytes (their sha256 is the manifest hash)
  --workers N                      fingerprinting worker threads (default: cores, at most 2)
  --cache DIR                      where URLs are cloned (default ./.cache/repos)

verify
  recomputes a manifest (a file, or a case URL such as http://127.0.0.1:8080/api/v1/cases/1)
  from local clones of its two repositories, with the commits, URLs and limits it records,
  and says "identical" or shows the first difference

exit codes: 0 done (verify: identical), 1 analysis failed, 2 usage, 3 a limit was hit,
            4 repository/commit not found, unreadable or unreachable, 5 refused input,
            6 verify: the recomputed manifest differs
docs: docs/engine.md`;

interface Args {
  command: 'analyze' | 'verify';
  source: string;
  origin: string;
  target: string;
  originRef: string;
  targetRef: string;
  originUrl: string | undefined;
  targetUrl: string | undefined;
  json: boolean;
  manifest: string | null;
  workers: number | undefined;
  cache: string;
}

function parse(argv: string[]): Args | null {
  const command = argv[0];
  if (command !== 'analyze' && command !== 'verify') return null;
  const pos: string[] = [];
  const a: Args = {
    command,
    source: '',
    origin: '',
    target: '',
    originRef: 'HEAD',
    targetRef: 'HEAD',
    originUrl: undefined,
    targetUrl: undefined,
    json: false,
    manifest: null,
    workers: undefined,
    cache: join(process.cwd(), '.cache', 'repos'),
  };
  const analyzeOnly = new Set(['--origin-ref', '--target-ref', '--origin-url', '--target-url', '--manifest', '--cache']);
  for (let i = 1; i < argv.length; i++) {
    const v = argv[i]!;
    const next = (): string => {
      const n = argv[++i];
      if (n === undefined) throw new Error(`${v} needs a value`);
      return n;
    };
    if (command === 'verify' && analyzeOnly.has(v)) throw new Error(`${v} is an option of analyze (verify reads the manifest's own)`);
    if (v === '--origin-ref') a.originRef = next();
    else if (v === '--target-ref') a.targetRef = next();
    else if (v === '--origin-url') a.originUrl = publicUrl(v, next());
    else if (v === '--target-url') a.targetUrl = publicUrl(v, next());
    else if (v === '--json') a.json = true;
    else if (v === '--manifest') a.manifest = next();
    else if (v === '--workers') a.workers = workerCount(next());
    else if (v === '--cache') a.cache = next();
    else if (v.startsWith('--')) throw new Error(`unknown option ${v}`);
    else pos.push(v);
  }
  if (command === 'verify') {
    if (pos.length !== 3) return null;
    [a.source, a.origin, a.target] = pos as [string, string, string];
    return a;
  }
  if (pos.length !== 2) return null;
  [a.origin, a.target] = pos as [string, string];
  return a;
}

/** The URL recorded in the manifest: what the service records for the same repository (no credentials, no query). */
function publicUrl(option: string, v: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new Error(`${option} must be a URL (https://host/owner/name)`);
  }
  if (!/^https?:$/.test(u.protocol) || u.username || u.password || u.search || u.hash)
    throw new Error(`${option} must be an http(s) URL without credentials, query or fragment`);
  return v;
}

function workerCount(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error('--workers must be an integer from 1 to 64');
  return n;
}

/** A URL (`scheme://…`) or GitHub's `owner/name` shorthand is cloned; anything else is a local path. */
const REMOTE = /^[a-z][a-z0-9+.-]*:\/\/|^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}\/[A-Za-z0-9_.-]{1,100}$/;

async function repoRef(spec: string, ref: string, cache: string, side: 'origin' | 'target', url: string | undefined): Promise<RepoRef> {
  if (existsSync(spec)) return { dir: spec, commit: ref, ...(url ? { url } : {}) };
  if (!REMOTE.test(spec)) {
    const e = new EngineError('REPOSITORY_NOT_FOUND', `the ${side} path does not exist`);
    e.side = side;
    throw e;
  }
  const dir = await cloneToCache(spec, cache).catch((e: unknown) => {
    if (e instanceof EngineError) e.side ??= side;
    throw e;
  });
  return { dir, commit: ref, url: url ?? spec };
}

function localDir(spec: string, side: 'origin' | 'target'): string {
  if (existsSync(spec)) return spec;
  const e = new EngineError('REPOSITORY_NOT_FOUND', `the ${side} path does not exist`);
  e.side = side;
  throw e;
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
  baselineWasmOnly(); // one analysis per process: no background re-compiles (tokenize/treesitter.ts)
  const progress = terminalProgress(process.stderr);
  try {
    return args.command === 'verify' ? await runVerify(args, progress) : await runAnalyze(args, progress);
  } catch (e) {
    progress?.end(); // the error line must not land on the bar
    return failure(e, args.json);
  }
}

type Bar = ReturnType<typeof terminalProgress>;

async function runAnalyze(args: Args, bar: Bar): Promise<number> {
  const origin = await repoRef(args.origin, args.originRef, args.cache, 'origin', args.originUrl);
  const target = await repoRef(args.target, args.targetRef, args.cache, 'target', args.targetUrl);
  const r = await analyze({ origin, target, workers: args.workers, onProgress: bar?.onProgress });
  bar?.end();
  if (args.manifest) writeFileSync(args.manifest, r.bytes);
  if (args.json)
    process.stdout.write(
      JSON.stringify({
        verdict: r.manifest.verdict,
        confidence: r.manifest.confidence,
        direction: r.manifest.direction,
        manifestHash: r.hash,
        manifest: r.manifest,
      }) + '\n',
    );
  else process.stdout.write(humanReport({ manifest: r.manifest, hash: r.hash, names: { origin: args.origin, target: args.target } }));
  return EXIT.OK;
}

async function runVerify(args: Args, bar: Bar): Promise<number> {
  const bytes = await loadManifest(args.source);
  const r = await verify({
    manifest: bytes,
    origin: localDir(args.origin, 'origin'),
    target: localDir(args.target, 'target'),
    workers: args.workers,
    onProgress: bar?.onProgress,
  });
  bar?.end();
  if (args.json) {
    process.stdout.write(JSON.stringify(r) + '\n');
  } else if (r.identical) {
    process.stdout.write(
      `identical: the recomputed manifest hashes to ${r.actualHash}${r.recanonicalised ? ' (the file given was not in canonical form; its canonical bytes were compared)' : ''}\n`,
    );
  } else {
    const lines = [
      `differs: the manifest given hashes to ${r.expectedHash}, the recomputed one to ${r.actualHash}`,
      ...(r.engine.manifest !== r.engine.local
        ? [`  the manifest was made by ${terminalSafe(r.engine.manifest)}, this is ${r.engine.local}: recompute with that engine version`]
        : []),
      ...(r.difference
        ? [
            `  first difference at ${terminalSafe(r.difference.path)}`,
            `    given:      ${terminalSafe(r.difference.expected)}`,
            `    recomputed: ${terminalSafe(r.difference.actual)}`,
          ]
        : []),
    ];
    process.stdout.write(lines.join('\n') + '\n');
  }
  return r.identical ? EXIT.OK : EXIT.DIFFERS;
}

function failure(e: unknown, json: boolean): number {
  if (e instanceof EngineError) {
    if (json) process.stdout.write(JSON.stringify({ error: e.toJSON() }) + '\n');
    const where = [e.limit ? `limit ${e.limit}` : '', e.stage ? `stage ${e.stage}` : '', e.side ? `${e.side}` : '']
      .filter(Boolean)
      .join(', ');
    process.stderr.write(`error: ${e.code}${where ? ` (${where})` : ''}: ${e.message}\n`);
    if (e.code === 'REPOSITORY_TOO_LARGE') return EXIT.TOO_LARGE;
    if (
      e.code === 'COMMIT_NOT_FOUND' ||
      e.code === 'REPOSITORY_NOT_FOUND' ||
      e.code === 'REPOSITORY_UNREADABLE' ||
      e.code === 'REPOSITORY_UNREACHABLE'
    )
      return EXIT.NOT_FOUND;
    if (e.code === 'REPOSITORY_NOT_ALLOWED' || e.code === 'INVALID_INPUT') return EXIT.NOT_ALLOWED;
    return EXIT.FAILED;
  }
  process.stderr.write(`error: INTERNAL: ${e instanceof Error ? e.name : 'unknown failure'} outside the analysis stages\n`);
  return EXIT.FAILED;
}

/**
 * A reader that stops early (`lineage analyze … --json | head -c 300`) closes the pipe: the rest of the output has
 * nowhere to go, which is the reader's choice, not a failure to report with a stack trace. Entry points only.
 */
export function quietOnClosedStdout(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    process.exit(EXIT.OK);
  });
}

if (require.main === module) {
  quietOnClosedStdout();
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
