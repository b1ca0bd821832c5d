// The evidence manifest as the engine writes it (libs/engine/src/types.ts `Manifest`),
// for consumers that must not trust its bytes blindly: the case-store parses every
// manifest it reads with these schemas after checking its hash. Bounds are generous
// but finite, so a hostile or corrupt manifest cannot exhaust memory downstream.
import { z } from './zod';
import { Commit, Confidence, Direction, Layer, Strength, Timestamp, Verdict } from './common';

const Count = z.number().int().nonnegative();
/** Fixed-precision decimal string (the engine writes 4 places). */
const Score = z.string().regex(/^-?[0-9]{1,12}(\.[0-9]{1,12})?$/, 'decimal');
const Text = (max: number) => z.string().max(max);
const ManifestSide = z.enum(['origin', 'target']);

export const ManifestLocation = z.object({
  path: Text(4096),
  startLine: Count,
  endLine: Count,
  blobId: Text(64),
});

export const ManifestEvidenceItem = z.object({
  id: Text(64),
  layer: Layer,
  kind: Text(64),
  strength: Strength,
  score: Score,
  language: Text(64).optional(),
  origin: ManifestLocation.nullable(),
  target: ManifestLocation.nullable(),
  detail: Text(4096),
});
export type ManifestEvidenceItem = z.infer<typeof ManifestEvidenceItem>;

export const ManifestChronologyFact = z.object({
  kind: Text(64),
  side: z.enum(['origin', 'target', 'both']),
  time: Timestamp.nullable(),
  commit: Text(64).nullable(),
  detail: Text(4096),
});
export type ManifestChronologyFact = z.infer<typeof ManifestChronologyFact>;

const ManifestLineageSignal = z.object({
  kind: Text(64),
  original: z.enum(['origin', 'target', 'none']),
  weight: Score,
  detail: Text(4096),
});

/** Engine 0.4.0+: how histories that share commits relate, and the signals on which side is the original. */
export const ManifestLineage = z.object({
  forkPoints: z.array(z.object({ commit: Commit, time: Timestamp })).max(1000),
  originOnlyCommits: Count,
  targetOnlyCommits: Count,
  truncated: z.boolean(),
  signals: z.array(ManifestLineageSignal).max(64),
  thirdLine: z.boolean(),
  original: z.enum(['origin', 'target', 'none']),
  certain: z.boolean(),
  /** No commit id in common, but a line both histories hold under other ids: the newest pair on it, one commit a side. */
  commonLine: z
    .object({
      commits: Count,
      sameTree: Count,
      origin: z.object({ commit: Commit, time: Timestamp }),
      target: z.object({ commit: Commit, time: Timestamp }),
      authored: Timestamp,
    })
    .optional(),
});
export type ManifestLineage = z.infer<typeof ManifestLineage>;

export const ManifestLayerScore = z.object({ layer: Layer, score: Score, items: Count });
export const ManifestAlternative = z.object({ verdict: Verdict, score: Score, reason: Text(4096) });

const InventorySummary = z.object({
  files: Count,
  bytes: Count,
  lines: Count,
  byClass: z.record(z.string(), Count),
  byLanguage: z.record(z.string(), Count),
  skipped: Count,
});

export const ManifestSkippedItem = z.object({
  side: ManifestSide.optional(),
  path: Text(4096),
  reason: z.enum(['SYMLINK', 'SUBMODULE', 'FILE_TOO_LARGE', 'UNSAFE_PATH', 'HISTORY_TRUNCATED', 'MISSING_OBJECT']),
  size: Count.optional(),
});

/** Upper bound on evidence items in one manifest (the engine bounds its output well below this). */
export const MAX_MANIFEST_EVIDENCE = 200_000;

export const ManifestSchema = z.object({
  manifestVersion: Text(32),
  engineVersion: Text(64),
  pair: z.object({
    origin: z.object({ url: Text(2048).nullable(), commit: Commit }),
    target: z.object({ url: Text(2048).nullable(), commit: Commit }),
  }),
  limits: z.object({ maxFiles: Count, maxFileBytes: Count, maxTotalBytes: Count, maxCommits: Count, timeBudgetMs: Count }),
  parameters: z.object({ k: Count, window: Count }),
  inventory: z.object({ origin: InventorySummary, target: InventorySummary }),
  skipped: z.array(ManifestSkippedItem).max(MAX_MANIFEST_EVIDENCE),
  chronology: z.array(ManifestChronologyFact).max(10_000),
  /** absent in manifests of engines before 0.4.0; null when the histories share nothing */
  lineage: ManifestLineage.nullable().optional(),
  layers: z.array(ManifestLayerScore).max(16),
  metrics: z.object({
    targetContainment: Score,
    originContainment: Score,
    sharedCommits: Count,
    declaredUpstream: z.boolean(),
    declaredBy: z.enum(['origin', 'target', 'none']),
    originFirstWeight: z.number(),
    targetFirstWeight: z.number(),
    originHeadIsShared: z.boolean(),
    targetHeadIsShared: z.boolean(),
    originCodeTokens: Count,
    targetCodeTokens: Count,
    fragments: Count,
  }),
  evidence: z.array(ManifestEvidenceItem).max(MAX_MANIFEST_EVIDENCE),
  alternatives: z.array(ManifestAlternative).max(16),
  verdict: Verdict,
  confidence: Confidence,
  direction: Direction,
  summary: Text(8192),
});
export type ParsedManifest = z.infer<typeof ManifestSchema>;
