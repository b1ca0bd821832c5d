// Backfill: finalized ranges, applied to the latest and canonical views at
// once with no journal. Finalized ranges cannot change, so the next range is
// fetched while this one is applied.
import type { ChainReads, BlockHeader } from './chain-source';
import type { ChainEvent } from './fold';

export interface FinalRange {
  events: ChainEvent[];
  /** The last block the logs cover. */
  covered: bigint;
  /** The header of `covered`; undefined when the node does not have it (lagging). */
  end: BlockHeader | undefined;
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** The logs of [from, to] (as far as one read reaches) and the header of the last block covered. */
export async function fetchFinal(chain: Pick<ChainReads, 'blocks' | 'logs'>, from: bigint, to: bigint): Promise<FinalRange> {
  const logs = await chain.logs(from, to);
  const covered = BigInt(logs.toBlock);
  const [end] = await chain.blocks(covered, covered);
  return { events: logs.events, covered, end };
}

/** The next finalized range to apply, with the one after it fetched ahead. */
export class Backfill {
  private prefetched: { from: bigint; job: Promise<FinalRange> } | null = null;

  constructor(
    private readonly chain: Pick<ChainReads, 'blocks' | 'logs'>,
    private readonly batchBlocks: number,
  ) {}

  /** The range above `indexed` up to at most `finalTarget`: the one fetched ahead if it starts there. */
  next(indexed: bigint, finalTarget: bigint): Promise<FinalRange> {
    const from = indexed + 1n;
    const job =
      this.prefetched?.from === from
        ? this.prefetched.job
        : fetchFinal(this.chain, from, min(finalTarget, indexed + BigInt(this.batchBlocks)));
    this.prefetched = null;
    return job;
  }

  /** Start fetching the range after `covered` while this one is applied (nothing past `finalTarget`). */
  prefetchAfter(covered: bigint, finalTarget: bigint): void {
    if (covered >= finalTarget) return;
    const next = covered + 1n;
    const job = fetchFinal(this.chain, next, min(finalTarget, covered + BigInt(this.batchBlocks)));
    job.catch(() => undefined);
    this.prefetched = { from: next, job };
  }

  /** Forget a range fetched ahead (the chain may no longer be the one it was read from). */
  clear(): void {
    this.prefetched = null;
  }
}
