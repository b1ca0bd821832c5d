import { subjects } from '@lineage/schemas';
import { ApiError, type Nats } from '@lineage/service-kit';
import type { Analyses } from './analyses';
import { normalizeRepositoryUrl } from './repository-url';

export function registerHandlers(nats: Nats, analyses: Analyses): void {
  nats.serve(subjects.analysis.create, (q) => analyses.create(q));
  nats.serve(subjects.analysis.get, (q) => analyses.get(q.id));
  nats.serve(subjects.analysis.cancel, (q) => analyses.cancel(q));
  nats.serve(subjects.analysis.manifest, (q) => analyses.manifest(q.id));
  nats.serve(subjects.analysis.validate, async (q) => {
    normalizeRepositoryUrl(q.origin.url, 'origin.url');
    normalizeRepositoryUrl(q.target.url, 'target.url');
    // Pinning against the remote (ls-remote with SSRF checks) arrives with the intake work.
    throw new ApiError('SERVICE_UNAVAILABLE', 'Repository validation is not enabled in this build.');
  });
}
