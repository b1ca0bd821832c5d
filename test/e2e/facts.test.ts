// The facts family end to end: real anvil (finalized = head - 2), real NATS
// and PostgreSQL, every service as a process; reads through the gateway.
import {
  assertDev,
  buildChallengeTypedData,
  devAccount,
  lineageFactKey,
  localClients,
  policyFamily,
  rationaleHashOf,
  readRegistryDomain,
  registryAbi,
  ZERO_BYTES32,
  type AnvilHandle,
} from '@lineage/registry';
import { createTestClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Stack } from '../support/stack';
import {
  chainActivity as chainActivityOf,
  projectedActivity as projectedActivityOf,
  startChainStack,
  type ChainStack,
} from '../support/chain-stack';
import { waitFor } from '../support/processes';
import { json } from '../support/http';

let chain: ChainStack;
let anvil: AnvilHandle;
let stack: Stack;
let registry: ChainStack['registry'];

beforeAll(async () => {
  chain = await startChainStack({ 'chain-reader': { RPC_ATTEMPTS: '2' }, 'fact-indexer': { INDEXER_POLL_INTERVAL_MS: '100' } });
  ({ anvil, stack, registry } = chain);
}, 120_000);
afterAll(async () => {
  await chain?.stop();
}, 60_000);

const get = (path: string) => fetch(`${stack.api}${path}`);
const body = async (path: string) => json(await get(path));
const test = () => createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) });
const mine = (blocks = 3) => test().mine({ blocks });
const rpc = (method: string, params: unknown[]) => test().request({ method: method as never, params: params as never });

const pair = (n: number) => ({
  originUrl: `https://github.com/example/origin-${n}`,
  originCommit: n.toString(16).padStart(40, 'a'),
  targetUrl: `https://github.com/example/target-${n}`,
  targetCommit: n.toString(16).padStart(40, 'b'),
});
const keyOf = (n: number) => lineageFactKey(registry.templateId, pair(n)).toString();
const manifest = (n: number): Hex => `0x${n.toString(16).padStart(2, '0').repeat(32)}`;
const assertPair = (n: number, outcome: 'TRUE' | 'FALSE' | 'UNDETERMINED' = 'TRUE') =>
  assertDev({ rpcUrl: anvil.rpcUrl, address: registry.address, pair: pair(n), outcome, manifestHash: manifest(n) });

/** Wait until the projection of a fact satisfies `ok`. */
const factWhen = (
  factKey: string,
  what: string,
  ok: (f: { canonical: { status: string } | null; latest: { status: string } | null } & Record<string, unknown>) => boolean,
) =>
  waitFor(
    what,
    async () => {
      const res = await get(`/facts/${factKey}`);
      if (res.status !== 200) return false;
      const b = await json(res);
      return ok(b.fact) ? b : false;
    },
    30_000,
    100,
  );

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect((await json(res)).error.code).toBe(code);
}

const chainActivity = () => chainActivityOf(chain);
const projectedActivity = () => projectedActivityOf(chain);

