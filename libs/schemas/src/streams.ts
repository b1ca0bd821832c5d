// JetStream streams: the durable analysis work queue and the events stream.
import { z } from './zod';
import { Commit, DecimalId, Hash32, StageName, StageState, AnalysisState, Timestamp } from './common';

export const streams = {
  jobs: { name: 'LINEAGE_ANALYSIS_JOBS', subjects: ['lineage.jobs.analysis'], consumer: 'analysis-workers' },
  events: { name: 'LINEAGE_EVENTS', subjects: ['lineage.events.>'] },
} as const;

export const AnalysisJob = z.object({ analysisId: DecimalId });
export type AnalysisJob = z.infer<typeof AnalysisJob>;

/** Subjects on the events stream. */
export const eventSubjects = {
  analysisProgress: 'lineage.events.analysis.progress',
  analysisCompleted: 'lineage.events.analysis.completed',
  casePublished: 'lineage.events.case.published',
} as const;

/** Published at every stage transition (informational; consumers must tolerate gaps and repeats). */
export const AnalysisProgressEvent = z.object({
  analysisId: DecimalId,
  state: AnalysisState,
  stage: StageName,
  stageState: StageState,
  done: z.number().int().nonnegative().nullable(),
  total: z.number().int().nonnegative().nullable(),
  /** The stage's attempt (see the Analysis's stages); absent from events of older replicas. */
  attempt: z.number().int().positive().optional(),
  at: Timestamp,
});
export type AnalysisProgressEvent = z.infer<typeof AnalysisProgressEvent>;

/**
 * Published once an analysis has completed (Nats-Msg-Id `completed-<analysisId>`).
 * It names the case material; the manifest itself (the evidence) is read from the
 * pipeline with `lineage.analysis.manifest`, in chunks, and checked against `manifestHash`.
 */
export const AnalysisCompletedEvent = z.object({
  analysisId: DecimalId,
  pair: z.object({
    origin: z.object({ url: z.string(), commit: Commit, committedAt: Timestamp.nullable() }),
    target: z.object({ url: z.string(), commit: Commit, committedAt: Timestamp.nullable() }),
  }),
  engineVersion: z.string(),
  manifestHash: Hash32,
  manifestBytes: z.number().int().positive(),
  completedAt: Timestamp,
});
export type AnalysisCompletedEvent = z.infer<typeof AnalysisCompletedEvent>;

/**
 * Published by the case-store once an analysis's case exists (Nats-Msg-Id `case-<analysisId>`;
 * may repeat after a redelivery, so consumers apply it idempotently). The pipeline can record
 * `caseId` on the analysis from it.
 */
export const CasePublishedEvent = z.object({
  analysisId: DecimalId,
  caseId: DecimalId,
  manifestHash: Hash32,
  publishedAt: Timestamp,
});
export type CasePublishedEvent = z.infer<typeof CasePublishedEvent>;
