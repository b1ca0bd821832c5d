// The README's CLI example, as a newcomer runs it: a fresh clone of this
// repository (its committed HEAD) in a temporary directory, then the block under
// `<!-- readme-cli-example -->` run verbatim by bash, the setup command included.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

jest.setTimeout(900_000);

const ROOT = resolve(__dirname, '..', '..');

/** The first fenced block after the marker: the commands exactly as the README shows them. */
function readmeExample(readme: string): string {
  const at = readme.indexOf('<!-- readme-cli-example -->');
  if (at < 0) throw new Error('README has no <!-- readme-cli-example --> marker');
  const m = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!m) throw new Error('no ```sh block after the marker');
  return m[1]!;
}

describe('the README CLI example on a fresh clone', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lineage-readme-'));
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, join(dir, 'lineage')], { stdio: 'ignore' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs, builds, analyses, writes the manifest and verifies it', () => {
    const clone = join(dir, 'lineage');
    const script = readmeExample(readFileSync(join(clone, 'README.md'), 'utf8'));
    // No terminal here: the progress line must stay off, so stderr carries only what make and npm print.
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: clone,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, CI: 'true' },
    });
    if (r.status !== 0)
      throw new Error(`the README example failed (exit ${r.status}):\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`);

    // The report: verdict and direction in words, the fork point with an ISO date, the signals that decided it.
    expect(r.stdout).toContain('DECLARED_FORK, confidence HIGH: the target derives from the origin');
    expect(r.stdout).toMatch(/Fork point: [0-9a-f]{12}, \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\./);
    expect(r.stdout).toContain('What decided it:');
    expect(r.stdout).toMatch(/Manifest hash: 0x[0-9a-f]{64}/);
    // --json / --manifest: the JSON line carries the hash of the manifest file's bytes, with the URLs given.
    const result = JSON.parse(readFileSync(join(clone, '.example', 'result.json'), 'utf8'));
    expect(result.manifest.pair.origin.url).toBe('https://example.org/acme/lattice-core');
    expect(existsSync(join(clone, '.example', 'manifest.json'))).toBe(true);
    // verify recomputes it from the two clones.
    expect(r.stdout).toContain(`identical: the recomputed manifest hashes to ${result.manifestHash}\n`);
    // No progress bar or terminal control characters reached the pipes.
    // eslint-disable-next-line no-control-regex
    expect(r.stdout + r.stderr).not.toMatch(/\x1b\[K|\r/);
  });
});
