import { subjects } from '@lineage/schemas';
import type { Nats } from '@lineage/service-kit';
import type { Analyses } from './analyses';
import type { Intake } from './intake/validate';
import { FragmentReader } from './fragments';

export function registerHandlers(nats: Nats, analyses: Analyses, intake: Intake): void {
  nats.serve(subjects.analysis.validate, (q) => intake.validate(q));
  nats.serve(subjects.analysis.create, (q) => analyses.create(q));
  nats.serve(subjects.analysis.get, (q) => analyses.get(q.id));
  nats.serve(subjects.analysis.cancel, (q) => analyses.cancel(q));
  nats.serve(subjects.analysis.manifest, (q) => analyses.manifest(q.id, q.offset));
  const fragments = new FragmentReader({
    pair: async (id) => (await analyses.get(id)).analysis.pair,
    gitDirFor: (url) => intake.cache.pathFor(url),
  });
  nats.serve(subjects.analysis.fragment, (q) => fragments.read(q));
}
