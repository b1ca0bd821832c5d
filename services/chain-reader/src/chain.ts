import { BlockNotFoundError, createPublicClient, http, type Address, type Block, type PublicClient } from 'viem';
import { ApiError } from '@lineage/service-kit';
import { readFact, readRegistryDomain, registryAbi } from '@lineage/registry';
import type { factsApi } from '@lineage/schemas';
import type { ChainReaderConfig } from './config';
import { AdaptiveRange, ChainDown } from './ranges';
import { parseRegistryLogs, registryEvent } from './events';

const header = (b: Block): factsApi.ChainBlockHeader => ({
  number: b.number!.toString(),
  hash: b.hash!.toLowerCase(),
  parentHash: b.parentHash.toLowerCase(),
  timestamp: b.timestamp.toString(),
});

/** A block's header, or null when the node does not have it (beyond its head). */
const headerAt = (c: PublicClient, n: bigint): Promise<Block | null> =>
  c.getBlock({ blockNumber: n, includeTransactions: false }).catch((err: unknown) => {
    if (err instanceof BlockNotFoundError) return null;
    throw err;
  });

/**
 * Worth a narrower range: the node answered with a JSON-RPC error object (it
 * refused the range or the result size), HTTP 413, an answer too large to
 * accept, or took too long (a wide range on a busy node). A refused
 * connection is not: that is retried as is.
 */
function isRefusal(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const o = e as { code?: unknown; status?: unknown; name?: string };
    // Too slow for a wide range, or an answer larger than viem accepts (10 MiB): both call for a narrower one.
    if (o.name === 'TimeoutError' || o.name === 'ResponseBodyTooLargeError') return true;
    if (o.name === 'HttpRequestError' && o.status === undefined) return false;
    if (typeof o.code === 'number' && o.code < 0) return true;
    if (o.status === 413) return true;
  }
  return false;
}

export const REGISTRY_NAME = 'LineageRegistry';

/** Direct reads against the RPC endpoint; every failure of the node is CHAIN_UNAVAILABLE. */
export class Chain {
  readonly client: PublicClient | null;
  /** For the indexer's bulk reads: JSON-RPC batching on, our own retries (viem's off). */
  private readonly bulk: PublicClient | null;
  private readonly ranges: AdaptiveRange;

