import { REGISTRY_EVENTS, RESOLUTION_KINDS } from '@lineage/vocabulary';
import { z } from '../zod';
import { ActivityKind, Address, DecimalId, FactStatus, Hash32, Outcome, QueryBoolean, Timestamp, Cursor, Limit, page } from '../common';

export const FactView = z
  .object({
    outcome: Outcome,
    status: FactStatus,
    assertionId: DecimalId,
    resolutionId: DecimalId.nullable(),
    manifestHash: Hash32,
    blockNumber: DecimalId,
    blockHash: Hash32,
    updatedAt: Timestamp,
  })
  .openapi('FactView');

/** canonical: as of the finalized block; latest: as of the newest indexed block. Always both fields. */
export const Fact = z
  .object({
    factKey: DecimalId,
    templateId: DecimalId,
    subjectHash: Hash32,
    canonical: FactView.nullable(),
    latest: FactView.nullable(),
    fresh: z.boolean(),
  })
  .openapi('Fact');
export type Fact = z.infer<typeof Fact>;

/** Lag shared by every indexer view: chain head − indexed block; null when unknown (nothing seen yet, the node's head below the indexed block, or the writer halted). */
const LagBlocks = DecimalId.nullable().openapi({
  description:
    'Chain head minus the indexed block; null when unknown: nothing indexed or seen yet, the head below the indexed block (a lagging node or another chain), or the writer halted.',
});

export const IndexerMeta = z
  .object({
    indexedBlock: DecimalId.nullable(),
    finalizedBlock: DecimalId.nullable(),
    lagBlocks: LagBlocks,
    /** The writer halted: the projection stopped at indexedBlock and may not describe the chain now (GET /protocol says why). Defaulted so a reply from an older replica still parses. */
    halted: z.boolean().default(false).openapi({
      description:
        'True when the writer halted: the projection stopped at indexedBlock and may not describe the chain now; GET /protocol gives the reason.',
    }),
  })
  .openapi('IndexerMeta');

export const FactKeyParams = z.strictObject({ factKey: DecimalId });
/** Where a fact read comes from: the indexer's projection (default), or the chain itself (`docs/facts.md`, Reading the chain). */
export const FactSource = z.enum(['projection', 'chain']);
export const FactGetQuery = z.strictObject({
  source: FactSource.default('projection'),
  minBlock: DecimalId.optional(),
});
export const FactResponse = z.object({ fact: Fact, meta: IndexerMeta }).openapi('FactResponse');

export const ChainFactState = z.object({
  exists: z.boolean(),
  outcome: Outcome.nullable(),
  status: FactStatus.nullable(),
  assertionId: DecimalId.nullable(),
  resolutionId: DecimalId.nullable(),
  manifestHash: Hash32.nullable(),
});
/** Which block a direct chain read is pinned at: the chain's finalized block (default) or its head. */
export const ChainReadAt = z.enum(['finalized', 'latest']);
/** The block a direct read was pinned at. */
export const ChainReadBlock = z.object({ blockNumber: DecimalId, blockHash: Hash32 }).openapi('ChainReadBlock');
/** One side of the comparison: the projection's view and whether the chain's read agrees with it. */
export const ChainFactComparison = z
  .object({
    /** The projection's view of the same kind (canonical, or latest). */
    projection: FactView.nullable(),
    /** Both say the fact does not exist, or both agree on outcome, status, assertion id, resolution id and manifest hash. */
    matches: z.boolean(),
  })
  .openapi('ChainFactComparison');

/**
 * `GET /facts/{factKey}?source=chain`: the fact read from the chain itself, as `canonical` (at the chain's finalized
 * block) and `latest` (at its head block) in the FactView shape (their `blockNumber`, `blockHash` and `updatedAt` are
 * those of the block the read was pinned at), compared with the projection's views of the same names. The first
 * version's fields (`blockNumber`, `blockHash`, `chain`, `projection`, `matches`: the finalized read) are kept.
 */
