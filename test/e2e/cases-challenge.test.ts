// Challenge preparation end to end: a real anvil with the registry, the stack with
// chain-reader pointed at it, a case published from an event, the API's typed data
// signed by a development wallet and relayed to challengeWithSig. The service signs nothing.
import {
  assertDev,
  buildChallengeTypedData,
  deployDev,
  devAccount,
  lineageFactKey,
  localClients,
  readFact,
  registryAbi,
  startAnvil,
  DEFAULT_DEV_POLICY,
  type AnvilHandle,
} from '@lineage/registry';
import { createTestClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/processes';
import { json } from '../support/http';
import { Standins } from '../../services/case-store/test/standins';
import { completedEvent, fixtureManifest, manifestBytes } from '../../services/case-store/test/manifest-fixture';

jest.setTimeout(60_000);

let anvil: AnvilHandle;
let stack: Stack;
let standins: Standins;
let registry: Awaited<ReturnType<typeof deployDev>>;

// Anvil's public development accounts (well-known keys, tests only): 1 challenges, 2 relays.
const challenger = devAccount(1);
const relayer = devAccount(2);
const ASSERTED_MANIFEST = `0x${'cd'.repeat(32)}` as Hex;

const fixture = {
  originUrl: 'https://github.com/chain/origin',
  targetUrl: 'https://github.com/chain/target',
  originCommit: '1'.repeat(40),
  targetCommit: '2'.repeat(40),
  evidence: 8,
};
const pair = {
  originUrl: fixture.originUrl,
  originCommit: fixture.originCommit,
  targetUrl: fixture.targetUrl,
  targetCommit: fixture.targetCommit,
};
let caseId: string;
let otherCaseId: string;

const post = (path: string, body: unknown) =>
  fetch(`${stack.api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const mine = (blocks: number) => createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).mine({ blocks });

async function publish(analysisId: string, o: typeof fixture): Promise<string> {
  const { bytes, hash } = manifestBytes(fixtureManifest(o));
  standins.manifests.set(analysisId, { bytes, hash });
  await standins.publish(completedEvent(analysisId, o, hash, bytes.length));
  return waitFor(
    `case of analysis ${analysisId}`,
    async () => {
      const hit = (await json(await fetch(`${stack.api}/cases?repository=${encodeURIComponent(o.targetUrl)}`))).items[0];
      return hit?.id as string | undefined;
    },
    30_000,
    200,
  );
}

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
    },
  });
  await stack.procs['analysis-pipeline'].stop();
  standins = await Standins.connect(stack.nats.url);
  standins.servePipeline();
  caseId = await publish('1', fixture);
  otherCaseId = await publish('2', { ...fixture, targetUrl: 'https://github.com/chain/never-asserted' });
}, 180_000);

afterAll(async () => {
  await standins?.close();
  await stack?.stop();
  await anvil?.stop();
}, 60_000);

it('prepares typed data that a wallet signs and anyone relays to challengeWithSig', async () => {
  await assertDev({ rpcUrl: anvil.rpcUrl, address: registry.address, pair, outcome: 'TRUE', manifestHash: ASSERTED_MANIFEST });
  await mine(3); // past finality, for a reader that falls back to the chain

  const rationale = 'The shared files come from a common upstream project.';
  const res = await post(`/cases/${caseId}/challenge-preparation`, { challenger: challenger.address, rationale });
  expect(res.status).toBe(200);
  const prep = await json(res);
  const factKey = lineageFactKey(registry.templateId, pair).toString();
  const now = Math.floor(Date.now() / 1000);
  expect(prep.typedData).toMatchObject({
    domain: { name: 'LineageRegistry', version: '1', chainId: '31337', verifyingContract: registry.address },
    primaryType: 'Challenge',
    message: {
      factKey,
      caseId,
      manifestHash: ASSERTED_MANIFEST,
      evidenceDigest: `0x${'00'.repeat(32)}`,
      challenger: challenger.address,
      nonce: '0',
    },
  });
  const deadline = Number(prep.typedData.message.deadline);
  expect(deadline).toBeGreaterThan(now);
  expect(deadline).toBeLessThanOrEqual(now + 3600 + 5);
  expect(prep.relay).toEqual({ contract: registry.address, function: 'challengeWithSig' });

  // Any case is the same address: one whose EIP-55 checksum is off (a letter's case flipped) prepares the same
  // challenge, named in its checksummed form (it was a 503 CHAIN_UNAVAILABLE: viem refused it at the nonce read).
  const flipped = challenger.address.replace(/[a-fA-F]/, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  expect(flipped).not.toBe(challenger.address);
  const sameAgain = await post(`/cases/${caseId}/challenge-preparation`, { challenger: flipped, rationale });
  expect(sameAgain.status).toBe(200);
  expect((await json(sameAgain)).typedData.message).toMatchObject({ challenger: challenger.address, nonce: '0' });

  // The wallet: decimal strings back to bigints, then sign (viem signTypedData).
  const typed = buildChallengeTypedData({ domain: prep.typedData.domain, message: prep.typedData.message });
  const signature = await privateKeyToAccount(challenger.privateKey).signTypedData(typed);

  const { publicClient, walletClient } = localClients(anvil.rpcUrl, relayer.privateKey);
  const onChainDigest = await publicClient.readContract({
    address: registry.address,
    abi: registryAbi,
    functionName: 'challengeDigest',
    args: [typed.message],
  });
  expect(onChainDigest).toBe(prep.digest);

  const hash = await walletClient.writeContract({
    address: registry.address,
    abi: registryAbi,
    functionName: 'challengeWithSig',
    args: [typed.message, signature],
    value: DEFAULT_DEV_POLICY.bondWei,
    chain: walletClient.chain,
    account: walletClient.account!,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  const fact = await readFact({ publicClient, address: registry.address, factKey: BigInt(factKey) });
  expect(fact?.status).toBe('CHALLENGED');
  const nonce = await publicClient.readContract({
    address: registry.address,
    abi: registryAbi,
    functionName: 'nonces',
    args: [challenger.address],
  });
  expect(nonce).toBe(1n);

  // Once challenged there is nothing left to challenge.
  await mine(3);
  // 409 once the projection has seen the challenge final (a slow machine takes a few polls); waitFor fails otherwise.
  const again = await waitFor(
    'the fact no longer challengeable (409)',
    async () => {
      const r = await post(`/cases/${caseId}/challenge-preparation`, { challenger: challenger.address, rationale });
      return r.status === 409 ? r : false;
    },
    30_000,
  );
  expect((await json(again)).error.code).toBe('FACT_NOT_CHALLENGEABLE');
});

it('a case whose fact was never asserted is 409, an unknown case 404, a bad body 400', async () => {
  const body = { challenger: challenger.address, rationale: 'nothing was asserted for this pair' };
  const res = await post(`/cases/${otherCaseId}/challenge-preparation`, body);
  expect(res.status).toBe(409);
  expect((await json(res)).error.code).toBe('FACT_NOT_CHALLENGEABLE');
  expect((await post('/cases/999999/challenge-preparation', body)).status).toBe(404);
  expect((await post(`/cases/${caseId}/challenge-preparation`, { ...body, challenger: '0x1234' })).status).toBe(400);
  expect((await post(`/cases/${caseId}/challenge-preparation`, { ...body, evidenceDigest: '0xnothex' })).status).toBe(400);
});

it('is 503 CHAIN_UNAVAILABLE when the chain side is not there, and the case still reads', async () => {
  await stack.procs['chain-reader'].stop();
  const res = await post(`/cases/${otherCaseId}/challenge-preparation`, {
    challenger: challenger.address,
    rationale: 'the chain side is down now',
  });
  expect(res.status).toBe(503);
  expect((await json(res)).error.code).toBe('CHAIN_UNAVAILABLE');
  const read = await fetch(`${stack.api}/cases/${caseId}`);
  expect(read.status).toBe(200);
});
