import { ACTIVITY_KINDS, OUTCOMES, subjects } from '@lineage/schemas';
import { ApiError, type Nats } from '@lineage/service-kit';
import type { Projections } from './projections';
import type { ChainSource } from './chain-source';
import type { IndexerState } from './indexer';

export interface WriterStatus {
  readonly isWriter: boolean;
  readonly state: IndexerState;
}

type ChainState = Awaited<ReturnType<ChainSource['factAt']>>['state'];
type View = Awaited<ReturnType<Projections['canonical']>>;

/** The projection matches the chain when both say the fact does not exist, or agree on every field the contract reports. */
export function sameFact(chain: ChainState, canonical: View): boolean {
  if (!chain.exists) return canonical === null;
  return (
    canonical !== null &&
    canonical.outcome === chain.outcome &&
    canonical.status === chain.status &&
    canonical.assertionId === chain.assertionId &&
    canonical.resolutionId === chain.resolutionId &&
    canonical.manifestHash === chain.manifestHash
  );
}

export function registerHandlers(nats: Nats, projections: Projections, chain: ChainSource, writer: WriterStatus): void {
  /** `minBlock`: a client waiting to read its own write gets 409 INDEXER_BEHIND until the projection reaches it. */
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
  nats.serve(subjects.facts.activity, (q) => projections.activity(q));
  // chain-reader reads the finalized block first and pins every read to its number.
  nats.serve(subjects.facts.verify, async (q, ctx) => {
    const read = await chain.factAt(q.factKey, ctx.requestId);
    const canonical = await projections.canonical(q.factKey);
    return {
      factKey: q.factKey, source: 'chain' as const, blockNumber: read.blockNumber, blockHash: read.blockHash,
      chain: read.state, projection: canonical, matches: sameFact(read.state, canonical),
    };
  });
  nats.serve(subjects.facts.protocol, async (_q, ctx) => {
    const contract = await nats.request(subjects.chain.contract, {}, { requestId: ctx.requestId }).catch(() => null);
    const m = await projections.meta();
    return {
      chainId: contract?.chainId ?? null,
      registryAddress: contract?.address ?? null,
      outcomes: [...OUTCOMES],
      eventKinds: [...ACTIVITY_KINDS],
      indexer: {
        headBlock: m.headBlock, finalizedBlock: m.finalizedBlock, indexedBlock: m.indexedBlock, lagBlocks: m.lagBlocks, writer: writer.isWriter,
        // A halt is the whole indexer's (whoever takes the lease halts too), so every replica reports it from the cursor.
        state: m.haltReason === null ? writer.state : 'halted', halted: m.haltReason,
      },
    };
  });
}