export const ChainFactResponse = z
  .object({
    factKey: DecimalId,
    source: z.literal('chain'),
    canonical: FactView.nullable().openapi({
      description: "The chain's getFact at its finalized block; null when the fact does not exist there.",
    }),
    latest: FactView.nullable().openapi({ description: "The chain's getFact at its head block; null when the fact does not exist there." }),
    readAt: z.object({ canonical: ChainReadBlock, latest: ChainReadBlock }),
    comparison: z.object({ canonical: ChainFactComparison, latest: ChainFactComparison }),
    /** The projection's position: a `latest` mismatch while `meta.indexedBlock` is below `readAt.latest` may be indexing lag. */
    meta: IndexerMeta,
    /** The finalized read's block (= readAt.canonical); kept from the first version. */
    blockNumber: DecimalId,
    blockHash: Hash32,
    /** The finalized read as the contract reports it; kept from the first version. */
    chain: ChainFactState,
    /** = comparison.canonical.projection; kept from the first version. */
    projection: FactView.nullable(),
    /** = comparison.canonical.matches; kept from the first version. */
    matches: z.boolean(),
  })
  .openapi('ChainFactResponse');

export const FactListQuery = z.strictObject({
  /** `chain`: the same page (filters and cursors alike) with each fact read from the chain at its finalized block. */
  source: FactSource.default('projection'),
  outcome: Outcome.optional(),
  fresh: QueryBoolean.optional(),
  limit: Limit,
  cursor: Cursor.optional(),
  minBlock: DecimalId.optional(),
});
export const FactList = page(Fact).extend({ meta: IndexerMeta }).openapi('FactList');

/** One fact of `GET /facts?source=chain`: the chain's read at its finalized block beside the projection's canonical view. */
export const ChainFactListItem = z
  .object({
    factKey: DecimalId,
    /** The finalized block the read was pinned at. */
    blockNumber: DecimalId,
    blockHash: Hash32,
    /** The chain's getFact at that block, in the FactView shape; null when the fact does not exist there. */
    canonical: FactView.nullable(),
    /** The projection's canonical view. */
    projection: FactView.nullable(),
    matches: z.boolean(),
  })
  .openapi('ChainFactListItem');
/** The page of the projection's facts (same filters, same cursors), each read from the chain. */
export const ChainFactList = page(ChainFactListItem)
  .extend({ source: z.literal('chain'), meta: IndexerMeta })
  .openapi('ChainFactList');

export const Resolution = z
  .object({
    resolutionId: DecimalId,
    factKey: DecimalId,
    assertionId: DecimalId,
    outcome: Outcome,
    method: z.enum(RESOLUTION_KINDS),
    canonical: FactView.nullable(),
    latest: FactView.nullable(),
    blockNumber: DecimalId,
    txHash: Hash32,
    resolvedAt: Timestamp,
  })
  .openapi('Resolution');
export const ResolutionParams = z.strictObject({ resolutionId: DecimalId });
/** `minBlock`: answer 409 INDEXER_BEHIND until the projection has indexed this block (read your own write). */
export const ResolutionQuery = z.strictObject({ minBlock: DecimalId.optional() });
export const ResolutionResponse = z.object({ resolution: Resolution, meta: IndexerMeta }).openapi('ResolutionResponse');

export const Policy = z
  .object({
    policyId: DecimalId,
    /** bytes32 family; policies are versioned within a family and never edited. */
    family: Hash32,
    version: DecimalId,
    livenessSeconds: DecimalId,
    bondWei: DecimalId,
    resolver: Address,
    freshnessSeconds: DecimalId,
    createdAt: Timestamp,
    blockNumber: DecimalId,
  })
  .openapi('Policy');
export const Template = z
  .object({
    templateId: DecimalId,
    /** the text's `name:` prefix (e.g. `lineage/v1`), if it has one */ name: z.string().nullable(),
    text: z.string(),
    textHash: Hash32,
    createdAt: Timestamp,
    blockNumber: DecimalId,
  })
  .openapi('Template');
export const ListQuery = z.strictObject({ limit: Limit, cursor: Cursor.optional() });
export const PolicyList = page(Policy).extend({ meta: IndexerMeta }).openapi('PolicyList');
export const TemplateList = page(Template).extend({ meta: IndexerMeta }).openapi('TemplateList');

