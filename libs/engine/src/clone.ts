import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from './errors';
import { runGit } from './git/runner';
import { checkRemote, DEFAULT_HOSTS, parseAllowedHosts, pinnedGitConfig, RemoteRefusal, type RemotePolicy } from './remote/policy';

/** The CLI applies the pipeline's rules (docs/pipeline.md, "Intake"): default hosts, https only, public addresses only. */
const CLI_POLICY: RemotePolicy = { hosts: parseAllowedHosts(DEFAULT_HOSTS), allowPrivateAddresses: false };

/** Bare, blob-complete clone into a cache directory keyed by URL; hooks, submodules and other protocols disabled. */
export async function cloneToCache(url: string, cacheDir: string, timeoutMs = 600_000): Promise<string> {
  let remote;
  try {
    remote = await checkRemote(url, CLI_POLICY, 'url');
  } catch (err) {
    if (err instanceof RemoteRefusal)
      throw new EngineError(err.code === 'REPOSITORY_UNREACHABLE' ? 'REPOSITORY_UNREACHABLE' : 'REPOSITORY_NOT_ALLOWED', err.message);
    throw err;
  }
  const key = createHash('sha256').update(remote.url).digest('hex').slice(0, 24);
  const dir = join(cacheDir, key + '.git');
  mkdirSync(cacheDir, { recursive: true });
  // Connect only to the address just checked: no second DNS answer (rebinding) can redirect git.
  const config = pinnedGitConfig(remote);
  if (existsSync(dir)) {
    await runGit(
      [
        'fetch',
        '--quiet',
        '--no-tags',
        '--no-recurse-submodules',
        '--prune',
        'origin',
        '+refs/heads/*:refs/heads/*',
        '+refs/tags/*:refs/tags/*',
      ],
      { gitDir: dir, config, timeoutMs },
    );
  } else {
    await runGit(['clone', '--bare', '--quiet', '--no-recurse-submodules', '--', remote.fetchUrl, dir], { config, timeoutMs });
  }
  return dir;
}
