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

/**
 * A message on a JetStream stream: where it is stored, the subject it goes out on and the one schema both its
 * publisher (before sending) and its consumers (on receipt) validate it with.
 */
export interface MessageDef<S extends z.ZodType = z.ZodType> {
  /** A work-queue job (one consumer takes it once) or an event (every durable consumer sees it). */
  kind: 'job' | 'event';
  stream: string;
  subject: string;
  schema: S;
  /**
   * Its `Nats-Msg-Id`: a message published again inside the stream's duplicate window is dropped, which is what
   * makes a re-published job or event harmless. Absent: every publish is a new message.
   */
  msgId?: (payload: z.output<S>) => string;
}

const message = <S extends z.ZodType>(
  kind: MessageDef['kind'],
  stream: string,
  subject: string,
  schema: S,
  msgId?: (payload: z.output<S>) => string,
): MessageDef<S> => ({
  kind,
  stream,
  subject,
  schema,
  ...(msgId ? { msgId } : {}),
});

/** Every job and event on JetStream. */
export const messages = {
  analysisJob: message('job', streams.jobs.name, streams.jobs.subjects[0], AnalysisJob, (j) => `analysis-${j.analysisId}`),
  analysisProgress: message('event', streams.events.name, eventSubjects.analysisProgress, AnalysisProgressEvent),
  analysisCompleted: message(
    'event',
    streams.events.name,
    eventSubjects.analysisCompleted,
    AnalysisCompletedEvent,
    (e) => `completed-${e.analysisId}`,
  ),
  casePublished: message('event', streams.events.name, eventSubjects.casePublished, CasePublishedEvent, (e) => `case-${e.analysisId}`),
} as const;
