import { messages } from '@lineage/schemas';
import type { Consumption, JetStream, Logger } from '@lineage/service-kit';
import type { AnalysisRepository } from './repository';

const CONSUMER = 'analysis-pipeline-case-links';

/**
 * Fills `caseId` on an analysis once the case-store has published its case.
 * Durable and idempotent: a repeated event writes the same value again. The consumer policy (service-kit's
 * `consume`) holds an event through a database outage, so an outage spends none of its deliveries, and naks other
 * failures with a growing delay.
 */
export class CaseLinks {
  private consumption: Consumption | null = null;

  constructor(
    private readonly repo: AnalysisRepository,
    private readonly js: JetStream,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.consumption = await this.js.consume(
      messages.casePublished,
      async ({ analysisId, caseId }, d) => {
        await this.repo.linkCase(analysisId, caseId);
        d.log.info({ held: d.held }, 'case linked');
      },
      {
        durable: CONSUMER,
        ackWaitMs: 30_000,
        maxDeliver: 20,
        log: this.log,
        what: 'case link',
        logFields: (e) => ({ analysisId: e.analysisId, caseId: e.caseId }),
        messages: { retry: 'could not link case; will retry' },
      },
    );
  }

  async stop(): Promise<void> {
    await this.consumption?.stop();
  }
}
