import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { EngineError } from '../errors';
import { SAFE_CONFIG_ARGS, safeGitEnv } from './env';

export interface GitProcessOptions {
  /** Repository directory passed as --git-dir; omit for commands like clone/ls-remote. */
  gitDir?: string;
  /** Extra `-c key=value` overrides (e.g. to allow https for a clone). */
  config?: string[];
  /** git running longer is killed (REPOSITORY_TOO_LARGE, timeBudgetMs); no limit for a process its owner ends */
  timeoutMs?: number;
  /** git is killed when it aborts (CANCELLED) */
  signal?: AbortSignal;
  /** written to stdin, which is then closed; `null` leaves stdin open for the owner to write to */
  input?: string | null;
  /** Exit codes other than 0 that are answers, not failures (e.g. 1 from `merge-base` with no common ancestor). */
  okExitCodes?: readonly number[];
}

export interface GitProcess {
  /** git's stdin, open when started with `input: null` */
  readonly stdin: Writable;
  /** Kill git: `exited` rejects with the failure given (the first one wins) or, without one, resolves. */
  kill(failure?: Error): void;
  /**
   * Settles once git has ended and its output is read: rejects with the failure git was killed for, or with
   * GIT_FAILED (the exit code in the message, stderr's start beside it, never in it) for an exit code not accepted.
   */
  readonly exited: Promise<void>;
}

const STDERR_KEPT = 4096;

export function gitArgs(opts: Pick<GitProcessOptions, 'gitDir' | 'config'>, args: readonly string[]): string[] {
  const out: string[] = [...SAFE_CONFIG_ARGS];
  for (const c of opts.config ?? []) out.push('-c', c);
  if (opts.gitDir) out.push('--git-dir', opts.gitDir);
  out.push(...args);
  return out;
}

/**
 * Start git with an argument array (never a shell), the hardened environment and config, and watch it to its end:
 * the one place an engine git process is spawned, killed (timeout, abort, its owner) and its exit judged. Each
 * stdout chunk goes to `onStdout` until git is killed; returning false stops git early (`exited` resolves), and a
 * throw kills it with that failure.
 */
export function startGit(args: readonly string[], opts: GitProcessOptions, onStdout: (chunk: Buffer) => boolean | void): GitProcess {
  const child = spawn('git', gitArgs(opts, args), {
    env: safeGitEnv(),
    cwd: '/',
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    windowsHide: true,
  });
  let killed = false;
  let failure: Error | null = null;
  let stderr = '';
  const kill = (err?: Error): void => {
    if (err && !failure) failure = err;
    killed = true;
    child.kill('SIGKILL');
  };
  const timer =
    opts.timeoutMs === undefined
      ? null
      : setTimeout(
          () => kill(new EngineError('REPOSITORY_TOO_LARGE', 'git command exceeded its time budget', 'timeBudgetMs')),
          opts.timeoutMs,
        );
  const onAbort = (): void => kill(new EngineError('CANCELLED', 'analysis cancelled'));
  if (opts.signal?.aborted) onAbort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  const exited = new Promise<void>((resolve, reject) => {
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (failure) return reject(failure);
      if (killed || code === 0 || (code !== null && opts.okExitCodes?.includes(code))) return resolve();
      const err = new EngineError('GIT_FAILED', `git ${args[0] ?? ''} exited with code ${code ?? 'null'}`);
      (err as EngineError & { stderr?: string }).stderr = stderr;
      reject(err);
    });
  });
  child.stdout!.on('data', (c: Buffer) => {
    if (killed) return;
    try {
      if (onStdout(c) === false) kill();
    } catch (e) {
      kill(e instanceof Error ? e : new Error(String(e)));
    }
  });
  child.stderr!.on('data', (c: Buffer) => {
    if (stderr.length < STDERR_KEPT) stderr += c.toString('utf8');
  });
  child.on('error', () => kill(new EngineError('GIT_FAILED', 'git could not be started')));
  // Writing to a git that has already exited raises EPIPE on stdin; its exit status reports the failure.
  child.stdin!.on('error', () => undefined);
  if (typeof opts.input === 'string') child.stdin!.end(opts.input);
  else if (opts.input === undefined) child.stdin!.end();
  return { stdin: child.stdin!, kill, exited };
}
