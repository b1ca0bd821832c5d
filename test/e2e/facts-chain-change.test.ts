// A fresh chain under an old projection (a second `make dev`, a reset testnet):
// the same chain id, the registry redeployed at the same address, the database
// kept. The writer halts at once naming what differs (not later, as a "reorg
// below finality"), says so where an SRE looks (/ready, /protocol, list meta,
// the gauge), and the reset command gets it out: facts are projected from the
// new chain.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { assertDev, deployDev, lineageFactKey, localClients, devAccount, startAnvil, type AnvilHandle } from '@lineage/registry';
import { createTestClient, http } from 'viem';
import type { Stack } from '../support/stack';
import { startChainStack, type ChainStack } from '../support/chain-stack';
import { ROOT, startService, waitFor, waitReady } from '../support/processes';
import { json } from '../support/http';

let chain: ChainStack;
let anvil: AnvilHandle;
let stack: Stack;
let registry: ChainStack['registry'];
const indexerEnv = { INDEXER_POLL_INTERVAL_MS: '100' };

beforeAll(async () => {
  chain = await startChainStack({ 'fact-indexer': indexerEnv });
  ({ anvil, stack, registry } = chain);
}, 120_000);
afterAll(async () => {
  await chain?.stop();
  await anvil?.stop(); // the current chain, when a test replaced the first one
}, 60_000);

const get = (path: string) => fetch(`${stack.api}${path}`);
const body = async (path: string) => json(await get(path));
const indexerPort = () => stack.ports['fact-indexer'];
const ready = async () => {
  const res = await fetch(`http://127.0.0.1:${indexerPort()}/ready`);
  return { status: res.status, body: await json(res) };
};
const haltedGauge = async () =>
  /^lineage_indexer_halted(?:\{[^}]*\})? (\d+)/m.exec(await (await fetch(`http://127.0.0.1:${indexerPort()}/metrics`)).text())?.[1];
const pair = (n: number) => ({
  originUrl: `https://github.com/example/chain-origin-${n}`,
  originCommit: String(n).padStart(40, 'a'),
  targetUrl: `https://github.com/example/chain-target-${n}`,
  targetCommit: String(n).padStart(40, 'b'),
});
const factKey = (n: number) => lineageFactKey(registry.templateId, pair(n)).toString();

async function assertAndFinalize(n: number): Promise<void> {
  await assertDev({
    rpcUrl: anvil.rpcUrl,
    address: registry.address,
    pair: pair(n),
    outcome: 'TRUE',
    manifestHash: `0x${'ab'.repeat(32)}`,
  });
  await createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).mine({ blocks: 3 });
  await waitFor(`fact ${n} canonical`, async () => (await body(`/facts/${factKey(n)}`)).fact?.canonical?.status === 'ASSERTED', 20_000);
}

const blockHash = async (rpcUrl: string, n: bigint) =>
  (await localClients(rpcUrl, devAccount(0).privateKey).publicClient.getBlock({ blockNumber: n })).hash;

/** Stop the chain (and chain-reader), start a fresh anvil with the registry deployed again, point chain-reader at it. */
async function replaceChain(): Promise<void> {
  const oldHash = await blockHash(anvil.rpcUrl, BigInt(registry.deployedBlock));
  await stack.procs['chain-reader'].stop();
  await anvil.stop();
  await new Promise((r) => setTimeout(r, 1100)); // a later second: the new chain's blocks get other timestamps, hence other hashes
  anvil = await startAnvil({ slotsInAnEpoch: 1 });
  const again = await deployDev(anvil.rpcUrl);
  // The very case the old check could not see: same chain id, same address, same deployment block number...
  expect({ address: again.address, deployedBlock: again.deployedBlock, chainId: again.chainId }).toEqual({
    address: registry.address,
    deployedBlock: registry.deployedBlock,
    chainId: registry.chainId,
  });
  // ...another block there, and a chain shorter than the one indexed.
  expect(await blockHash(anvil.rpcUrl, BigInt(registry.deployedBlock))).not.toBe(oldHash);
  stack.procs['chain-reader'] = startService('chain-reader', {
    ...stack.env,
    HTTP_PORT: String(stack.ports['chain-reader']),
    RPC_URL: anvil.rpcUrl,
    REGISTRY_ADDRESS: registry.address,
    REGISTRY_DEPLOYED_BLOCK: String(registry.deployedBlock),
  });
  await waitReady(stack.ports['chain-reader']);
}

