import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { initBare } from './remote-git';

/**
 * A bounded cache of bare repositories, one per canonical URL. A per-repository
 * file lock serialises fetches across workers (and processes sharing a volume);
 * eviction removes least-recently-used repositories that nobody holds, until
 * the cache fits its byte budget.
 */
export class RepoCache {
  constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  pathFor(url: string): string {
    return join(this.dir, `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.git`);
  }

  /** Run `fn` with the repository locked; it exists (bare) inside `fn`. */
  async withRepo<T>(url: string, fn: (gitDir: string) => Promise<T>): Promise<T> {
    await mkdir(this.dir, { recursive: true });
    const gitDir = this.pathFor(url);
    const lockTarget = `${gitDir}.lock-target`;
    if (!existsSync(lockTarget)) await writeFile(lockTarget, '');
    const release = await lockfile.lock(lockTarget, {
      retries: { retries: 600, minTimeout: 200, maxTimeout: 1000 },
      stale: 60_000,
      update: 10_000,
    });
    try {
      if (!existsSync(join(gitDir, 'HEAD'))) await initBare(gitDir);
      const now = new Date();
      await utimes(lockTarget, now, now); // recency for LRU
      return await fn(gitDir);
    } finally {
      await release();
    }
  }

  /** Evict least-recently-used, unlocked repositories until the cache fits. Returns what was removed. */
  async evict(): Promise<string[]> {
    if (!existsSync(this.dir)) return [];
    const entries = (await readdir(this.dir)).filter((n) => n.endsWith('.git'));
    const repos = await Promise.all(
      entries.map(async (name) => {
        const path = join(this.dir, name);
        const used = await stat(`${path}.lock-target`)
          .then((s) => s.mtimeMs)
          .catch(() => 0);
        return { path, used, bytes: await dirBytes(path) };
      }),
    );
    let total = repos.reduce((n, r) => n + r.bytes, 0);
    const removed: string[] = [];
    for (const r of repos.sort((a, b) => a.used - b.used)) {
      if (total <= this.maxBytes) break;
      const target = `${r.path}.lock-target`;
      if (!existsSync(target) || (await lockfile.check(target, { stale: 60_000 }))) continue;
      const release = await lockfile.lock(target, { stale: 60_000 }).catch(() => null);
      if (!release) continue;
      try {
        await rm(r.path, { recursive: true, force: true });
        total -= r.bytes;
        removed.push(r.path);
      } finally {
        await release();
      }
    }
    return removed;
  }
}

export async function dirBytes(path: string): Promise<number> {
  let total = 0;
  const walk = async (p: string): Promise<void> => {
    for (const e of await readdir(p, { withFileTypes: true }).catch(() => [])) {
      const full = join(p, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.isFile()) total += (await stat(full).catch(() => ({ size: 0 }))).size;
    }
  };
  await walk(path);
  return total;
}
