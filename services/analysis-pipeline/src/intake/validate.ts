import type { analysisApi } from '@lineage/schemas';
import { ApiError } from '@lineage/service-kit';
import type { z } from 'zod';
import { checkRemote, checkRemoteSyntax, type RemotePolicy } from './remote-policy';
import { commitTime, fetchCommit, hasCommit, resolveRef } from './remote-git';
import type { RepoCache } from './repo-cache';

type Input = z.output<typeof analysisApi.ValidateRequest>;
type Pinned = z.input<typeof analysisApi.PinnedRepository>;

/** POST /repositories/validate: policy first (no connection), then pin each side against its remote. */
export class Intake {
  constructor(
    private readonly policy: RemotePolicy,
    readonly cache: RepoCache,
    private readonly timeoutMs: number,
  ) {}

  async validate(input: Input): Promise<{ pair: { origin: Pinned; target: Pinned } }> {
    // Refuse on syntax and allowlist for both sides before touching the network.
    const o = checkRemoteSyntax(input.origin.url, this.policy, 'origin.url');
    const t = checkRemoteSyntax(input.target.url, this.policy, 'target.url');
    if (o.url === t.url)
      throw new ApiError('VALIDATION_FAILED', 'Origin and target must be different repositories.', [
        { path: 'target.url', issue: 'same_as_origin' },
      ]);
    const [origin, target] = await Promise.all([this.pin(input.origin, 'origin'), this.pin(input.target, 'target')]);
    return { pair: { origin, target } };
  }

  private async pin(side: { url: string; ref?: string }, field: string): Promise<Pinned> {
    const remote = await checkRemote(side.url, this.policy, `${field}.url`);
    const fromRef = await resolveRef(remote, side.ref, field, this.timeoutMs);
    const commit = fromRef ?? side.ref!;
    const committedAt = await this.cache.withRepo(remote.url, async (gitDir) => {
      if (!(await hasCommit(gitDir, commit))) {
        await fetchCommit(gitDir, remote, commit, { depth: 1, filterBlobs: true, timeoutMs: this.timeoutMs, field });
      }
      return commitTime(gitDir, commit);
    });
    return { url: remote.url, ref: side.ref ?? null, commit, committedAt };
  }

  /** The create route's check: policy and syntax only (the resolve stage re-verifies against the remote). */
  canonical(url: string, field: string): string {
    return checkRemoteSyntax(url, this.policy, field).url;
  }
}
