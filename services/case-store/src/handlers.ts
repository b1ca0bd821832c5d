import { subjects } from '@lineage/schemas';
import { ApiError, type Nats } from '@lineage/service-kit';
import type { CaseStore } from './store';

export function registerHandlers(nats: Nats, store: CaseStore): void {
  nats.serve(subjects.cases.list, (q) => store.list(q));
  nats.serve(subjects.cases.get, (q) => store.report(q.id) as never);
  nats.serve(subjects.cases.evidence, (q) => store.evidence(q) as never);
  nats.serve(subjects.cases.search, (q) => store.search(q));
  nats.serve(subjects.cases.challengePrepare, async (q) => {
    await store.get(q.id);
    // The typed data needs the registry's domain and the challenger's nonce from chain-reader.
    throw new ApiError('CHAIN_UNAVAILABLE', 'The registry is not available to prepare a challenge.');
  });
}
