// Writing one step of the indexer, inside the writer's fenced transaction:
// the canonical views caught up to a finalized block, and a range of events
// applied to the latest views (and, when finalized, to the canonical ones),
// with the block headers and the cursor. Each write first checks that the
// cursor is still where the step read it.
import type { Knex } from '@lineage/service-kit';
import type { ChainEvent } from './fold';
import type { BlockHeader } from './chain-source';
import { LeaseLost } from './lease';
import { Batch, eventsBetween, prune, readCursor, storeBlocks, writeCursor, type CursorRow } from './store';

/** The node's head and finalized block, recorded in the cursor with every write. */
export type HeadInfo = Required<Pick<CursorRow, 'head_block' | 'head_timestamp' | 'chain_finalized_block'>>;

const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** Someone else moved the cursor since we read it (`indexed`, `canon`): applying again would apply twice. */
export async function guardCursor(trx: Knex.Transaction, indexed: bigint, canon: bigint): Promise<void> {
  const now = await readCursor(trx, true);
  if (!now || BigInt(now.indexed_block!) !== indexed || BigInt(now.finalized_block!) !== canon) throw new LeaseLost();
}

/** Apply the stored events of (from, to] to the canonical views (loading what they and `also` touch), and prune below `to`. */
export async function catchUpCanonical(trx: Knex.Transaction, batch: Batch, from: bigint, to: bigint, also: ChainEvent[]): Promise<void> {
  const events = to > from ? await eventsBetween(trx, from, to) : [];
  await batch.load([...events, ...also]);
  for (const e of events) batch.applyCanonical(e);
  if (to > from) await prune(trx, to);
}

/** Move the canonical views from `canon` up to `canonTarget` (events already indexed), nothing else. */
export async function finalizeTo(
  trx: Knex.Transaction,
  o: { indexed: bigint; canon: bigint; canonTarget: bigint; headInfo: HeadInfo },
): Promise<void> {
  await guardCursor(trx, o.indexed, o.canon);
  const batch = new Batch(trx, o.canonTarget);
  await catchUpCanonical(trx, batch, o.canon, o.canonTarget, []);
  await batch.flush();
  await writeCursor(trx, { ...o.headInfo, finalized_block: o.canonTarget.toString() });
}

export interface ApplyOptions {
  /** The events of (indexed, covered], in chain order. */
  events: ChainEvent[];
  /** The cursor as the step read it: indexed and finalized block. */
  indexed: bigint;
  canon: bigint;
  /** The last block the events cover: the new indexed block. */
  covered: bigint;
  /** Headers to store (the new tip's parent check reads them). */
  headers: BlockHeader[];
  /** The chain's finalized block: changes above it are journaled. */
  fin: bigint;
  headInfo: HeadInfo;
  /** A finalized range (backfill): applied to the canonical views too, no journal, and it becomes the finalized block. */
  finalized: boolean;
  /** Move the canonical views up to here first (from the stored events). */
  canonTo: bigint;
}

/** One range applied: rows, headers and cursor in the caller's transaction. */
export async function applyRange(trx: Knex.Transaction, o: ApplyOptions): Promise<void> {
  await guardCursor(trx, o.indexed, o.canon);
  const batch = new Batch(trx, o.finalized ? o.covered : o.fin);
  // Older finalized events reach canonical first; the new ones are newer than all of them.
  await catchUpCanonical(trx, batch, o.canon, o.canonTo, o.events);
  for (const e of o.events) {
    batch.applyLatest(e);
    if (o.finalized) batch.applyCanonical(e);
  }
  await batch.flush();
  await storeBlocks(trx, o.headers);
  if (o.finalized) await prune(trx, o.covered);
  const finalizedBlock = o.finalized ? o.covered : max(o.canon, o.canonTo);
  await writeCursor(trx, { ...o.headInfo, indexed_block: o.covered.toString(), finalized_block: finalizedBlock.toString() });
}
