// The writer loop. Only the replica holding the lease runs it. Each step is
// one transaction: rows, undo journal and cursor commit together, fenced on
// the lease. The order of a step: check that our non-finalized tip is still on
// the chain (else roll back to the common ancestor: reorg.ts), move the
// canonical views up to the finalized block, then index either a finalized
// range (backfill.ts: no journal; the node must still have our block at
// `indexed`) or the next unfinalized blocks (follow.ts: parent hashes checked,
// journal). The Indexer orchestrates: lease, recovery, halts, and which of
// those a step does (sync-plan.ts); the writes are apply.ts's.
import type { Knex, Logger } from '@lineage/service-kit';
import type { ChainReads } from './chain-source';
import type { IndexerMetrics } from './metrics';
import { LeaseLost, type WriterLease } from './lease';
import { readCursor, resetProjections, rollbackTo, storedBlocks, writeCursor } from './store';
import { RESET_HINT, compareIdentity, differentChainHalt, identityOf, isDifferentChainHalt } from './chain-identity';
import { applyRange, finalizeTo, type ApplyOptions, type HeadInfo } from './apply';
import { Backfill } from './backfill';
import { readTip } from './follow';
import { blockOnChain, findCommonAncestor, rollBackToAncestor, tipOnChain } from './reorg';
import { planSync } from './sync-plan';

export type IndexerState = 'standby' | 'idle' | 'backfilling' | 'following' | 'halted';

export interface IndexerOptions {
  pollMs: number;
  /** Widest finalized range asked for per step. */
  batchBlocks: number;
  /** Unfinalized blocks per step (headers are fetched for each). */
  tipBlocks: number;
  /** Development only: a different chain or registry than the one indexed resets the projections instead of halting. */
  resetOnChainChange: boolean;
}

type Heads = Awaited<ReturnType<ChainReads['heads']>>;
type Contract = Awaited<ReturnType<ChainReads['contract']>>;

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const big = (v: string | null | undefined, fallback: bigint) => (v === null || v === undefined ? fallback : BigInt(v));

export class Indexer {
  state: IndexerState = 'standby';
  /** Why the writer halted (as stored in the cursor); null unless `state` is halted. */
  haltReason: string | null = null;
  private stopping = false;
  private waitingFor: string | null = null;
  private wake: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private recovered = false;
  private contract: Contract | null = null;
  private warnedBehind = false;
  private failures = 0;
  private readonly backfiller: Backfill;

  constructor(
    private readonly db: Knex,
    private readonly chain: ChainReads,
    private readonly lease: WriterLease,
    private readonly metrics: IndexerMetrics,
    private readonly log: Logger,
    private readonly opts: IndexerOptions,
  ) {
    this.backfiller = new Backfill(chain, opts.batchBlocks);
  }

  get isWriter(): boolean {
    return this.lease.held;
  }

  start(): void {
    this.running ??= this.run();
  }

  /** Finish the current step, then give the lease back so a standby takes over at once. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
    await this.lease.release();
    this.metrics.writer.set(0);
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let more = false;
      try {
        more = await this.step();
        if (this.failures > 0) this.log.info({ failures: this.failures }, 'indexer recovered');
        this.failures = 0;
      } catch (err) {
        if (err instanceof LeaseLost) {
          this.log.warn('writer lease lost; standing by');
          this.standBy();
        } else {
          // Warn once per streak of failures (e.g. the chain is down), then quietly retry every poll.
          const detail = {
            err: err instanceof Error ? { message: err.message, code: (err as { code?: string }).code } : String(err),
            failures: ++this.failures,
          };
          if (this.failures === 1) this.log.warn(detail, 'indexer step failed; retrying');
          else this.log.debug(detail, 'indexer step failed again');
        }
        more = false;
      }
      if (!more && !this.stopping)
        await new Promise<void>((r) => {
          const timer = setTimeout(r, this.opts.pollMs);
          this.wake = () => {
            clearTimeout(timer);
            r();
          };
        });
    }
  }

  /** One step; true when there is more to do at once. */
  async step(): Promise<boolean> {
    if (!(await this.lease.tryAcquire())) {
      this.standBy();
      this.metrics.writer.set(0);
      return false;
    }
    this.metrics.writer.set(1);
    if (this.state === 'halted') {
      // Only an operator clears a halt, by resetting the projection (src/reset.ts): then start over.
      if ((await readCursor(this.db))?.halted) return false;
      this.log.info({ was: this.haltReason }, 'halt cleared: the projection was reset; indexing again');
      this.standBy();
    }
    if (!this.contract || this.contract.status !== 'live') {
      this.contract = await this.chain.contract();
      if (this.contract.status !== 'live') {
        this.state = 'idle';
        return false;
      }
    }
    if (!this.recovered) {
      if (!(await this.recover(this.contract))) return false;
      this.recovered = true;
      if ((this.state as IndexerState) === 'halted') return false;
    }
    const heads = await this.chain.heads();
    return this.sync(heads);
  }

