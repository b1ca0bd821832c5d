import { subjects } from '@lineage/schemas';
import type { Nats } from '@lineage/service-kit';
import type { CaseStore } from './store';
import type { CaseFacts } from './facts';
import type { ChallengePreparer } from './challenge';

export function registerHandlers(nats: Nats, deps: { store: CaseStore; facts: CaseFacts; challenges: ChallengePreparer }): void {
  const { store, facts, challenges } = deps;
  nats.serve(subjects.cases.list, (q) => store.list(q));
  nats.serve(subjects.cases.get, async (q, ctx) => {
    const { row, report } = await store.report(q.id);
    const factKey = facts.factKey(row);
    const fact = await facts.fact(factKey, ctx);
    return {
      case: { ...report, id: String(row.id), analysisId: String(row.analysis_id), createdAt: String(row.created_at), factKey, fact },
    };
  });
  nats.serve(subjects.cases.evidence, (q) => store.evidence(q));
  nats.serve(subjects.cases.search, (q) => store.search(q));
  nats.serve(subjects.cases.challengePrepare, async (q, ctx) => challenges.prepare(await store.get(q.id), q.body, ctx));
}
