import { lookup } from 'node:dns/promises';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { EngineError } from './errors';
import { runGit } from './git/runner';

export const DEFAULT_ALLOWED_HOSTS = ['github.com', 'gitlab.com', 'codeberg.org', 'bitbucket.org'];

function isPrivateAddress(addr: string): boolean {
  if (isIP(addr) === 4) {
    const [a = 0, b = 0] = addr.split('.').map(Number);
    return a === 10 || a === 127 || a === 0 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  const v = addr.toLowerCase();
  return v === '::1' || v === '::' || v.startsWith('fc') || v.startsWith('fd') || v.startsWith('fe80') || v.startsWith('::ffff:');
}

/** DESIGN §4 URL rules: https only, allowed hosts, no userinfo, no IP literals, public addresses only. */
export async function checkRepositoryUrl(raw: string, allowedHosts = DEFAULT_ALLOWED_HOSTS): Promise<URL & { checkedAddress: string }> {
  let u: URL;
  const short = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(raw) ? `https://github.com/${raw}` : raw;
  try {
    u = new URL(short);
  } catch {
    throw new EngineError('REPOSITORY_NOT_ALLOWED', 'not a URL');
  }
  if (u.protocol !== 'https:') throw new EngineError('REPOSITORY_NOT_ALLOWED', 'only https URLs are allowed');
  if (u.username || u.password) throw new EngineError('REPOSITORY_NOT_ALLOWED', 'credentials in URLs are refused');
  if (isIP(u.hostname.replace(/^\[|\]$/g, ''))) throw new EngineError('REPOSITORY_NOT_ALLOWED', 'IP literals are refused');
  if (!allowedHosts.includes(u.hostname.toLowerCase())) throw new EngineError('REPOSITORY_NOT_ALLOWED', 'host not allowed');
  const addrs = await lookup(u.hostname, { all: true }).catch(() => {
    throw new EngineError('REPOSITORY_UNREACHABLE', 'host does not resolve');
  });
  if (addrs.length === 0 || addrs.some((a) => isPrivateAddress(a.address))) throw new EngineError('REPOSITORY_NOT_ALLOWED', 'host resolves to a private address');
  return Object.assign(u, { checkedAddress: addrs[0]!.address });
}

/** Bare, blob-complete clone into a cache directory keyed by URL; hooks, submodules and other protocols disabled. */
export async function cloneToCache(url: string, cacheDir: string, timeoutMs = 600_000): Promise<string> {
  const u = await checkRepositoryUrl(url);
  const key = createHash('sha256').update(u.href).digest('hex').slice(0, 24);
  const dir = join(cacheDir, key + '.git');
  mkdirSync(cacheDir, { recursive: true });
  // Connect only to the address just checked: no second DNS answer (rebinding) can redirect git.
  const addr = isIP(u.checkedAddress) === 6 ? `[${u.checkedAddress}]` : u.checkedAddress;
  const config = ['protocol.allow=never', 'protocol.https.allow=always', 'http.followRedirects=false', 'transfer.fsckObjects=true', `http.curloptResolve=${u.hostname}:${u.port || 443}:${addr}`];
  if (existsSync(dir)) {
    await runGit(['fetch', '--quiet', '--no-tags', '--no-recurse-submodules', '--prune', 'origin', '+refs/heads/*:refs/heads/*', '+refs/tags/*:refs/tags/*'], { gitDir: dir, config, timeoutMs });
  } else {
    await runGit(['clone', '--bare', '--quiet', '--no-recurse-submodules', '--', u.href, dir], { config, timeoutMs });
  }
  return dir;
}
