import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Which remotes the pipeline may contact (docs/pipeline.md, "Intake"): an allowlist of hosts,
 * https by default, never userinfo, file:, ext::, ssh or IP literals, and
 * never a name that resolves to loopback/private/link-local/metadata ranges
 * unless the deployment explicitly allows private addresses (tests, air-gap).
 */
export interface AllowedHost {
  host: string;
  port: number | null;
  scheme: 'https' | 'http' | 'git' | null; // null: https only
}

export interface RemotePolicy {
  hosts: AllowedHost[];
  allowPrivateAddresses: boolean;
}

export const DEFAULT_HOSTS = 'github.com,gitlab.com,codeberg.org,bitbucket.org';
export const MAX_URL_LENGTH = 512;

/** `host`, `host:port` or `scheme://host:port`, comma-separated. Throws on a malformed entry (start-up error). */
export function parseAllowedHosts(spec: string): AllowedHost[] {
  return spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(?:(https|http|git):\/\/)?([A-Za-z0-9.-]+|\[[0-9a-fA-F:.]+\])(?::(\d{1,5}))?$/.exec(entry);
      if (!m) throw new Error(`LINEAGE_REPO_ALLOWED_HOSTS has a malformed entry (position ${spec.indexOf(entry)})`);
      return {
        scheme: (m[1] as AllowedHost['scheme']) ?? null,
        host: m[2]!.toLowerCase().replace(/^\[|\]$/g, ''),
        port: m[3] ? Number(m[3]) : null,
      };
    });
}

/**
 * A refused or unreachable remote: `code` is the public error code, `field` and
 * `issue` name what was wrong. Never carries the URL itself.
 */
export class RemoteRefusal extends Error {
  constructor(
    readonly code: 'REPOSITORY_NOT_ALLOWED' | 'VALIDATION_FAILED' | 'REPOSITORY_UNREACHABLE',
    message: string,
    readonly field: string,
    readonly issue: string,
  ) {
    super(message);
    this.name = 'RemoteRefusal';
  }
}

const refused = (field: string, issue: string, message: string) => new RemoteRefusal('REPOSITORY_NOT_ALLOWED', message, field, issue);
const invalid = (field: string, issue: string) => new RemoteRefusal('VALIDATION_FAILED', 'The request failed validation.', field, issue);

/**
 * Ranges no repository fetch may reach unless private addresses are explicitly allowed.
 * (BlockList checks IPv4-mapped IPv6 addresses against the IPv4 rules itself.)
 */
const PRIVATE = (() => {
  const b = new BlockList();
  for (const [net, bits] of [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4],
  ] as const)
    b.addSubnet(net, bits, 'ipv4');
  for (const [net, bits] of [
    ['::', 128],
    ['::1', 128],
    ['64:ff9b::', 96],
    ['100::', 64],
    ['2001::', 23],
    ['2001:db8::', 32],
    ['fc00::', 7],
    ['fe80::', 10],
    ['fec0::', 10],
    ['ff00::', 8],
  ] as const)
    b.addSubnet(net, bits, 'ipv6');
  return b;
})();

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface CheckedRemote {
  /** Canonical URL (lower-case host, no trailing slash or .git): the pair's identity. */
  url: string;
  /** What git is given: the canonical URL with `.git` restored if the caller wrote it. */
  fetchUrl: string;
  host: string;
  port: number;
  /** Addresses verified for this host; git is pinned to the first (no second DNS answer can redirect it). */
  addresses: string[];
}

