// A reorg below the finalized block: the writer stops loudly instead of
// guessing, projections keep serving; a development reset re-indexes the chain.
import { assertDev, deployDev, lineageFactKey, startAnvil, type AnvilHandle } from '@lineage/registry';
import { createTestClient, http } from 'viem';
import { startStack, type Stack } from '../support/stack';
import { startService, waitFor, waitReady } from '../support/processes';
import { json } from '../support/http';

let anvil: AnvilHandle;
let stack: Stack;
let registry: Awaited<ReturnType<typeof deployDev>>;
const indexerEnv = { INDEXER_POLL_INTERVAL_MS: '100' };

beforeAll(async () => {
  anvil = await startAnvil({ slotsInAnEpoch: 1 });
  registry = await deployDev(anvil.rpcUrl);
  stack = await startStack({
    extraEnv: {
      'chain-reader': {
        RPC_URL: anvil.rpcUrl,
        REGISTRY_ADDRESS: registry.address,
        REGISTRY_DEPLOYED_BLOCK: String(registry.deployedBlock),
      },
      'fact-indexer': indexerEnv,
    },
  });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await anvil?.stop();
}, 60_000);

const get = (path: string) => fetch(`${stack.api}${path}`);
const body = async (path: string) => json(await get(path));
const pair = {
  originUrl: 'https://github.com/example/deep-origin',
  originCommit: 'e'.repeat(40),
  targetUrl: 'https://github.com/example/deep-target',
  targetCommit: 'f'.repeat(40),
};
const factKey = () => lineageFactKey(registry.templateId, pair).toString();

it('halts on a reorg below finality, keeps serving reads, and a development reset re-indexes the new chain', async () => {
  await assertDev({ rpcUrl: anvil.rpcUrl, address: registry.address, pair, outcome: 'TRUE', manifestHash: `0x${'ab'.repeat(32)}` });
  const test = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) });
  await test.mine({ blocks: 3 });
  await waitFor('canonical', async () => (await body(`/facts/${factKey()}`)).fact?.canonical?.status === 'ASSERTED');

  // Replace the last four blocks: the assertion's and the finalized one (head - 2) among them.
  await test.request({ method: 'anvil_reorg' as never, params: [4, []] as never });
  await test.mine({ blocks: 1 });
  const indexer = stack.procs['fact-indexer'];
  await waitFor('the writer halts', async () => /INDEXER HALTED/.test(indexer.output()), 20_000);
  expect(indexer.output()).toMatch(/reorg below the finalized block/);
  const halted = (await body('/protocol')).indexer;
  expect(halted).toMatchObject({
    state: 'halted',
    halted: expect.stringMatching(/^reorg below the finalized block \d+: .*reset\.js --yes/),
    lagBlocks: null,
  });
  // The halted writer is not ready (its check says why); reads go on through the gateway.
  const ready = await fetch(`http://127.0.0.1:${stack.ports['fact-indexer']}/ready`);
  expect(ready.status).toBe(503);
  expect((await json(ready)).checks.indexer).toEqual({ ok: false, detail: `halted: ${halted.halted}` });
  // Reads keep serving the last trustworthy state; the direct read shows the disagreement.
  expect((await body(`/facts/${factKey()}`)).fact.canonical.status).toBe('ASSERTED');
  const direct = await body(`/facts/${factKey()}?source=chain`);
  expect(direct).toMatchObject({
    matches: false,
    canonical: null,
    latest: null,
    comparison: { canonical: { matches: false }, latest: { matches: false } },
  });
  expect(direct.comparison.canonical.projection.status).toBe('ASSERTED');
  const listed = (await body('/facts?source=chain')).items.find((i: { factKey: string }) => i.factKey === factKey());
  expect(listed).toMatchObject({ canonical: null, projection: { status: 'ASSERTED' }, matches: false });

  // A restart does not clear the halt by itself...
  await indexer.stop();
  const again = startService('fact-indexer', { ...stack.env, ...indexerEnv, HTTP_PORT: String(stack.ports['fact-indexer']) });
  stack.procs['fact-indexer'] = again;
  await waitFor('fact-indexer up', async () => (await fetch(`http://127.0.0.1:${stack.ports['fact-indexer']}/health`)).status === 200);
  await waitFor('still halted', async () => (await body('/protocol')).indexer.state === 'halted', 20_000);
  await again.stop();

  // ...a development reset does: the projections are rebuilt from the chain as it is now.
  const reset = startService('fact-indexer', {
    ...stack.env,
    ...indexerEnv,
    HTTP_PORT: String(stack.ports['fact-indexer']),
    INDEXER_RESET_ON_CHAIN_CHANGE: 'true',
  });
  stack.procs['fact-indexer'] = reset;
  await waitReady(stack.ports['fact-indexer']);
  await waitFor('re-indexed', async () => (await body('/protocol')).indexer.state === 'following', 20_000);
  expect(reset.output()).toMatch(/projections reset/);
  await waitFor('fact gone with its blocks', async () => (await get(`/facts/${factKey()}`)).status === 404, 20_000);
  expect(await body(`/facts/${factKey()}?source=chain`)).toMatchObject({ chain: { exists: false }, projection: null, matches: true });
  expect((await body('/templates')).items).toHaveLength(1);
});
