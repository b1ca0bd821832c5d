// The writer's reorg decisions as plain functions, over an in-memory chain:
// which mode a step takes, where the common ancestor is, when a reorg reaches
// below finality, and when the node is merely behind.
import { ANCESTOR_WINDOW, findCommonAncestor, headBehind, sameBlock, scanWindow } from '../src/reorg';
import { planSync } from '../src/sync-plan';
import { coveredHeaders, linkHeaders, readTip } from '../src/follow';
import { Backfill } from '../src/backfill';
import type { ChainEvent } from '../src/fold';
import { MemoryChain, blockHash } from './support/memory-chain';

/** Our stored headers of chain `chain` from `from` to `to` (what the writer keeps above the finalized block). */
async function ours(chain: MemoryChain, from: number, to: number) {
  return new Map((await chain.blocks(BigInt(from), BigInt(to))).map((h) => [BigInt(h.number), { hash: h.hash }]));
}

describe('planSync', () => {
  it('a head below the indexed block: behind (wait, never rewind)', () => {
    expect(planSync({ head: 7n, indexed: 10n, canon: 8n, fin: 8n })).toEqual({ mode: 'behind' });
    expect(headBehind(7n, 10n)).toBe(true);
    expect(headBehind(10n, 10n)).toBe(false);
  });
  it('every finalized block indexed and the head above: follow, canonical up to the finalized block', () => {
    expect(planSync({ head: 12n, indexed: 10n, canon: 6n, fin: 9n })).toEqual({ mode: 'follow', finalTarget: 9n, canonTarget: 9n });
  });
  it('finalized blocks not yet indexed: check the unfinalized tip, then backfill', () => {
    expect(planSync({ head: 50n, indexed: 10n, canon: 8n, fin: 40n })).toEqual({
      mode: 'catch-up',
      finalTarget: 40n,
      canonTarget: 10n,
      checkTip: true,
      backfill: true,
    });
    expect(planSync({ head: 50n, indexed: 10n, canon: 10n, fin: 40n })).toMatchObject({ checkTip: false, backfill: true });
  });
  it('at the head: the tip is checked, nothing indexed', () => {
    expect(planSync({ head: 10n, indexed: 10n, canon: 8n, fin: 8n })).toEqual({
      mode: 'catch-up',
      finalTarget: 8n,
      canonTarget: 8n,
      checkTip: true,
      backfill: false,
    });
  });
});

describe('the common ancestor', () => {
  it('a reorg below the head: the newest block both chains share', async () => {
    const chain = new MemoryChain(12);
    const stored = await ours(chain, 8, 12);
    chain.reorg(11, 'b', 3); // blocks 11.. replaced
    expect(await findCommonAncestor(chain, stored, 8n, 12n)).toEqual({ kind: 'ancestor', block: 10n });
  });
  it('the whole unfinalized range replaced: back to the finalized block', async () => {
    const chain = new MemoryChain(12);
    const stored = await ours(chain, 8, 12);
    chain.reorg(9, 'b', 5);
    expect(await findCommonAncestor(chain, stored, 8n, 12n)).toEqual({ kind: 'ancestor', block: 8n });
  });
  it('a reorg deeper than the finality window (the finalized block replaced): below finality', async () => {
    const chain = new MemoryChain(12);
    const stored = await ours(chain, 8, 12);
    chain.reorg(6, 'b', 8);
    expect(await findCommonAncestor(chain, stored, 8n, 12n)).toEqual({ kind: 'below-finality' });
  });
  it('a node without our finalized block (lagging): wait', async () => {
    const chain = new MemoryChain(12);
    const stored = await ours(chain, 8, 12);
    chain.truncate(7);
    expect(await findCommonAncestor(chain, stored, 8n, 12n)).toEqual({ kind: 'wait' });
  });
  it('nothing stored at the finalized block (the start of indexing): it is final by definition', () => {
    expect(scanWindow(new Map(), new Map([[3n, blockHash('b', 3)]]), 3n, 3n, 5n)).toEqual({ kind: 'ancestor', block: 3n });
  });
  it('walks back a window at a time, and no further than the finalized block', async () => {
    const depth = Number(ANCESTOR_WINDOW) + 50;
    const chain = new MemoryChain(depth + 20);
    const stored = await ours(chain, 10, depth + 20);
    chain.reorg(30, 'b', depth); // the ancestor, 29, is in the second window down
    chain.reads.length = 0;
    expect(await findCommonAncestor(chain, stored, 10n, BigInt(depth + 20))).toEqual({ kind: 'ancestor', block: 29n });
    expect(chain.reads).toEqual([
      [BigInt(depth + 20) - ANCESTOR_WINDOW + 1n, BigInt(depth + 20)],
      [10n, BigInt(depth + 20) - ANCESTOR_WINDOW],
    ]);
  });
  it('the same chain (no reorg): the tip itself', async () => {
    const chain = new MemoryChain(12);
    expect(await findCommonAncestor(chain, await ours(chain, 8, 12), 8n, 12n)).toEqual({ kind: 'ancestor', block: 12n });
  });
});

