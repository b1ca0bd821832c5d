// JetStream streams: the durable analysis work queue and the events stream.
import { z } from './zod';
import { DecimalId } from './common';

export const streams = {
  jobs: { name: 'LINEAGE_ANALYSIS_JOBS', subjects: ['lineage.jobs.analysis'], consumer: 'analysis-workers' },
  events: { name: 'LINEAGE_EVENTS', subjects: ['lineage.events.>'] },
} as const;

export const AnalysisJob = z.object({ analysisId: DecimalId });
export type AnalysisJob = z.infer<typeof AnalysisJob>;
