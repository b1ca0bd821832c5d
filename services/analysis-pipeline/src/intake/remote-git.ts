import { git } from '@lineage/engine';
import { ApiError } from '@lineage/service-kit';
import { pinnedGitConfig, type CheckedRemote } from './remote-policy';

const HEX40 = /^[0-9a-f]{40}$/;

/** git's failure on the network side → the public vocabulary, without echoing git's stderr. */
function remoteFailure(err: unknown, field: string): ApiError {
  const code = (err as { code?: string }).code;
  if (code === 'REPOSITORY_TOO_LARGE')
    return new ApiError('REPOSITORY_TOO_LARGE', 'The repository exceeds a configured bound.', [{ path: field, issue: 'too_large' }]);
  return new ApiError('REPOSITORY_UNREACHABLE', 'The repository could not be reached.', [{ path: field, issue: 'unreachable' }]);
}

/**
 * Resolve a ref against the remote with `git ls-remote` (smart protocol).
 * No ref: the remote's HEAD. A 40-hex ref is taken as a commit (checked when fetched).
 */
export async function resolveRef(remote: CheckedRemote, ref: string | undefined, field: string, timeoutMs: number): Promise<string | null> {
  if (ref && HEX40.test(ref)) return null;
  const patterns = ref ? [`refs/heads/${ref}`, `refs/tags/${ref}`, `refs/tags/${ref}^{}`] : ['HEAD'];
  let out: Buffer;
  try {
    out = await git.runGit(['ls-remote', '--', remote.fetchUrl, ...patterns], {
      config: pinnedGitConfig(remote),
      timeoutMs,
      maxOutputBytes: 1 << 20,
    });
  } catch (err) {
    throw remoteFailure(err, `${field}.url`);
  }
  const refs = new Map<string, string>();
  for (const line of out.toString('utf8').split('\n')) {
    const [sha, name] = line.split('\t');
    if (sha && name && HEX40.test(sha)) refs.set(name, sha);
  }
  const found = ref ? (refs.get(`refs/tags/${ref}^{}`) ?? refs.get(`refs/tags/${ref}`) ?? refs.get(`refs/heads/${ref}`)) : refs.get('HEAD');
  if (!found)
    throw new ApiError('REF_NOT_FOUND', 'The reference does not exist in the repository.', [{ path: `${field}.ref`, issue: 'not_found' }]);
  return found;
}

/**
 * Fetch exactly the pinned commit (and up to `depth` ancestors) into a bare
 * cache repository, keeping it under `refs/lineage/<commit>` so it is never
 * garbage-collected while cached. Tags, submodules and hooks are never touched.
 */
export async function fetchCommit(
  gitDir: string,
  remote: CheckedRemote,
  commit: string,
  opts: { depth: number | null; filterBlobs: boolean; timeoutMs: number; field: string; signal?: AbortSignal },
): Promise<void> {
  const args = ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--no-recurse-submodules'];
  if (opts.depth !== null) args.push(`--depth=${opts.depth}`);
  if (opts.filterBlobs) args.push('--filter=blob:none');
  args.push('--', remote.fetchUrl, `+${commit}:refs/lineage/${commit}`);
  try {
    await git.runGit(args, {
      gitDir,
      config: pinnedGitConfig(remote),
      timeoutMs: opts.timeoutMs,
      signal: opts.signal,
      maxOutputBytes: 1 << 20,
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'CANCELLED') throw err;
    if (code === 'GIT_FAILED') throw fetchFailure((err as { stderr?: string }).stderr ?? '', opts.field);
    throw remoteFailure(err, `${opts.field}.url`);
  }
}

export type FetchFailureKind = 'not_found' | 'integrity' | 'unreachable';

/**
 * What a failed `git fetch` of one commit means, read from git's stderr (never
 * echoed): the server has no such object, the objects it sent failed git's
 * integrity checks, or the transfer itself failed. Anything unrecognised is a
 * transfer failure: calling it "no such commit" would send the user looking
 * for a typo that is not there.
 */
export function classifyFetchFailure(stderr: string): FetchFailureKind {
  if (
    /fsck error|index-pack|unpack-objects|object .* (?:is corrupt|missing)|bad object|invalid object|did not send all necessary objects/i.test(
      stderr,
    )
  )
    return 'integrity';
  if (
    /not our ref|no such remote ref|couldn't find remote ref|unadvertised object|upload-pack: not|not a valid object|want .* not valid/i.test(
      stderr,
    )
  )
    return 'not_found';
  return 'unreachable';
}

function fetchFailure(stderr: string, field: string): ApiError {
  switch (classifyFetchFailure(stderr)) {
    case 'not_found':
      return new ApiError('COMMIT_NOT_FOUND', 'The commit does not exist in the repository.', [
        { path: `${field}.commit`, issue: 'not_found' },
      ]);
    case 'integrity':
      return new ApiError('REPOSITORY_UNREADABLE', "The repository sent objects that fail git's integrity checks.", [
        { path: `${field}.url`, issue: 'integrity_check_failed' },
      ]);
    default:
      return new ApiError('REPOSITORY_UNREACHABLE', 'The repository could not be reached.', [
        { path: `${field}.url`, issue: 'fetch_failed' },
      ]);
  }
}

export async function hasCommit(gitDir: string, commit: string): Promise<boolean> {
  try {
    await git.runGit(['cat-file', '-e', `${commit}^{commit}`], { gitDir, timeoutMs: 10_000 });
    return true;
  } catch {
    return false;
  }
}

export async function commitTime(gitDir: string, commit: string): Promise<string> {
  const out = await git.runGit(['show', '-s', '--format=%ct', commit], { gitDir, timeoutMs: 10_000, maxOutputBytes: 64 });
  const t = out.toString('utf8').trim();
  if (!/^[0-9]+$/.test(t)) throw new Error('unexpected commit time');
  return t;
}

export async function initBare(gitDir: string): Promise<void> {
  await git.runGit(['init', '--bare', '--quiet', gitDir], { timeoutMs: 10_000 });
}
