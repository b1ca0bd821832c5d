import { createPublicClient, http, type Address, type PublicClient } from 'viem';
import { ApiError } from '@lineage/service-kit';
import { readFact, readRegistryDomain, registryAbi } from '@lineage/registry';
import type { ChainReaderConfig } from './config';

export const REGISTRY_NAME = 'LineageRegistry';

/** Direct reads against the RPC endpoint; every failure of the node is CHAIN_UNAVAILABLE. */
export class Chain {
  readonly client: PublicClient | null;

  constructor(private readonly config: ChainReaderConfig) {
    this.client = config.RPC_URL
      ? createPublicClient({ transport: http(config.RPC_URL, { timeout: config.RPC_TIMEOUT_MS, retryCount: 2, retryDelay: 200 }) })
      : null;
  }

  get configured(): boolean {
    return this.client !== null && this.config.REGISTRY_ADDRESS !== undefined;
  }

  require(): PublicClient {
    if (!this.client) throw new ApiError('CHAIN_UNAVAILABLE', 'No chain is configured.');
    return this.client;
  }

  async guard<T>(fn: (c: PublicClient) => Promise<T>): Promise<T> {
    const c = this.require();
    try {
      return await fn(c);
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError('CHAIN_UNAVAILABLE', 'The chain did not answer.');
    }
  }

  async check(): Promise<{ ok: boolean; detail?: string }> {
    if (!this.client) return { ok: true, detail: 'unconfigured' };
    await this.client.getBlockNumber({ cacheTime: 0 });
    return { ok: true };
  }

  async contract() {
    const base = { name: REGISTRY_NAME, capabilities: [] as string[], eip712Domain: null };
    if (!this.configured) return { ...base, chainId: null, address: null, deployedBlock: null, status: 'unconfigured' as const };
    const address = this.config.REGISTRY_ADDRESS!;
    const deployedBlock = this.config.REGISTRY_DEPLOYED_BLOCK === undefined ? null : String(this.config.REGISTRY_DEPLOYED_BLOCK);
    try {
      const [chainId, code] = await Promise.all([this.client!.getChainId(), this.client!.getCode({ address: address as Address })]);
      const live = code !== undefined && code !== '0x';
      const domain = live ? await readRegistryDomain(this.client!, address as Address) : null;
      return {
        ...base,
        chainId: String(chainId),
        address,
        deployedBlock,
        capabilities: live ? ['templates', 'policies', 'assertFact', 'challenge', 'challengeWithSig', 'settle', 'resolve', 'eip712Domain'] : [],
        eip712Domain: domain && { name: domain.name, version: domain.version, chainId: String(domain.chainId), verifyingContract: domain.verifyingContract },
        status: live ? ('live' as const) : ('unreachable' as const),
      };
    } catch {
      return { ...base, chainId: this.config.CHAIN_ID === undefined ? null : String(this.config.CHAIN_ID), address, deployedBlock, status: 'unreachable' as const };
    }
  }

  private registry(): Address {
    if (!this.configured) throw new ApiError('CHAIN_UNAVAILABLE', 'No registry is configured.');
    return this.config.REGISTRY_ADDRESS as Address;
  }

  /** A challenger's next nonce, at the newest block (a signature must use the current one). */
  async nonce(address: string) {
    const registry = this.registry();
    return this.guard(async (c) => {
      const block = await c.getBlock({ blockTag: 'latest' });
      const nonce = await c.readContract({ address: registry, abi: registryAbi, functionName: 'nonces', args: [address as Address], blockNumber: block.number });
      return { nonce: String(nonce), blockNumber: String(block.number) };
    });
  }

  /** The fact as of the finalized block: the block is read first, then every read is pinned to its number. */
  async factAt(factKey: string) {
    const registry = this.registry();
    return this.guard(async (c) => {
      const block = await c.getBlock({ blockTag: 'finalized' });
      const fact = await readFact({ publicClient: c, address: registry, factKey: BigInt(factKey), blockNumber: block.number });
      return {
        blockNumber: String(block.number),
        blockHash: block.hash,
        state: fact
          ? {
              exists: true,
              outcome: fact.outcome,
              status: fact.status,
              assertionId: String(fact.assertionId),
              resolutionId: fact.resolutionId === null ? null : String(fact.resolutionId),
              manifestHash: fact.manifestHash,
            }
          : { exists: false, outcome: null, status: null, assertionId: null, resolutionId: null, manifestHash: null },
      };
    });
  }

  async heads() {
    return this.guard(async (c) => {
      const [latest, finalized] = await Promise.all([c.getBlock({ blockTag: 'latest' }), c.getBlock({ blockTag: 'finalized' })]);
      return {
        latest: { number: String(latest.number), hash: latest.hash },
        finalized: { number: String(finalized.number), hash: finalized.hash },
      };
    });
  }
}
