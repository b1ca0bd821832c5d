// Every request/reply subject between services, with the schema of its request
// and of its successful reply. Both ends validate against these same objects.
import { z } from './zod';
import { WireError } from './errors';
import { Address, DecimalId, Hash32, Timestamp } from './common';
import * as A from './api/analysis';
import * as C from './api/cases';
import * as F from './api/facts';
import * as Fr from './api/fragment';

export interface SubjectDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  subject: string;
  /** The queue group that serves it: the owning service's name. */
  queue: string;
  request: Req;
  response: Res;
}

const def = <Req extends z.ZodType, Res extends z.ZodType>(
  subject: string,
  queue: string,
  request: Req,
  response: Res,
): SubjectDef<Req, Res> => ({
  subject,
  queue,
  request,
  response,
});

/** A caller's credential as the gateway saw it: hashed, never the raw key. */
const Caller = z.object({
  apiKeyHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
});
export type Caller = z.infer<typeof Caller>;

export const subjects = {
  analysis: {
    validate: def('lineage.analysis.validate', 'analysis-pipeline', A.ValidateRequest, A.ValidateResponse),
    create: def(
      'lineage.analysis.create',
      'analysis-pipeline',
      z.object({ body: A.CreateAnalysisRequest, idempotencyKey: z.string().max(128).nullable(), caller: Caller }),
      A.CreateAnalysisResponse,
    ),
    get: def('lineage.analysis.get', 'analysis-pipeline', A.AnalysisIdParams, z.object({ analysis: A.Analysis })),
    cancel: def(
      'lineage.analysis.cancel',
      'analysis-pipeline',
      z.object({ id: DecimalId, bearer: z.string().max(512).nullable(), caller: Caller }),
      A.CancelResponse,
    ),
    manifest: def(
      'lineage.analysis.manifest',
      'analysis-pipeline',
      // Manifests can outgrow one NATS message: callers read it in chunks from `offset`.
      A.AnalysisIdParams.extend({ offset: z.number().int().nonnegative().default(0) }),
      // Bytes exactly as hashed, base64 so NATS JSON does not re-serialise them.
      z.object({
        manifestHash: Hash32,
        totalBytes: z.number().int().nonnegative(),
        offset: z.number().int().nonnegative(),
        bytesBase64: z.string(),
      }),
    ),
    /** Lines of one file at one side's pinned commit, from the pipeline's repository cache (the case page's side-by-side view). */
    fragment: def('lineage.analysis.fragment', 'analysis-pipeline', Fr.FragmentRequest, Fr.FragmentResponse),
  },
  cases: {
    list: def('lineage.cases.list', 'case-store', C.CaseListQuery, C.CaseList),
    get: def('lineage.cases.get', 'case-store', C.CaseIdParams, C.CaseResponse),
    evidence: def('lineage.cases.evidence', 'case-store', C.CaseIdParams.extend(C.EvidenceQuery.shape), C.EvidencePage),
    challengePrepare: def(
      'lineage.cases.challenge-prepare',
      'case-store',
      z.object({ id: DecimalId, body: C.ChallengePreparationRequest }),
      C.ChallengePreparationResponse,
    ),
    search: def('lineage.cases.search', 'case-store', C.SearchQuery, C.SearchResults),
  },
  // The chain's shapes first: the projection's objects are not strict, so they would also accept a chain reply
  // (an empty page, say) and strip its `source`.
  facts: {
    /** `GET /facts/{factKey}`: the projection's view, or with `source=chain` direct reads compared with it. */
    read: def(
      'lineage.facts.read',
      'fact-indexer',
      F.FactKeyParams.extend(F.FactGetQuery.shape),
      z.union([F.ChainFactResponse, F.FactResponse]),
    ),
    /** `GET /facts`: the projection's page, or with `source=chain` each fact read from the chain at its finalized block. */
    readList: def('lineage.facts.read-list', 'fact-indexer', F.FactListQuery, z.union([F.ChainFactList, F.FactList])),
    get: def('lineage.facts.get', 'fact-indexer', F.FactKeyParams.extend({ minBlock: DecimalId.optional() }), F.FactResponse),
    list: def('lineage.facts.list', 'fact-indexer', F.FactListQuery, F.FactList),
    // Served for gateways older than `read`/`readList` during a rolling upgrade; nothing in this version sends them.
    verify: def('lineage.facts.verify', 'fact-indexer', F.FactKeyParams, F.ChainFactResponse),
    verifyList: def('lineage.facts.verify-list', 'fact-indexer', F.FactListQuery, F.ChainFactList),
    resolution: def(
      'lineage.facts.resolution',
      'fact-indexer',
      F.ResolutionParams.extend({ minBlock: DecimalId.optional() }),
      F.ResolutionResponse,
    ),
    policies: def('lineage.facts.policies', 'fact-indexer', F.ListQuery, F.PolicyList),
    templates: def('lineage.facts.templates', 'fact-indexer', F.ListQuery, F.TemplateList),
    activity: def('lineage.facts.activity', 'fact-indexer', F.ActivityQuery, F.ActivityList),
    protocol: def('lineage.facts.protocol', 'fact-indexer', z.object({}), F.Protocol),
  },
  chain: {
    contract: def('lineage.chain.contract', 'chain-reader', z.object({}), F.ChainContract),
    heads: def(
      'lineage.chain.heads',
      'chain-reader',
      z.object({}),
      z.object({
        latest: z.object({ number: DecimalId, hash: Hash32, timestamp: Timestamp }),
        finalized: z.object({ number: DecimalId, hash: Hash32, timestamp: Timestamp }),
      }),
    ),
    /** Decoded registry events of a block range, paged so a reply stays well under NATS's 1 MiB. */
    logs: def('lineage.chain.logs', 'chain-reader', F.ChainLogsRequest, F.ChainLogsResponse),
    /** Block headers (number, hash, parent hash, timestamp) of a range of at most MAX_HEADERS_PER_REQUEST blocks; stops at the head. */
    blocks: def(
      'lineage.chain.blocks',
      'chain-reader',
      F.BlockRange.refine((r) => BigInt(r.toBlock) - BigInt(r.fromBlock) < BigInt(F.MAX_HEADERS_PER_REQUEST), {
        message: 'range_too_large',
        path: ['toBlock'],
      }),
      F.ChainBlocksResponse,
    ),
    nonce: def(
      'lineage.chain.nonce',
      'chain-reader',
      z.object({ address: Address }),
      z.object({ nonce: DecimalId, blockNumber: DecimalId }),
    ),
    /**
     * getFact pinned to one block: the finalized one (default) or the head (`at: 'latest'`). The block is read first,
     * then the call is made at its number. `at` is echoed (an older reader, which ignores it, answers for the
     * finalized block and its reply parses as such); `blockTimestamp` is the pinned block's.
     */
    factAt: def(
      'lineage.chain.fact-at',
      'chain-reader',
      z.object({ factKey: DecimalId, at: F.ChainReadAt.default('finalized') }),
      z.object({
        at: F.ChainReadAt.default('finalized'),
        blockNumber: DecimalId,
        blockHash: Hash32,
        blockTimestamp: Timestamp.optional(),
        state: F.ChainFactState,
      }),
    ),
  },
} as const;

/** The reply envelope on the wire: a result, or an error in the public vocabulary. */
export const replyEnvelope = <T extends z.ZodType>(result: T) =>
  z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), result }), z.object({ ok: z.literal(false), error: WireError })]);

/** Header that carries the request id across every NATS hop. */
export const REQUEST_ID_HEADER = 'x-request-id';
