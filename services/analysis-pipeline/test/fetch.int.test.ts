import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '@lineage/service-kit';
import { startGitServer, type GitServer } from '../../../test/support/git-http';
import { classifyFetchFailure, fetchCommit, hasCommit, initBare } from '../src/intake/remote-git';
import type { CheckedRemote } from '../src/intake/remote-policy';

// fetchCommit against git's own smart-HTTP backend, with repositories whose objects are written byte by byte:
// a legacy tree git's fsck flags but that is harmless (zero-padded modes, as in 2010-era histories), and a tree
// holding a `.git` entry, which must stay refused.

const run = (gitDir: string, args: string[], input?: Buffer): string =>
  execFileSync('git', ['--git-dir', gitDir, ...args], {
    input,
    stdio: 'pipe',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  })
    .toString()
    .trim();

function entry(mode: string, name: string, sha: string): Buffer {
  return Buffer.concat([Buffer.from(`${mode} ${name}\0`), Buffer.from(sha, 'hex')]);
}

/** A bare repository whose one commit has the given root tree entries; returns the commit id. */
function repoWithTree(gitDir: string, entries: (blob: string, sub: string) => Buffer[]): string {
  run(gitDir, ['init', '--quiet', '--bare']);
  const blob = run(gitDir, ['hash-object', '-w', '--stdin'], Buffer.from('hello\n'));
  const sub = run(gitDir, ['hash-object', '-t', 'tree', '-w', '--stdin'], entry('100644', 'a.txt', blob));
  const tree = run(gitDir, ['hash-object', '-t', 'tree', '--literally', '-w', '--stdin'], Buffer.concat(entries(blob, sub)));
  const commit = run(gitDir, ['-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit-tree', tree, '-m', 'legacy'], undefined);
  run(gitDir, ['update-ref', 'refs/heads/main', commit]);
  run(gitDir, ['symbolic-ref', 'HEAD', 'refs/heads/main']);
  return commit;
}

let root: string;
let server: GitServer;
let legacy: string;
let dotgit: string;

const remote = (name: string, port = server.port): CheckedRemote => ({
  url: `http://127.0.0.1:${port}/${name}`,
  fetchUrl: `http://127.0.0.1:${port}/${name}.git`,
  host: '127.0.0.1',
  port,
  addresses: ['127.0.0.1'],
});

async function fetchInto(name: string, commit: string, port?: number): Promise<{ dir: string; err: unknown }> {
  const dir = join(root, 'cache', `${name}-${Math.random().toString(36).slice(2)}`);
  await initBare(dir);
  try {
    await fetchCommit(dir, remote(name, port), commit, { depth: null, filterBlobs: false, timeoutMs: 30_000, field: 'pair.origin' });
    return { dir, err: null };
  } catch (err) {
    return { dir, err };
  }
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lineage-fetch-'));
  mkdirSync(join(root, 'srv'));
  mkdirSync(join(root, 'cache'));
  legacy = repoWithTree(join(root, 'srv', 'legacy.git'), (blob, sub) => [entry('100644', 'a.txt', blob), entry('040000', 'd', sub)]);
  dotgit = repoWithTree(join(root, 'srv', 'dotgit.git'), (blob, sub) => [entry('40000', '.git', sub), entry('100644', 'a.txt', blob)]);
  server = await startGitServer(join(root, 'srv'));
});

afterAll(async () => {
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('fetching one pinned commit', () => {
  it('a legacy history with zero-padded tree modes is fetched (git flags it, but it is harmless)', async () => {
    // The precondition: git's own strict check refuses this tree.
    expect(() => run(join(root, 'srv', 'legacy.git'), ['-c', 'fsck.zeroPaddedFilemode=error', 'fsck', '--strict'])).toThrow();
    const { dir, err } = await fetchInto('legacy', legacy);
    expect(err).toBeNull();
    expect(await hasCommit(dir, legacy)).toBe(true);
  });

  it('a tree with a .git entry is still refused, as REPOSITORY_UNREADABLE naming the url', async () => {
    const { dir, err } = await fetchInto('dotgit', dotgit);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'REPOSITORY_UNREADABLE', fields: [{ path: 'pair.origin.url', issue: 'integrity_check_failed' }] });
    expect(await hasCommit(dir, dotgit)).toBe(false);
  });

  it('a commit the server does not have is COMMIT_NOT_FOUND naming the commit', async () => {
    const { err } = await fetchInto('legacy', 'f'.repeat(40));
    expect(err).toMatchObject({ code: 'COMMIT_NOT_FOUND', fields: [{ path: 'pair.origin.commit', issue: 'not_found' }] });
  });

  it('a repository the server does not have, and a port nobody listens on, are REPOSITORY_UNREACHABLE', async () => {
    const missing = await fetchInto('no-such-repo', legacy);
    expect(missing.err).toMatchObject({ code: 'REPOSITORY_UNREACHABLE', fields: [{ path: 'pair.origin.url', issue: 'fetch_failed' }] });
    const closed = await fetchInto('legacy', legacy, 9); // discard port: nothing listens on loopback
    expect(closed.err).toMatchObject({ code: 'REPOSITORY_UNREACHABLE' });
  });

  it('no error carries the URL or git stderr', async () => {
    for (const [name, commit] of [
      ['dotgit', dotgit],
      ['legacy', 'f'.repeat(40)],
      ['no-such-repo', legacy],
    ] as const) {
      const { err } = await fetchInto(name, commit);
      const text = JSON.stringify({ m: (err as ApiError).message, f: (err as ApiError).fields });
      expect(text).not.toContain('127.0.0.1');
      expect(text).not.toMatch(/fatal|error:/);
    }
  });
});

describe('classifyFetchFailure', () => {
  it.each([
    [
      "error: object 0d0e8: hasDotgit: contains '.git'\nfatal: fsck error in packed object\nfatal: fetch-pack: invalid index-pack output",
      'integrity',
    ],
    ['fatal: remote error: upload-pack: not our ref ffffffffffffffffffffffffffffffffffffffff', 'not_found'],
    ['error: Server does not allow request for unadvertised object ffff', 'not_found'],
    ["fatal: unable to access '...': Failed to connect to host port 443: Connection refused", 'unreachable'],
    ['error: RPC failed; curl 56 Recv failure\nfatal: early EOF', 'unreachable'],
    ['', 'unreachable'],
  ])('%#: %s', (stderr, kind) => {
    expect(classifyFetchFailure(stderr)).toBe(kind);
  });
});
