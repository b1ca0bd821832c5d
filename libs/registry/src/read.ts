import type { Address, BlockTag, Hex, PublicClient } from 'viem';
import { registryAbi } from './generated/LineageRegistry';
import { outcomeFromUint8, statusFromUint8, type AssertionStatus, type Outcome } from './enums';
import { toUint256, type BigIntish } from './bigints';

/** A fact as the contract reports it (getFact), with enums as strings. */
export interface ChainFact {
  assertionId: bigint;
  status: AssertionStatus;
  /** The resolved outcome once RESOLVED; the proposed one before. */
  outcome: Outcome;
  manifestHash: Hex;
  /** null until the current assertion is resolved. */
  resolutionId: bigint | null;
  policyId: bigint;
  /** Unix seconds; null until resolved. */
  resolvedAt: bigint | null;
}

export interface ReadFactInput {
  publicClient: PublicClient;
  address: Address;
  factKey: BigIntish;
  /** Read at this block (e.g. the finalized one); default the latest. */
  blockNumber?: bigint;
  blockTag?: BlockTag;
}

/** Reads getFact(factKey); null when the fact was never asserted. */
export async function readFact(input: ReadFactInput): Promise<ChainFact | null> {
  const view = await input.publicClient.readContract({
    address: input.address,
    abi: registryAbi,
    functionName: 'getFact',
    args: [toUint256(input.factKey, 'factKey')],
    ...(input.blockNumber !== undefined ? { blockNumber: input.blockNumber } : input.blockTag ? { blockTag: input.blockTag } : {}),
  });
  if (view.assertionId === 0n) return null;
  const status = statusFromUint8(view.status);
  const outcome = outcomeFromUint8(view.outcome);
  if (!status || !outcome) throw new Error('registry returned an assertion without status or outcome');
  return {
    assertionId: view.assertionId,
    status,
    outcome,
    manifestHash: view.manifestHash,
    resolutionId: view.resolutionId === 0n ? null : view.resolutionId,
    policyId: view.policyId,
    resolvedAt: view.resolvedAt === 0n ? null : view.resolvedAt,
  };
}
