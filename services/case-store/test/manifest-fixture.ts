// Well-formed synthetic manifests (typed with the engine's own Manifest type) and their
// canonical bytes, for tests that stand in for the analysis-pipeline.
import { createHash } from 'node:crypto';
import { canonicalBytes, type EvidenceItem, type Manifest } from '@lineage/engine';
import type { AnalysisCompletedEvent } from '@lineage/schemas';
import { LAYERS, STRENGTHS } from '@lineage/vocabulary';

// Evidence kinds the engine records, one from each layer.
const KINDS = ['CODE_FRAGMENT', 'SAME_FILE_PATH', 'SHARED_COMMITS', 'SAME_TEST_NAME', 'SHARED_IDENTIFIER', 'SAME_DEPENDENCY'] as const;
const DIRS = ['src/core/', 'src/util/', 'test/', 'docs/'] as const;
const LANGS = ['typescript', 'python', undefined] as const;

export interface FixtureOptions {
  originUrl: string;
  targetUrl: string;
  originCommit: string;
  targetCommit: string;
  evidence: number;
  verdict?: Manifest['verdict'];
  /** Varies item contents between fixtures. */
  seed?: number;
  /** The histories share commits: the manifest carries the lineage section. */
  lineage?: Manifest['lineage'];
}

/** Deterministic evidence: item i cycles through layers, strengths, kinds, paths and languages. */
export function fixtureEvidence(n: number, seed = 0): EvidenceItem[] {
  return Array.from({ length: n }, (_, i) => {
    const layer = LAYERS[i % LAYERS.length]!;
    const strength = STRENGTHS[(i + seed) % 3]!;
    const dir = DIRS[i % DIRS.length]!;
    const language = LANGS[i % LANGS.length];
    const loc = (side: number) => ({
      path: `${dir}file${i % 17}.ts`,
      startLine: 10 + i,
      endLine: 20 + i + side,
      blobId: `${(i + side).toString(16).padStart(4, '0')}${'a'.repeat(36)}`,
    });
    return {
      id: `E${i + 1}`,
      layer,
      kind: KINDS[(i * 7 + seed) % KINDS.length]!,
      strength,
      score: (((i * 37 + seed) % 10000) / 10000).toFixed(4),
      ...(language ? { language } : {}),
      origin: i % 11 === 5 ? null : loc(0),
      target: loc(1),
      detail: `matched material ${i}`,
    };
  });
}

export function fixtureManifest(o: FixtureOptions): Manifest {
  const evidence = fixtureEvidence(o.evidence, o.seed);
  const verdict = o.verdict ?? 'LIKELY_DERIVED';
  const summary = { files: 10, bytes: 1000, lines: 100, byClass: { source: 8, test: 2 }, byLanguage: { typescript: 10 }, skipped: 0 };
  return {
    manifestVersion: '1',
    engineVersion: 'test-engine-1',
    pair: { origin: { url: o.originUrl, commit: o.originCommit }, target: { url: o.targetUrl, commit: o.targetCommit } },
    limits: { maxFiles: 1000, maxFileBytes: 1_000_000, maxTotalBytes: 10_000_000, maxCommits: 1000, timeBudgetMs: 60_000 },
    parameters: { k: 5, window: 4 },
    inventory: { origin: summary, target: summary },
    skipped: [],
    chronology: [
      { kind: 'PINNED_COMMIT', side: 'origin', time: '1700000000', commit: o.originCommit, detail: 'pinned origin commit time' },
      {
        kind: 'MATERIAL_FIRST_APPEARANCE',
        side: 'both',
        time: null,
        commit: null,
        detail: 'matched fingerprints dated earlier in origin: 3; earlier in target: 0',
      },
    ],
    lineage: o.lineage ?? null,
    layers: LAYERS.map((layer) => ({ layer, score: '0.5000', items: evidence.filter((e) => e.layer === layer).length })),
    metrics: {
      targetContainment: '0.6200',
      originContainment: '0.4100',
      sharedCommits: 0,
      declaredUpstream: false,
      declaredBy: 'none',
      originFirstWeight: 3,
      targetFirstWeight: 0,
      originHeadIsShared: false,
      targetHeadIsShared: false,
      originCodeTokens: 5000,
      targetCodeTokens: 4000,
      fragments: 12,
    },
    evidence,
    alternatives: [
      { verdict, score: '0.8100', reason: 'code containment and chronology both point one way' },
      { verdict: verdict === 'INDEPENDENT' ? 'LIKELY_DERIVED' : 'INDEPENDENT', score: '0.1200', reason: 'too much rare shared material' },
      { verdict: 'SHARED_UPSTREAM', score: '0.0700', reason: 'no shared commits' },
    ],
    verdict,
    confidence: 'MEDIUM',
    direction: verdict === 'INDEPENDENT' ? 'NONE' : 'ORIGIN_TO_TARGET',
    summary: 'engine summary',
  };
}

export function manifestBytes(m: Manifest): { bytes: Buffer; hash: string } {
  const bytes = canonicalBytes(m);
  return { bytes, hash: '0x' + createHash('sha256').update(bytes).digest('hex') };
}

export function completedEvent(analysisId: string, o: FixtureOptions, hash: string, size: number): AnalysisCompletedEvent {
  return {
    analysisId,
    pair: {
      origin: { url: o.originUrl, commit: o.originCommit, committedAt: '1700000000' },
      target: { url: o.targetUrl, commit: o.targetCommit, committedAt: '1710000000' },
    },
    engineVersion: 'test-engine-1',
    manifestHash: hash,
    manifestBytes: size,
    completedAt: '1720000000',
  };
}
