// Static checks of deploy/Dockerfile. No container engine or registry is
// reachable on the build machines, so the images cannot be built in a test;
// this checks what the chart relies on: one target per service, production
// dependencies only, non-root user, node started in exec form, HTTP health
// checks, and git only in the analysis-pipeline image.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Instructions of a Dockerfile: continuations joined, comments dropped. */
export function parseDockerfile(text) {
  const logical = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && current === '')) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1).trim()} `;
      continue;
    }
    current += line;
    if (current.trim()) logical.push(current.trim());
    current = '';
  }
  const stages = [];
  const args = {};
  for (const ins of logical) {
    const m = /^(\w+)\s+([\s\S]*)$/.exec(ins);
    if (!m) continue;
    const [op, rest] = [m[1].toUpperCase(), m[2]];
    if (op === 'FROM') {
      const f = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest);
      stages.push({ base: f[1], name: f[2], instructions: [] });
    } else if (stages.length === 0 && op === 'ARG') {
      const [k, v] = rest.split('=');
      args[k] = v;
    } else if (stages.length > 0) {
      stages.at(-1).instructions.push({ op, rest });
    }
  }
  return { stages, args };
}

const dockerfile = parseDockerfile(readFileSync(path.join(root, 'deploy/Dockerfile'), 'utf8'));
const byName = new Map(dockerfile.stages.map((s) => [s.name, s]));
const ops = (stage, op) => stage.instructions.filter((i) => i.op === op);
/** A stage's instructions, followed through the stages it is built FROM. */
function lineage(stage) {
  const chain = [];
  for (let s = stage; s; s = byName.get(s.base)) chain.unshift(s);
  return chain;
}
const last = (stage, op) =>
  lineage(stage)
    .flatMap((s) => ops(s, op))
    .at(-1)?.rest;
const execForm = (rest) => JSON.parse(rest.replace(/^--\S+\s+/g, ''));
const resolveBase = (stage) => {
  const base = lineage(stage)[0].base;
  const arg = /^\$\{(\w+)\}$/.exec(base);
  return arg ? dockerfile.args[arg[1]] : base;
};

const services = {
  gateway: 8080,
  'analysis-pipeline': 8081,
  'case-store': 8082,
  'fact-indexer': 8083,
  'chain-reader': 8084,
};

test('has one target per service', () => {
  for (const name of Object.keys(services)) assert.ok(byName.has(name), `no stage ${name}`);
});

test('builds once, prunes dev dependencies, and ships only the pruned tree', () => {
  const build = byName.get('build');
  const run = ops(build, 'RUN')
    .map((r) => r.rest)
    .join('\n');
  assert.match(run, /npm ci --ignore-scripts\b/);
  assert.match(run, /tsc -b tsconfig\.build\.json/);
  assert.match(run, /npm prune --omit=dev/);
  for (const name of Object.keys(services)) {
    const copies = lineage(byName.get(name))
      .flatMap((s) => ops(s, 'COPY'))
      .filter((c) => c.rest.includes('--from='));
    assert.ok(copies.length > 0, `${name} copies nothing from the build`);
    for (const c of copies) assert.match(c.rest, /--from=app\s/, `${name}: ${c.rest}`);
  }
});

test("ships the engine's data (the common-fingerprint set it reads at run time)", () => {
  const run = ops(byName.get('app'), 'RUN')
    .map((r) => r.rest)
    .join('\n');
  assert.match(run, /cp -a libs\/engine\/data \/app\/libs\/engine\//);
});

test("builds the engine's native parser in the build stage and ships the addon alone", () => {
  const build = ops(byName.get('build'), 'RUN')
    .map((r) => r.rest)
    .join('\n');
  assert.match(build, /apt-get install[^&]*\bg\+\+/);
  assert.match(build, /npm run build:native/);
  const app = ops(byName.get('app'), 'RUN')
    .map((r) => r.rest)
    .join('\n');
  assert.match(app, /cp -a libs\/engine\/native\/build\/Release\/lineage_parse\.node \/app\/libs\/engine\/native\/build\/Release\//);
});

for (const [name, port] of Object.entries(services)) {
  test(`${name}: non-root, node in exec form, main.js, HTTP health check on its port`, () => {
    const stage = byName.get(name);
    const user = last(stage, 'USER');
    assert.match(user ?? '', /^[1-9]\d*:[1-9]\d*$/, `${name} USER must be a numeric non-root uid:gid`);
    const entrypoint = execForm(last(stage, 'ENTRYPOINT'));
    assert.match(entrypoint.at(-1), /(^|\/)node$/, `${name} ENTRYPOINT must end in node`);
    if (entrypoint.length > 1) assert.deepEqual(entrypoint.slice(0, 2), ['/usr/bin/tini', '--']);
    assert.deepEqual(execForm(last(stage, 'CMD')), [`services/${name}/dist/main.js`]);
    assert.equal(last(stage, 'EXPOSE'), String(port));
    assert.match(last(stage, 'ENV') ?? '', new RegExp(`HTTP_PORT=${port}\\b`));
    const health = last(stage, 'HEALTHCHECK');
    const cmd = execForm(health.replace(/^(--\S+\s+)*CMD\s+/, ''));
    assert.match(cmd[0], /(^|\/)node$/);
    assert.match(cmd.join(' '), /path:'\/health'/);
  });
}

test('images run as the uid/gid the chart enforces', () => {
  const values = parse(readFileSync(path.join(root, 'charts/lineage/values.yaml'), 'utf8'));
  const { runAsUser, runAsGroup } = values.containerSecurityContext;
  for (const name of Object.keys(services)) assert.equal(last(byName.get(name), 'USER'), `${runAsUser}:${runAsGroup}`, name);
});

test('git is installed in the analysis-pipeline image only', () => {
  for (const name of Object.keys(services)) {
    const runs = lineage(byName.get(name))
      .filter((s) => s.name !== 'build' && s.name !== 'app')
      .flatMap((s) => ops(s, 'RUN'));
    const installsGit = runs.some((r) => /apt-get install[^&]*\bgit\b/.test(r.rest));
    assert.equal(installsGit, name === 'analysis-pipeline', name);
  }
});

test('the other services run on a distroless base (no shell, no package manager)', () => {
  for (const name of ['gateway', 'case-store', 'fact-indexer', 'chain-reader']) {
    assert.match(resolveBase(byName.get(name)), /distroless\/nodejs20.*:nonroot$/, name);
  }
});

test('the analysis-pipeline image has no npm and restricts git to https', () => {
  const run = ops(byName.get('analysis-pipeline'), 'RUN')
    .map((r) => r.rest)
    .join('\n');
  assert.match(run, /rm -rf [^&]*\/usr\/local\/lib\/node_modules\/npm/);
  assert.match(run, /git config --system protocol\.allow never/);
  assert.match(run, /git config --system protocol\.https\.allow always/);
  assert.match(run, /git config --system core\.hooksPath \/dev\/null/);
});

test('.dockerignore keeps local builds, dependencies and history out of the context', () => {
  const ignore = readFileSync(path.join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim());
  for (const entry of ['**/node_modules', '**/dist', '.git', '.tools']) assert.ok(ignore.includes(entry), entry);
});

test('control: the parser sees a root user and shell-form entrypoint', () => {
  const bad = parseDockerfile('FROM node:20 AS gateway\nUSER root\nENTRYPOINT node services/gateway/dist/main.js\n');
  const stage = bad.stages[0];
  assert.equal(stage.name, 'gateway');
  assert.doesNotMatch(ops(stage, 'USER')[0].rest, /^[1-9]\d*:[1-9]\d*$/);
  assert.throws(() => execForm(ops(stage, 'ENTRYPOINT')[0].rest));
});
