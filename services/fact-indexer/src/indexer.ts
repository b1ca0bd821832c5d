// The writer loop. Only the replica holding the lease runs it. Each step is
// one transaction: rows, undo journal and cursor commit together, fenced on
// the lease. The order of a step: check that our non-finalized tip is still on
// the chain (else roll back to the common ancestor), move the canonical views
// up to the finalized block, then index either a finalized range (backfill,
// no journal; the node must still have our block at `indexed`) or the next
// unfinalized blocks (parent hashes checked, journal).
import type { Knex, Logger } from '@lineage/service-kit';
import type { ChainSource } from './chain-source';
import type { IndexerMetrics } from './metrics';
import { LeaseLost, type WriterLease } from './lease';
import { Batch, eventsBetween, prune, readCursor, resetProjections, rollbackTo, storeBlocks, storedBlocks, writeCursor } from './store';
import type { ChainEvent } from './fold';
import { RESET_HINT, compareIdentity, differentChainHalt, identityOf, isDifferentChainHalt } from './chain-identity';

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

type Heads = Awaited<ReturnType<ChainSource['heads']>>;
type Contract = Awaited<ReturnType<ChainSource['contract']>>;

const min = (a: bigint, b: bigint) => (a < b ? a : b);
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
  private prefetched: { from: bigint; job: ReturnType<Indexer['fetchFinal']> } | null = null;

  constructor(
    private readonly db: Knex,
    private readonly chain: ChainSource,
    private readonly lease: WriterLease,
    private readonly metrics: IndexerMetrics,
    private readonly log: Logger,
    private readonly opts: IndexerOptions,
  ) {}

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
          const detail = { err: err instanceof Error ? { message: err.message, code: (err as { code?: string }).code } : String(err), failures: ++this.failures };
          if (this.failures === 1) this.log.warn(detail, 'indexer step failed; retrying');
          else this.log.debug(detail, 'indexer step failed again');
        }
        more = false;
      }
      if (!more && !this.stopping) await new Promise<void>((r) => {
        const timer = setTimeout(r, this.opts.pollMs);
        this.wake = () => { clearTimeout(timer); r(); };
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
    this.prefetched = null;
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
    this.prefetched = null;
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
        else if (ours && !node && before.deployed_block_hash === null) return this.wait(`the node does not have the finalized block ${canon} yet`);
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
        chain_id: contract.chainId, registry, deployed_block: deployed.toString(), deployed_block_hash: deployedHash,
        indexed_block: start.toString(), finalized_block: start.toString(), chain_finalized_block: '0', head_block: null, head_timestamp: null, halted: null,
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
    const v = compareIdentity(identityOf(c), { chainId: contract.chainId, registry: contract.address?.toLowerCase() ?? null, deployedBlockHash: anchorHash });
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
    if (reported < stored) this.log.warn({ reported: reported.toString(), stored: stored.toString() }, 'node reports an older finalized block; keeping ours');
    const fin = max(stored, reported);
    const indexed = BigInt(c.indexed_block!);
    let canon = BigInt(c.finalized_block!);
    const headInfo = { head_block: head.toString(), head_timestamp: heads.latest.timestamp, chain_finalized_block: fin.toString() };
    this.gauges(head, indexed, canon);

    if (head < indexed) {
      // A fresh chain starts below us too: only its deployment block tells it from a lagging node.
      if (await this.chainChanged()) return this.state !== 'halted';
      // A node behind our cursor is lagging (or rolled back without new blocks yet): wait, never rewind on its word.
      if (!this.warnedBehind) this.log.warn({ head: head.toString(), indexed: indexed.toString() }, 'node head is behind the indexed block; waiting');
      this.warnedBehind = true;
      this.state = 'following';
      await this.tx((trx) => writeCursor(trx, headInfo));
      return false;
    }
    this.warnedBehind = false;

    const finalTarget = min(fin, head);
    const canonTarget = min(finalTarget, indexed);

    // Following the tip: the new headers' parent hash proves our tip, and the canonical views move up in the same transaction.
    if (indexed >= finalTarget && indexed < head) {
      this.state = 'following';
      const end = min(head, indexed + BigInt(this.opts.tipBlocks));
      const headers = await this.chain.blocks(indexed + 1n, end);
      if (headers.length === 0) return false;
      const parent = (await storedBlocks(this.db, indexed)).get(indexed);
      if (parent && headers[0]!.parentHash !== parent.hash) return this.reorg(canon, indexed);
      for (let i = 1; i < headers.length; i++) if (headers[i]!.parentHash !== headers[i - 1]!.hash) return true; // the node moved under us: read again
      const logs = await this.chain.logs(indexed + 1n, BigInt(headers[headers.length - 1]!.number));
      const covered = BigInt(logs.toBlock);
      const kept = headers.filter((h) => BigInt(h.number) <= covered);
      const hashOf = new Map(kept.map((h) => [h.number, h.hash]));
      // Logs and headers must describe the same chain; otherwise a reorg happened in between: read again.
      if (logs.events.some((e) => hashOf.get(e.blockNumber) !== e.blockHash)) return true;
      await this.apply(logs.events, indexed, canon, covered, kept, fin, headInfo, false, canonTarget);
      this.gauges(head, covered, max(canon, canonTarget));
      return covered < head;
    }

    // Otherwise, before finalizing anything (or while idle), check that our unfinalized tip is still on the node's chain.
    const tipChecked = indexed > canon;
    if (indexed > canon) {
      const [node] = await this.chain.blocks(indexed, indexed);
      const ours = (await storedBlocks(this.db, indexed)).get(indexed);
      if (!node || !ours || node.hash !== ours.hash) return this.reorg(canon, indexed);
    }
    if (canonTarget > canon) {
      await this.tx(async (trx) => {
        await this.guardCursor(trx, indexed, canon);
        const batch = new Batch(trx, canonTarget);
        await this.catchUpCanonical(trx, batch, canon, canonTarget, []);
        await batch.flush();
        await writeCursor(trx, { ...headInfo, finalized_block: canonTarget.toString() });
      });
      canon = canonTarget;
    }

    // Backfill: a finalized range, applied to latest and canonical at once, no journal.
    if (indexed < finalTarget) {
      this.state = 'backfilling';
      const from = indexed + 1n;
      const t0 = Date.now();
      // Finalized ranges cannot change, so the next one is fetched while this one is applied.
      const job = this.prefetched?.from === from ? this.prefetched.job : this.fetchFinal(from, min(finalTarget, indexed + BigInt(this.opts.batchBlocks)));
      this.prefetched = null;
      const { events, covered, end } = await job;
      if (!end) return false;
      // The range's first block must sit on our block at `indexed`. With unfinalized blocks the tip check above
      // proved it; without any (indexed == finalized) nothing did, and a longer, different chain swapped under the
      // writer would be indexed on top of the old projection. One header read, after the range was fetched.
      if (!tipChecked) {
        const on = await this.onOurChain(indexed);
        if (on !== 'yes') {
          this.prefetched = null;
          return on === 'no' ? this.offOurChain(indexed) : false;
        }
      }
      if (covered < finalTarget) {
        const next = covered + 1n;
        const nextJob = this.fetchFinal(next, min(finalTarget, covered + BigInt(this.opts.batchBlocks)));
        nextJob.catch(() => undefined);
        this.prefetched = { from: next, job: nextJob };
      }
      const t1 = Date.now();
      await this.apply(events, indexed, canon, covered, [end], fin, headInfo, true, canon);
      this.log.debug({ from: from.toString(), to: covered.toString(), events: events.length, waitMs: t1 - t0, applyMs: Date.now() - t1 }, 'backfilled');
      this.gauges(head, covered, covered);
      return true;
    }

    // Caught up: only the head moved (or nothing).
    this.state = 'following';
    if (c.head_block !== headInfo.head_block || c.chain_finalized_block !== headInfo.chain_finalized_block || c.head_timestamp !== headInfo.head_timestamp) {
      await this.tx((trx) => writeCursor(trx, headInfo));
    }
    return false;
  }

  /** Apply the stored events of (from, to] to the canonical views (loading what they and `also` touch), and prune below `to`. */
  private async catchUpCanonical(trx: Knex.Transaction, batch: Batch, from: bigint, to: bigint, also: ChainEvent[]): Promise<void> {
    const events = to > from ? await eventsBetween(trx, from, to) : [];
    await batch.load([...events, ...also]);
    for (const e of events) batch.applyCanonical(e);
    if (to > from) await prune(trx, to);
  }

  private fetchFinal(from: bigint, to: bigint) {
    return (async () => {
      const logs = await this.chain.logs(from, to);
      const covered = BigInt(logs.toBlock);
      const [end] = await this.chain.blocks(covered, covered);
      return { events: logs.events, covered, end };
    })();
  }

  private async guardCursor(trx: Knex.Transaction, indexed: bigint, canon: bigint): Promise<void> {
    const now = await readCursor(trx, true);
    // Someone else moved the cursor since we read it: applying again would apply twice.
    if (!now || BigInt(now.indexed_block!) !== indexed || BigInt(now.finalized_block!) !== canon) throw new LeaseLost();
  }

  private async apply(events: ChainEvent[], indexed: bigint, canon: bigint, covered: bigint, headers: { number: string; hash: string; parentHash: string; timestamp: string }[], fin: bigint, headInfo: Record<string, string>, finalized: boolean, canonTo: bigint): Promise<void> {
    await this.tx(async (trx) => {
      await this.guardCursor(trx, indexed, canon);
      const batch = new Batch(trx, finalized ? covered : fin);
      // Older finalized events reach canonical first; the new ones are newer than all of them.
      await this.catchUpCanonical(trx, batch, canon, canonTo, events);
      for (const e of events) {
        batch.applyLatest(e);
        if (finalized) batch.applyCanonical(e);
      }
      await batch.flush();
      await storeBlocks(trx, headers);
      if (finalized) await prune(trx, covered);
      const finalizedBlock = finalized ? covered : max(canon, canonTo);
      await writeCursor(trx, { ...headInfo, indexed_block: covered.toString(), finalized_block: finalizedBlock.toString() });
    });
    this.metrics.events.inc(events.length);
  }

  /**
   * Whether the node still has our stored header at `block`: `yes` also when we store none for it (nothing to
   * compare: the start of indexing), `unknown` when the node lacks the block (lagging; the next step asks again).
   */
  private async onOurChain(block: bigint): Promise<'yes' | 'no' | 'unknown'> {
    const ours = block < 0n ? undefined : (await storedBlocks(this.db, block)).get(block);
    if (!ours) return 'yes';
    const theirs = await this.hashAt(block);
    return theirs === null ? 'unknown' : theirs === ours.hash ? 'yes' : 'no';
  }

  /**
   * Our finalized block has another hash on the node: another chain (the chain-identity path: halt naming what
   * differs, or reset in development), or the same chain reorganised below finality (halt, as `reorg` does).
   */
  private async offOurChain(block: bigint): Promise<boolean> {
    if (await this.chainChanged()) return this.state !== 'halted';
    await this.tx((trx) => this.halt(trx, `reorg below the finalized block ${block}: finalized blocks cannot be undone; ${RESET_HINT}`, true));
    return false;
  }

  /** Walk back to the newest block whose hash the node still has, and undo everything above it. */
  private async reorg(canon: bigint, indexed: bigint): Promise<boolean> {
    const ours = await storedBlocks(this.db, canon);
    let ancestor: bigint | null = null;
    for (let hi = indexed; hi >= canon && ancestor === null; hi -= 200n) {
      const lo = max(canon, hi - 199n);
      const nodes = await this.chain.blocks(lo, hi);
      const byNumber = new Map(nodes.map((h) => [BigInt(h.number), h.hash]));
      for (let n = hi; n >= lo; n--) {
        const mine = ours.get(n);
        const theirs = byNumber.get(n);
        if (mine && theirs === mine.hash) {
          ancestor = n;
          break;
        }
        // The finalized block itself differs: another chain (say which), or a reorg below finality. Stop loudly.
        if (n === canon && mine && theirs !== undefined && theirs !== mine.hash) {
          if (await this.chainChanged()) return this.state !== 'halted';
          await this.tx((trx) => this.halt(trx, `reorg below the finalized block ${canon}: finalized blocks cannot be undone; ${RESET_HINT}`, true));
          return false;
        }
        if (n === canon && !mine) ancestor = canon; // nothing stored for it (start of indexing): it is final by definition
      }
      if (hi - 200n < canon) break;
    }
    if (ancestor === null) return false; // the node does not have our finalized block yet (lagging): wait
    const target = ancestor;
    const undone = await this.tx(async (trx) => {
      await this.guardCursor(trx, indexed, canon);
      const n = await rollbackTo(trx, target);
      await writeCursor(trx, { indexed_block: target.toString() });
      return n;
    });
    this.metrics.reorgs.inc();
    this.log.warn({ from: indexed.toString(), to: target.toString(), depth: (indexed - target).toString(), undone }, 'reorg: rolled back to the common ancestor');
    return true;
  }

  private gauges(head: bigint, indexed: bigint, canon: bigint): void {
    this.metrics.lag.set(Number(head > indexed ? head - indexed : 0n));
    this.metrics.indexed.set(Number(indexed));
    this.metrics.finalized.set(Number(canon));
  }
}
