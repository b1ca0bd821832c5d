import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EngineError } from '../errors';
import { SAFE_CONFIG_ARGS, safeGitEnv } from './env';

export interface GitRunOptions {
  /** Repository directory passed as --git-dir; omit for commands like clone/ls-remote. */
  gitDir?: string;
  maxOutputBytes?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Extra `-c key=value` overrides (e.g. to allow https for a clone). */
  config?: string[];
  input?: string;
  /** Exit codes other than 0 that are answers, not failures (e.g. 1 from `merge-base` with no common ancestor). */
  okExitCodes?: readonly number[];
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

export function gitArgs(opts: Pick<GitRunOptions, 'gitDir' | 'config'>, args: readonly string[]): string[] {
  const out: string[] = [...SAFE_CONFIG_ARGS];
  for (const c of opts.config ?? []) out.push('-c', c);
  if (opts.gitDir) out.push('--git-dir', opts.gitDir);
  out.push(...args);
  return out;
}

export function spawnGit(opts: Pick<GitRunOptions, 'gitDir' | 'config'>, args: readonly string[]): ChildProcess {
  const child = spawn('git', gitArgs(opts, args), {
    env: safeGitEnv(),
    cwd: '/',
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    windowsHide: true,
  });
  // Writing to a git that has already exited raises EPIPE on stdin; its exit status reports the failure.
  child.stdin!.on('error', () => undefined);
  return child;
}

/**
 * Run git with an argument array (never a shell), bounded output and a timeout.
 * Rejects with GIT_FAILED (exit code only, no stderr content) or a limit error.
 */
export function runGit(args: readonly string[], opts: GitRunOptions = {}): Promise<Buffer> {
  const maxOut = opts.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT;
  return new Promise((resolvePromise, reject) => {
    const child = spawnGit(opts, args);
    const chunks: Buffer[] = [];
    let size = 0;
    let failure: EngineError | null = null;
    let stderr = '';
    const kill = (err: EngineError): void => {
      if (!failure) failure = err;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => kill(new EngineError('REPOSITORY_TOO_LARGE', 'git command exceeded its time budget', 'timeBudgetMs')),
      timeoutMs,
    );
    const onAbort = (): void => kill(new EngineError('CANCELLED', 'analysis cancelled'));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout!.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxOut) kill(new EngineError('REPOSITORY_TOO_LARGE', 'git output exceeded its bound', 'gitOutputBytes'));
      else chunks.push(c);
    });
    child.stderr!.on('data', (c: Buffer) => {
      if (stderr.length < 4096) stderr += c.toString('utf8');
    });
    child.on('error', () => kill(new EngineError('GIT_FAILED', 'git could not be started')));
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    else child.stdin!.end();
    child.on('close', (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (code !== 0 && !(code !== null && opts.okExitCodes?.includes(code))) {
        const err = new EngineError('GIT_FAILED', `git ${args[0] ?? ''} exited with code ${code ?? 'null'}`);
        (err as EngineError & { stderr?: string }).stderr = stderr;
        return reject(err);
      }
      resolvePromise(Buffer.concat(chunks));
    });
  });
}

export interface LineStreamOptions extends Pick<GitRunOptions, 'gitDir' | 'config' | 'signal' | 'timeoutMs'> {
  /** a longer line is a limit error (`gitOutputBytes`): one record must fit in memory */
  maxLineBytes?: number;
}

/**
 * Run git and hand its stdout to `onLine` line by line as it arrives, so memory
 * does not grow with the output. `onLine` returns false to stop early: git is
 * killed and the promise resolves. Failures are reported as by runGit.
 */
export function streamGitLines(args: readonly string[], opts: LineStreamOptions, onLine: (line: string) => boolean | void): Promise<void> {
  const maxLine = opts.maxLineBytes ?? 1 << 20;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT;
  return new Promise((resolvePromise, reject) => {
    const child = spawnGit(opts, args);
    let failure: EngineError | null = null;
    let stopped = false;
    let rest: Buffer | null = null;
    const kill = (err: EngineError | null): void => {
      if (err && !failure) failure = err;
      if (!err) stopped = true;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => kill(new EngineError('REPOSITORY_TOO_LARGE', 'git command exceeded its time budget', 'timeBudgetMs')),
      timeoutMs,
    );
    const onAbort = (): void => kill(new EngineError('CANCELLED', 'analysis cancelled'));
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout!.on('data', (c: Buffer) => {
      if (failure || stopped) return;
      const buf = rest ? Buffer.concat([rest, c]) : c;
      // The chunk's whole lines are decoded at once and split as a string: a newline byte never occurs inside a
      // multi-byte UTF-8 sequence, so the lines are those a decode per line gives, without two native calls a line.
      const last = buf.lastIndexOf(10);
      if (last >= 0) {
        const text = buf.toString('utf8', 0, last);
        for (let start = 0; ;) {
          const nl = text.indexOf('\n', start);
          if (onLine(nl < 0 ? text.slice(start) : text.slice(start, nl)) === false) return kill(null);
          if (nl < 0) break;
          start = nl + 1;
        }
      }
      rest = last + 1 < buf.length ? Buffer.from(buf.subarray(last + 1)) : null;
      if (rest && rest.length > maxLine)
        kill(new EngineError('REPOSITORY_TOO_LARGE', 'a line of git output exceeded its bound', 'gitOutputBytes'));
    });
    child.stderr!.resume();
    child.on('error', () => kill(new EngineError('GIT_FAILED', 'git could not be started')));
    child.stdin!.end();
    child.on('close', (code) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (stopped) return resolvePromise();
      if (code !== 0) return reject(new EngineError('GIT_FAILED', `git ${args[0] ?? ''} exited with code ${code ?? 'null'}`));
      if (rest && onLine(rest.toString('utf8')) === false) return resolvePromise();
      resolvePromise();
    });
  });
}
