import { ApiError } from '@lineage/service-kit';

/**
 * Canonical form of a repository URL, so the same repository written two ways
 * is one pair: `owner/repo` → GitHub; lower-case host; no trailing `.git` or `/`.
 * The allowlist/SSRF policy is applied separately, before any connection.
 */
export function normalizeRepositoryUrl(input: string, field: string): string {
  const bad = (issue: string) => new ApiError('VALIDATION_FAILED', 'The request failed validation.', [{ path: field, issue }]);
  if (/^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/.test(input)) return `https://github.com/${input.replace(/\.git$/, '')}`;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw bad('invalid_url');
  }
  if (!['https:', 'http:', 'git:'].includes(url.protocol)) throw new ApiError('REPOSITORY_NOT_ALLOWED', 'This URL scheme is not allowed.', [{ path: field, issue: 'scheme_not_allowed' }]);
  if (url.username || url.password) throw new ApiError('REPOSITORY_NOT_ALLOWED', 'Credentials in repository URLs are not allowed.', [{ path: field, issue: 'userinfo_not_allowed' }]);
  if (url.search || url.hash) throw bad('query_or_fragment');
  const path = url.pathname.replace(/\/+$/, '').replace(/\.git$/, '');
  if (!/^(\/[A-Za-z0-9_.~-]+){1,8}$/.test(path) || path.split('/').some((s) => s === '.' || s === '..')) throw bad('invalid_repository_path');
  return `${url.protocol}//${url.host.toLowerCase()}${path}`;
}
