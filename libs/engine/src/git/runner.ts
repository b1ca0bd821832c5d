import { existsSync, lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EngineError } from '../errors';
import { startGit, type GitProcessOptions } from './process';

export interface GitRunOptions extends GitProcessOptions {
  maxOutputBytes?: number;
  /** A string only: stdin is closed once it is written (an open stdin is startGit's). */
  input?: string;
}

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;
const DEFAULT_TIMEOUT = 120_000;

/** Resolve the git directory of a local repository without discovery: `<dir>/.git` or `<dir>` (bare). */
export function resolveGitDir(dir: string): string {
  const abs = resolve(dir);
  const dotGit = join(abs, '.git');
  if (existsSync(dotGit)) {
    const st = lstatSync(dotGit);
    if (!st.isDirectory())
      throw new EngineError('REPOSITORY_UNREADABLE', 'the .git entry is not a directory (linked work trees are not read)');
    return dotGit;
  }
  if (existsSync(join(abs, 'objects')) && existsSync(join(abs, 'HEAD'))) return abs;
  throw new EngineError('REPOSITORY_UNREADABLE', 'not a git repository');
}

/**
 * Run git with bounded output and a timeout (two minutes unless given) and return its stdout.
 * Rejects with GIT_FAILED (exit code only, no stderr content) or a limit error.
 */
export async function runGit(args: readonly string[], opts: GitRunOptions = {}): Promise<Buffer> {
  const maxOut = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const chunks: Buffer[] = [];
  let size = 0;
  await startGit(args, { ...opts, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT }, (c) => {
    size += c.length;
    if (size > maxOut) throw new EngineError('REPOSITORY_TOO_LARGE', 'git output exceeded its bound', 'gitOutputBytes');
    chunks.push(c);
  }).exited;
  return Buffer.concat(chunks);
}

export interface LineStreamOptions extends Pick<GitProcessOptions, 'gitDir' | 'config' | 'signal' | 'timeoutMs'> {
  /** a longer line is a limit error (`gitOutputBytes`): one record must fit in memory */
  maxLineBytes?: number;
  /** what ends a line: NUL for `-z` output, whose records may hold newlines */
  terminator?: '\n' | '\0';
}

/**
 * Run git and hand its stdout to `onLine` line by line as it arrives, so memory
 * does not grow with the output. `onLine` returns false to stop early: git is
 * killed and the promise resolves; a throw kills git and rejects with it.
 * Failures are reported as by runGit.
 */
export async function streamGitLines(
  args: readonly string[],
  opts: LineStreamOptions,
  onLine: (line: string) => boolean | void,
): Promise<void> {
  const maxLine = opts.maxLineBytes ?? 1 << 20;
  const end = opts.terminator ?? '\n';
  const endByte = end.charCodeAt(0);
  let stopped = false;
  let rest = null as Buffer | null; // typed wide: set in the callback, which narrowing does not see
  const { gitDir, config, signal } = opts;
  await startGit(args, { gitDir, config, signal, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT }, (c) => {
    const buf = rest ? Buffer.concat([rest, c]) : c;
    // The chunk's whole lines are decoded at once and split as a string: a newline or NUL byte never occurs inside a
    // multi-byte UTF-8 sequence, so the lines are those a decode per line gives, without two native calls a line.
    const last = buf.lastIndexOf(endByte);
    if (last >= 0) {
      const text = buf.toString('utf8', 0, last);
      for (let start = 0; ;) {
        const nl = text.indexOf(end, start);
        if (onLine(nl < 0 ? text.slice(start) : text.slice(start, nl)) === false) {
          stopped = true;
          return false;
        }
        if (nl < 0) break;
        start = nl + 1;
      }
    }
    rest = last + 1 < buf.length ? Buffer.from(buf.subarray(last + 1)) : null;
    if (rest && rest.length > maxLine)
      throw new EngineError('REPOSITORY_TOO_LARGE', 'a line of git output exceeded its bound', 'gitOutputBytes');
  }).exited;
  if (!stopped && rest) onLine(rest.toString('utf8'));
}