function reset(...args: string[]) {
  return spawnSync(process.execPath, [join('services', 'fact-indexer', 'dist', 'reset.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: stack.databaseUrl },
    encoding: 'utf8',
  });
}

/** The fact-indexer's /protocol body once `until` holds for it (polled for up to 30 s). */
const protocolWhen = (what: string, until: (b: Awaited<ReturnType<typeof body>>) => boolean) =>
  waitFor(
    what,
    async () => {
      const b = await body('/protocol');
      return until(b) ? b : false;
    },
    30_000,
  );

const expectHaltedOnNewChain = async () => {
  const p = await protocolWhen('the writer halts', (b) => b.indexer.state === 'halted');
  expect(p.indexer.halted).toMatch(
    new RegExp(
      `^a different chain than the one indexed: deployment block ${registry.deployedBlock} hash differs \\(indexed 0x[0-9a-f]{64}, node 0x[0-9a-f]{64}\\); .*reset\\.js --yes`,
    ),
  );
  expect(p.indexer.lagBlocks).toBeNull();
  expect(p.indexer.writer).toBe(true);
  const r = await waitFor(
    'the writer unready',
    async () => {
      const x = await ready();
      return x.status === 503 ? x : false;
    },
    10_000,
  );
  expect(r.body.status).toBe('unready');
  expect(r.body.checks.indexer).toEqual({ ok: false, detail: `halted: ${p.indexer.halted}` });
  expect(r.body.checks.postgres.ok).toBe(true);
  expect(await haltedGauge()).toBe('1');
  return p;
};

describe('a fresh chain under an old projection', () => {
  it('a running writer halts at once, naming the deployment block, and keeps serving the old facts', async () => {
    await assertAndFinalize(1);
    // Caught up with the finalized chain first: a projection still behind would index on until the chain is replaced.
    const before = await protocolWhen('the writer caught up', (b) => b.indexer.lagBlocks === '0');
    expect(before.indexer).toMatchObject({ state: 'following', halted: null, lagBlocks: expect.stringMatching(/^\d+$/) });
    expect((await ready()).status).toBe(200);

    await replaceChain();
    const p = await expectHaltedOnNewChain();
    // Caught as a different chain, not later as a reorg below finality; the projection stays where it was.
    expect(stack.procs['fact-indexer'].output()).not.toMatch(/reorg below the finalized block/);
    expect(p.indexer.indexedBlock).toBe(before.indexer.indexedBlock);
    const list = await body('/facts');
    expect(list.meta).toMatchObject({ halted: true, lagBlocks: null });
    expect((await body(`/facts/${factKey(1)}`)).fact.canonical.status).toBe('ASSERTED');
  });

  it('a restarted writer finds the halt in the cursor: still halted, unready, gauge 1', async () => {
    await stack.procs['fact-indexer'].stop();
    stack.procs['fact-indexer'] = startService('fact-indexer', { ...stack.env, ...indexerEnv, HTTP_PORT: String(indexerPort()) });
    await waitFor('fact-indexer up', async () => (await fetch(`http://127.0.0.1:${indexerPort()}/health`)).status === 200, 30_000);
    await expectHaltedOnNewChain();
  });

  it('the reset command (only with --yes) clears the halt; the writer projects the new chain', async () => {
    const refused = reset();
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/refusing to reset without --yes/);
    expect((await body('/protocol')).indexer.state).toBe('halted');

    const done = reset('--yes');
    expect(done.status).toBe(0);
    expect(JSON.parse(done.stdout.trim())).toMatchObject({
      msg: 'facts projection reset',
      was: { halted: expect.stringMatching(/hash differs/) },
    });
    // The running writer notices on its next poll; no restart.
    await protocolWhen('indexing again', (b) => b.indexer.state === 'following' && b.indexer.halted === null);
    expect((await ready()).status).toBe(200);
    expect(await haltedGauge()).toBe('0');
    expect((await get(`/facts/${factKey(1)}`)).status).toBe(404); // the old chain's fact is gone with it
    // "Following" says the writer polls the new chain, not that it has projected that chain's blocks yet: on a loaded
    // machine the template event can still be a poll away.
    await waitFor("the new chain's template projected", async () => (await body('/templates')).items.length === 1, 30_000);
    expect((await body('/templates')).items).toHaveLength(1);

    await assertAndFinalize(2);
    expect(await body(`/facts/${factKey(2)}?source=chain`)).toMatchObject({ chain: { exists: true }, matches: true });
    expect((await body('/facts')).meta).toMatchObject({ halted: false, lagBlocks: expect.stringMatching(/^\d+$/) });
  });

  it('a writer started on a fresh chain halts at recovery, before indexing anything', async () => {
    const indexed = (await body('/protocol')).indexer.indexedBlock;
    await stack.procs['fact-indexer'].stop();
    await replaceChain();
    stack.procs['fact-indexer'] = startService('fact-indexer', { ...stack.env, ...indexerEnv, HTTP_PORT: String(indexerPort()) });
    const p = await expectHaltedOnNewChain();
    expect(p.indexer.indexedBlock).toBe(indexed);
    expect(stack.procs['fact-indexer'].output()).not.toMatch(/reorg below the finalized block/);

    expect(reset('--yes').status).toBe(0);
    await protocolWhen('indexing again', (b) => b.indexer.state === 'following');
    expect((await get(`/facts/${factKey(2)}`)).status).toBe(404);
  });
});