describe('following the tip', () => {
  const chain = new MemoryChain(6);
  const headers = [chain.header(4), chain.header(5), chain.header(6)];

  it('new headers on our tip link up; on another parent they are a reorg', () => {
    expect(linkHeaders({ hash: chain.header(3).hash }, headers)).toBe('ok');
    expect(linkHeaders(undefined, headers)).toBe('ok');
    expect(linkHeaders({ hash: blockHash('z', 3) }, headers)).toBe('reorg');
    expect(sameBlock({ hash: chain.header(3).hash }, chain.header(3))).toBe(true);
    expect(sameBlock(undefined, chain.header(3))).toBe(false);
  });
  it('headers that do not link up among themselves: the node moved under us', () => {
    expect(linkHeaders(undefined, [headers[0]!, { ...headers[1]!, parentHash: blockHash('z', 4) }])).toBe('moved');
  });
  it('logs naming another block hash than the headers: the node moved under us', () => {
    const e = (n: number, hash: string): ChainEvent => ({
      name: 'TemplateRegistered',
      blockNumber: String(n),
      blockHash: hash,
      blockTimestamp: '1',
      txHash: blockHash('e', 1),
      logIndex: 0,
      args: {},
    });
    expect(coveredHeaders(headers, 5n, [e(4, chain.header(4).hash)])).toEqual([headers[0], headers[1]]);
    expect(coveredHeaders(headers, 6n, [e(5, blockHash('z', 5))])).toBeNull();
  });
  it('readTip: a reorg below the head is found by the first new header', async () => {
    const node = new MemoryChain(10);
    const db = { stored: await ours(node, 8, 8) };
    node.reorg(8, 'b', 4);
    const stub = fakeDb(db.stored);
    expect(await readTip(node, stub, { indexed: 8n, head: 11n, tipBlocks: 10 })).toEqual({ kind: 'reorg' });
  });
});

describe('backfill', () => {
  it('fetches the next range while one is applied, and forgets it on request', async () => {
    const chain = new MemoryChain(30);
    const b = new Backfill(chain, 10);
    const first = await b.next(0n, 25n);
    expect(first.covered).toBe(10n);
    b.prefetchAfter(first.covered, 25n);
    await settle();
    chain.reads.length = 0;
    const second = await b.next(10n, 25n);
    expect(second.covered).toBe(20n);
    expect(chain.reads).toEqual([]); // already fetched
    b.prefetchAfter(second.covered, 25n);
    b.clear();
    await settle();
    chain.reads.length = 0;
    expect((await b.next(20n, 25n)).covered).toBe(25n);
    expect(chain.reads).toEqual([[25n, 25n]]);
  });
});

/** Let reads already started finish. */
const settle = () => new Promise((r) => setImmediate(r));

/** A knex stand-in for the one stored-header read readTip makes. */
function fakeDb(stored: Map<bigint, { hash: string }>) {
  const builder = {
    withSchema: () => builder,
    table: () => builder,
    where: (_c: string, _op: string, from: string) => {
      const rows = [...stored].filter(([n]) => n >= BigInt(from)).map(([n, h]) => ({ number: String(n), hash: h.hash, parent_hash: '' }));
      return { orderBy: async () => rows };
    },
  };
  return builder as unknown as Parameters<typeof readTip>[1];
}
