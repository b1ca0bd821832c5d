import {
  checkRemote,
  checkRemoteSyntax,
  isPrivateAddress,
  parseAllowedHosts,
  pinnedGitConfig,
  RemoteRefusal,
  type RemotePolicy,
} from '../src/remote/policy';

const policy: RemotePolicy = {
  hosts: parseAllowedHosts('github.com,git.example.org:8443,http://mirror.internal:8080'),
  allowPrivateAddresses: false,
};
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RemoteRefusal);
    return (e as RemoteRefusal).code;
  }
  return 'OK';
};

describe('allowlist parsing', () => {
  it('reads host, host:port and scheme://host:port', () => {
    expect(parseAllowedHosts('GitHub.com, git.example.org:8443 ,http://m:80')).toEqual([
      { scheme: null, host: 'github.com', port: null },
      { scheme: null, host: 'git.example.org', port: 8443 },
      { scheme: 'http', host: 'm', port: 80 },
    ]);
    expect(() => parseAllowedHosts('ftp://x')).toThrow();
    expect(() => parseAllowedHosts('a b')).toThrow();
  });
});

describe('URL syntax and allowlist (no network)', () => {
  it('canonicalises allowed URLs and the GitHub shorthand', () => {
    expect(checkRemoteSyntax('owner/repo', policy, 'f').url).toBe('https://github.com/owner/repo');
    expect(checkRemoteSyntax('https://GitHub.com/Owner/Repo.git/', policy, 'f').url).toBe('https://github.com/Owner/Repo');
    expect(checkRemoteSyntax('https://git.example.org:8443/a/b', policy, 'f').port).toBe(8443);
    expect(checkRemoteSyntax('http://mirror.internal:8080/a/b', policy, 'f').url).toBe('http://mirror.internal:8080/a/b');
  });
  it.each([
    ['http://github.com/a/b', 'REPOSITORY_NOT_ALLOWED'], // plain http only where an entry names it
    ['https://mirror.internal:8080/a/b', 'REPOSITORY_NOT_ALLOWED'],
    ['https://git.example.org/a/b', 'REPOSITORY_NOT_ALLOWED'], // wrong port
    ['https://evil.example/a/b', 'REPOSITORY_NOT_ALLOWED'],
    ['file:///etc/passwd', 'REPOSITORY_NOT_ALLOWED'],
    ['ext::sh -c id', 'VALIDATION_FAILED'],
    ['ext::git-remote-x', 'REPOSITORY_NOT_ALLOWED'],
    ['ssh://git@github.com/a/b', 'REPOSITORY_NOT_ALLOWED'],
    ['git@github.com:a/b.git', 'REPOSITORY_NOT_ALLOWED'],
    ['https://u:p@github.com/a/b', 'REPOSITORY_NOT_ALLOWED'],
    ['https://github.com/a/b?x=1', 'VALIDATION_FAILED'],
    ['https://github.com/', 'VALIDATION_FAILED'],
    ['https://github.com/a/b\u0000', 'VALIDATION_FAILED'],
    [`https://github.com/${'x'.repeat(600)}`, 'VALIDATION_FAILED'],
    ['http://2130706433/a/b', 'REPOSITORY_NOT_ALLOWED'],
  ])('%s → %s', (url, code) => {
    expect(codeOf(() => checkRemoteSyntax(url, policy, 'origin.url'))).toBe(code);
  });
  it('dot segments are resolved by the URL parser, never passed to git', () => {
    expect(checkRemoteSyntax('https://github.com/a/../b/c', policy, 'f').url).toBe('https://github.com/b/c');
  });
  it('IP literals are refused unless private addresses are allowed', () => {
    const p = { hosts: parseAllowedHosts('http://127.0.0.1:9000'), allowPrivateAddresses: false };
    expect(codeOf(() => checkRemoteSyntax('http://127.0.0.1:9000/a/b', p, 'f'))).toBe('REPOSITORY_NOT_ALLOWED');
    expect(codeOf(() => checkRemoteSyntax('http://127.0.0.1:9000/a/b', { ...p, allowPrivateAddresses: true }, 'f'))).toBe('OK');
  });
});

describe('address checks', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    'not-an-ip',
  ])('%s is private', (a) => {
    expect(isPrivateAddress(a)).toBe(true);
  });
  it.each(['140.82.112.3', '8.8.8.8', '2606:4700::1111'])('%s is public', (a) => {
    expect(isPrivateAddress(a)).toBe(false);
  });
  it('refuses a public name that resolves to a private address, and pins git to the checked address', async () => {
    await expect(checkRemote('https://github.com/a/b', policy, 'f', async () => ['127.0.0.1'])).rejects.toMatchObject({
      code: 'REPOSITORY_NOT_ALLOWED',
    });
    await expect(checkRemote('https://github.com/a/b', policy, 'f', async () => ['140.82.112.3', '10.0.0.1'])).rejects.toMatchObject({
      code: 'REPOSITORY_NOT_ALLOWED',
    });
    await expect(
      checkRemote('https://github.com/a/b', policy, 'f', async () => {
        throw new Error('nxdomain');
      }),
    ).rejects.toMatchObject({ code: 'REPOSITORY_UNREACHABLE' });
    const ok = await checkRemote('https://github.com/a/b', policy, 'f', async () => ['140.82.112.3']);
    const cfg = pinnedGitConfig(ok);
    expect(cfg).toContain('http.curloptResolve=github.com:443:140.82.112.3');
    expect(cfg).toContain('http.followRedirects=false');
    expect(cfg).toContain('protocol.allow=never');
    expect(cfg).toContain('protocol.https.allow=always');
  });
});