  constructor(private readonly config: ChainReaderConfig) {
    this.client = config.RPC_URL
      ? createPublicClient({ transport: http(config.RPC_URL, { timeout: config.RPC_TIMEOUT_MS, retryCount: 2, retryDelay: 200 }) })
      : null;
    this.bulk = config.RPC_URL
      ? createPublicClient({
          transport: http(config.RPC_URL, { timeout: config.RPC_TIMEOUT_MS, retryCount: 0, batch: { batchSize: 100, wait: 0 } }),
        })
      : null;
    this.ranges = new AdaptiveRange({
      maxSpan: BigInt(config.LOGS_MAX_BLOCK_RANGE),
      attempts: config.RPC_ATTEMPTS,
      backoffMs: config.RPC_BACKOFF_MS,
      isRefusal,
    });
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
        capabilities: live
          ? ['templates', 'policies', 'assertFact', 'challenge', 'challengeWithSig', 'settle', 'resolve', 'eip712Domain']
          : [],
        eip712Domain: domain && {
          name: domain.name,
          version: domain.version,
          chainId: String(domain.chainId),
          verifyingContract: domain.verifyingContract,
        },
        status: live ? ('live' as const) : ('unreachable' as const),
      };
    } catch {
      return {
        ...base,
        chainId: this.config.CHAIN_ID === undefined ? null : String(this.config.CHAIN_ID),
        address,
        deployedBlock,
        status: 'unreachable' as const,
      };
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
      // Lower case: viem refuses a mixed-case address whose EIP-55 checksum is wrong, and the API takes any case (the
      // typed data names the checksummed form). Without this, such a challenger was a 503 CHAIN_UNAVAILABLE.
      const nonce = await c.readContract({
        address: registry,
        abi: registryAbi,
        functionName: 'nonces',
        args: [address.toLowerCase() as Address],
        blockNumber: block.number,
      });
      return { nonce: String(nonce), blockNumber: String(block.number) };
    });
  }

  /**
   * The fact as of the finalized block (default) or the head block (`latest`): the block is read first, then every
   * read is pinned to its number, so the answer names exactly the block it describes.
   */
  async factAt(factKey: string, at: 'finalized' | 'latest' = 'finalized') {
    const registry = this.registry();
    return this.guard(async (c) => {
      const block = await c.getBlock({ blockTag: at });
      const fact = await readFact({ publicClient: c, address: registry, factKey: BigInt(factKey), blockNumber: block.number });
      return {
        at,
        blockNumber: String(block.number),
        blockHash: block.hash,
        blockTimestamp: String(block.timestamp),
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
        latest: { number: String(latest.number), hash: latest.hash, timestamp: String(latest.timestamp) },
        finalized: { number: String(finalized.number), hash: finalized.hash, timestamp: String(finalized.timestamp) },
      };
    });
  }

  /** Retries transient failures with backoff; a node that stays down is CHAIN_UNAVAILABLE. */
  private async retrying<T>(fn: (c: PublicClient) => Promise<T>): Promise<T> {
    const c = this.bulk;
    if (!c) throw new ApiError('CHAIN_UNAVAILABLE', 'No chain is configured.');
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn(c);
      } catch {
        if (attempt >= this.config.RPC_ATTEMPTS) throw new ApiError('CHAIN_UNAVAILABLE', 'The chain did not answer.');
        await new Promise((r) => setTimeout(r, this.config.RPC_BACKOFF_MS * 2 ** (attempt - 1)));
      }
    }
  }

  /** Headers of [from, to], stopping at the first block the node does not have (beyond its head). */
  async blocks(from: bigint, to: bigint): Promise<{ blocks: factsApi.ChainBlockHeader[] }> {
    const numbers: bigint[] = [];
    for (let n = from; n <= to; n++) numbers.push(n);
    const raw = await this.retrying((c) => Promise.all(numbers.map((n) => headerAt(c, n))));
    const blocks: factsApi.ChainBlockHeader[] = [];
    for (const b of raw) {
      if (!b) break;
      blocks.push(header(b));
    }
    return { blocks };
  }

  /**
   * Decoded registry events from `from` on. The range is split when the node
   * refuses it and the reply is cut at a block boundary once it nears the
   * size budget; `toBlock` says how far the answer reaches.
   */
  async logs(
    from: bigint,
    to: bigint,
    fromLogIndex = 0,
  ): Promise<{ fromBlock: string; toBlock: string; nextLogIndex: number | null; events: factsApi.ChainEvent[] }> {
    const registry = this.registry();
    const c = this.bulk;
    if (!c) throw new ApiError('CHAIN_UNAVAILABLE', 'No chain is configured.');
    let got;
    try {
      got = await this.ranges.fetch(from, to, (a, b) => c.getLogs({ address: registry, fromBlock: a, toBlock: b }));
    } catch (err) {
      if (err instanceof ChainDown) throw new ApiError('CHAIN_UNAVAILABLE', 'The chain did not answer.');
      throw err;
    }
    const logs = got.value.filter((l) => !l.removed && !(l.blockNumber === from && l.logIndex! < fromLogIndex));
    // Timestamps: anvil and recent geth put them on the log; otherwise read the headers.
    const missing = [...new Set(logs.filter((l) => !l.blockTimestamp).map((l) => l.blockNumber!))];
    const stamps = new Map<bigint, bigint>();
    if (missing.length > 0) {
      const headers = await this.retrying((c2) => Promise.all(missing.map((n) => headerAt(c2, n))));
      for (const h of headers) if (h) stamps.set(h.number!, h.timestamp);
    }
    // Logs the registry ABI does not decode are left out (they still count towards the narrowing below).
    const decoded = parseRegistryLogs(logs);
    const events: factsApi.ChainEvent[] = [];
    let bytes = 0;
    let covered = got.to;
    let nextLogIndex: number | null = null;
    for (const l of decoded) {
      const n = l.blockNumber!;
      const ts = l.blockTimestamp ?? stamps.get(n);
      if (ts === undefined) throw new ApiError('CHAIN_UNAVAILABLE', 'The chain did not return a block header.');
      const e = registryEvent(l, ts);
      const size = JSON.stringify(e).length + 1;
      if (bytes + size > this.config.LOGS_MAX_REPLY_BYTES && events.length > 0) {
        const first = BigInt(events[0]!.blockNumber);
        if (first < n) {
          // Cut at the block boundary before the block that overflows.
          covered = n - 1n;
        } else {
          // One block alone overflows: stop inside it and say where to resume.
          covered = n;
          nextLogIndex = e.logIndex;
        }
        break;
      }
      bytes += size;
      events.push(e);
    }
    // Far more logs than one reply holds: ask for a narrower span next time rather than fetch and drop them again.
    if (covered < got.to && logs.length > 2 * events.length) this.ranges.narrow((covered - from + 1n) * 2n || 1n);
    return { fromBlock: from.toString(), toBlock: covered.toString(), nextLogIndex, events };
  }
}
