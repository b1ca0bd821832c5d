// The chain side through the gateway: a real anvil with the registry deployed,
// chain-reader reading it directly at the finalized block.
import { assertDev, lineageFactKey, type AnvilHandle } from '@lineage/registry';
import { createTestClient, http } from 'viem';
import type { Stack } from '../support/stack';
import { startChainStack, type ChainStack } from '../support/chain-stack';
import { json } from '../support/http';
import { waitFor } from '../support/processes';

let chain: ChainStack;
let anvil: AnvilHandle;
let stack: Stack;
let registry: ChainStack['registry'];

beforeAll(async () => {
  chain = await startChainStack();
  ({ anvil, stack, registry } = chain);
}, 120_000);
afterAll(async () => {
  await chain?.stop();
}, 60_000);

const get = (path: string) => fetch(`${stack.api}${path}`);

it('describes the live registry with its EIP-712 domain', async () => {
  const c = await json(await get('/chain/contract'));
  expect(c).toMatchObject({
    name: 'LineageRegistry',
    status: 'live',
    chainId: '31337',
    address: registry.address,
    deployedBlock: String(registry.deployedBlock),
    eip712Domain: { chainId: '31337', verifyingContract: registry.address },
  });
  expect(c.capabilities).toContain('challengeWithSig');
});

it('reads a fact directly at the finalized block and compares it with the projection', async () => {
  const pair = {
    originUrl: 'https://github.com/example/origin',
    originCommit: 'a'.repeat(40),
    targetUrl: 'https://github.com/example/target',
    targetCommit: 'b'.repeat(40),
  };
  const factKey = lineageFactKey(registry.templateId, pair).toString();
  const before = await json(await get(`/facts/${factKey}?source=chain`));
  expect(before).toMatchObject({ factKey, source: 'chain', chain: { exists: false }, projection: null, matches: true });
  expect(before).toMatchObject({
    canonical: null,
    latest: null,
    comparison: { canonical: { projection: null, matches: true }, latest: { projection: null, matches: true } },
  });

  const asserted = await assertDev({
    rpcUrl: anvil.rpcUrl,
    address: registry.address,
    pair,
    outcome: 'TRUE',
    manifestHash: `0x${'cd'.repeat(32)}`,
  });
  // Not final yet: the finalized block trails the head by two. The read at the head has it already.
  const pending = await json(await get(`/facts/${factKey}?source=chain`));
  expect(pending.chain.exists).toBe(false);
  expect(pending.canonical).toBeNull();
  expect(pending.latest).toMatchObject({
    outcome: 'TRUE',
    status: 'ASSERTED',
    manifestHash: `0x${'cd'.repeat(32)}`,
    blockNumber: pending.readAt.latest.blockNumber,
  });
  expect(BigInt(pending.readAt.latest.blockNumber)).toBeGreaterThanOrEqual(asserted.blockNumber);
  expect(BigInt(pending.readAt.latest.blockNumber) - BigInt(pending.readAt.canonical.blockNumber)).toBe(2n);
  await createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).mine({ blocks: 3 });
  const after = await json(await get(`/facts/${factKey}?source=chain`));
  expect(after.chain).toMatchObject({ exists: true, outcome: 'TRUE', status: 'ASSERTED', manifestHash: `0x${'cd'.repeat(32)}` });
  expect(BigInt(after.blockNumber)).toBeGreaterThan(BigInt(pending.blockNumber));
  expect(after.blockHash).toMatch(/^0x[0-9a-f]{64}$/);
  // The fact-indexer (reaching the chain only through chain-reader) projects it; once its canonical view
  // reaches the same finalized block, the direct read and the projection agree.
  const agreed = await waitFor('projection matches the chain', async () => {
    const b = await json(await get(`/facts/${factKey}?source=chain`));
    return b.matches === true ? b : false;
  });
  expect(agreed.projection).toMatchObject({ outcome: 'TRUE', status: 'ASSERTED', manifestHash: `0x${'cd'.repeat(32)}` });
  expect(agreed.canonical).toMatchObject({
    outcome: 'TRUE',
    status: 'ASSERTED',
    blockNumber: agreed.blockNumber,
    blockHash: agreed.blockHash,
  });
  expect(agreed.comparison.canonical).toEqual({ projection: agreed.projection, matches: true });
});
