// `lineage verify`: recompute a manifest from local clones and compare it with
// the one given (a file, or a case/analysis URL of a running Lineage API).
// The recomputation uses the manifest's own pinned commits, URLs and limits,
// so a service's manifest and a local run of the same engine agree byte for byte.
import { readFileSync } from 'node:fs';
import { analyze } from './analyze';
import { EngineError } from './errors';
import { canonicalBytes, manifestHash } from './manifest';
import { ENGINE_VERSION } from './version';
import type { Limits, Manifest, ProgressFn } from './types';

export interface Difference {
  /** JSON path of the first value that differs, e.g. `$.evidence[3].detail` */
  path: string;
  expected: string;
  actual: string;
}

export interface VerifyResult {
  identical: boolean;
  /** sha256 of the canonical bytes of the manifest given */
  expectedHash: string;
  actualHash: string;
  /** the given bytes were not canonical (a pretty-printed copy): compared after canonicalising */
  recanonicalised: boolean;
  engine: { manifest: string; local: string };
  difference: Difference | null;
}

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** The manifest's bytes from a file path, or from a Lineage API URL: `…/cases/{id}`, `…/analyses/{id}` or `…/analyses/{id}/manifest`. */
export async function loadManifest(source: string, fetchImpl: typeof fetch = fetch): Promise<Buffer> {
  if (!/^https?:\/\//i.test(source)) {
    try {
      return readFileSync(source);
    } catch {
      throw new EngineError('INVALID_INPUT', 'the manifest file cannot be read');
    }
  }
  const url = new URL(source);
  const m = /^(.*)\/(cases|analyses)\/(\d+)(\/manifest)?\/?$/.exec(url.pathname);
  if (!m) throw new EngineError('INVALID_INPUT', 'the URL names neither a case nor an analysis (…/cases/{id} or …/analyses/{id})');
  const [, base, kind, id] = m;
  let analysisId = id!;
  if (kind === 'cases') {
    const body = (await getJson(new URL(`${base}/cases/${id}`, url), fetchImpl)) as { case?: { analysisId?: unknown } };
    if (typeof body.case?.analysisId !== 'string') throw new EngineError('INVALID_INPUT', 'the case response has no analysisId');
    analysisId = body.case.analysisId;
  }
  return get(new URL(`${base}/analyses/${analysisId}/manifest`, url), fetchImpl);
}

async function get(url: URL, fetchImpl: typeof fetch): Promise<Buffer> {
  const res = await fetchImpl(url, { redirect: 'error', signal: AbortSignal.timeout(30_000) }).catch(() => {
    throw new EngineError('REPOSITORY_UNREACHABLE', 'the API did not answer');
  });
  if (res.status === 404) throw new EngineError('REPOSITORY_NOT_FOUND', 'the API has no such case or analysis');
  if (!res.ok) throw new EngineError('INVALID_INPUT', `the API answered ${res.status}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > MAX_MANIFEST_BYTES) throw new EngineError('INVALID_INPUT', 'the manifest is larger than 64 MiB');
  return bytes;
}

async function getJson(url: URL, fetchImpl: typeof fetch): Promise<unknown> {
  try {
    return JSON.parse((await get(url, fetchImpl)).toString('utf8'));
  } catch (e) {
    if (e instanceof EngineError) throw e;
    throw new EngineError('INVALID_INPUT', 'the API answered with something that is not JSON');
  }
}

/** Reads the fields a recomputation needs; anything else is compared, not trusted. */
export function parseManifest(bytes: Buffer): Manifest {
  let m: unknown;
  try {
    m = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new EngineError('INVALID_INPUT', 'the manifest is not JSON');
  }
  const hex = /^[0-9a-f]{40}$/;
  const o = m as Partial<Manifest> | null;
  const side = (s: 'origin' | 'target') => o?.pair?.[s];
  const ok =
    o &&
    typeof o === 'object' &&
    typeof o.engineVersion === 'string' &&
    o.limits &&
    typeof o.limits === 'object' &&
    (['origin', 'target'] as const).every(
      (s) => hex.test(String(side(s)?.commit)) && (side(s)?.url === null || typeof side(s)?.url === 'string'),
    );
  if (!ok)
    throw new EngineError('INVALID_INPUT', 'the file is not a Lineage manifest (engineVersion, limits, pair.{origin,target}.{commit,url})');
  return m as Manifest;
}

/** The first value (depth first, keys in canonical order) where the two JSON values differ. */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): Difference | null {
  const show = (v: unknown): string => {
    const s = v === undefined ? '(absent)' : JSON.stringify(v);
    return s.length > 200 ? `${s.slice(0, 200)}…` : s;
  };
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
      const d = firstDifference(expected[i], actual[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (
    expected &&
    actual &&
    typeof expected === 'object' &&
    typeof actual === 'object' &&
    !Array.isArray(expected) &&
    !Array.isArray(actual)
  ) {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(e), ...Object.keys(a)])].sort()) {
      const d = firstDifference(e[k], a[k], /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`);
      if (d) return d;
    }
    return null;
  }
  return Object.is(expected, actual) ? null : { path, expected: show(expected), actual: show(actual) };
}

export interface VerifyInput {
  manifest: Buffer;
  origin: string;
  target: string;
  workers?: number;
  onProgress?: ProgressFn;
}

export async function verify(input: VerifyInput): Promise<VerifyResult> {
  const given = parseManifest(input.manifest);
  const canonical = canonicalBytes(given);
  const expectedHash = manifestHash(canonical);
  const r = await analyze({
    origin: { dir: input.origin, commit: given.pair.origin.commit, ...(given.pair.origin.url ? { url: given.pair.origin.url } : {}) },
    target: { dir: input.target, commit: given.pair.target.commit, ...(given.pair.target.url ? { url: given.pair.target.url } : {}) },
    limits: given.limits as Limits,
    workers: input.workers,
    onProgress: input.onProgress,
  });
  const identical = r.hash === expectedHash;
  return {
    identical,
    expectedHash,
    actualHash: r.hash,
    recanonicalised: !canonical.equals(input.manifest),
    engine: { manifest: given.engineVersion, local: ENGINE_VERSION },
    difference: identical ? null : firstDifference(JSON.parse(canonical.toString('utf8')), JSON.parse(r.bytes.toString('utf8'))),
  };
}
