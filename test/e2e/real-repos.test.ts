// Real forks through the service path: bundles of the shared development set
// (../shared/real-repos) served by a real git smart-HTTP server, validated,
// fetched and analysed by the running services. The service's manifest must be
// byte-identical to the engine's own run on the same repositories and URLs, so
// the service path and the CLI give the same verdict.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { realReposDir } from '../fixtures/real-repos-dir';
import { cloneBundle, sharedPairs, type PairRow } from '../support/pairs';
import { analyze } from '@lineage/engine';
import { startGitServer, type GitServer } from '../support/git-http';
import { startStackWithGitServer, type Stack } from '../support/stack';
import { waitFor } from '../support/processes';
import { json } from '../support/http';

const run = promisify(execFile);
const CLI = resolve(__dirname, '..', '..', 'libs', 'engine', 'bin', 'lineage.js');
const DIR = realReposDir();
/** A GitHub fork, a blessed fork whose origin commit is in its history, and a hard fork with thousands of commits on each side. */
const PICKED = ['uuid-fork', 'mapstructure-fork', 'coco-hard-fork'];

let root: string;
let git: GitServer;
let rows: PairRow[];

beforeAll(async () => {
  rows = sharedPairs(DIR).filter((r) => PICKED.includes(r.name));
  root = mkdtempSync(join(tmpdir(), 'lineage-real-http-'));
  for (const r of rows) {
    for (const repo of [r.origin, r.target]) {
      const dir = join(root, `${repo}.git`); // served as <host>/<owner>/<name>.git, like a forge
      if (!existsSync(dir)) cloneBundle(join(DIR, `${repo.replace('/', '+')}.bundle`), dir);
    }
  }
  git = await startGitServer(root);
}, 120_000);
afterAll(async () => {
  await git?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('real forks through the service', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStackWithGitServer(git.port);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it.each(PICKED)(
    "%s: the verdict is right, and the manifest is the engine run's byte for byte",
    async (name) => {
      const r = rows.find((x) => x.name === name)!;
      const url = (repo: string) => `${git.url}/${repo}.git`;
      const pair = { origin: { url: url(r.origin), commit: r.originCommit }, target: { url: url(r.target), commit: r.targetCommit } };
      const c = await fetch(`${stack.api}/analyses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pair }),
      });
      if (c.status !== 202) throw new Error(`analysis refused: ${c.status} ${await c.text()}`);
      const { analysis } = await json(c);
      await waitFor(
        'analysis completion',
        async () => {
          const a = (await json(await fetch(`${stack.api}/analyses/${analysis.id}`))).analysis;
          if (a.state === 'failed') throw new Error(`analysis failed: ${JSON.stringify(a.error)}`);
          return a.state === 'completed' ? a : undefined;
        },
        150_000,
        250,
      );
      const bytes = Buffer.from(await (await fetch(`${stack.api}/analyses/${analysis.id}/manifest`)).arrayBuffer());
      const manifest = JSON.parse(bytes.toString('utf8'));
      expect(r.accept).toContain(manifest.verdict);
      expect(r.forbid).not.toContain(manifest.direction);
      expect(manifest.metrics.sharedCommits).toBeGreaterThan(0);
      expect(manifest.lineage.forkPoints.length).toBeGreaterThan(0);

      // The engine run on the served repositories themselves, with the URLs as the service recorded them (canonical form).
      const local = await analyze({
        origin: { dir: join(root, `${r.origin}.git`), commit: r.originCommit, url: manifest.pair.origin.url },
        target: { dir: join(root, `${r.target}.git`), commit: r.targetCommit, url: manifest.pair.target.url },
      });
      expect(local.bytes.toString('utf8')).toBe(bytes.toString('utf8'));

      // And as a user checks it: `lineage verify <case URL> <clone> <clone>` recomputes the case's manifest.
      const caseId = await waitFor(
        'the case',
        async () => (await json(await fetch(`${stack.api}/analyses/${analysis.id}`))).analysis.caseId ?? undefined,
        60_000,
        250,
      );
      const verified = await run(process.execPath, [
        CLI,
        'verify',
        `${stack.api}/cases/${caseId}`,
        join(root, `${r.origin}.git`),
        join(root, `${r.target}.git`),
      ]);
      expect(verified.stdout).toBe(`identical: the recomputed manifest hashes to ${local.hash}\n`);
    },
    240_000,
  );
});
