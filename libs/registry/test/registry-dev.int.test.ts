import { formatEther, isAddress } from 'viem';
import {
  assertDev,
  buildChallengeTypedData,
  deployDev,
  DEV_ACCOUNT_COUNT,
  devAccount,
  devAccounts,
  factKeyOf,
  lineageFactKey,
  localClients,
  readFact,
  registryAbi,
  startAnvil,
  type AnvilHandle,
} from '@lineage/registry';
import { PINNED_DIGEST, PINNED_FACT_KEY, PINNED_INPUT, PINNED_PAIR } from './support/pinned';

let anvil: AnvilHandle;
beforeAll(async () => {
  anvil = await startAnvil({ slotsInAnEpoch: 1 });
});
afterAll(async () => {
  await anvil?.stop();
});

test('startAnvil answers on loopback; with slotsInAnEpoch 1 the finalized block trails the head by two', async () => {
  expect(anvil.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const { publicClient } = localClients(anvil.rpcUrl, devAccount(0).privateKey);
  expect(await publicClient.getChainId()).toBe(anvil.chainId);
  await publicClient.request({ method: 'anvil_mine' as never, params: ['0x5'] as never });
  const head = await publicClient.getBlockNumber();
  const finalized = await publicClient.getBlock({ blockTag: 'finalized' });
  expect(head).toBeGreaterThanOrEqual(5n);
  expect(finalized.number).toBe(head - 2n);
});

test("devAccounts are anvil's funded development accounts", async () => {
  const { publicClient } = localClients(anvil.rpcUrl, devAccount(0).privateKey);
  const res = await fetch(anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] }),
  });
  const nodeAccounts = ((await res.json()) as { result: string[] }).result;
  expect(nodeAccounts.slice(0, DEV_ACCOUNT_COUNT).map((a) => a.toLowerCase())).toEqual(devAccounts().map((a) => a.address.toLowerCase()));
  const balance = await publicClient.getBalance({ address: devAccount(5).address });
  expect(Number(formatEther(balance))).toBeGreaterThan(1000);
});

test('deployDev deploys, registers the defaults and assertDev asserts a pair', async () => {
  const deployed = await deployDev(anvil.rpcUrl);
  expect(isAddress(deployed.address, { strict: true })).toBe(true);
  expect(deployed).toMatchObject({ chainId: 31337, templateId: 1n, policyId: 1n });
  const { publicClient } = localClients(anvil.rpcUrl, devAccount(0).privateKey);
  const code = await publicClient.getCode({ address: deployed.address, blockNumber: deployed.deployedBlock });
  expect(code && code.length > 2).toBe(true);

  const pair = PINNED_PAIR;
  const manifestHash = `0x${'cd'.repeat(32)}` as const;
  const asserted = await assertDev({ rpcUrl: anvil.rpcUrl, address: deployed.address, pair, outcome: 'TRUE', manifestHash });
  expect(asserted.factKey).toBe(lineageFactKey(1n, pair));
  expect(asserted.factKey).toBe(factKeyOf(1n, asserted.subjectHash));
  const fact = await publicClient.readContract({
    address: deployed.address,
    abi: registryAbi,
    functionName: 'getFact',
    args: [asserted.factKey],
  });
  expect(fact).toMatchObject({ assertionId: asserted.assertionId, status: 1, outcome: 1, manifestHash });

  // The first deployment by dev account 0 lands at the address the pinned
  // digest was computed for: the contract's own digest equals the pinned one.
  expect(deployed.address).toBe(PINNED_INPUT.domain.verifyingContract);
  const typed = buildChallengeTypedData(PINNED_INPUT);
  expect(
    await publicClient.readContract({
      address: deployed.address,
      abi: registryAbi,
      functionName: 'challengeDigest',
      args: [typed.message],
    }),
  ).toBe(PINNED_DIGEST);
  expect(asserted.factKey.toString()).toBe(PINNED_FACT_KEY);

  // readFact: enums as strings, null for unresolved ids; at the finalized block (two behind) the fact is not there yet.
  expect(await readFact({ publicClient, address: deployed.address, factKey: PINNED_FACT_KEY })).toEqual({
    assertionId: asserted.assertionId,
    status: 'ASSERTED',
    outcome: 'TRUE',
    manifestHash,
    resolutionId: null,
    policyId: 1n,
    resolvedAt: null,
  });
  expect(await readFact({ publicClient, address: deployed.address, factKey: PINNED_FACT_KEY, blockTag: 'finalized' })).toBeNull();
  expect(await readFact({ publicClient, address: deployed.address, factKey: asserted.factKey + 1n })).toBeNull();
});

test('stop() ends the anvil process', async () => {
  const extra = await startAnvil();
  expect(() => process.kill(extra.pid, 0)).not.toThrow();
  await extra.stop();
  expect(() => process.kill(extra.pid, 0)).toThrow();
});
