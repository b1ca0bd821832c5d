#!/usr/bin/env node
// Packs the CLI as an installable npm package, `git-lineage` (bins `lineage` and `git-lineage`, so `git lineage …`
// works too): the engine's built JavaScript, its data, the JSON Schema of --json, and the workspace libraries it
// imports bundled (they are not on the registry). The runtime dependencies are pinned to the versions this repository's lock installed:
// the tokenisers' WASM grammars decide the fingerprints, so another version could change a manifest. No install
// scripts, no native parser (the engine parses through WASM when the addon is absent, with the same manifests),
// no dev dependencies. Needs `make build` first. Usage: node scripts/pack-cli.mjs [--out DIR]; prints the tarball path.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const engine = join(root, 'libs', 'engine');
const outIdx = process.argv.indexOf('--out');
const out = resolve(outIdx > 0 ? process.argv[outIdx + 1] : join(root, '.pack'));

const PACKAGE_NAME = 'git-lineage';

for (const built of [
  join(engine, 'dist', 'cli.js'),
  join(root, 'libs', 'vocabulary', 'dist', 'index.js'),
  join(root, 'libs', 'report-view', 'dist', 'index.js'),
])
  if (!existsSync(built)) {
    process.stderr.write(`pack-cli: ${built} is missing: run \`make build\` first\n`);
    process.exit(1);
  }

const enginePkg = JSON.parse(readFileSync(join(engine, 'package.json'), 'utf8'));
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const version = /\/(\d+\.\d+\.\d+)$/.exec(
  readFileSync(join(engine, 'src', 'version.ts'), 'utf8').match(/ENGINE_VERSION = '([^']+)'/)[1],
)[1];
const installed = (name) => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;

const stage = mkdtempSync(join(tmpdir(), 'git-lineage-pack-'));
try {
  const pkg = join(stage, 'package');
  mkdirSync(pkg);
  // dist without source maps and declaration maps: the package runs, it is not built against.
  cpSync(join(engine, 'dist'), join(pkg, 'dist'), { recursive: true, filter: (f) => !/\.(map|tsbuildinfo)$/.test(f) });
  for (const dir of ['bin', 'data', 'schema']) cpSync(join(engine, dir), join(pkg, dir), { recursive: true });
  cpSync(join(engine, 'CHANGELOG.md'), join(pkg, 'CHANGELOG.md'));
  // The workspace libraries the engine imports (@lineage/vocabulary, @lineage/report-view) are not on the registry:
  // they travel inside the package (bundleDependencies), built, with their own dependencies declared beside the engine's.
  const bundled = Object.keys(enginePkg.dependencies)
    .filter((n) => n.startsWith('@lineage/'))
    .sort();
  const libDeps = {};
  for (const name of bundled) {
    const src = join(root, 'libs', name.slice('@lineage/'.length));
    const libPkg = JSON.parse(readFileSync(join(src, 'package.json'), 'utf8'));
    const dest = join(pkg, 'node_modules', ...name.split('/'));
    cpSync(join(src, 'dist'), join(dest, 'dist'), { recursive: true, filter: (f) => !/\.(map|tsbuildinfo)$/.test(f) });
    writeFileSync(
      join(dest, 'package.json'),
      JSON.stringify(
        {
          name,
          version: libPkg.version,
          description: libPkg.description,
          main: libPkg.main,
          types: libPkg.types,
          license: rootPkg.license,
        },
        null,
        2,
      ) + '\n',
    );
    for (const dep of Object.keys(libPkg.dependencies ?? {})) if (!dep.startsWith('@lineage/')) libDeps[dep] = installed(dep);
  }
  const dependencies = Object.fromEntries(
    [...new Set([...Object.keys(enginePkg.dependencies), ...Object.keys(libDeps)])]
      .sort()
      .map((name) => [
        name,
        bundled.includes(name)
          ? JSON.parse(readFileSync(join(root, 'libs', name.slice(9), 'package.json'), 'utf8')).version
          : installed(name),
      ]),
  );
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify(
      {
        name: PACKAGE_NAME,
        version,
        description: `${rootPkg.description} The command-line engine: analyze two local repositories (or URLs), write and verify evidence manifests.`,
        license: rootPkg.license,
        keywords: ['git', 'forensics', 'provenance', 'fork', 'plagiarism', 'lineage'],
        engines: rootPkg.engines,
        main: 'dist/index.js',
        types: 'dist/index.d.ts',
        bin: { lineage: 'bin/lineage.js', 'git-lineage': 'bin/lineage.js' },
        files: ['bin', 'dist', 'data', 'schema', 'CHANGELOG.md'],
        dependencies,
        bundleDependencies: bundled,
      },
      null,
      2,
    ) + '\n',
  );
  writeFileSync(
    join(pkg, 'README.md'),
    `# ${PACKAGE_NAME}\n\n${rootPkg.description}\n\n` +
      '```\nnpx lineage analyze <origin> <target> [--origin-ref R] [--target-ref R] [--json] [--manifest FILE]\n' +
      'npx lineage verify <manifest.json | case URL> <origin> <target>\nnpx lineage <command> --help\n```\n\n' +
      '`--json` lines follow `schema/cli-output.schema.json`. JavaScript and TypeScript are parsed through WASM here ' +
      '(a repository build may use a native parser: the manifests are the same bytes).\n',
  );
  mkdirSync(out, { recursive: true });
  const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: pkg, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop();
  process.stdout.write(join(out, name) + '\n');
} finally {
  rmSync(stage, { recursive: true, force: true });
}