describe('registry projections', () => {
  it('projects the template and the versioned policy registered at deployment', async () => {
    const templates = await waitFor('templates', async () => {
      const b = await body('/templates');
      return b.items.length > 0 ? b : false;
    });
    expect(templates.items[0]).toMatchObject({ templateId: '1', name: 'lineage/v1', textHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const policies = await body('/policies');
    expect(policies.items[0]).toMatchObject({
      policyId: '1',
      version: '1',
      livenessSeconds: '3600',
      bondWei: '10000000000000000',
      resolver: devAccount(1).address,
      freshnessSeconds: String(30 * 24 * 3600),
    });
    expect(policies.meta).toEqual({
      indexedBlock: expect.stringMatching(/^\d+$/),
      finalizedBlock: expect.stringMatching(/^\d+$/),
      lagBlocks: expect.stringMatching(/^\d+$/),
      halted: false,
    });
  });
});

describe('a fact through its lifecycle', () => {
  const n = 1;
  let assertionId: bigint;

  it('shows an assertion in latest at once, and in canonical once finalized', async () => {
    const asserted = await assertPair(n);
    assertionId = asserted.assertionId;
    const pending = await factWhen(keyOf(n), 'latest', (f) => f.latest?.status === 'ASSERTED');
    expect(pending.fact).toMatchObject({ factKey: keyOf(n), templateId: '1', canonical: null, fresh: false });
    expect(pending.fact.latest).toMatchObject({
      outcome: 'TRUE',
      assertionId: String(assertionId),
      resolutionId: null,
      manifestHash: manifest(n),
      blockNumber: String(asserted.blockNumber),
    });
    // A client waiting for its own write: behind → 409, reached → 200.
    await expectError(await get(`/facts/${keyOf(n)}?minBlock=${asserted.blockNumber + 1000n}`), 409, 'INDEXER_BEHIND');
    expect((await get(`/facts/${keyOf(n)}?minBlock=${asserted.blockNumber}`)).status).toBe(200);

    // Read from the chain: `latest` (at the head) has the assertion, `canonical` (at the finalized block) not yet,
    // exactly like the projection, and each is compared with the projection's view of the same name.
    const unfinal = await body(`/facts/${keyOf(n)}?source=chain`);
    expect(unfinal).toMatchObject({
      factKey: keyOf(n),
      source: 'chain',
      canonical: null,
      latest: { outcome: 'TRUE', status: 'ASSERTED', assertionId: String(assertionId), resolutionId: null, manifestHash: manifest(n) },
      comparison: { canonical: { projection: null, matches: true }, latest: { projection: pending.fact.latest, matches: true } },
      chain: { exists: false },
      projection: null,
      matches: true,
    });
    // Each chain view names the block its read was pinned at; the head is at or above the assertion, the finalized block below it.
    expect(unfinal.latest).toMatchObject({
      blockNumber: unfinal.readAt.latest.blockNumber,
      blockHash: unfinal.readAt.latest.blockHash,
      updatedAt: expect.stringMatching(/^\d+$/),
    });
    expect(BigInt(unfinal.readAt.latest.blockNumber)).toBeGreaterThanOrEqual(asserted.blockNumber);
    expect(BigInt(unfinal.readAt.canonical.blockNumber)).toBeLessThan(asserted.blockNumber);
    expect(unfinal.readAt.canonical).toEqual({ blockNumber: unfinal.blockNumber, blockHash: unfinal.blockHash });
    expect(unfinal.meta).toMatchObject({ indexedBlock: expect.stringMatching(/^\d+$/), halted: false });

    await mine(3);
    const final = await factWhen(keyOf(n), 'canonical', (f) => f.canonical?.status === 'ASSERTED');
    expect(final.fact.canonical).toEqual(final.fact.latest);
    const direct = await waitFor('the chain read matches both views', async () => {
      const b = await body(`/facts/${keyOf(n)}?source=chain`);
      return b.comparison.canonical.matches && b.comparison.latest.matches ? b : false;
    });
    expect(direct).toMatchObject({ source: 'chain', chain: { exists: true, status: 'ASSERTED', outcome: 'TRUE' }, matches: true });
    expect(direct.projection).toEqual(final.fact.canonical);
    expect(direct.comparison).toEqual({
      canonical: { projection: final.fact.canonical, matches: true },
      latest: { projection: final.fact.latest, matches: true },
    });
    // Same fields as the projection's FactView; the block is the one read at.
    const fields = { outcome: 'TRUE', status: 'ASSERTED', assertionId: String(assertionId), resolutionId: null, manifestHash: manifest(n) };
    expect(direct.canonical).toEqual({
      ...fields,
      blockNumber: direct.blockNumber,
      blockHash: direct.blockHash,
      updatedAt: expect.stringMatching(/^\d+$/),
    });
    expect(direct.latest).toEqual({
      ...fields,
      blockNumber: direct.readAt.latest.blockNumber,
      blockHash: direct.readAt.latest.blockHash,
      updatedAt: expect.stringMatching(/^\d+$/),
    });
    expect(Object.keys(direct.canonical).sort()).toEqual(Object.keys(final.fact.canonical).sort());
  });

  it('a challenge signed by a test account and relayed to challengeWithSig appears in activity and in latest', async () => {
    const { publicClient } = localClients(anvil.rpcUrl, devAccount(0).privateKey);
    const challenger = privateKeyToAccount(devAccount(3).privateKey); // anvil's public development key
    const domain = await readRegistryDomain(publicClient, registry.address);
    const nonce = await publicClient.readContract({
      address: registry.address,
      abi: registryAbi,
      functionName: 'nonces',
      args: [challenger.address],
    });
    const block = await publicClient.getBlock();
    const typed = buildChallengeTypedData({
      domain,
      message: {
        factKey: keyOf(n),
        caseId: '4211',
        manifestHash: manifest(n),
        evidenceDigest: ZERO_BYTES32,
        rationaleHash: rationaleHashOf('The target repository predates the origin.'),
        challenger: challenger.address,
        nonce,
        deadline: block.timestamp + 600n,
      },
    });
    const signature = await challenger.signTypedData(typed);
    const relayer = localClients(anvil.rpcUrl, devAccount(2).privateKey);
    const policy = await publicClient.readContract({
      address: registry.address,
      abi: registryAbi,
      functionName: 'getPolicy',
      args: [registry.policyId],
    });
    const tx = await relayer.walletClient.writeContract({
      address: registry.address,
      abi: registryAbi,
      functionName: 'challengeWithSig',
      args: [typed.message, signature],
      value: policy.bond,
      chain: null,
    });
    await publicClient.waitForTransactionReceipt({ hash: tx });

    const challenged = await factWhen(keyOf(n), 'challenged', (f) => f.latest?.status === 'CHALLENGED');
    expect(challenged.fact.canonical.status).toBe('ASSERTED');
    // On the chain too: the head says CHALLENGED, the finalized block still ASSERTED; both agree with the projection.
    const direct = await body(`/facts/${keyOf(n)}?source=chain`);
    expect(direct).toMatchObject({
      canonical: { status: 'ASSERTED' },
      latest: { status: 'CHALLENGED', assertionId: String(assertionId) },
      comparison: {
        canonical: { projection: challenged.fact.canonical, matches: true },
        latest: { projection: challenged.fact.latest, matches: true },
      },
    });
    const activity = await body('/activity?kind=AssertionChallenged');
    expect(activity.items[0]).toMatchObject({
      kind: 'AssertionChallenged',
      factKey: keyOf(n),
      assertionId: String(assertionId),
      actor: challenger.address,
      txHash: tx,
      finalized: false,
    });
  });

  it('arbitration resolves it; the resolution ends in canonical', async () => {
    const resolver = localClients(anvil.rpcUrl, devAccount(1).privateKey); // the dev policy's resolver
    const tx = await resolver.walletClient.writeContract({
      address: registry.address,
      abi: registryAbi,
      functionName: 'resolve',
      args: [assertionId, 2],
      chain: null,
    });
    await resolver.publicClient.waitForTransactionReceipt({ hash: tx });
    await mine(3);
    const resolved = await factWhen(keyOf(n), 'canonical resolved', (f) => f.canonical?.status === 'RESOLVED');
    expect(resolved.fact.canonical).toMatchObject({ outcome: 'FALSE', resolutionId: expect.stringMatching(/^\d+$/) });
    expect(resolved.fact.fresh).toBe(true);
    const r = await body(`/resolutions/${resolved.fact.canonical.resolutionId}`);
    expect(r.resolution).toMatchObject({
      factKey: keyOf(n),
      assertionId: String(assertionId),
      outcome: 'FALSE',
      method: 'ARBITRATION',
      txHash: tx,
    });
    expect(r.resolution.canonical).toEqual(resolved.fact.canonical);
    expect(r.resolution.latest).toEqual(resolved.fact.latest);
    expect((await body(`/facts/${keyOf(n)}?source=chain`)).matches).toBe(true);
  });

  it('an unchallenged assertion resolves after liveness (anvil time travel) and ends in canonical', async () => {
    const m = 2;
    const a = await assertPair(m, 'UNDETERMINED');
    await rpc('evm_increaseTime', [3601]);
    await mine(1);
    const { walletClient, publicClient } = localClients(anvil.rpcUrl, devAccount(4).privateKey);
    const tx = await walletClient.writeContract({
      address: registry.address,
      abi: registryAbi,
      functionName: 'settle',
      args: [a.assertionId],
      chain: null,
    });
    await publicClient.waitForTransactionReceipt({ hash: tx });
    await mine(3);
    const done = await factWhen(keyOf(m), 'settled', (f) => f.canonical?.status === 'RESOLVED');
    expect(done.fact.canonical).toMatchObject({ outcome: 'UNDETERMINED', assertionId: String(a.assertionId) });
    const r = await body(`/resolutions/${done.fact.canonical.resolutionId}`);
    expect(r.resolution.method).toBe('LIVENESS');
    expect((await body(`/facts/${keyOf(m)}?source=chain`)).matches).toBe(true);
  });
});

describe('policies are versioned, never edited', () => {
  it('a newer version is a new policy; assertions made earlier keep theirs', async () => {
    const owner = localClients(anvil.rpcUrl, devAccount(0).privateKey); // the registry owner (anvil's public dev key)
    const tx = await owner.walletClient.writeContract({
      address: registry.address,
      abi: registryAbi,
      functionName: 'registerPolicy',
      chain: null,
      args: [policyFamily('lineage-default'), 60n, 0n, devAccount(1).address, 60n],
    });
    await owner.publicClient.waitForTransactionReceipt({ hash: tx });
    const policies = await waitFor('policy v2', async () => {
      const b = await body('/policies');
      return b.items.length === 2 ? b : false;
    });
    expect(policies.items.map((p: { policyId: string; version: string; family: string }) => [p.policyId, p.version, p.family])).toEqual([
      ['1', '1', policyFamily('lineage-default')],
      ['2', '2', policyFamily('lineage-default')],
    ]);
    expect(policies.items[0]).toMatchObject({ livenessSeconds: '3600', freshnessSeconds: String(30 * 24 * 3600) });
    expect(policies.items[1]).toMatchObject({ livenessSeconds: '60', freshnessSeconds: '60', bondWei: '0' });
    // Fact 1 was resolved under policy 1 (30 days fresh): a 60 s policy registered later does not touch it.
    await rpc('evm_increaseTime', [3600]);
    await mine(3);
    await waitFor('chain time reaches the indexer', async () =>
      (await body('/facts?fresh=true')).items.some((f: { factKey: string }) => f.factKey === keyOf(1)),
    );
  });
});

describe('lists, filters and errors', () => {
  it('filters by outcome and freshness, bounds limit and pages with signed cursors', async () => {
    await assertPair(3, 'TRUE'); // stays ASSERTED: never fresh
    await mine(3);
    await factWhen(keyOf(3), 'third fact canonical', (f) => f.canonical?.status === 'ASSERTED');
    const all = await body('/facts?limit=100');
    expect(all.items.map((f: { factKey: string }) => f.factKey).sort()).toEqual([keyOf(1), keyOf(2), keyOf(3)].sort());
    expect(all.meta.indexedBlock).toMatch(/^\d+$/);
    expect((await body('/facts?outcome=FALSE')).items.map((f: { factKey: string }) => f.factKey)).toEqual([keyOf(1)]);
    expect((await body('/facts?outcome=TRUE')).items.map((f: { factKey: string }) => f.factKey)).toEqual([keyOf(3)]);
    expect((await body('/facts?fresh=true')).items.map((f: { factKey: string }) => f.factKey).sort()).toEqual([keyOf(1), keyOf(2)].sort());
    expect((await body('/facts?fresh=false')).items.map((f: { factKey: string }) => f.factKey)).toEqual([keyOf(3)]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { factKey: string }[]; nextCursor: string | null } = await body(
        `/facts?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.items.length).toBe(1);
      seen.push(page.items[0]!.factKey);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((f: { factKey: string }) => f.factKey));
    const first = await body('/facts?limit=1');
    // A cursor is bound to its filters, and cannot be forged.
    await expectError(await get(`/facts?limit=1&outcome=TRUE&cursor=${first.nextCursor}`), 400, 'VALIDATION_FAILED');
    await expectError(await get(`/facts?cursor=${first.nextCursor}x`), 400, 'VALIDATION_FAILED');
    for (const bad of ['0', '101', '-1', 'ten']) await expectError(await get(`/facts?limit=${bad}`), 400, 'VALIDATION_FAILED');
    expect((await body('/activity?limit=100')).items.length).toBeGreaterThan(5);
  });

  it('source=chain: the same page, each fact read from the chain at its finalized block and compared', async () => {
    const all = await body('/facts?limit=100');
    const onChain = await waitFor('every fact of the page matches the chain', async () => {
      const b = await body('/facts?source=chain&limit=100');
      return b.items.every((i: { matches: boolean }) => i.matches) ? b : false;
    });
    expect(onChain).toMatchObject({
      source: 'chain',
      nextCursor: null,
      meta: { indexedBlock: expect.stringMatching(/^\d+$/), halted: false },
    });
    expect(onChain.items.map((i: { factKey: string }) => i.factKey)).toEqual(all.items.map((f: { factKey: string }) => f.factKey));
    for (const [i, item] of onChain.items.entries()) {
      const ours = all.items[i].canonical;
      expect(item.projection).toEqual(ours);
      expect(item.blockHash).toMatch(/^0x[0-9a-f]{64}$/);
      // The chain's view, in the FactView shape, pinned to the finalized block the item names.
      expect(item.canonical).toEqual({
        outcome: ours.outcome,
        status: ours.status,
        assertionId: ours.assertionId,
        resolutionId: ours.resolutionId,
        manifestHash: ours.manifestHash,
        blockNumber: item.blockNumber,
        blockHash: item.blockHash,
        updatedAt: expect.stringMatching(/^\d+$/),
      });
      expect(BigInt(item.blockNumber)).toBeGreaterThanOrEqual(BigInt(ours.blockNumber));
    }
    // Filters, limits and cursors are the projection list's.
    expect((await body('/facts?source=chain&outcome=FALSE')).items.map((i: { factKey: string }) => i.factKey)).toEqual([keyOf(1)]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { factKey: string; matches: boolean }[]; nextCursor: string | null } = await body(
        `/facts?source=chain&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.items.length).toBeGreaterThan(0);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((i) => i.factKey));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((f: { factKey: string }) => f.factKey));
    for (const bad of ['0', '101']) await expectError(await get(`/facts?source=chain&limit=${bad}`), 400, 'VALIDATION_FAILED');
    await expectError(await get('/facts?source=node'), 400, 'VALIDATION_FAILED');
    // An explicit `source=projection` is the projection list.
    expect((await body('/facts?source=projection&limit=100')).items).toEqual(all.items);
  });

  it('unknown keys are FACT_NOT_FOUND / RESOLUTION_NOT_FOUND; the protocol reports the indexer', async () => {
    await expectError(await get('/facts/123456789'), 404, 'FACT_NOT_FOUND');
    await expectError(await get('/resolutions/999999'), 404, 'RESOLUTION_NOT_FOUND');
    const p = await body('/protocol');
    expect(p).toMatchObject({
      chainId: '31337',
      registryAddress: registry.address,
      indexer: { writer: true, state: 'following', halted: null },
    });
    expect(BigInt(p.indexer.headBlock) - BigInt(p.indexer.indexedBlock)).toBe(BigInt(p.indexer.lagBlocks));
    expect(BigInt(p.indexer.finalizedBlock)).toBeLessThanOrEqual(BigInt(p.indexer.indexedBlock));
  });
});

