// An in-memory chain behind the ChainReads interface (what the writer reads
// through chain-reader): blocks with hashes that name their branch, registry
// events per block, a finalized block `lag` below the head, and reorgs.
import type { BlockHeader, ChainReads } from '../../src/chain-source';
import type { ChainEvent } from '../../src/fold';

export const REGISTRY = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
export const blockHash = (branch: string, n: number) => `0x${branch}${n.toString(16).padStart(63, '0')}`;

/** What chain-reader says of the registry on these test chains (anvil's chain id, the first deployment address). */
export const registryContract = () => ({
  name: 'LineageRegistry',
  capabilities: [],
  eip712Domain: null,
  chainId: '31337',
  address: REGISTRY,
  deployedBlock: '1',
  status: 'live' as const,
});

export class MemoryChain implements ChainReads {
  private readonly headers: BlockHeader[] = [];
  private readonly events = new Map<number, ChainEvent[]>();
  /** The head below which blocks count as finalized (`lag` blocks below the head), unless `finalizedAt` is set. */
  lag = 2;
  finalizedAt: number | null = null;
  /** Block reads seen, as [from, to] pairs (to check how far a search walked). */
  readonly reads: [bigint, bigint][] = [];

  constructor(height: number, branch = 'a') {
    for (let n = 0; n <= height; n++) this.push(branch);
  }

  get height(): number {
    return this.headers.length - 1;
  }

  /** Mine one block on top of the head; `events` are given their block's number, hash and timestamp. */
  push(branch: string, events: Omit<ChainEvent, 'blockNumber' | 'blockHash' | 'blockTimestamp'>[] = []): BlockHeader {
    const n = this.headers.length;
    const header = {
      number: String(n),
      hash: blockHash(branch, n),
      parentHash: n === 0 ? blockHash(branch, 0) : this.headers[n - 1]!.hash,
      timestamp: String(1000 + n),
    };
    this.headers.push(header);
    this.events.set(
      n,
      events.map((e) => ({ ...e, blockNumber: header.number, blockHash: header.hash, blockTimestamp: header.timestamp })),
    );
    return header;
  }

  /** Replace every block from `from` up with `count` blocks of `branch` (a reorg `height − from + 1` deep). */
  reorg(
    from: number,
    branch: string,
    count: number,
    events: (n: number) => Omit<ChainEvent, 'blockNumber' | 'blockHash' | 'blockTimestamp'>[] = () => [],
  ): void {
    for (let n = from; n <= this.height; n++) this.events.delete(n);
    this.headers.length = from;
    for (let i = 0; i < count; i++) this.push(branch, events(this.headers.length));
  }

  /** Forget blocks above `height` (a node that lags, or restarted behind us). */
  truncate(height: number): void {
    this.headers.length = height + 1;
  }

  header(n: number): BlockHeader {
    return this.headers[n]!;
  }

  async contract() {
    return registryContract();
  }

  async heads() {
    const head = this.headers[this.height]!;
    const fin = this.headers[this.finalizedAt ?? Math.max(0, this.height - this.lag)]!;
    return {
      latest: { number: head.number, hash: head.hash, timestamp: head.timestamp },
      finalized: { number: fin.number, hash: fin.hash, timestamp: fin.timestamp },
    };
  }

  async blocks(from: bigint, to: bigint): Promise<BlockHeader[]> {
    this.reads.push([from, to]);
    const out: BlockHeader[] = [];
    for (let n = Number(from); n <= Number(to) && n <= this.height; n++) out.push(this.headers[n]!);
    return out;
  }

  async logs(from: bigint, to: bigint) {
    const end = Math.min(Number(to), this.height);
    const events: ChainEvent[] = [];
    for (let n = Number(from); n <= end; n++) events.push(...(this.events.get(n) ?? []));
    return { toBlock: String(end), events };
  }
}
