// The indexer reaches the chain only through chain-reader, over NATS.
import { randomUUID } from 'node:crypto';
import { subjects } from '@lineage/schemas';
import type { Nats } from '@lineage/service-kit';

/**
 * What the writer reads from the chain (ChainSource over NATS in production; an in-memory chain in tests).
 * `blocks` stops at the first block the node does not have; `logs` covers whole blocks up to its `toBlock`.
 */
export type ChainReads = Pick<ChainSource, 'contract' | 'heads' | 'blocks' | 'logs'>;
export type BlockHeader = Awaited<ReturnType<ChainSource['blocks']>>[number];

export class ChainSource {
  constructor(
    private readonly nats: Nats,
    private readonly timeoutMs: number,
  ) {}

  private opts() {
    return { requestId: `indexer-${randomUUID()}`, timeoutMs: this.timeoutMs };
  }

  contract() {
    return this.nats.request(subjects.chain.contract, {}, this.opts());
  }

  heads() {
    return this.nats.request(subjects.chain.heads, {}, this.opts());
  }

  /**
   * Logs of whole blocks from `from` towards `to`: pages inside an oversized
   * block are joined, and further pages are read until `minEvents` events or
   * `to` is reached, so one step of the indexer covers a useful amount.
   */
  async logs(from: bigint, to: bigint, minEvents = 4000) {
    const events: Awaited<ReturnType<ChainSource['page']>>['events'] = [];
    let covered = from - 1n;
    let resume: number | null = null;
    do {
      const page = await this.page(resume === null ? covered + 1n : covered, to, resume);
      events.push(...page.events);
      covered = BigInt(page.toBlock);
      resume = page.nextLogIndex;
    } while (resume !== null || (covered < to && events.length < minEvents));
    return { toBlock: covered.toString(), events };
  }

  private page(from: bigint, to: bigint, fromLogIndex: number | null) {
    const req =
      fromLogIndex === null
        ? { fromBlock: from.toString(), toBlock: to.toString() }
        : { fromBlock: from.toString(), toBlock: from.toString(), fromLogIndex };
    return this.nats.request(subjects.chain.logs, req, this.opts());
  }

  async blocks(from: bigint, to: bigint) {
    return (await this.nats.request(subjects.chain.blocks, { fromBlock: from.toString(), toBlock: to.toString() }, this.opts())).blocks;
  }

  /** getFact pinned to the chain's finalized block (default) or its head block. */
  factAt(factKey: string, requestId: string, at: 'finalized' | 'latest' = 'finalized') {
    return this.nats.request(subjects.chain.factAt, { factKey, at }, { requestId, timeoutMs: this.timeoutMs });
  }
}
