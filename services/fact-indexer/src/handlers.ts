import { ACTIVITY_KINDS, OUTCOMES, subjects } from '@lineage/schemas';
import { ApiError, type Nats } from '@lineage/service-kit';
import type { Projections } from './projections';

export function registerHandlers(nats: Nats, projections: Projections): void {
  const finalized = async () => {
    const m = await projections.meta();
    return m.finalizedBlock === null ? null : BigInt(m.finalizedBlock);
  };
  /** `minBlock`: a client waiting to read its own write gets INDEXER_BEHIND until we reach it. */
  const requireBlock = async (minBlock?: string) => {
    if (!minBlock) return;
    const m = await projections.meta();
    if (m.indexedBlock === null || BigInt(m.indexedBlock) < BigInt(minBlock)) {
      throw new ApiError('INDEXER_BEHIND', 'The projection has not reached the requested block yet; retry shortly.');
    }
  };
  nats.serve(subjects.facts.get, async (q) => {
    await requireBlock(q.minBlock);
    return projections.fact(q.factKey);
  });
  nats.serve(subjects.facts.list, async (q) => {
    await requireBlock(q.minBlock);
    return projections.facts(q);
  });
  nats.serve(subjects.facts.resolution, async (q) => {
    await requireBlock(q.minBlock);
    return projections.resolution(q.resolutionId);
  });
  nats.serve(subjects.facts.policies, (q) => projections.policies(q));
  nats.serve(subjects.facts.templates, (q) => projections.templates(q));
  nats.serve(subjects.facts.activity, async (q, ctx) => projections.activity(q, await finalized().catch(() => { ctx.log.warn('no cursor'); return null; })) as never);
  nats.serve(subjects.facts.verify, async (q, ctx) => {
    const chain = await nats.request(subjects.chain.factAt, { factKey: q.factKey }, { requestId: ctx.requestId });
    const projected = await projections.fact(q.factKey).catch(() => null);
    const canonical = projected?.fact.canonical ?? null;
    const matches = chain.state.exists
      ? canonical !== null && canonical.outcome === chain.state.outcome && canonical.status === chain.state.status &&
        canonical.assertionId === chain.state.assertionId && canonical.manifestHash === chain.state.manifestHash
      : canonical === null;
    return { factKey: q.factKey, source: 'chain' as const, blockNumber: chain.blockNumber, blockHash: chain.blockHash, chain: chain.state, projection: canonical, matches };
  });
  nats.serve(subjects.facts.protocol, async (_q, ctx) => {
    const contract = await nats.request(subjects.chain.contract, {}, { requestId: ctx.requestId }).catch(() => null);
    const m = await projections.meta();
    return {
      chainId: contract?.chainId ?? null,
      registryAddress: contract?.address ?? null,
      outcomes: [...OUTCOMES],
      eventKinds: [...ACTIVITY_KINDS],
      indexer: { headBlock: null, finalizedBlock: m.finalizedBlock, indexedBlock: m.indexedBlock, lagBlocks: m.lagBlocks, writer: false },
    };
  });
}
