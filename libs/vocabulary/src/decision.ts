// The words of a verdict: what the engine decides, the manifest records, the API returns and the pages say.

export const VERDICTS = [
  'INDEPENDENT',
  'SHARED_UPSTREAM',
  'DECLARED_FORK',
  'LIKELY_DERIVED',
  'HEAVILY_DERIVED',
  'INSUFFICIENT_EVIDENCE',
] as const;
export type Verdict = (typeof VERDICTS)[number];

export const CONFIDENCES = ['LOW', 'MEDIUM', 'HIGH'] as const;
export type Confidence = (typeof CONFIDENCES)[number];

export const DIRECTIONS = ['ORIGIN_TO_TARGET', 'TARGET_TO_ORIGIN', 'NONE'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** The evidence layers, each scored on its own. */
export const LAYERS = ['CODE', 'STRUCTURE', 'HISTORY', 'TEST', 'LANGUAGE', 'DEPENDENCY'] as const;
export type Layer = (typeof LAYERS)[number];

export const STRENGTHS = ['WEAK', 'MODERATE', 'STRONG'] as const;
export type Strength = (typeof STRENGTHS)[number];
