// validate → create → progress → completed, through the gateway, for fixture
// repositories served by a real git HTTP server; and SSRF attempts refused
// before any connection.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SCENARIOS } from '../fixtures/scenarios';
import { startGitServer, type GitServer } from '../support/git-http';
import { startStack, startStackWithGitServer, type Stack } from '../support/stack';
import { waitFor } from '../support/processes';
import { json } from '../support/http';

const PICKED = ['fork-declared', 'renamed-copy', 'same-spec-independent'];
let root: string;
let git: GitServer;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lineage-repos-'));
  for (const s of SCENARIOS.filter((x) => PICKED.includes(x.name))) await s.build(root);
  git = await startGitServer(root);
}, 120_000);
afterAll(async () => {
  await git?.stop();
  rmSync(root, { recursive: true, force: true });
});

const post = (stack: Stack, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('analyses of fixture repositories', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStackWithGitServer(git.port);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it.each(PICKED)(
    '%s: validate, analyse, expected verdict, verifiable manifest',
    async (name) => {
      const scenario = SCENARIOS.find((s) => s.name === name)!;
      const v = await post(stack, '/repositories/validate', {
        origin: { url: `${git.url}/${name}/origin.git` },
        target: { url: `${git.url}/${name}/target.git`, ref: 'main' },
      });
      expect(v.status).toBe(200);
      const { pair } = await json(v);
      expect(pair.origin.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(pair.target.ref).toBe('main');
      expect(pair.origin.committedAt).toMatch(/^[0-9]+$/);

      // The pinned pair goes to /analyses as validate gave it.
      const c = await post(stack, '/analyses', { pair });
      expect(c.status).toBe(202);
      const { analysis, cancelToken } = await json(c);
      const seen = new Set<string>();
      const done = await waitFor(
        'analysis completion',
        async () => {
          const a = (await json(await fetch(`${stack.api}/analyses/${analysis.id}`))).analysis;
          seen.add(a.state);
          for (const s of a.stages) if (s.state === 'done') expect(s.done === null || s.done <= s.total).toBe(true);
          if (a.state === 'failed') throw new Error(`analysis failed: ${JSON.stringify(a.error)}`);
          return a.state === 'completed' ? a : undefined;
        },
        150_000,
        200,
      );
      expect(done.stages.every((s: { state: string }) => s.state === 'done')).toBe(true);
      expect(done.stages.find((s: { name: string }) => s.name === 'inventory').unit).toBe('files');

      const m = await fetch(`${stack.api}/analyses/${analysis.id}/manifest`);
      expect(m.status).toBe(200);
      const bytes = Buffer.from(await m.arrayBuffer());
      const hash = `0x${createHash('sha256').update(bytes).digest('hex')}`;
      expect(m.headers.get('etag')).toBe(`"${hash}"`);
      expect(done.manifestHash).toBe(hash);
      const manifest = JSON.parse(bytes.toString('utf8'));
      expect(scenario.verdicts).toContain(manifest.verdict);
      expect(scenario.directions).toContain(manifest.direction);
      expect(manifest.pair.origin.commit).toBe(pair.origin.commit);
      // The case-store publishes the case; the analysis then points at it.
      const caseId = await waitFor(
        'case link',
        async () => ((await json(await fetch(`${stack.api}/analyses/${analysis.id}`))).analysis.caseId as string | null) ?? undefined,
        30_000,
        200,
      );
      const report = (await json(await fetch(`${stack.api}/cases/${caseId}`))).case;
      expect(report).toMatchObject({
        id: caseId,
        analysisId: analysis.id,
        verdict: manifest.verdict,
        direction: manifest.direction,
        manifestHash: hash,
      });
      const evidence = await json(await fetch(`${stack.api}/cases/${caseId}/evidence?limit=5`));
      expect(evidence.total).toBe(manifest.evidence.length);
      const notModified = await fetch(`${stack.api}/analyses/${analysis.id}/manifest`, { headers: { 'if-none-match': `"${hash}"` } });
      expect(notModified.status).toBe(304);
      const late = await post(stack, `/analyses/${analysis.id}/cancel`, {}, { authorization: `Bearer ${cancelToken}` });
      expect(late.status).toBe(409);
      expect((await json(late)).error.code).toBe('ANALYSIS_FINISHED');
    },
    180_000,
  );

  it('a ref that does not exist, a commit that does not exist, an unreachable remote', async () => {
    const base = `${git.url}/fork-declared`;
    const e1 = await json(
      await post(stack, '/repositories/validate', {
        origin: { url: `${base}/origin.git`, ref: 'no-such-branch' },
        target: { url: `${base}/target.git` },
      }),
    );
    expect(e1.error.code).toBe('REF_NOT_FOUND');
    expect(e1.error.fields).toEqual([{ path: 'origin.ref', issue: 'not_found' }]);
    const e2 = await json(
      await post(stack, '/repositories/validate', {
        origin: { url: `${base}/origin.git`, ref: 'f'.repeat(40) },
        target: { url: `${base}/target.git` },
      }),
    );
    expect(e2.error.code).toBe('COMMIT_NOT_FOUND');
    const e3 = await json(
      await post(stack, '/repositories/validate', {
        origin: { url: `${git.url}/missing/repo.git` },
        target: { url: `${base}/target.git` },
      }),
    );
    expect(e3.error.code).toBe('REPOSITORY_UNREACHABLE');
    const e4 = await json(
      await post(stack, '/repositories/validate', {
        origin: { url: `${git.url}/redirect/fork-declared/origin.git` },
        target: { url: `${base}/target.git` },
      }),
    );
    expect(e4.error.code).toBe('REPOSITORY_UNREACHABLE');
  }, 60_000);
});

describe('SSRF: refused before any connection', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The git server is allowlisted by name and address, but private addresses are not allowed.
    stack = await startStack({
      extraEnv: {
        'analysis-pipeline': {
          LINEAGE_REPO_ALLOWED_HOSTS: `http://localhost:${git.port},http://127.0.0.1:${git.port},http://[::1]:${git.port},github.com`,
          LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'false',
        },
      },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('refuses 20 hostile URLs with REPOSITORY_NOT_ALLOWED or VALIDATION_FAILED and makes no connection', async () => {
    const p = git.port;
    const attempts = [
      `http://127.0.0.1:${p}/fork-declared/origin.git`,
      `http://localhost:${p}/fork-declared/origin.git`,
      `http://2130706433:${p}/fork-declared/origin.git`,
      `http://0x7f000001:${p}/fork-declared/origin.git`,
      `http://0177.0.0.1:${p}/fork-declared/origin.git`,
      `http://127.1:${p}/fork-declared/origin.git`,
      `http://[::1]:${p}/fork-declared/origin.git`,
      `http://[::ffff:127.0.0.1]:${p}/fork-declared/origin.git`,
      'http://169.254.169.254/latest/meta-data',
      'http://10.0.0.1/a/b.git',
      'http://192.168.1.1/a/b.git',
      'http://[fe80::1]/a/b.git',
      'file:///etc/passwd',
      'ext::sh -c touch% /tmp/pwned',
      'ssh://git@github.com/a/b.git',
      'git@github.com:a/b.git',
      'https://user:secret@github.com/a/b',
      `https://github.com/${'a'.repeat(600)}`,
      'https://github.com/a/b\n.git',
      `http://localhost:${p}/redirect/fork-declared/origin.git`,
    ];
    expect(attempts).toHaveLength(20);
    const before = git.log.length;
    for (const url of attempts) {
      const res = await post(stack, '/repositories/validate', { origin: { url }, target: { url: 'https://github.com/example/target' } });
      const body = await json(res);
      expect(['REPOSITORY_NOT_ALLOWED', 'VALIDATION_FAILED']).toContain(body.error.code);
      expect(JSON.stringify(body)).not.toContain('secret');
    }
    expect(git.log.slice(before)).toEqual([]);
  }, 60_000);
});
