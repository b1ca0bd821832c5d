// Test support: a real anvil with a freshly deployed registry, clients for
// anvil's public development accounts, and helpers to write, read events and
// decode reverts. One chain per test file.
import {
  BaseError,
  ContractFunctionRevertedError,
  createTestClient,
  http,
  parseEventLogs,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type Hash,
  type PublicClient,
  type TestClient,
  type TransactionReceipt,
} from 'viem';
import { foundry } from 'viem/chains';
import {
  deployRegistry,
  devAccount,
  devAccounts,
  localClients,
  registerLineageDefaults,
  registryAbi,
  startAnvil,
  type AnvilHandle,
  type RegistryWalletClient,
} from '@lineage/registry';

/** Roles by dev-account index (public development keys). */
export const OWNER = 0;
export const RESOLVER = 1;
export const ASSERTER = 2;
export const CHALLENGER = 3;
export const RELAYER = 4;
export const STRANGER = 5;

type WriteName = ContractFunctionName<typeof registryAbi, 'nonpayable' | 'payable'>;
type WriteArgs<N extends WriteName> = ContractFunctionArgs<typeof registryAbi, 'nonpayable' | 'payable', N>;

export interface RegistryTestChain {
  anvil: AnvilHandle;
  publicClient: PublicClient;
  testClient: TestClient;
  wallets: RegistryWalletClient[];
  address: Address;
  deployTxHash: Hash;
  deployedBlock: bigint;
  templateId: bigint;
  policyId: bigint;
  addr(index: number): Address;
  /** Sends a transaction from dev account `who` and waits for a successful receipt. */
  write<N extends WriteName>(who: number, functionName: N, args: WriteArgs<N>, value?: bigint): Promise<TransactionReceipt>;
  /** Block timestamp of the latest block. */
  now(): Promise<bigint>;
  /** Makes the next block's timestamp exactly `timestamp` (estimates use it too). */
  nextTimestamp(timestamp: bigint): Promise<void>;
  stop(): Promise<void>;
}

export async function startRegistryChain(): Promise<RegistryTestChain> {
  const anvil = await startAnvil({ slotsInAnEpoch: 1 });
  try {
    const clients = devAccounts().map((a) => localClients(anvil.rpcUrl, a.privateKey));
    const first = clients[0]!;
    const publicClient = first.publicClient;
    const wallets = clients.map((c) => c.walletClient);
    const testClient = createTestClient({ mode: 'anvil', chain: foundry, transport: http(anvil.rpcUrl) }) as TestClient;
    const deployed = await deployRegistry(first);
    const defaults = await registerLineageDefaults({ ...first, address: deployed.address });
    const address = deployed.address;

    const write: RegistryTestChain['write'] = async (who, functionName, args, value) => {
      const wallet = wallets[who];
      if (!wallet) throw new RangeError(`no wallet ${who}`);
      const request = { address, abi: registryAbi, functionName, args, value, account: wallet.account, chain: foundry };
      const hash = await wallet.writeContract(request as unknown as Parameters<RegistryWalletClient['writeContract']>[0]);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`${functionName} reverted on chain`);
      return receipt;
    };

    return {
      anvil,
      publicClient,
      testClient,
      wallets,
      address,
      deployTxHash: deployed.txHash,
      deployedBlock: deployed.deployedBlock,
      templateId: defaults.templateId,
      policyId: defaults.policyId,
      addr: (index) => {
        return devAccount(index).address;
      },
      write,
      now: async () => (await publicClient.getBlock()).timestamp,
      nextTimestamp: (timestamp) => testClient.setNextBlockTimestamp({ timestamp }),
      stop: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

export interface DecodedEvent {
  eventName: string;
  args: Record<string, unknown>;
}

/** The registry events in a receipt, in log order. */
export function eventsOf(receipt: TransactionReceipt): DecodedEvent[] {
  return parseEventLogs({ abi: registryAbi, logs: receipt.logs }).map((log) => ({
    eventName: log.eventName,
    args: log.args as Record<string, unknown>,
  }));
}

export interface DecodedRevert {
  errorName: string;
  args: readonly unknown[];
}

/** Awaits a call that must revert and returns the decoded custom error. */
export async function revertOf(call: Promise<unknown>): Promise<DecodedRevert> {
  try {
    await call;
  } catch (error) {
    if (error instanceof BaseError) {
      const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
      if (reverted instanceof ContractFunctionRevertedError && reverted.data) {
        return { errorName: reverted.data.errorName, args: reverted.data.args ?? [] };
      }
    }
    throw error;
  }
  throw new Error('expected a revert, but the call succeeded');
}
