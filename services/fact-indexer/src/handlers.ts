import { ACTIVITY_KINDS, OUTCOMES, subjects, type factsApi, type z } from '@lineage/schemas';
import { ApiError, type Nats } from '@lineage/service-kit';
import type { Projections } from './projections';
import type { ChainSource } from './chain-source';
import type { IndexerState } from './indexer';

export interface WriterStatus {
  readonly isWriter: boolean;
  readonly state: IndexerState;
  /** why it halted, set with `state` (null unless halted) */
  readonly haltReason: string | null;
}

type FactListQuery = z.output<typeof factsApi.FactListQuery>;
type ChainRead = Awaited<ReturnType<ChainSource['factAt']>>;
type ChainState = ChainRead['state'];
type View = Awaited<ReturnType<Projections['canonical']>>;

/** Chain reads of one `GET /facts?source=chain` page in flight at once (a page holds at most 100 facts). */
export const CHAIN_READS_AT_ONCE = 5;

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

/**
 * A chain read in the FactView shape the projection uses. The contract does not say when a fact last changed, so
 * `blockNumber`, `blockHash` and `updatedAt` are those of the block the read was pinned at; null when no fact.
 */
export function chainView(read: ChainRead): View {
  const s = read.state;
  if (!s.exists) return null;
  if (s.outcome === null || s.status === null || s.assertionId === null || s.manifestHash === null || read.blockTimestamp === undefined) {
    throw new Error('chain read of an existing fact lacks a field');
  }
  return {
    outcome: s.outcome,
    status: s.status,
    assertionId: s.assertionId,
    resolutionId: s.resolutionId,
    manifestHash: s.manifestHash,
    blockNumber: read.blockNumber,
    blockHash: read.blockHash,
    updatedAt: read.blockTimestamp,
  };
}

/** getFact pinned at `at`. A chain-reader older than this service ignores `at` (or sends no block time): refuse rather than mislabel. */
async function readChain(chain: ChainSource, factKey: string, requestId: string, at: 'finalized' | 'latest'): Promise<ChainRead> {
  const read = await chain.factAt(factKey, requestId, at);
  if (read.at !== at || read.blockTimestamp === undefined)
    throw new ApiError('CHAIN_UNAVAILABLE', 'The chain reader cannot answer this read yet; retry shortly.');
  return read;
}

/** `fn` over `items`, at most `limit` at a time, results in order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
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
  const fact = async (q: { factKey: string; minBlock?: string }) => {
    await requireBlock(q.minBlock);
    return projections.fact(q.factKey);
  };
  const facts = async (q: FactListQuery) => {
    await requireBlock(q.minBlock);
    return projections.facts(q);
  };
  nats.serve(subjects.facts.get, fact);
  nats.serve(subjects.facts.list, facts);
  nats.serve(subjects.facts.resolution, async (q) => {
    await requireBlock(q.minBlock);
    return projections.resolution(q.resolutionId);
  });
  nats.serve(subjects.facts.policies, (q) => projections.policies(q));
  nats.serve(subjects.facts.templates, (q) => projections.templates(q));
  nats.serve(subjects.facts.activity, (q) => projections.activity(q));
  // chain-reader reads the block first (finalized, or the head) and pins every read to its number.
  const verify = async (q: { factKey: string }, ctx: { requestId: string }) => {
    const [fin, head, ours] = await Promise.all([
      readChain(chain, q.factKey, ctx.requestId, 'finalized'),
      readChain(chain, q.factKey, ctx.requestId, 'latest'),
      projections.views(q.factKey),
    ]);
    const canonical = { projection: ours.canonical, matches: sameFact(fin.state, ours.canonical) };
    const latest = { projection: ours.latest, matches: sameFact(head.state, ours.latest) };
    return {
      factKey: q.factKey,
      source: 'chain' as const,
      canonical: chainView(fin),
      latest: chainView(head),
      readAt: {
        canonical: { blockNumber: fin.blockNumber, blockHash: fin.blockHash },
        latest: { blockNumber: head.blockNumber, blockHash: head.blockHash },
      },
      comparison: { canonical, latest },
      meta: ours.meta,
      // The first version's fields: the finalized read and its comparison.
      blockNumber: fin.blockNumber,
      blockHash: fin.blockHash,
      chain: fin.state,
      projection: ours.canonical,
      matches: canonical.matches,
    };
  };
  // The projection's page (same filters and cursors as `facts.list`), each fact read from the chain at its finalized block.
  const verifyList = async (q: FactListQuery, ctx: { requestId: string }) => {
    await requireBlock(q.minBlock);
    const page = await projections.facts(q);
    const items = await mapLimited(page.items, CHAIN_READS_AT_ONCE, async (f) => {
      const read = await readChain(chain, f.factKey, ctx.requestId, 'finalized');
      return {
        factKey: f.factKey,
        blockNumber: read.blockNumber,
        blockHash: read.blockHash,
        canonical: chainView(read),
        projection: f.canonical,
        matches: sameFact(read.state, f.canonical),
      };
    });
    return { source: 'chain' as const, items, nextCursor: page.nextCursor, meta: page.meta };
  };
  // The public routes: `source` picks the projection or direct chain reads.
  nats.serve(subjects.facts.read, (q, ctx) => (q.source === 'chain' ? verify(q, ctx) : fact(q)));
  nats.serve(subjects.facts.readList, (q, ctx) => (q.source === 'chain' ? verifyList(q, ctx) : facts(q)));
  nats.serve(subjects.facts.verify, verify);
  nats.serve(subjects.facts.verifyList, verifyList);
  nats.serve(subjects.facts.protocol, async (_q, ctx) => {
    const contract = await nats.request(subjects.chain.contract, {}, { requestId: ctx.requestId }).catch(() => null);
    const m = await projections.meta();
    // The writer marks itself halted inside the transaction that stores the reason, so for a moment its state is
    // 'halted' before the stored reason is visible: report its own reason then, never a halt without one.
    const haltReason = m.haltReason ?? (writer.state === 'halted' ? writer.haltReason : null);
    return {
      chainId: contract?.chainId ?? null,
      registryAddress: contract?.address ?? null,
      outcomes: [...OUTCOMES],
      eventKinds: [...ACTIVITY_KINDS],
      indexer: {
        headBlock: m.headBlock,
        finalizedBlock: m.finalizedBlock,
        indexedBlock: m.indexedBlock,
        lagBlocks: m.lagBlocks,
        writer: writer.isWriter,
        // A halt is the whole indexer's (whoever takes the lease halts too), so every replica reports it from the cursor.
        state: haltReason === null ? writer.state : 'halted',
        halted: haltReason,
      },
    };
  });
}
