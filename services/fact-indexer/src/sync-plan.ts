// What one step of the writer does, from four block numbers: the node's head,
// our indexed block, our finalized block (canonical views) and the chain's
// finalized block (never lower than the one we stored).
import { headBehind } from './reorg';

export type SyncPlan =
  /** The node's head is below our indexed block: wait (or find another chain), never rewind. */
  | { mode: 'behind' }
  /** Every finalized block is indexed and the head is above us: index the next unfinalized blocks, moving canonical up to `canonTarget`. */
  | { mode: 'follow'; finalTarget: bigint; canonTarget: bigint }
  /**
   * Check our unfinalized tip first (`checkTip`), move canonical up to `canonTarget`, then backfill the finalized
   * range up to `finalTarget` (`backfill`) or, with nothing to index, record the head.
   */
  | { mode: 'catch-up'; finalTarget: bigint; canonTarget: bigint; checkTip: boolean; backfill: boolean };

const min = (a: bigint, b: bigint) => (a < b ? a : b);

export function planSync(p: { head: bigint; indexed: bigint; canon: bigint; fin: bigint }): SyncPlan {
  if (headBehind(p.head, p.indexed)) return { mode: 'behind' };
  const finalTarget = min(p.fin, p.head);
  const canonTarget = min(finalTarget, p.indexed);
  if (p.indexed >= finalTarget && p.indexed < p.head) return { mode: 'follow', finalTarget, canonTarget };
  return { mode: 'catch-up', finalTarget, canonTarget, checkTip: p.indexed > p.canon, backfill: p.indexed < finalTarget };
}
