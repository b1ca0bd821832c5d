#!/usr/bin/env node
// Every package a workspace's source imports must be declared in that workspace's own package.json:
// npm hoists workspace dependencies to the root, so an undeclared import works here and breaks in the
// service's image (which installs only what the service declares). Tests may also use the root's devDependencies.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { builtinModules, createRequire } from 'node:module';

const root = new URL('..', import.meta.url).pathname;
const builtins = new Set(builtinModules);
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const rootDev = new Set(Object.keys({ ...rootPkg.devDependencies, ...rootPkg.dependencies }));

// TypeScript's own pre-parser finds imports, requires and dynamic imports, and not look-alikes in strings or comments.
const ts = createRequire(import.meta.url)('typescript');

function files(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'generated-out') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (/\.(ts|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

const problems = [];
for (const group of ['libs', 'services']) {
  for (const ws of readdirSync(join(root, group))) {
    const dir = join(root, group, ws);
    if (!existsSync(join(dir, 'package.json'))) continue;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const deps = new Set(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies }));
    const dev = new Set([...deps, ...Object.keys(pkg.devDependencies ?? {}), ...rootDev]);
    for (const [sub, allowed] of [
      ['src', deps],
      ['scripts', dev],
      ['test', dev],
    ]) {
      for (const file of files(join(dir, sub))) {
        const text = readFileSync(file, 'utf8');
        for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
          if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || builtins.has(spec)) continue;
          const name = packageOf(spec);
          if (name === pkg.name || allowed.has(name)) continue;
          problems.push(
            `${relative(root, file)}: imports ${name}, which ${pkg.name} does not declare${sub === 'src' ? ' in dependencies' : ''}`,
          );
        }
      }
    }
  }
}

if (problems.length) {
  console.error([...new Set(problems)].join('\n'));
  console.error(
    `\ncheck-deps: ${problems.length} undeclared import(s); add them to the workspace's package.json (npm install <pkg> -w <workspace>).`,
  );
  process.exit(1);
}
console.log('check-deps: every workspace declares what it imports');
