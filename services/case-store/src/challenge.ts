// POST /cases/{id}/challenge-preparation: the EIP-712 typed data a challenger's wallet
// signs and anyone may relay to the registry's challengeWithSig. Nothing is signed here.
import { subjects, type casesApi } from '@lineage/schemas';
import { ApiError, type HandlerContext, type Nats } from '@lineage/service-kit';
import {
  buildChallengeTypedData,
  challengeDeadline,
  challengeDigest,
  challengeTypedDataToJson,
  rationaleHashOf,
  ZERO_BYTES32,
} from '@lineage/registry';
import type { z } from 'zod';
import type { CaseRow } from './store';
import type { CaseFacts } from './facts';

type Request = z.output<typeof casesApi.ChallengePreparationRequest>;
type Response = z.input<typeof casesApi.ChallengePreparationResponse>;

const chainDown = () => new ApiError('CHAIN_UNAVAILABLE', 'The registry is not available to prepare a challenge.');

/** Errors of the chain side (chain-reader or the node behind it) become CHAIN_UNAVAILABLE. */
async function fromChain<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError && ['SERVICE_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'CHAIN_UNAVAILABLE'].includes(err.code)) throw chainDown();
    throw err;
  }
}

export interface ChallengeInputs {
  domain: { name: string; version: string; chainId: string; verifyingContract: string };
  factKey: string;
  caseId: string;
  manifestHash: string;
  evidenceDigest?: string;
  rationale: string;
  challenger: string;
  nonce: string;
  deadline: bigint;
}

/** Pure part: decimal strings become bigints inside buildChallengeTypedData, before viem hashes anything. */
export function prepareTypedData(i: ChallengeInputs): Response {
  const typed = buildChallengeTypedData({
    domain: i.domain,
    message: {
      factKey: i.factKey,
      caseId: i.caseId,
      manifestHash: i.manifestHash,
      evidenceDigest: i.evidenceDigest ?? ZERO_BYTES32,
      rationaleHash: rationaleHashOf(i.rationale),
      challenger: i.challenger,
      nonce: i.nonce,
      deadline: i.deadline,
    },
  });
  const json = challengeTypedDataToJson(typed);
  return {
    typedData: { ...json, types: Object.fromEntries(Object.entries(json.types).map(([k, fields]) => [k, fields.map((f) => ({ ...f }))])) },
    digest: challengeDigest(typed),
    relay: { contract: typed.domain.verifyingContract, function: 'challengeWithSig' },
  };
}

export class ChallengePreparer {
  constructor(
    private readonly nats: () => Nats,
    private readonly facts: CaseFacts,
    private readonly ttlSeconds: number,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  async prepare(row: CaseRow, body: Request, ctx: HandlerContext): Promise<Response> {
    const factKey = this.facts.factKey(row);
    if (factKey === null) throw new ApiError('FACT_NOT_CHALLENGEABLE', 'This case has no fact on the registry to challenge.');
    const opts = { requestId: ctx.requestId };
    const [contract, nonce, manifestHash] = await Promise.all([
      fromChain(this.nats().request(subjects.chain.contract, {}, opts)),
      fromChain(this.nats().request(subjects.chain.nonce, { address: body.challenger }, opts)),
      this.openAssertion(factKey, ctx),
    ]);
    if (contract.status !== 'live' || contract.eip712Domain === null) throw chainDown();
    return prepareTypedData({
      domain: contract.eip712Domain,
      factKey,
      caseId: String(row.id),
      manifestHash,
      evidenceDigest: body.evidenceDigest,
      rationale: body.rationale,
      challenger: body.challenger,
      nonce: nonce.nonce,
      deadline: challengeDeadline(BigInt(this.now()), BigInt(this.ttlSeconds)),
    });
  }

  /**
   * The manifestHash of the fact's current assertion, which the registry requires the
   * signature to name. The indexer's latest view first; if it does not know the fact
   * (or is down), a direct read at the finalized block through chain-reader.
   */
  private async openAssertion(factKey: string, ctx: HandlerContext): Promise<string> {
    const notChallengeable = (why: string) => new ApiError('FACT_NOT_CHALLENGEABLE', why);
    const indexed = await this.facts.fact(factKey, ctx, { authoritative: true });
    if (indexed?.latest) {
      if (indexed.latest.status !== 'ASSERTED') throw notChallengeable("The fact's current assertion is no longer open to challenge.");
      return indexed.latest.manifestHash;
    }
    const chain = await fromChain(this.nats().request(subjects.chain.factAt, { factKey }, { requestId: ctx.requestId }));
    if (!chain.state.exists || chain.state.manifestHash === null)
      throw notChallengeable('The fact of this case has no assertion to challenge.');
    if (chain.state.status !== 'ASSERTED') throw notChallengeable("The fact's current assertion is no longer open to challenge.");
    return chain.state.manifestHash;
  }
}
