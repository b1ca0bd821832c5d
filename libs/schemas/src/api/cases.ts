import { z } from '../zod';
import {
  Address,
  Commit,
  Confidence,
  Cursor,
  DecimalId,
  Direction,
  Hash32,
  Layer,
  Limit,
  QueryText,
  Strength,
  Timestamp,
  Verdict,
  page,
} from '../common';
import { Fact } from './facts';

export const CaseSide = z.object({ url: z.string(), commit: Commit, committedAt: Timestamp.nullable() });
export const CasePair = z.object({ origin: CaseSide, target: CaseSide });

export const CaseCard = z
  .object({
    id: DecimalId,
    pair: CasePair,
    verdict: Verdict,
    confidence: Confidence,
    direction: Direction,
    manifestHash: Hash32,
    createdAt: Timestamp,
  })
  .openapi('CaseCard');

export const Location = z.object({
  path: z.string(),
  startLine: z.number().int().nonnegative(),
  endLine: z.number().int().nonnegative(),
  blobId: z.string().nullable(),
});

export const EvidenceItem = z
  .object({
    id: DecimalId,
    layer: Layer,
    kind: z.string(),
    strength: Strength,
    score: z.string(),
    language: z.string().nullable(),
    origin: Location.nullable(),
    target: Location.nullable(),
    detail: z.string(),
  })
  .openapi('EvidenceItem');

export const LayerScore = z.object({ layer: Layer, score: z.string(), items: z.number().int().nonnegative() });
/** A verdict the engine scored; `chosen` marks the winner. */
export const Alternative = z.object({ verdict: Verdict, score: z.string(), reason: z.string(), chosen: z.boolean() });
export const ChronologyEntry = z.object({
  kind: z.string(),
  side: z.enum(['origin', 'target', 'both']),
  description: z.string(),
  commit: z.string().nullable(),
  at: Timestamp.nullable(),
});
/** Evidence totals of the whole case (the evidence route pages and filters them). */
export const EvidenceTotals = z.object({
  total: z.number().int().nonnegative(),
  byStrength: z.object({
    STRONG: z.number().int().nonnegative(),
    MODERATE: z.number().int().nonnegative(),
    WEAK: z.number().int().nonnegative(),
  }),
});

export const CaseReport = z
  .object({
    id: DecimalId,
    analysisId: DecimalId,
    pair: CasePair,
    verdict: Verdict,
    confidence: Confidence,
    direction: Direction,
    summary: z.string(),
    layers: z.array(LayerScore),
    chronology: z.array(ChronologyEntry),
    evidence: EvidenceTotals,
    /** The strongest items (the first of the evidence route's order), with file:line ranges on both sides. */
    highlights: z.array(EvidenceItem),
    alternatives: z.array(Alternative),
    whyChosen: z.string(),
    manifestHash: Hash32,
    engineVersion: z.string(),
    factKey: DecimalId.nullable(),
    fact: Fact.nullable(),
    createdAt: Timestamp,
  })
  .openapi('CaseReport');
export type CaseReport = z.infer<typeof CaseReport>;

export const CaseIdParams = z.strictObject({ id: DecimalId });
export const CaseListQuery = z.strictObject({
  verdict: Verdict.optional(),
  repository: QueryText(512).optional(),
  limit: Limit,
  cursor: Cursor.optional(),
});
export const CaseList = page(CaseCard).openapi('CaseList');
export const CaseResponse = z.object({ case: CaseReport }).openapi('CaseResponse');

export const EvidenceQuery = z.strictObject({
  layer: Layer.optional(),
  strength: Strength.optional(),
  kind: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_.-]+$/, 'kind')
    .optional(),
  path: QueryText(1024).optional(),
  limit: Limit,
  cursor: Cursor.optional(),
});
const Counts = z.record(z.string(), z.number().int().nonnegative());
export const EvidencePage = page(EvidenceItem)
  .extend({
    total: z.number().int().nonnegative(),
    facets: z.object({ layer: Counts, strength: Counts, kind: Counts, language: Counts }),
  })
  .openapi('EvidencePage');

export const ChallengePreparationRequest = z
  .strictObject({
    challenger: Address,
    rationale: z.string().min(10).max(600),
    evidenceDigest: Hash32.optional(),
  })
  .openapi('ChallengePreparationRequest');
export const ChallengePreparationResponse = z
  .object({
    typedData: z.object({
      domain: z.object({ name: z.string(), version: z.string(), chainId: DecimalId, verifyingContract: Address }),
      types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
      primaryType: z.literal('Challenge'),
      message: z.object({
        factKey: DecimalId,
        caseId: DecimalId,
        manifestHash: Hash32,
        evidenceDigest: Hash32,
        rationaleHash: Hash32,
        challenger: Address,
        nonce: DecimalId,
        deadline: Timestamp,
      }),
    }),
    digest: Hash32,
    relay: z.object({ contract: Address, function: z.literal('challengeWithSig') }),
  })
  .openapi('ChallengePreparationResponse');

export const SearchQuery = z.strictObject({ q: QueryText(256), limit: Limit, cursor: Cursor.optional() });
export const SearchHit = z.object({ matchedOn: z.enum(['caseId', 'verdict', 'repository']), case: CaseCard }).openapi('SearchHit');
export const SearchResults = page(SearchHit).openapi('SearchResults');