  private tx<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(async (trx) => {
      // Rows and cursor commit together, so a commit lost in a database crash is simply indexed again: no fsync wait.
      // (Raw: the builder has no SET.)
      await trx.raw('set local synchronous_commit to off');
      await this.lease.fence(trx);
      return fn(trx);
    });
  }

  /** Not (or no longer) the writer: a halt is the writer's to report; whoever takes the lease finds it in the cursor. */
  private standBy(): void {
    this.startOver('standby');
    this.metrics.halted.set(0);
  }

  /** Forget what was learnt from the chain so the next step reads the contract and recovers again. */
  private startOver(state: IndexerState): void {
    this.state = state;
    this.haltReason = null;
    this.recovered = false;
    this.contract = null;
    this.backfiller.clear();
  }

  /** Not ready to write yet (the node lacks a block we need): say so once, and try again next poll. */
  private wait(reason: string): false {
    if (this.waitingFor !== reason) this.log.warn({ reason }, 'indexer waiting for the node');
    this.waitingFor = reason;
    this.state = 'idle';
    return false;
  }

  private async hashAt(block: bigint): Promise<string | null> {
    const [node] = await this.chain.blocks(block, block);
    return node?.hash ?? null;
  }

  /**
   * On taking the lease: create the cursor, or check that the chain is still
   * the one indexed (chain id, registry, deployment block hash; and the stored
   * finalized block's hash), then roll back everything above the finalized
   * block (the journal may hold a crashed writer's unfinalized work; it is
   * re-read from the chain). False: wait for the node and try again.
   */
  private async recover(contract: Contract): Promise<boolean> {
    this.backfiller.clear();
    const registry = contract.address?.toLowerCase() ?? null;
    const start = contract.deployedBlock === null ? -1n : BigInt(contract.deployedBlock) - 1n;
    // Indexing starts at the deployment block (block 0 when chain-reader is not told it): that block anchors the identity.
    const deployed = contract.deployedBlock === null ? 0n : BigInt(contract.deployedBlock);
    const deployedHash = await this.hashAt(deployed);
    if (deployedHash === null) return this.wait(`the node does not have the registry's deployment block ${deployed} yet`);
    const before = await readCursor(this.db);
    // What differs, and the full halt reason (with the way out) if it comes to that.
    let reason: string | null = null;
    let haltWith = '';
    if (before) {
      const anchor = before.deployed_block === null ? null : BigInt(before.deployed_block);
      const anchorHash = anchor === null || anchor === deployed ? deployedHash : await this.hashAt(anchor);
      const v = compareIdentity(identityOf(before), { chainId: contract.chainId, registry, deployedBlockHash: anchorHash });
      if (v.verdict === 'unknown') return this.wait(v.reason);
      if (v.verdict === 'different') {
        reason = v.reason;
        haltWith = differentChainHalt(v.reason);
      } else if (before.finalized_block !== null) {
        // The stored finalized block must still carry our hash; otherwise the chain was reorganised below finality while no writer watched.
        const canon = BigInt(before.finalized_block);
        const ours = (await storedBlocks(this.db, canon)).get(canon);
        const [node] = canon >= 0n && ours ? await this.chain.blocks(canon, canon) : [];
        if (ours && node && node.hash !== ours.hash) {
          reason = `the finalized block ${canon} has another hash on the node (indexed ${ours.hash}, node ${node.hash}): a reorg below finality, or a different chain`;
          haltWith = `${reason}; ${RESET_HINT}`;
        }
        // A cursor from before the identity was recorded: only our finalized block on the node vouches for the chain it records.
        else if (ours && !node && before.deployed_block_hash === null)
          return this.wait(`the node does not have the finalized block ${canon} yet`);
      }
    }
    this.waitingFor = null;
    await this.tx(async (trx) => {
      const c = await readCursor(trx, true);
      if (c && reason && this.opts.resetOnChainChange) {
        // Development only (a fresh anvil under an old database): forget everything and index the new chain.
        await resetProjections(trx);
        this.log.warn({ reason }, 'chain or registry changed: projections reset (INDEXER_RESET_ON_CHAIN_CHANGE)');
      } else if (c) {
        if (c.halted) {
          // A halt for a different chain is lifted once the node serves the indexed chain again (chain-reader's
          // configuration fixed): nothing of the other chain was written. Any other halt needs a reset.
          if (reason || !isDifferentChainHalt(c.halted)) return this.halt(trx, c.halted, false);
          await writeCursor(trx, { halted: null });
          this.log.warn({ was: c.halted }, 'the node serves the indexed chain again: halt lifted');
        }
        if (reason) return this.halt(trx, haltWith, true);
        if (c.deployed_block_hash === null) {
          await writeCursor(trx, { deployed_block: deployed.toString(), deployed_block_hash: deployedHash });
          this.log.info({ deployedBlock: deployed.toString(), hash: deployedHash }, 'chain identity recorded');
        }
        const indexed = big(c.indexed_block, start);
        const canon = big(c.finalized_block, start);
        if (indexed > canon) {
          const undone = await rollbackTo(trx, canon);
          await writeCursor(trx, { indexed_block: canon.toString() });
          this.log.info({ from: indexed.toString(), to: canon.toString(), undone }, 'restart: rolled back unfinalized blocks');
        }
        return;
      }
      await writeCursor(trx, {
        chain_id: contract.chainId,
        registry,
        deployed_block: deployed.toString(),
        deployed_block_hash: deployedHash,
        indexed_block: start.toString(),
        finalized_block: start.toString(),
        chain_finalized_block: '0',
        head_block: null,
        head_timestamp: null,
        halted: null,
      });
    });
    return true;
  }

  /**
   * While running, a node behind our cursor or a reorg below finality may be
   * another chain altogether (a restarted dev anvil): compare identities. True
   * when it is; the writer has then halted (or, in development, reset).
   */
  private async chainChanged(): Promise<boolean> {
    const c = await readCursor(this.db);
    if (!c) return false;
    const contract = await this.chain.contract();
    if (contract.status !== 'live') return false;
    const anchorHash = c.deployed_block === null ? null : await this.hashAt(BigInt(c.deployed_block));
    const v = compareIdentity(identityOf(c), {
      chainId: contract.chainId,
      registry: contract.address?.toLowerCase() ?? null,
      deployedBlockHash: anchorHash,
    });
    if (v.verdict !== 'different') return false;
    if (this.opts.resetOnChainChange) {
      await this.tx((trx) => resetProjections(trx));
      this.log.warn({ reason: v.reason }, 'chain or registry changed: projections reset (INDEXER_RESET_ON_CHAIN_CHANGE)');
      this.startOver('idle');
    } else {
      await this.tx((trx) => this.halt(trx, differentChainHalt(v.reason), true));
    }
    return true;
  }

  private async halt(trx: Knex.Transaction, reason: string, store: boolean): Promise<void> {
    if (store) await writeCursor(trx, { halted: reason });
    this.state = 'halted';
    this.haltReason = reason;
    this.metrics.halted.set(1);
    this.log.error({ reason }, 'INDEXER HALTED: the writer stops rather than guess; projections keep serving');
  }

  private async sync(heads: Heads): Promise<boolean> {
    const c = await readCursor(this.db);
    if (!c) {
      // An operator reset the projection under a running writer (src/reset.ts): create the cursor again.
      this.log.warn('the cursor is gone (the projection was reset); starting over');
      this.startOver('idle');
      return true;
    }
    const head = BigInt(heads.latest.number);
    const stored = big(c.chain_finalized_block, 0n);
    const reported = BigInt(heads.finalized.number);
    // The finalized block never moves backwards, whatever a lagging or syncing node says.
    if (reported < stored)
      this.log.warn({ reported: reported.toString(), stored: stored.toString() }, 'node reports an older finalized block; keeping ours');
    const fin = max(stored, reported);
    const indexed = BigInt(c.indexed_block!);
    const canon = BigInt(c.finalized_block!);
    const headInfo: HeadInfo = {
      head_block: head.toString(),
      head_timestamp: heads.latest.timestamp,
      chain_finalized_block: fin.toString(),
    };
    this.gauges(head, indexed, canon);

    const plan = planSync({ head, indexed, canon, fin });
    if (plan.mode === 'behind') return this.behind(head, indexed, headInfo);
    this.warnedBehind = false;
    const at = { head, indexed, canon, fin, headInfo, canonTarget: plan.canonTarget };
    if (plan.mode === 'follow') return this.follow(at);

    // Otherwise, before finalizing anything (or while idle), check that our unfinalized tip is still on the node's chain.
    if (plan.checkTip && !(await tipOnChain(this.chain, this.db, indexed))) return this.reorg(canon, indexed);
    let canonNow = canon;
    if (plan.canonTarget > canon) {
      await this.tx((trx) => finalizeTo(trx, { indexed, canon, canonTarget: plan.canonTarget, headInfo }));
      canonNow = plan.canonTarget;
    }
    if (plan.backfill) return this.backfill({ ...at, canon: canonNow, finalTarget: plan.finalTarget, tipChecked: plan.checkTip });

    // Caught up: only the head moved (or nothing).
    this.state = 'following';
    if (
      c.head_block !== headInfo.head_block ||
      c.chain_finalized_block !== headInfo.chain_finalized_block ||
      c.head_timestamp !== headInfo.head_timestamp
    ) {
      await this.tx((trx) => writeCursor(trx, headInfo));
    }
    return false;
  }

  /** The node's head is below our indexed block: another chain (halt, or reset in development), or a lagging node (wait). */
  private async behind(head: bigint, indexed: bigint, headInfo: HeadInfo): Promise<boolean> {
    // A fresh chain starts below us too: only its deployment block tells it from a lagging node.
    if (await this.chainChanged()) return this.state !== 'halted';
    // A node behind our cursor is lagging (or rolled back without new blocks yet): wait, never rewind on its word.
    if (!this.warnedBehind)
      this.log.warn({ head: head.toString(), indexed: indexed.toString() }, 'node head is behind the indexed block; waiting');
    this.warnedBehind = true;
    this.state = 'following';
    await this.tx((trx) => writeCursor(trx, headInfo));
    return false;
  }

  /** Following the tip: the new headers' parent hash proves our tip, and the canonical views move up in the same transaction. */
  private async follow(at: {
    head: bigint;
    indexed: bigint;
    canon: bigint;
    fin: bigint;
    headInfo: HeadInfo;
    canonTarget: bigint;
  }): Promise<boolean> {
    this.state = 'following';
    const tip = await readTip(this.chain, this.db, { indexed: at.indexed, head: at.head, tipBlocks: this.opts.tipBlocks });
    if (tip.kind === 'nothing') return false;
    if (tip.kind === 'reorg') return this.reorg(at.canon, at.indexed);
    if (tip.kind === 'moved') return true; // the node moved under us: read again
    await this.apply({
      events: tip.events,
      indexed: at.indexed,
      canon: at.canon,
      covered: tip.covered,
      headers: tip.headers,
      fin: at.fin,
      headInfo: at.headInfo,
      finalized: false,
      canonTo: at.canonTarget,
    });
    this.gauges(at.head, tip.covered, max(at.canon, at.canonTarget));
    return tip.covered < at.head;
  }

  /** Backfill: a finalized range, applied to latest and canonical at once, no journal. */
  private async backfill(at: {
    head: bigint;
    indexed: bigint;
    canon: bigint;
    fin: bigint;
    headInfo: HeadInfo;
    finalTarget: bigint;
    tipChecked: boolean;
  }): Promise<boolean> {
    this.state = 'backfilling';
    const t0 = Date.now();
    const { events, covered, end } = await this.backfiller.next(at.indexed, at.finalTarget);
    if (!end) return false;
    // The range's first block must sit on our block at `indexed`. With unfinalized blocks the tip check
    // proved it; without any (indexed == finalized) nothing did, and a longer, different chain swapped under the
    // writer would be indexed on top of the old projection. One header read, after the range was fetched.
    if (!at.tipChecked) {
      const on = await blockOnChain(this.chain, this.db, at.indexed);
      if (on !== 'yes') {
        this.backfiller.clear();
        return on === 'no' ? this.offOurChain(at.indexed) : false;
      }
    }
    this.backfiller.prefetchAfter(covered, at.finalTarget);
    const t1 = Date.now();
    await this.apply({
      events,
      indexed: at.indexed,
      canon: at.canon,
      covered,
      headers: [end],
      fin: at.fin,
      headInfo: at.headInfo,
      finalized: true,
      canonTo: at.canon,
    });
    this.log.debug(
      { from: (at.indexed + 1n).toString(), to: covered.toString(), events: events.length, waitMs: t1 - t0, applyMs: Date.now() - t1 },
      'backfilled',
    );
    this.gauges(at.head, covered, covered);
    return true;
  }

  private async apply(o: ApplyOptions): Promise<void> {
    await this.tx((trx) => applyRange(trx, o));
    this.metrics.events.inc(o.events.length);
  }

  /**
   * Our finalized block has another hash on the node: another chain (the chain-identity path: halt naming what
   * differs, or reset in development), or the same chain reorganised below finality (halt).
   */
  private async offOurChain(block: bigint): Promise<boolean> {
    if (await this.chainChanged()) return this.state !== 'halted';
    await this.tx((trx) =>
      this.halt(trx, `reorg below the finalized block ${block}: finalized blocks cannot be undone; ${RESET_HINT}`, true),
    );
    return false;
  }

  /** Walk back to the newest block whose hash the node still has, and undo everything above it. */
  private async reorg(canon: bigint, indexed: bigint): Promise<boolean> {
    const found = await findCommonAncestor(this.chain, await storedBlocks(this.db, canon), canon, indexed);
    if (found.kind === 'below-finality') return this.offOurChain(canon);
    if (found.kind === 'wait') return false; // the node does not have our finalized block yet (lagging): wait
    const undone = await this.tx((trx) => rollBackToAncestor(trx, { indexed, canon, ancestor: found.block }));
    this.metrics.reorgs.inc();
    this.log.warn(
      { from: indexed.toString(), to: found.block.toString(), depth: (indexed - found.block).toString(), undone },
      'reorg: rolled back to the common ancestor',
    );
    return true;
  }

  private gauges(head: bigint, indexed: bigint, canon: bigint): void {
    this.metrics.lag.set(Number(head > indexed ? head - indexed : 0n));
    this.metrics.indexed.set(Number(indexed));
    this.metrics.finalized.set(Number(canon));
  }
}
