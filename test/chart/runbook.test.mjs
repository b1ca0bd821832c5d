// docs/operations.md must stay true to the chart: every resource, label,
// Secret key, port and value path its commands name is checked against the
// rendered manifests, and every alert has its section.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const chart = path.join(root, 'charts/lineage');
const helm = process.env.HELM_BIN ?? path.join(root, '.tools/bin/helm');
const doc = readFileSync(path.join(root, 'docs/operations.md'), 'utf8');

// The runbook assumes release "lineage" in namespace "lineage"; render every
// optional resource on so that each name it mentions can be found.
const docs = parseAllDocuments(
  execFileSync(
    helm,
    [
      'template',
      'lineage',
      chart,
      '-n',
      'lineage',
      '-f',
      path.join(chart, 'ci/production-values.yaml'),
      '--set',
      'fullnameOverride=',
      '--set',
      'secrets.existingSecret=',
    ],
    { encoding: 'utf8' },
  ),
)
  .map((d) => d.toJS())
  .filter(Boolean);
const values = parse(readFileSync(path.join(chart, 'values.yaml'), 'utf8'));

const names = (kind) => new Set(docs.filter((d) => d.kind === kind).map((d) => d.metadata.name));
const shellBlocks = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
const all = (re, text = shellBlocks) => [...new Set([...text.matchAll(re)].map((m) => m[1]))];

test('the runbook has shell examples to check', () => {
  assert.ok(shellBlocks.split('\n').filter((l) => /^\s*(kubectl|helm) /.test(l)).length >= 30);
});

const kinds = {
  deployment: 'Deployment',
  service: 'Service',
  job: 'Job',
  scaledobject: 'ScaledObject',
  hpa: 'HorizontalPodAutoscaler',
  networkpolicy: 'NetworkPolicy',
};

for (const [word, kind] of Object.entries(kinds)) {
  test(`every ${kind} the runbook names is rendered by the chart`, () => {
    const mentioned = [
      ...all(new RegExp(`\\b${word}/(lineage[a-z0-9-]*)`, 'g')),
      ...all(new RegExp(`\\b(?:get|describe|annotate) ${word} (lineage[a-z0-9-]*)`, 'g')),
    ];
    const rendered = names(kind);
    // `deployment/lineage-$d` (the per-service loop) is checked below.
    for (const n of mentioned.filter((m) => !m.endsWith('-'))) {
      assert.ok(rendered.has(n), `${word} ${n} is not rendered; rendered: ${[...rendered].join(', ')}`);
    }
  });
}

test('the per-service loop names exactly the rendered Deployments', () => {
  const loop = /for d in ([a-z -]+); do/.exec(shellBlocks);
  assert.ok(loop, 'no per-service loop');
  assert.deepEqual(
    new Set(
      loop[1]
        .trim()
        .split(/\s+/)
        .map((s) => `lineage-${s}`),
    ),
    names('Deployment'),
  );
});

test('every component label the runbook selects exists on a rendered pod', () => {
  const podLabels = docs.filter((d) => d.spec?.template?.metadata?.labels).map((d) => d.spec.template.metadata.labels);
  for (const c of all(/app\.kubernetes\.io\/component=([a-z-]+)/g)) {
    assert.ok(
      podLabels.some((l) => l['app.kubernetes.io/component'] === c),
      c,
    );
  }
  for (const i of all(/app\.kubernetes\.io\/instance=([a-z-]+)/g)) assert.equal(i, 'lineage');
  for (const s of all(/kubernetes\.io\/service-name=([a-z0-9-]+)/g)) assert.ok(names('Service').has(s), s);
});

test('every Secret key the runbook uses is one the chart reads', () => {
  const refs = new Set();
  for (const d of docs) {
    for (const c of d.spec?.template?.spec?.containers ?? []) {
      for (const e of c.env ?? [])
        if (e.valueFrom?.secretKeyRef) refs.add(`${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`);
    }
  }
  const keys = new Set([...refs].map((r) => r.split('/')[1]));
  const mentioned = [...all(/--from-file=([a-z-]+)/g), ...all(/\{\.data\.([a-z-]+)\}/g), ...all(/\\"data\\":\{\\"([a-z-]+)\\"/g)];
  assert.ok(mentioned.length >= 6);
  for (const k of mentioned) assert.ok(keys.has(k), `${k} is not read by any service (${[...keys].join(', ')})`);
  for (const k of keys) assert.ok(doc.includes(`\`${k}\``), `Secret key ${k} is not documented`);
  for (const name of all(/(?:describe|get|patch|create) secret(?: generic)? ([a-z-]+)/g)) {
    assert.ok(
      [...refs].some((r) => r.startsWith(`${name}/`)),
      `Secret ${name} is not referenced`,
    );
  }
});

test('port-forwards use the service ports', () => {
  const ports = new Map(
    docs.filter((d) => d.kind === 'Deployment').map((d) => [d.metadata.name, d.spec.template.spec.containers[0].ports[0].containerPort]),
  );
  const forwards = [...shellBlocks.matchAll(/port-forward (?:deployment|service)\/(lineage-[a-z-]+) (\d+):(\d+)/g)];
  assert.ok(forwards.length >= 3);
  for (const [, name, , remote] of forwards) assert.equal(Number(remote), ports.get(name), name);
});

test('every value path the runbook sets or names exists in values.yaml', () => {
  const paths = [
    ...all(/--set ([a-zA-Z.]+)=/g),
    ...all(
      /`((?:gateway|analysisPipeline|caseStore|factIndexer|chainReader|metrics|networkPolicy|postgresql|nats|secrets)\.[a-zA-Z.]+)`/g,
      doc,
    ),
  ];
  assert.ok(paths.length >= 10);
  for (const p of paths) {
    let v = values;
    for (const part of p.split('.')) {
      assert.ok(v && typeof v === 'object' && part in v, `${p} is not a value`);
      v = v[part];
    }
  }
});

test('every alert of the PrometheusRule has a runbook section its link points to', () => {
  const rule = docs.find((d) => d.kind === 'PrometheusRule');
  const alerts = rule.spec.groups.flatMap((g) => g.rules);
  const headings = new Set(all(/^### (\w+)$/gm, doc));
  for (const a of alerts) {
    assert.ok(headings.has(a.alert), `no section for ${a.alert}`);
    assert.ok(a.annotations.runbook_url.endsWith(`#${a.alert.toLowerCase()}`), a.annotations.runbook_url);
  }
});
