import { getAddress, type Address, type PublicClient } from 'viem';
import { registryAbi } from './generated/LineageRegistry';
import type { ChallengeDomain } from './eip712';

/**
 * Reads the registry's EIP-712 domain through eip712Domain() (EIP-5267) and
 * keeps only the fields it declares (0x0f: name, version, chainId,
 * verifyingContract). viem's getEip712Domain also returns the zero `salt`;
 * passing that domain to hashTypedData adds a salt field to EIP712Domain and
 * yields a digest the contract does not verify.
 */
export async function readRegistryDomain(publicClient: PublicClient, address: Address, blockNumber?: bigint): Promise<ChallengeDomain> {
  const [fields, name, version, chainId, verifyingContract, , extensions] = await publicClient.readContract({
    address,
    abi: registryAbi,
    functionName: 'eip712Domain',
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
  if (fields !== '0x0f' || extensions.length > 0) throw new Error(`unexpected EIP-712 domain fields ${fields}`);
  return { name, version, chainId, verifyingContract: getAddress(verifyingContract) };
}
