import { createHash } from 'node:crypto';
import { ENGINE_VERSION, MANIFEST_VERSION } from './version';
import type { Comparison, Decision, Inventory, Limits, Manifest, ManifestResult, PairInput, SkippedItem } from './types';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const canonicalizeLib = require('canonicalize') as ((v: unknown) => string | undefined) | { default: (v: unknown) => string | undefined };
const canonicalize = typeof canonicalizeLib === 'function' ? canonicalizeLib : canonicalizeLib.default;

export interface ManifestInput {
  pair: PairInput;
  commits: { origin: string; target: string };
  limits: Limits;
  parameters: { k: number; window: number };
  inventories: { origin: Inventory; target: Inventory };
  history: { origin: { truncated: boolean; commitsWalked: number }; target: { truncated: boolean; commitsWalked: number } };
  comparison: Comparison;
  decision: Decision;
}

/** RFC 8785 (JCS) canonical bytes of any JSON value. */
export function canonicalBytes(value: unknown): Buffer {
  const s = canonicalize(value);
  if (s === undefined) throw new Error('value cannot be canonicalised');
  return Buffer.from(s, 'utf8');
}

/** `0x` + sha256 of the canonical bytes. */
export function manifestHash(bytes: Buffer | string): string {
  return '0x' + createHash('sha256').update(bytes).digest('hex');
}

/**
 * The canonical evidence manifest: only integers, fixed-precision decimal
 * strings and text; no wall-clock times, absolute paths or host data.
 */
export function buildManifest(input: ManifestInput): ManifestResult {
  const skipped: SkippedItem[] = [];
  for (const side of ['origin', 'target'] as const) {
    for (const s of input.inventories[side].skipped) skipped.push({ ...s, side });
    const h = input.history[side];
    if (h.truncated) skipped.push({ side, path: '', reason: 'HISTORY_TRUNCATED', size: h.commitsWalked });
  }
  const manifest: Manifest = {
    manifestVersion: MANIFEST_VERSION,
    engineVersion: ENGINE_VERSION,
    pair: {
      origin: { url: input.pair.origin.url ?? null, commit: input.commits.origin },
      target: { url: input.pair.target.url ?? null, commit: input.commits.target },
    },
    limits: input.limits,
    parameters: input.parameters,
    inventory: { origin: input.inventories.origin.summary, target: input.inventories.target.summary },
    skipped,
    chronology: input.comparison.chronology,
    lineage: input.comparison.lineage,
    layers: input.comparison.layers,
    metrics: input.comparison.metrics,
    evidence: input.comparison.evidence,
    alternatives: input.decision.alternatives,
    verdict: input.decision.verdict,
    confidence: input.decision.confidence,
    direction: input.decision.direction,
    summary: input.decision.summary,
  };
  const bytes = canonicalBytes(manifest);
  return { bytes, hash: manifestHash(bytes), manifest };
}