describe('reorgs', () => {
  it('a reorg of unfinalized blocks leaves projections equal to the chain, with no event applied twice', async () => {
    const gone = await assertPair(4, 'TRUE');
    await factWhen(keyOf(4), 'fact 4 latest', (f) => f.latest?.status === 'ASSERTED');
    // Replace the last two blocks (the assertion among them) with empty ones: the assertion leaves the chain.
    await rpc('anvil_reorg', [2, []]);
    // The same pair asserted again on the new branch, with another outcome and the same assertion id.
    const again = await assertPair(4, 'FALSE');
    expect(again.assertionId).toBe(gone.assertionId);
    expect(again.blockNumber).toBeGreaterThan(gone.blockNumber);
    const after = await factWhen(
      keyOf(4),
      'fact 4 re-asserted',
      (f) => f.latest?.status === 'ASSERTED' && (f.latest as unknown as { outcome: string }).outcome === 'FALSE',
    );
    expect(after.fact.latest.blockNumber).toBe(String(again.blockNumber));
    await mine(3);
    await factWhen(keyOf(4), 'fact 4 canonical', (f) => f.canonical?.status === 'ASSERTED');
    for (const n of [1, 2, 3, 4]) expect((await body(`/facts/${keyOf(n)}?source=chain`)).matches).toBe(true);
    await waitFor(
      'activity equals the chain',
      async () => JSON.stringify(await projectedActivity()) === JSON.stringify(await chainActivity()),
      15_000,
    );
    const ids = await projectedActivity();
    expect(new Set(ids).size).toBe(ids.length);
    expect(stack.procs['fact-indexer'].output()).toMatch(/reorg: rolled back to the common ancestor/);
  });
});

describe('chain down', () => {
  it('direct reads give CHAIN_UNAVAILABLE while projections still serve', async () => {
    await anvil.stop();
    await expectError(await get(`/facts/${keyOf(1)}?source=chain`), 503, 'CHAIN_UNAVAILABLE');
    await expectError(await get('/facts?source=chain'), 503, 'CHAIN_UNAVAILABLE');
    expect((await get('/facts')).status).toBe(200);
    const res = await get(`/facts/${keyOf(1)}`);
    expect(res.status).toBe(200);
    expect((await json(res)).fact.canonical.status).toBe('RESOLVED');
    expect((await body('/chain/contract')).status).toBe('unreachable');
    expect((await body('/activity')).items.length).toBeGreaterThan(0);
  });
});
