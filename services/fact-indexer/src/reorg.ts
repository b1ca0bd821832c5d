// Reorgs: what the writer decides when the node's chain and its projection
// disagree. The decisions are plain functions of block numbers and hashes;
// the searches read the node through ChainReads and our headers from `blocks`.
//
// - A node head below our indexed block is not a reorg to act on: the node is
//   lagging (or rolled back without new blocks yet), so the writer waits and
//   never rewinds on its word (unless it serves another chain altogether).
// - Our unfinalized tip gone from the node's chain: walk back to the newest
//   block whose hash the node still has (the common ancestor), undo everything
//   above it (the journal), and index the new branch from there.
// - Our finalized block gone from the node's chain: finalized blocks cannot be
//   undone; the writer halts (or, for another chain, the identity path decides).
import type { Knex } from '@lineage/service-kit';
import type { ChainReads } from './chain-source';
import { guardCursor } from './apply';
import { rollbackTo, storedBlocks, writeCursor } from './store';

/** Headers are read back this many at a time while looking for the common ancestor. */
export const ANCESTOR_WINDOW = 200n;

type Stored = Map<bigint, { hash: string }>;

const max = (a: bigint, b: bigint) => (a > b ? a : b);

/** The node's head is below our indexed block: wait for it (a lagging node), never rewind on its word. */
export const headBehind = (head: bigint, indexed: bigint): boolean => head < indexed;

/** Our header at a block and the node's are the same block (neither missing). */
export const sameBlock = (ours: { hash: string } | undefined, theirs: { hash: string } | undefined): boolean =>
  ours !== undefined && theirs !== undefined && ours.hash === theirs.hash;

export type AncestorSearch =
  /** Undo everything above `block`. */
  | { kind: 'ancestor'; block: bigint }
  /** Our finalized block has another hash on the node: a reorg below finality (or another chain). */
  | { kind: 'below-finality' }
  /** The node does not have our finalized block (lagging): wait. */
  | { kind: 'wait' };

/**
 * One window [lo, hi] of the walk back (hi first): the decision, or null to read the window below.
 * `ours`: our stored headers from the finalized block `canon` up; `theirs`: the node's hashes by number.
 */
export function scanWindow(ours: Stored, theirs: Map<bigint, string>, canon: bigint, lo: bigint, hi: bigint): AncestorSearch | null {
  for (let n = hi; n >= lo; n--) {
    const mine = ours.get(n);
    const hash = theirs.get(n);
    if (mine && hash === mine.hash) return { kind: 'ancestor', block: n };
    if (n === canon) {
      // The finalized block itself differs: stop loudly.
      if (mine && hash !== undefined) return { kind: 'below-finality' };
      // Nothing stored for it (start of indexing): it is final by definition.
      if (!mine) return { kind: 'ancestor', block: canon };
    }
  }
  return null;
}

/** Walk back from `indexed` to `canon`, a window at a time, to the newest block the node still has as ours. */
export async function findCommonAncestor(
  chain: Pick<ChainReads, 'blocks'>,
  ours: Stored,
  canon: bigint,
  indexed: bigint,
): Promise<AncestorSearch> {
  for (let hi = indexed; hi >= canon; hi -= ANCESTOR_WINDOW) {
    const lo = max(canon, hi - ANCESTOR_WINDOW + 1n);
    const nodes = await chain.blocks(lo, hi);
    const found = scanWindow(ours, new Map(nodes.map((h) => [BigInt(h.number), h.hash])), canon, lo, hi);
    if (found) return found;
  }
  return { kind: 'wait' };
}

/** Whether the node still has our unfinalized tip at `indexed` (false also when either side lacks it). */
export async function tipOnChain(chain: Pick<ChainReads, 'blocks'>, db: Knex, indexed: bigint): Promise<boolean> {
  const [node] = await chain.blocks(indexed, indexed);
  const ours = (await storedBlocks(db, indexed)).get(indexed);
  return sameBlock(ours, node);
}

/**
 * Whether the node still has our stored header at `block`: `yes` also when we store none for it (nothing to
 * compare: the start of indexing), `unknown` when the node lacks the block (lagging; the next step asks again).
 */
export async function blockOnChain(chain: Pick<ChainReads, 'blocks'>, db: Knex, block: bigint): Promise<'yes' | 'no' | 'unknown'> {
  const ours = block < 0n ? undefined : (await storedBlocks(db, block)).get(block);
  if (!ours) return 'yes';
  const [theirs] = await chain.blocks(block, block);
  return theirs === undefined ? 'unknown' : theirs.hash === ours.hash ? 'yes' : 'no';
}

/** Undo everything above the common ancestor (journal, rows, headers) and move the cursor there; the number of journal entries undone. */
export async function rollBackToAncestor(trx: Knex.Transaction, o: { indexed: bigint; canon: bigint; ancestor: bigint }): Promise<number> {
  await guardCursor(trx, o.indexed, o.canon);
  const undone = await rollbackTo(trx, o.ancestor);
  await writeCursor(trx, { indexed_block: o.ancestor.toString() });
  return undone;
}
