import { createPublicClient, createWalletClient, http, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import type { RegistryWalletClient } from './deploy';

/**
 * Public + wallet clients for a local anvil with a development key. Polls
 * fast because anvil mines each transaction at once.
 */
export function localClients(rpcUrl: string, privateKey: Hex): { publicClient: PublicClient; walletClient: RegistryWalletClient } {
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain: foundry, transport, pollingInterval: 50 });
  const walletClient = createWalletClient({ chain: foundry, transport, account: privateKeyToAccount(privateKey), pollingInterval: 50 });
  return { publicClient: publicClient as PublicClient, walletClient };
}
