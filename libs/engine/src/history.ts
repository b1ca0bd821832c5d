import { isCodeClass } from './classify';
import { EngineError } from './errors';
import { resolveGitDir, runGit } from './git/runner';
import { Deadline, resolveLimits } from './limits';
import type { CommitInfo, History, Inventory, PathVersion, RepoRef } from './types';
import type { StageOptions } from './inventory';

const MAX_VERSIONS_PER_PATH = 256;

/**
 * Walk the history reachable from the pinned commit (at most maxCommits,
 * recorded as truncated beyond that) with fixed formats: commit ids, committer
 * times, parents, and for each code path of the inventory the blob versions it
 * went through (oldest first), for dating matched material.
 */
export async function history(repo: RepoRef, inv: Inventory, opts: StageOptions = {}): Promise<History> {
  const limits = resolveLimits(opts.limits);
  const deadline = opts.deadline ?? new Deadline(limits.timeBudgetMs, opts.signal);
  const gitDir = resolveGitDir(repo.dir);
  // The inventory resolved the commit; git log of an id that is not there fails, reported as COMMIT_NOT_FOUND.
  const commit = inv.commit;
  if (!/^[0-9a-f]{40}$/.test(commit)) throw new EngineError('INVALID_INPUT', 'invalid commit id');
  const wanted = new Set(inv.files.filter((f) => isCodeClass(f.class)).map((f) => f.path));
  const out = await runGit(
    ['-c', 'core.quotePath=false', 'log', '--date-order', `--max-count=${limits.maxCommits + 1}`, '--format=tformat:%x01%H %ct %P', '--raw', '--no-abbrev', '--no-renames', '--no-color', '--no-ext-diff', '--no-textconv', '--end-of-options', commit],
    { gitDir, signal: opts.signal, timeoutMs: deadline.remainingMs(), maxOutputBytes: 512 * 1024 * 1024 },
  ).catch((e: unknown) => {
    if (e instanceof EngineError && e.code === 'GIT_FAILED') throw new EngineError('COMMIT_NOT_FOUND', 'commit not found');
    throw e;
  });
  deadline.check();
  const commits: CommitInfo[] = [];
  const versions: Record<string, PathVersion[]> = {};
  let cur: CommitInfo | null = null;
  const text = out.toString('utf8');
  let truncated = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('\x01')) {
      const [id = '', time = '0', ...parents] = line.slice(1).trim().split(' ');
      if (commits.length >= limits.maxCommits) {
        truncated = true;
        break;
      }
      cur = { id, time: Number(time), parents: parents.filter(Boolean) };
      commits.push(cur);
      if (commits.length % 1000 === 0) opts.onProgress?.({ stage: 'history', done: commits.length, total: limits.maxCommits, unit: 'commits', ...(opts.side ? { side: opts.side } : {}) });
    } else if (cur && line.startsWith(':')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const meta = line.slice(1, tab).split(' ');
      const path = line.slice(tab + 1);
      const blob = meta[3] ?? '';
      if (!wanted.has(path) || /^0+$/.test(blob)) continue;
      (versions[path] ??= []).push({ commit: cur.id, time: cur.time, blobId: blob });
    }
  }
  const pathVersions: Record<string, PathVersion[]> = {};
  for (const p of Object.keys(versions).sort()) {
    const v = versions[p]!.reverse(); // oldest first
    pathVersions[p] = v.length > MAX_VERSIONS_PER_PATH ? v.slice(0, MAX_VERSIONS_PER_PATH) : v;
  }
  opts.onProgress?.({ stage: 'history', done: commits.length, total: commits.length, unit: 'commits', ...(opts.side ? { side: opts.side } : {}) });
  return { commit, headTime: commits[0]?.time ?? 0, commitsWalked: commits.length, truncated, commits, pathVersions };
}
