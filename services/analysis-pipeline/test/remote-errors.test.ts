import { ApiError } from '@lineage/service-kit';
import { checkRemote, checkRemoteSyntax, parseAllowedHosts } from '../src/intake/remote-policy';

const policy = { hosts: parseAllowedHosts('github.com'), allowPrivateAddresses: false };

describe('remote refusals become API errors', () => {
  it('names the field and the issue, never the URL', () => {
    let caught: unknown;
    try {
      checkRemoteSyntax('https://user:hunter2@github.com/a/b', policy, 'origin.url');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).code).toBe('REPOSITORY_NOT_ALLOWED');
    expect((caught as ApiError).fields).toEqual([{ path: 'origin.url', issue: 'userinfo_not_allowed' }]);
    expect(JSON.stringify({ m: (caught as ApiError).message, f: (caught as ApiError).fields })).not.toContain('hunter2');
  });
  it('maps DNS failure to REPOSITORY_UNREACHABLE', async () => {
    await expect(
      checkRemote('https://github.com/a/b', policy, 'target.url', async () => {
        throw new Error('nxdomain');
      }),
    ).rejects.toMatchObject({
      code: 'REPOSITORY_UNREACHABLE',
      fields: [{ path: 'target.url', issue: 'dns_failed' }],
    });
  });
});
