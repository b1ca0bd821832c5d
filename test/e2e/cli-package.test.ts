// The CLI as a user installs it: the packed `git-lineage` tarball (scripts/pack-cli.mjs) installed into an empty
// directory by npm, on a PATH with no C toolchain, analyzing two local repositories. Its manifest must be the bytes
// the repository's own build writes (which may parse through the native addon; the package parses through WASM).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, manifestHash, nativeParserInUse } from '@lineage/engine';
import { SCENARIOS, type BuiltPair } from '../fixtures/scenarios';

jest.setTimeout(300_000);

const root = join(__dirname, '..', '..');
const base = mkdtempSync(join(tmpdir(), 'lineage-cli-package-'));
const bin = join(base, 'bin');
const app = join(base, 'app');
let tarball: string;
let pair: BuiltPair;

/** Runs a command with only the tools a user without a compiler has: node, npm, npx, git and a shell. */
const sh = (args: string[], extraPath: string[] = []): SpawnSyncReturns<string> =>
  spawnSync(args[0]!, args.slice(1), {
    cwd: app,
    encoding: 'utf8',
    env: { HOME: process.env.HOME ?? base, PATH: [...extraPath, bin].join(':'), npm_config_update_notifier: 'false' },
  });

beforeAll(async () => {
  const packed = spawnSync(process.execPath, [join(root, 'scripts', 'pack-cli.mjs'), '--out', join(base, 'out')], { encoding: 'utf8' });
  expect(packed.stderr).toBe('');
  tarball = packed.stdout.trim();
  mkdirSync(bin);
  for (const tool of ['node', 'npm', 'npx', 'git', 'sh']) {
    const where = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(where, join(bin, tool));
  }
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{ "private": true }\n');
  pair = await SCENARIOS.find((s) => s.name === 'fork-declared')!.build(join(base, 'repos'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

test('no C toolchain on the PATH the package is installed and run with', () => {
  const found = spawnSync(join(bin, 'sh'), ['-c', 'command -v cc gcc g++ clang make python3 node-gyp'], {
    encoding: 'utf8',
    env: { PATH: bin },
  });
  expect(found.stdout).toBe('');
});

test('the tarball: git-lineage, no install scripts, runtime dependencies pinned, the workspace libraries bundled', () => {
  expect(tarball).toMatch(/git-lineage-\d+\.\d+\.\d+\.tgz$/);
  const pkg = JSON.parse(spawnSync('tar', ['xzf', tarball, '-O', 'package/package.json'], { encoding: 'utf8' }).stdout) as Record<
    string,
    unknown
  >;
  expect(pkg.name).toBe('git-lineage');
  expect(pkg.scripts).toBeUndefined();
  expect(pkg.devDependencies).toBeUndefined();
  expect(pkg.bin).toEqual({ lineage: 'bin/lineage.js', 'git-lineage': 'bin/lineage.js' });
  for (const v of Object.values(pkg.dependencies as Record<string, string>)) expect(v).toMatch(/^\d+\.\d+\.\d+$/);
  expect(pkg.bundleDependencies).toEqual(['@lineage/report-view', '@lineage/vocabulary']);
});

test('installs into an empty directory and analyzes (report, manifest, HTML), verifies and helps there; the manifest is the repository build’s', async () => {
  const install = sh(['npm', 'install', '--no-audit', '--no-fund', '--prefer-offline', tarball]);
  expect(install.status).toBe(0);
  // Only the runtime: no compiler-driven or development packages came with it.
  expect(readdirSync(join(app, 'node_modules')).sort()).toEqual([
    '.bin',
    '.package-lock.json',
    '@cspell',
    'canonicalize',
    'git-lineage',
    'tree-sitter-wasms',
    'web-tree-sitter',
  ]);
  expect(readdirSync(join(app, 'node_modules', 'git-lineage'))).not.toContain('native');

  const manifest = join(base, 'manifest.json');
  const report = join(base, 'report.html');
  const run = sh([
    'npx',
    '--no-install',
    'lineage',
    'analyze',
    pair.origin.dir,
    pair.target.dir,
    '--json',
    '--manifest',
    manifest,
    '--html',
    report,
  ]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const out = JSON.parse(run.stdout) as { verdict: string; manifestHash: string };
  const here = await analyze({ origin: pair.origin, target: pair.target });
  // The two builds parse the pair's JavaScript differently (make build compiles the native addon; the package has none).
  expect(nativeParserInUse()).toBe(true);
  expect(out.manifestHash).toBe(here.hash);
  expect(out.verdict).toBe(here.manifest.verdict);
  expect(manifestHash(readFileSync(manifest))).toBe(here.hash);
  // The HTML report: self-contained, and it names the same manifest.
  const page = readFileSync(report, 'utf8');
  expect(page).toContain(`<code class="hash" id="manifest-hash">${here.hash}</code>`);
  expect(page).toContain('<svg class="timeline"');
  expect(page).not.toMatch(/<script|<link|src="http/);

  const verify = sh(['npx', '--no-install', 'lineage', 'verify', manifest, pair.origin.dir, pair.target.dir]);
  expect(verify.status).toBe(0);
  expect(verify.stdout).toBe(`identical: the recomputed manifest hashes to ${here.hash}\n`);

  for (const command of ['analyze', 'verify']) {
    const help = sh(['npx', '--no-install', 'lineage', command, '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout.startsWith(`usage: lineage ${command}`)).toBe(true);
  }
  // git finds `git-lineage` on the PATH: `git lineage …`
  const viaGit = sh(['git', 'lineage', '--version'], [join(app, 'node_modules', '.bin')]);
  expect(viaGit.status).toBe(0);
  expect(viaGit.stdout).toMatch(/^lineage-engine\/\d+\.\d+\.\d+ \(manifest version \d+\)\n$/);
});
