// Offline validation of rendered manifests against the Kubernetes API schemas
// (and the KEDA and prometheus-operator CRD schemas) shipped by the
// kubernetes-models packages. Two layers:
//  1. the packages' compiled JSON-schema validators: types, enums, required
//     fields, formats;
//  2. TypeScript excess-property checks against the same packages' interfaces:
//     a field the API does not define (a typo, a wrong nesting level) fails,
//     which the JSON schemas alone do not catch.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));

/** apiVersion/kind → module and exported class/interface of its model. */
const MODELS = {
  'v1/ConfigMap': ['kubernetes-models/v1/ConfigMap', 'ConfigMap'],
  'v1/Service': ['kubernetes-models/v1/Service', 'Service'],
  'v1/ServiceAccount': ['kubernetes-models/v1/ServiceAccount', 'ServiceAccount'],
  'apps/v1/Deployment': ['kubernetes-models/apps/v1/Deployment', 'Deployment'],
  'batch/v1/Job': ['kubernetes-models/batch/v1/Job', 'Job'],
  'policy/v1/PodDisruptionBudget': ['kubernetes-models/policy/v1/PodDisruptionBudget', 'PodDisruptionBudget'],
  'autoscaling/v2/HorizontalPodAutoscaler': ['kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler', 'HorizontalPodAutoscaler'],
  'networking.k8s.io/v1/NetworkPolicy': ['kubernetes-models/networking.k8s.io/v1/NetworkPolicy', 'NetworkPolicy'],
  'keda.sh/v1alpha1/ScaledObject': ['@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject', 'ScaledObject'],
  'monitoring.coreos.com/v1/ServiceMonitor': [
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor',
    'ServiceMonitor',
  ],
  'monitoring.coreos.com/v1/PrometheusRule': [
    '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule',
    'PrometheusRule',
  ],
};

export const typeKey = (doc) => `${doc?.apiVersion}/${doc?.kind}`;
export const docName = (doc) => `${doc?.kind ?? '?'}/${doc?.metadata?.name ?? '?'}`;

/** Schema errors of each document, as "Kind/name: message" strings. */
export async function schemaErrors(docs) {
  const errors = [];
  for (const doc of docs) {
    const model = MODELS[typeKey(doc)];
    if (!model) {
      errors.push(`${docName(doc)}: no schema for ${typeKey(doc)} (add it to MODELS)`);
      continue;
    }
    const mod = await import(model[0]);
    try {
      new mod[model[1]](doc).validate();
    } catch (err) {
      const details = err.errors?.map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
      errors.push(`${docName(doc)}: ${details ?? err.message}`);
    }
  }
  return errors;
}

/** Fields no API type defines, found by type-checking each document as a literal. */
export function unknownFieldErrors(docs) {
  const file = path.join(here, '__rendered_manifests__.mts');
  const lines = [];
  const imports = new Map();
  docs.forEach((doc, i) => {
    const model = MODELS[typeKey(doc)];
    if (!model) return; // reported by schemaErrors
    const alias = `I${imports.size}`;
    if (!imports.has(model[0])) imports.set(model[0], alias);
    lines.push(`export const doc${i}: ${imports.get(model[0])} = ${JSON.stringify(doc)};`);
  });
  const header = [...imports].map(([mod, alias]) => {
    const name = MODELS[Object.keys(MODELS).find((k) => MODELS[k][0] === mod)][1];
    return `import type { I${name} as ${alias} } from ${JSON.stringify(mod)};`;
  });
  const source = [...header, ...lines].join('\n');

  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, ...rest) =>
    name === file ? ts.createSourceFile(name, source, lang, true) : getSourceFile.call(host, name, lang, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));

  const program = ts.createProgram([file], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const sf = program.getSourceFile(file);
  return diagnostics.map((d) => {
    // JSON keys are quoted property names: report 'name', not '"name"'.
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ').replace(/'"([^"']+)"'/g, "'$1'");
    if (d.file !== sf || d.start === undefined) return `type check: ${message}`;
    const { line } = sf.getLineAndCharacterOfPosition(d.start);
    const decl = /^export const doc(\d+)/.exec(source.split('\n')[line] ?? '');
    const doc = decl ? docs[Number(decl[1])] : undefined;
    return `${doc ? docName(doc) : 'manifest'}: ${message}`;
  });
}
