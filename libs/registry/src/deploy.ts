import {
  getAddress,
  parseEther,
  parseEventLogs,
  stringToHex,
  type Account,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
  type TransactionReceipt,
} from 'viem';
import { registryAbi, registryBytecode } from './generated/LineageRegistry';
import { devAccount } from './dev-accounts';
import { outcomeToUint8, type Outcome } from './enums';
import { lineageSubjectHash, factKeyOf, type LineagePair } from './subject';
import { toUint256, type BigIntish } from './bigints';

/** A wallet client that carries its account (a local key or a node-managed one). */
export type RegistryWalletClient = WalletClient<Transport, Chain | undefined, Account>;

export interface RegistryClients {
  walletClient: RegistryWalletClient;
  publicClient: PublicClient;
}

/** The lineage template's text (emitted once; the contract stores its keccak256). */
export const LINEAGE_TEMPLATE_TEXT =
  'lineage/v1: the target repository at targetCommit derives from the origin repository at originCommit. ' +
  'Outcome TRUE = it derives, FALSE = it does not, UNDETERMINED = the evidence does not decide. ' +
  'subjectHash = keccak256(abi.encode(string originUrl, bytes20 originCommit, string targetUrl, bytes20 targetCommit)); ' +
  'manifestHash = sha256 of the canonical (RFC 8785) evidence manifest.';

export interface PolicyInput {
  /** Family name (<= 32 bytes of UTF-8); each registration is the family's next version. */
  family: string;
  livenessSeconds: bigint;
  bondWei: bigint;
  resolver: Address;
  freshnessSeconds: bigint;
}

/** The dev stack's default policy: 1 h liveness, 0.01 ETH bond, dev account 1 resolves, 30 days fresh. */
export const DEFAULT_DEV_POLICY: PolicyInput = {
  family: 'lineage-default',
  livenessSeconds: 3600n,
  bondWei: parseEther('0.01'),
  resolver: devAccount(1).address,
  freshnessSeconds: 30n * 24n * 3600n,
};

/** A policy family name as the contract's bytes32 (UTF-8, right-padded). */
export function policyFamily(name: string): Hex {
  if (name.length === 0 || Buffer.byteLength(name, 'utf8') > 32) throw new RangeError('policy family must be 1..32 bytes');
  return stringToHex(name, { size: 32 });
}

async function confirmed(publicClient: PublicClient, hash: Hash): Promise<TransactionReceipt> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return receipt;
}

export interface DeployedRegistry {
  address: Address;
  deployedBlock: bigint;
  chainId: number;
  txHash: Hash;
}

/** Deploys LineageRegistry from the wallet client's account (which becomes its owner). */
export async function deployRegistry({ walletClient, publicClient }: RegistryClients): Promise<DeployedRegistry> {
  const txHash = await walletClient.deployContract({
    abi: registryAbi,
    bytecode: registryBytecode,
    account: walletClient.account,
    chain: walletClient.chain,
  });
  const receipt = await confirmed(publicClient, txHash);
  if (!receipt.contractAddress) throw new Error('deployment receipt has no contract address');
  return {
    address: getAddress(receipt.contractAddress),
    deployedBlock: receipt.blockNumber,
    chainId: await publicClient.getChainId(),
    txHash,
  };
}

export interface RegisteredDefaults {
  templateId: bigint;
  policyId: bigint;
}

/** Registers the lineage template and a policy (default: DEFAULT_DEV_POLICY); the wallet must be the owner. */
export async function registerLineageDefaults(
  clients: RegistryClients & { address: Address; policy?: PolicyInput },
): Promise<RegisteredDefaults> {
  const { walletClient, publicClient, address } = clients;
  const policy = clients.policy ?? DEFAULT_DEV_POLICY;
  const common = { address, abi: registryAbi, account: walletClient.account, chain: walletClient.chain } as const;

  const templateReceipt = await confirmed(
    publicClient,
    await walletClient.writeContract({ ...common, functionName: 'registerTemplate', args: [LINEAGE_TEMPLATE_TEXT] }),
  );
  const [templateEvent] = parseEventLogs({ abi: registryAbi, logs: templateReceipt.logs, eventName: 'TemplateRegistered' });
  if (!templateEvent) throw new Error('no TemplateRegistered event');

  const policyReceipt = await confirmed(
    publicClient,
    await walletClient.writeContract({
      ...common,
      functionName: 'registerPolicy',
      args: [policyFamily(policy.family), policy.livenessSeconds, policy.bondWei, policy.resolver, policy.freshnessSeconds],
    }),
  );
  const [policyEvent] = parseEventLogs({ abi: registryAbi, logs: policyReceipt.logs, eventName: 'PolicyRegistered' });
  if (!policyEvent) throw new Error('no PolicyRegistered event');

  return { templateId: templateEvent.args.templateId, policyId: policyEvent.args.policyId };
}

export interface AssertLineageInput {
  address: Address;
  pair: LineagePair;
  outcome: Outcome;
  manifestHash: Hex;
  templateId: BigIntish;
  policyId: BigIntish;
}

export interface AssertedFact {
  assertionId: bigint;
  factKey: bigint;
  subjectHash: Hex;
  expiresAt: bigint;
  txHash: Hash;
  blockNumber: bigint;
}

/** Asserts a lineage fact for a pinned pair, posting the policy's bond (the demo's `assert-dev`). */
export async function assertLineageFact(clients: RegistryClients & AssertLineageInput): Promise<AssertedFact> {
  const { walletClient, publicClient, address } = clients;
  const templateId = toUint256(clients.templateId, 'templateId');
  const policyId = toUint256(clients.policyId, 'policyId');
  const subjectHash = lineageSubjectHash(clients.pair);
  const policy = await publicClient.readContract({ address, abi: registryAbi, functionName: 'getPolicy', args: [policyId] });
  const txHash = await walletClient.writeContract({
    address,
    abi: registryAbi,
    account: walletClient.account,
    chain: walletClient.chain,
    functionName: 'assertFact',
    args: [templateId, subjectHash, outcomeToUint8(clients.outcome), clients.manifestHash, policyId],
    value: policy.bond,
  });
  const receipt = await confirmed(publicClient, txHash);
  const [event] = parseEventLogs({ abi: registryAbi, logs: receipt.logs, eventName: 'FactAsserted' });
  if (!event) throw new Error('no FactAsserted event');
  return {
    assertionId: event.args.assertionId,
    factKey: factKeyOf(templateId, subjectHash),
    subjectHash,
    expiresAt: event.args.expiresAt,
    txHash,
    blockNumber: receipt.blockNumber,
  };
}
