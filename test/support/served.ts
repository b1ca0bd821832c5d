// Fixture scenarios served over git smart-HTTP, and direct SQL: what the service-level integration suites share.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { SCENARIOS } from '../fixtures/scenarios';
import { startGitServer, type GitServer } from './git-http';

export interface ServedRepo {
  url: string;
  dir: string;
  commit: string;
}

/** Builds the named scenarios under a fresh directory (origin then target of each) and serves them; `url` is each repository's address. */
export async function serveScenarios(names: string[]): Promise<{ root: string; git: GitServer; repos: ServedRepo[] }> {
  const root = mkdtempSync(join(tmpdir(), 'lineage-repos-'));
  const repos: ServedRepo[] = [];
  for (const s of SCENARIOS.filter((x) => names.includes(x.name))) {
    const built = await s.build(root);
    for (const side of ['origin', 'target'] as const) repos.push({ url: '', dir: built[side].dir, commit: built[side].commit });
  }
  const git = await startGitServer(root);
  for (const r of repos) r.url = `${git.url}/${r.dir.slice(root.length + 1)}`;
  return { root, git, repos };
}

/** One query on its own connection, straight to PostgreSQL (past any proxy a test put in front of a service). */
export async function sqlQuery<T = Record<string, unknown>>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}
