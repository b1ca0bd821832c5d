// Renders charts/lineage with the default and the production-like values and
// checks every manifest offline: Kubernetes/CRD schemas, unknown fields,
// security posture, graceful termination and wiring. Negative controls prove
// each check can fail. Run: node --test test/chart/*.test.mjs (scripts/chart-test.sh
// builds helm first; HELM_BIN points at it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { schemaErrors, unknownFieldErrors } from './kube-schema.mjs';
import { postureViolations, terminationViolations, wiringViolations } from './posture.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const chart = path.join(root, 'charts/lineage');
const helm = process.env.HELM_BIN ?? path.join(root, '.tools/bin/helm');

function render(valueFiles) {
  const args = ['template', 'lineage', chart, '--namespace', 'lineage'];
  for (const f of valueFiles) args.push('--values', path.join(chart, f));
  const out = execFileSync(helm, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return parseAllDocuments(out)
    .map((d) => {
      if (d.errors.length > 0) throw new Error(`unparseable manifest: ${d.errors[0].message}`);
      return d.toJS();
    })
    .filter((d) => d !== null && typeof d === 'object');
}

const kinds = (docs) => docs.reduce((acc, d) => ({ ...acc, [d.kind]: (acc[d.kind] ?? 0) + 1 }), {});

const valueSets = {
  default: {
    files: [],
    expect: { Deployment: 5, Service: 5, ServiceAccount: 5, ConfigMap: 5, PodDisruptionBudget: 5, Job: 3, NetworkPolicy: 7 },
  },
  production: {
    files: ['ci/production-values.yaml'],
    expect: { Deployment: 5, HorizontalPodAutoscaler: 1, ScaledObject: 1, ServiceMonitor: 1, PrometheusRule: 1, Job: 3 },
  },
};

for (const [set, { files, expect }] of Object.entries(valueSets)) {
  const docs = render(files);

  test(`${set} values: renders the expected resources`, () => {
    const counts = kinds(docs);
    for (const [kind, n] of Object.entries(expect)) assert.equal(counts[kind], n, `${kind} count`);
  });

  test(`${set} values: every manifest matches its Kubernetes/CRD schema`, async () => {
    assert.deepEqual(await schemaErrors(docs), []);
  });

  test(`${set} values: no manifest has a field its API does not define`, () => {
    assert.deepEqual(unknownFieldErrors(docs), []);
  });

  test(`${set} values: every workload has the required security posture`, () => {
    assert.deepEqual(postureViolations(docs), []);
  });

  test(`${set} values: grace periods cover preStop sleep plus drain`, () => {
    assert.deepEqual(terminationViolations(docs), []);
  });

  test(`${set} values: services are wired (Service, PDB, NetworkPolicy, replica owner, secrets)`, () => {
    assert.deepEqual(wiringViolations(docs), []);
  });
}

test('refuses clusters older than 1.30 (the preStop hook uses the sleep action)', () => {
  const args = ['template', 'lineage', chart, '--kube-version', '1.29.0'];
  assert.throws(() => execFileSync(helm, args, { encoding: 'utf8', stdio: 'pipe' }), /kubeVersion: >=1\.30\.0-0 which is incompatible/);
  assert.doesNotThrow(() => execFileSync(helm, [...args.slice(0, -1), '1.30.0'], { encoding: 'utf8', stdio: 'pipe' }));
});

// Negative controls: the checks above must be able to fail.
const base = render([]);
const deployment = () => JSON.parse(JSON.stringify(base.find((d) => d.kind === 'Deployment' && d.metadata.name === 'lineage-case-store')));

test('control: a wrong type fails the schema check', async () => {
  const d = deployment();
  d.spec.replicas = 'two';
  const errors = await schemaErrors([d]);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /Deployment\/lineage-case-store: \/spec\/replicas must be integer/);
});

test('control: an unknown kind is not silently accepted', async () => {
  const errors = await schemaErrors([{ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }]);
  assert.match(errors[0], /no schema for example.com\/v1\/Widget/);
});

test('control: a misspelled or misplaced field fails the unknown-field check', () => {
  // TypeScript stops at the first excess property of a literal: one per document.
  const misspelled = deployment();
  misspelled.spec.template.spec.containers[0].readinesProbe = {};
  const misplaced = deployment();
  misplaced.spec.template.spec.runAsNonRoot = true;
  const errors = unknownFieldErrors([misspelled, misplaced]);
  assert.equal(errors.length, 2, errors.join('\n'));
  assert.match(errors[0], /^Deployment\/lineage-case-store: .*'readinesProbe' does not exist/);
  assert.match(errors[1], /^Deployment\/lineage-case-store: .*'runAsNonRoot' does not exist/);
});

test('control: an insecure workload fails the posture check', () => {
  const d = deployment();
  const pod = d.spec.template.spec;
  const c = pod.containers[0];
  delete pod.automountServiceAccountToken;
  c.securityContext = { runAsUser: 0, privileged: true, capabilities: { add: ['NET_ADMIN'] } };
  delete pod.securityContext;
  delete c.resources;
  delete c.livenessProbe;
  const v = postureViolations([d]).join('\n');
  for (const expected of [
    'service account token is mounted',
    'runAsNonRoot is not true',
    'runs as uid 0',
    'root file system is writable',
    'privilege escalation allowed',
    'privileged',
    'capabilities not dropped',
    'adds capabilities',
    'no seccomp profile',
    'no CPU request',
    'no memory limit',
    'no liveness probe on /health',
  ]) {
    assert.ok(v.includes(expected), `expected "${expected}" in:\n${v}`);
  }
});

test('control: a grace period shorter than sleep plus drain fails', () => {
  const d = deployment();
  d.spec.template.spec.terminationGracePeriodSeconds = 30;
  const cm = base.find((x) => x.kind === 'ConfigMap' && x.metadata.name === 'lineage-case-store');
  assert.match(terminationViolations([d, cm]).join('\n'), /grace period 30s does not exceed preStop 10s \+ drain 25s/);
});

test('control: replicas rendered under an autoscaler, an inlined secret and a missing PDB fail', () => {
  const d = deployment();
  d.spec.template.spec.containers[0].env.push({ name: 'RPC_URL', value: 'https://rpc.example' });
  const hpa = { kind: 'HorizontalPodAutoscaler', metadata: { name: 'x' }, spec: { scaleTargetRef: { name: d.metadata.name } } };
  const others = base.filter((x) => ['Service', 'ServiceAccount', 'NetworkPolicy'].includes(x.kind));
  const v = wiringViolations([d, hpa, ...others]).join('\n');
  assert.match(v, /renders replicas although HorizontalPodAutoscaler\/x owns the count/);
  assert.match(v, /RPC_URL is not a secretKeyRef/);
  assert.match(v, /no PodDisruptionBudget/);
});