export const ActivityItem = z
  .object({
    id: DecimalId,
    kind: ActivityKind,
    factKey: DecimalId.nullable(),
    assertionId: DecimalId.nullable(),
    resolutionId: DecimalId.nullable(),
    policyId: DecimalId.nullable(),
    templateId: DecimalId.nullable(),
    actor: Address.nullable(),
    blockNumber: DecimalId,
    blockHash: Hash32,
    txHash: Hash32,
    logIndex: DecimalId,
    finalized: z.boolean(),
    timestamp: Timestamp,
  })
  .openapi('ActivityItem');
export const ActivityQuery = z.strictObject({ kind: ActivityKind.optional(), limit: Limit, cursor: Cursor.optional() });
export const ActivityList = page(ActivityItem).extend({ meta: IndexerMeta }).openapi('ActivityList');

export const Protocol = z
  .object({
    chainId: DecimalId.nullable(),
    registryAddress: Address.nullable(),
    outcomes: z.array(Outcome),
    eventKinds: z.array(ActivityKind),
    indexer: z.object({
      headBlock: DecimalId.nullable(),
      finalizedBlock: DecimalId.nullable(),
      indexedBlock: DecimalId.nullable(),
      lagBlocks: LagBlocks,
      /** Whether the replica that answered holds the writer lease. */
      writer: z.boolean(),
      /**
       * standby: another replica writes; idle: no registry configured, or waiting for the node to reach the registry's deployment block;
       * halted (reported by every replica): the writer stopped rather than guess (a reorg below finality, or a different chain than the one indexed).
       */
      state: z.enum(['standby', 'idle', 'backfilling', 'following', 'halted']),
      /** Why the writer halted (what differs, and the way out); null when it is not halted. Defaulted so a reply from an older replica still parses. */
      halted: z.string().nullable().default(null).openapi({
        description:
          'Why the writer halted (what differs from the chain indexed, and the way out: reset the projection); null when it is not halted.',
      }),
    }),
  })
  .openapi('Protocol');

export const ChainContract = z
  .object({
    name: z.string(),
    chainId: DecimalId.nullable(),
    address: Address.nullable(),
    deployedBlock: DecimalId.nullable(),
    capabilities: z.array(z.string()),
    eip712Domain: z.object({ name: z.string(), version: z.string(), chainId: DecimalId, verifyingContract: Address }).nullable(),
    status: z.enum(['live', 'unconfigured', 'unreachable']),
  })
  .openapi('ChainContract');

// ---- chain-reader → fact-indexer (internal; not public routes) ----

export const RegistryEventName = z.enum(REGISTRY_EVENTS);

export const BlockRange = z
  .object({ fromBlock: DecimalId, toBlock: DecimalId })
  .refine((r) => BigInt(r.fromBlock) <= BigInt(r.toBlock), { message: 'range_reversed', path: ['toBlock'] });

export const ChainBlockHeader = z.object({ number: DecimalId, hash: Hash32, parentHash: Hash32, timestamp: Timestamp });
export type ChainBlockHeader = z.infer<typeof ChainBlockHeader>;

/** One decoded registry event; every integer argument is a decimal string, bytes are lower-case hex. */
export const ChainEvent = z.object({
  name: RegistryEventName,
  blockNumber: DecimalId,
  blockHash: Hash32,
  blockTimestamp: Timestamp,
  txHash: Hash32,
  logIndex: z.number().int().nonnegative(),
  args: z.record(z.string(), z.union([z.string().max(8192), z.boolean()])),
});
export type ChainEvent = z.infer<typeof ChainEvent>;

/** A logs request may resume inside `fromBlock` at `fromLogIndex` (a block too large for one reply). */
export const ChainLogsRequest = BlockRange.and(z.object({ fromLogIndex: z.number().int().nonnegative().optional() }));
/**
 * `toBlock` is the last block covered; it can be below the requested one (range
 * split or reply size cap). When `nextLogIndex` is set, `toBlock` is covered
 * only up to that log index: ask again from there.
 */
export const ChainLogsResponse = z.object({
  fromBlock: DecimalId,
  toBlock: DecimalId,
  nextLogIndex: z.number().int().nonnegative().nullable(),
  events: z.array(ChainEvent),
});
export const MAX_HEADERS_PER_REQUEST = 200;
export const ChainBlocksResponse = z.object({ blocks: z.array(ChainBlockHeader).max(MAX_HEADERS_PER_REQUEST) });
