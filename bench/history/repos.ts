import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Where the bench/history scripts find a repository: a bare mirror under LINEAGE_BENCH_MIRRORS (default ../.mirror,
// laid out `owner+name/repo` (bare, or a work tree's .git) or `owner+name.git`), else a bundle of
// LINEAGE_REAL_REPOS (default ../shared/real-repos), cloned once under .cache/bench-history/repos.

const ROOT = resolve(__dirname, '..', '..');
const REAL = process.env.LINEAGE_REAL_REPOS ?? resolve(ROOT, '..', 'shared', 'real-repos');
const MIRRORS = process.env.LINEAGE_BENCH_MIRRORS ?? resolve(ROOT, '..', '.mirror');
const CLONES = join(ROOT, '.cache', 'bench-history', 'repos');

/** The git directory of `owner/name`, or null when it is on this machine neither as a mirror nor as a bundle. */
export function repoDir(slug: string): string | null {
  const key = slug.replace('/', '+');
  for (const p of [join(MIRRORS, key, 'repo'), join(MIRRORS, key, 'repo', '.git'), join(MIRRORS, `${key}.git`)]) {
    if (existsSync(join(p, 'objects'))) return p;
  }
  const bundle = join(REAL, `${key}.bundle`);
  if (!existsSync(bundle)) return null;
  const dir = join(CLONES, `${key}.git`);
  if (!existsSync(dir)) execFileSync('git', ['clone', '--bare', '--quiet', bundle, dir]);
  return dir;
}