/** Syntax and allowlist only (no DNS): for fast refusal before any network activity. */
export function checkRemoteSyntax(input: string, policy: RemotePolicy, field: string): Omit<CheckedRemote, 'addresses'> {
  if (input.length > MAX_URL_LENGTH) throw invalid(field, 'too_big');
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\x00-\x20\x7f]/.test(input)) throw invalid(field, 'invalid_characters');
  if (/^ext::/i.test(input) || /^[a-z]+::/i.test(input)) throw refused(field, 'scheme_not_allowed', 'This URL scheme is not allowed.');
  const shorthand = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/.test(input);
  // scp-like `user@host:path` is ssh in disguise.
  if (!shorthand && /^[^/:]+@[^/:]+:/.test(input)) throw refused(field, 'scheme_not_allowed', 'This URL scheme is not allowed.');
  let u: URL;
  try {
    u = new URL(shorthand ? `https://github.com/${input}` : input);
  } catch {
    throw invalid(field, 'invalid_url');
  }
  const scheme = u.protocol.replace(/:$/, '');
  if (!['https', 'http', 'git'].includes(scheme)) throw refused(field, 'scheme_not_allowed', 'This URL scheme is not allowed.');
  if (u.username || u.password) throw refused(field, 'userinfo_not_allowed', 'Credentials in repository URLs are not allowed.');
  if (u.search || u.hash) throw invalid(field, 'query_or_fragment');
  const host = u.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = u.port ? Number(u.port) : scheme === 'https' ? 443 : scheme === 'http' ? 80 : 9418;
  const entry = policy.hosts.find(
    (h) => h.host === host && (h.port === null || h.port === port) && (h.scheme === null ? scheme === 'https' : h.scheme === scheme),
  );
  if (!entry) throw refused(field, 'host_not_allowed', 'This repository host is not allowed.');
  if (isIP(host) && !policy.allowPrivateAddresses)
    throw refused(field, 'ip_literal_not_allowed', 'IP addresses are not allowed as repository hosts.');
  const rawPath = u.pathname.replace(/\/+$/, '');
  const path = rawPath.replace(/\.git$/, '');
  if (!/^(\/[A-Za-z0-9_.~-]+){1,8}$/.test(path) || path.split('/').some((s) => s === '.' || s === '..'))
    throw invalid(field, 'invalid_repository_path');
  const origin = `${scheme}://${u.host.toLowerCase()}`;
  return { url: `${origin}${path}`, fetchUrl: `${origin}${rawPath}`, host, port };
}

/** Full check: syntax, allowlist, then DNS — every resolved address must be public (unless allowed). */
export async function checkRemote(input: string, policy: RemotePolicy, field: string, resolve = defaultResolve): Promise<CheckedRemote> {
  const base = checkRemoteSyntax(input, policy, field);
  let addresses: string[];
  if (isIP(base.host)) addresses = [base.host];
  else {
    try {
      addresses = await resolve(base.host);
    } catch {
      throw new RemoteRefusal('REPOSITORY_UNREACHABLE', 'The repository host does not resolve.', field, 'dns_failed');
    }
  }
  if (addresses.length === 0)
    throw new RemoteRefusal('REPOSITORY_UNREACHABLE', 'The repository host does not resolve.', field, 'dns_failed');
  if (!policy.allowPrivateAddresses && addresses.some(isPrivateAddress)) {
    throw refused(field, 'private_address', 'The repository host resolves to a non-public address.');
  }
  return { ...base, addresses };
}

async function defaultResolve(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
}

/**
 * git options that make the connection go only where we checked: the host is
 * pinned to a verified address (no second DNS lookup, so no rebinding),
 * redirects are not followed, and only the URL's own protocol is allowed.
 */
export function pinnedGitConfig(remote: CheckedRemote): string[] {
  const scheme = remote.fetchUrl.split(':')[0]!;
  const addr = remote.addresses[0]!;
  return [
    'protocol.allow=never',
    `protocol.${scheme}.allow=always`,
    'http.followRedirects=false',
    `http.curloptResolve=${remote.host}:${remote.port}:${isIP(addr) === 6 ? `[${addr}]` : addr}`,
    'http.lowSpeedLimit=1000',
    'http.lowSpeedTime=30',
    'transfer.fsckObjects=true',
    ...LEGACY_FSCK_IGNORED.map((id) => `fetch.fsck.${id}=ignore`),
    'fetch.recurseSubmodules=false',
  ];
}

/**
 * fsck findings that old, real histories carry (written by early git, svn/hg
 * converters and hand-rolled tools) and that say nothing about safety: odd
 * dates, names and e-mails, zero-padded or odd file modes. Under
 * `transfer.fsckObjects` git refuses the whole fetch for any of them, so a
 * repository like coco (zero-padded tree modes from 2010) could not be analysed.
 * Everything else stays fatal, notably `.git`/`..` paths and `.gitmodules` checks.
 */
export const LEGACY_FSCK_IGNORED = [
  'badDate',
  'badDateOverflow',
  'badEmail',
  'badFilemode',
  'badName',
  'badTimezone',
  'extraHeaderEntry',
  'missingEmail',
  'missingNameBeforeEmail',
  'missingSpaceBeforeDate',
  'missingSpaceBeforeEmail',
  'multipleAuthors',
  'nulInCommit',
  'zeroPaddedDate',
  'zeroPaddedFilemode',
] as const;
