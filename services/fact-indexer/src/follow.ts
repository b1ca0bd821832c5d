// Following the tip: the next unfinalized blocks above our indexed one. The
// new headers' parent hash proves our tip is still on the node's chain; the
// headers must link up among themselves, and the logs must name the same
// blocks (else the node moved under us between the reads: read again).
import type { Knex } from '@lineage/service-kit';
import type { BlockHeader, ChainReads } from './chain-source';
import type { ChainEvent } from './fold';
import { storedBlocks } from './store';

export type TipRead =
  /** The node has no block above ours yet. */
  | { kind: 'nothing' }
  /** The first new header does not sit on our tip: a reorg. */
  | { kind: 'reorg' }
  /** The node's answers disagree with each other (it moved under us): read again at once. */
  | { kind: 'moved' }
  /** Apply `events` up to `covered`, storing `headers`. */
  | { kind: 'apply'; events: ChainEvent[]; covered: bigint; headers: BlockHeader[] };

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** Whether `headers` sit on our tip (`parent`: our stored header at the block below them, if any) and link up. */
export function linkHeaders(parent: { hash: string } | undefined, headers: BlockHeader[]): 'ok' | 'reorg' | 'moved' {
  if (parent && headers[0]!.parentHash !== parent.hash) return 'reorg';
  for (let i = 1; i < headers.length; i++) if (headers[i]!.parentHash !== headers[i - 1]!.hash) return 'moved';
  return 'ok';
}

/** The headers the logs cover, or null when a log names another block hash than its header (a reorg in between). */
export function coveredHeaders(headers: BlockHeader[], covered: bigint, events: ChainEvent[]): BlockHeader[] | null {
  const kept = headers.filter((h) => BigInt(h.number) <= covered);
  const hashOf = new Map(kept.map((h) => [h.number, h.hash]));
  return events.some((e) => hashOf.get(e.blockNumber) !== e.blockHash) ? null : kept;
}

/** Read up to `tipBlocks` blocks above `indexed` (not past `head`) and what they hold. */
export async function readTip(
  chain: Pick<ChainReads, 'blocks' | 'logs'>,
  db: Knex,
  o: { indexed: bigint; head: bigint; tipBlocks: number },
): Promise<TipRead> {
  const end = min(o.head, o.indexed + BigInt(o.tipBlocks));
  const headers = await chain.blocks(o.indexed + 1n, end);
  if (headers.length === 0) return { kind: 'nothing' };
  const parent = (await storedBlocks(db, o.indexed)).get(o.indexed);
  const linked = linkHeaders(parent, headers);
  if (linked !== 'ok') return { kind: linked };
  const logs = await chain.logs(o.indexed + 1n, BigInt(headers[headers.length - 1]!.number));
  const covered = BigInt(logs.toBlock);
  const kept = coveredHeaders(headers, covered, logs.events);
  return kept === null ? { kind: 'moved' } : { kind: 'apply', events: logs.events, covered, headers: kept };
}
