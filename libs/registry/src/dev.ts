import type { Address, Hex } from 'viem';
import { devAccount } from './dev-accounts';
import { localClients } from './clients';
import { assertLineageFact, deployRegistry, registerLineageDefaults, type AssertedFact } from './deploy';
import type { Outcome } from './enums';
import type { LineagePair } from './subject';

export interface DevDeployment {
  address: Address;
  deployedBlock: bigint;
  chainId: number;
  templateId: bigint;
  policyId: bigint;
}

/**
 * Dev stack only: deploys with anvil's public development account 0 (the
 * owner), registers the lineage template and DEFAULT_DEV_POLICY.
 */
export async function deployDev(rpcUrl: string): Promise<DevDeployment> {
  const clients = localClients(rpcUrl, devAccount(0).privateKey);
  const deployed = await deployRegistry(clients);
  const defaults = await registerLineageDefaults({ ...clients, address: deployed.address });
  return {
    address: deployed.address,
    deployedBlock: deployed.deployedBlock,
    chainId: deployed.chainId,
    templateId: defaults.templateId,
    policyId: defaults.policyId,
  };
}

export interface AssertDevInput {
  rpcUrl: string;
  address: Address;
  pair: LineagePair;
  outcome: Outcome;
  manifestHash: Hex;
  templateId?: bigint | string;
  policyId?: bigint | string;
  /** Which public development account asserts; default 0. */
  accountIndex?: number;
}

/** Dev stack / demo only: asserts a lineage fact with a public development account. */
export function assertDev(input: AssertDevInput): Promise<AssertedFact> {
  const clients = localClients(input.rpcUrl, devAccount(input.accountIndex ?? 0).privateKey);
  return assertLineageFact({
    ...clients,
    address: input.address,
    pair: input.pair,
    outcome: input.outcome,
    manifestHash: input.manifestHash,
    templateId: input.templateId ?? 1n,
    policyId: input.policyId ?? 1n,
  });
}
