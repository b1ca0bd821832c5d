#!/usr/bin/env node
import { existsSync, writeFileSync } from 'node:fs';
import { analyze } from './analyze';
import { commandHelp, commandSuggestion, HELP, isCommand, parseArgs, UsageError, USAGE, type Args } from './cli-args';
import { cloneToCache } from './clone';
import { EngineError } from './errors';
import { terminalProgress } from './progress';
import { humanReport, terminalSafe } from './report';
import { baselineWasmOnly } from './tokenize/treesitter';
import { loadManifest, parseManifest, verify } from './verify';
import { ENGINE_VERSION, MANIFEST_VERSION } from './version';
import { BlobReader } from './git/catfile';
import { resolveGitDir } from './git/runner';
import { htmlReport } from './html-report';
import type { Manifest, RepoRef, Side } from './types';

/** Exit codes (docs/engine.md). */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2, TOO_LARGE: 3, NOT_FOUND: 4, NOT_ALLOWED: 5, DIFFERS: 6 } as const;

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
    // `lineage help analyze` is `lineage analyze --help`
    process.stdout.write((isCommand(argv[1]) ? commandHelp(argv[1]) : HELP) + '\n');
    return EXIT.OK;
  }
  if (argv[0] === '--version' || argv[0] === '-V') {
    process.stdout.write(`${ENGINE_VERSION} (manifest version ${MANIFEST_VERSION})\n`);
    return EXIT.OK;
  }
  let args: Args | null;
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${e.message}\n${e.command ? commandHelp(e.command).split('\n')[0] : USAGE}\n`);
    return EXIT.USAGE;
  }
  if (!args) {
    process.stderr.write((argv[0] ? `unknown command ${argv[0]}${commandSuggestion(argv[0])}\n` : '') + USAGE + '\n');
    return EXIT.USAGE;
  }
  if (args.help) {
    process.stdout.write(commandHelp(args.command) + '\n');
    return EXIT.OK;
  }
  baselineWasmOnly(); // one analysis per process: no background re-compiles (tokenize/treesitter.ts)
  // No progress line when asked to be quiet, or on a terminal that cannot redraw one.
  const progress = args.quiet || process.env.TERM === 'dumb' ? undefined : terminalProgress(process.stderr);
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
  if (args.html)
    await writeHtml(
      args.html,
      r.manifest,
      r.hash,
      { origin: origin.dir, target: target.dir },
      { origin: args.origin, target: args.target },
    );
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
  else {
    const report = humanReport({ manifest: r.manifest, hash: r.hash, names: { origin: args.origin, target: args.target } });
    // --quiet: the verdict line and the manifest hash only.
    process.stdout.write(args.quiet ? `${report.slice(0, report.indexOf('\n'))}\nmanifest ${r.hash}\n` : report);
  }
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
  // The manifest given, as the report of what it claims (its blobs are read from the same local clones).
  if (args.html)
    await writeHtml(
      args.html,
      parseManifest(bytes),
      r.expectedHash,
      { origin: args.origin, target: args.target },
      { origin: args.origin, target: args.target },
    );
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
    process.stdout.write((args.quiet ? lines.slice(0, 1) : lines).join('\n') + '\n');
  }
  return r.identical ? EXIT.OK : EXIT.DIFFERS;
}

/** `--html FILE`: the report as one self-contained HTML file, its code read from the two local repositories. */
async function writeHtml(
  file: string,
  manifest: Manifest,
  hash: string,
  dirs: Record<Side, string>,
  names: Record<Side, string>,
): Promise<void> {
  const readers = { origin: new BlobReader(resolveGitDir(dirs.origin)), target: new BlobReader(resolveGitDir(dirs.target)) };
  try {
    writeFileSync(file, await htmlReport({ manifest, hash, names, readers }));
  } finally {
    readers.origin.close();
    readers.target.close();
  }
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
