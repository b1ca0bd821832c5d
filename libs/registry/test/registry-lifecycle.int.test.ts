import { getAddress, keccak256, parseEventLogs, stringToBytes, type Abi, type Address, type Hex } from 'viem';
import { foundry } from 'viem/chains';
import { DEFAULT_DEV_POLICY, factKeyOf, policyFamily, registryAbi } from '@lineage/registry';
import {
  ASSERTER,
  CHALLENGER,
  OWNER,
  RELAYER,
  RESOLVER,
  STRANGER,
  eventsOf,
  revertOf,
  startRegistryChain,
  type RegistryTestChain,
} from './support/chain';
import { compileTestContracts } from './support/test-contracts';

// Contract enum values.
const TRUE = 1;
const FALSE = 2;
const UNDETERMINED = 3;
const ASSERTED = 1;
const CHALLENGED = 2;
const RESOLVED = 3;
const LIVENESS = 1;
const ARBITRATION = 2;

const BOND = DEFAULT_DEV_POLICY.bondWei;
const LIVENESS_SECONDS = DEFAULT_DEV_POLICY.livenessSeconds;

let c: RegistryTestChain;
beforeAll(async () => {
  c = await startRegistryChain();
});
afterAll(async () => {
  await c?.stop();
});

const read = <T>(functionName: string, args: readonly unknown[] = []): Promise<T> =>
  c.publicClient.readContract({ address: c.address, abi: registryAbi, functionName, args } as never) as Promise<T>;

let seq = 0;
const newSubject = (): Hex => keccak256(stringToBytes(`subject-${++seq}`));
const manifestHash = (label: string): Hex => keccak256(stringToBytes(`manifest-${label}`));

interface Asserted {
  assertionId: bigint;
  factKey: bigint;
  subjectHash: Hex;
  expiresAt: bigint;
  assertedAt: bigint;
}

async function assertNew(opts: { subjectHash?: Hex; outcome?: number; policyId?: bigint; value?: bigint } = {}): Promise<Asserted> {
  const subjectHash = opts.subjectHash ?? newSubject();
  const receipt = await c.write(
    ASSERTER,
    'assertFact',
    [c.templateId, subjectHash, opts.outcome ?? TRUE, manifestHash(subjectHash), opts.policyId ?? c.policyId],
    opts.value ?? BOND,
  );
  const [event] = eventsOf(receipt);
  const block = await c.publicClient.getBlock({ blockNumber: receipt.blockNumber });
  return {
    assertionId: event?.args.assertionId as bigint,
    factKey: event?.args.factKey as bigint,
    subjectHash,
    expiresAt: event?.args.expiresAt as bigint,
    assertedAt: block.timestamp,
  };
}

async function challenged(): Promise<Asserted> {
  const a = await assertNew();
  await c.write(CHALLENGER, 'challenge', [a.assertionId, 7n, manifestHash('evidence'), manifestHash('why')], BOND);
  return a;
}

describe('assertFact', () => {
  test('refuses unknown templates and policies, invalid outcomes, empty hashes and a wrong bond', async () => {
    const s = newSubject();
    const m = manifestHash('x');
    const templates = await read<bigint>('templateCount');
    const policies = await read<bigint>('policyCount');
    const cases: [readonly [bigint, Hex, number, Hex, bigint], bigint, string, readonly unknown[]][] = [
      [[0n, s, TRUE, m, c.policyId], BOND, 'UnknownTemplate', [0n]],
      [[templates + 1n, s, TRUE, m, c.policyId], BOND, 'UnknownTemplate', [templates + 1n]],
      [[c.templateId, s, TRUE, m, 0n], BOND, 'UnknownPolicy', [0n]],
      [[c.templateId, s, TRUE, m, policies + 1n], BOND, 'UnknownPolicy', [policies + 1n]],
      [[c.templateId, s, 0, m, c.policyId], BOND, 'InvalidOutcome', [0]],
      [[c.templateId, s, 4, m, c.policyId], BOND, 'InvalidOutcome', [4]],
      [[c.templateId, `0x${'0'.repeat(64)}`, TRUE, m, c.policyId], BOND, 'EmptyHash', []],
      [[c.templateId, s, TRUE, `0x${'0'.repeat(64)}`, c.policyId], BOND, 'EmptyHash', []],
      [[c.templateId, s, TRUE, m, c.policyId], 0n, 'WrongBond', [BOND, 0n]],
      [[c.templateId, s, TRUE, m, c.policyId], BOND * 2n, 'WrongBond', [BOND, BOND * 2n]],
    ];
    for (const [args, value, errorName, errorArgs] of cases) {
      expect(await revertOf(c.write(ASSERTER, 'assertFact', args, value))).toEqual({ errorName, args: errorArgs });
    }
  });

  test('records the assertion, emits FactAsserted and shows it as the fact', async () => {
    const subjectHash = newSubject();
    const m = manifestHash('record');
    const count = await read<bigint>('assertionCount');
    const receipt = await c.write(ASSERTER, 'assertFact', [c.templateId, subjectHash, FALSE, m, c.policyId], BOND);
    const block = await c.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const factKey = factKeyOf(c.templateId, subjectHash);
    const assertionId = count + 1n;
    const expiresAt = block.timestamp + LIVENESS_SECONDS;

    expect(eventsOf(receipt)).toEqual([
      {
        eventName: 'FactAsserted',
        args: {
          assertionId,
          factKey,
          asserter: c.addr(ASSERTER),
          templateId: c.templateId,
          subjectHash,
          outcome: FALSE,
          manifestHash: m,
          policyId: c.policyId,
          expiresAt,
        },
      },
    ]);
    expect(await read('factKeyOf', [c.templateId, subjectHash])).toBe(factKey);
    expect(await read('assertionCount')).toBe(assertionId);
    expect(await read('currentAssertionOf', [factKey])).toBe(assertionId);
    expect(await read('getAssertion', [assertionId])).toEqual({
      factKey,
      subjectHash,
      manifestHash: m,
      asserter: c.addr(ASSERTER),
      templateId: c.templateId,
      outcome: FALSE,
      status: ASSERTED,
      resolvedOutcome: 0,
      how: 0,
      policyId: c.policyId,
      assertedAt: block.timestamp,
      expiresAt,
      resolutionId: 0n,
      challenger: '0x0000000000000000000000000000000000000000',
      challengedAt: 0n,
      bondPayer: '0x0000000000000000000000000000000000000000',
      resolvedAt: 0n,
    });
    expect(await read('getFact', [factKey])).toEqual({
      assertionId,
      status: ASSERTED,
      outcome: FALSE,
      manifestHash: m,
      resolutionId: 0n,
      policyId: c.policyId,
      resolvedAt: 0n,
    });
    // The bond is held by the registry.
    expect(await c.publicClient.getBalance({ address: c.address })).toBeGreaterThanOrEqual(BOND);
  });

  test('an unknown fact reads as all zeros', async () => {
    expect(await read('getFact', [factKeyOf(c.templateId, newSubject())])).toEqual({
      assertionId: 0n,
      status: 0,
      outcome: 0,
      manifestHash: `0x${'0'.repeat(64)}`,
      resolutionId: 0n,
      policyId: 0n,
      resolvedAt: 0n,
    });
  });

  test('one unresolved assertion per fact: refused while asserted or challenged, allowed once resolved', async () => {
    const a = await assertNew();
    expect(
      await revertOf(c.write(ASSERTER, 'assertFact', [c.templateId, a.subjectHash, TRUE, manifestHash('2'), c.policyId], BOND)),
    ).toEqual({
      errorName: 'AssertionPending',
      args: [a.factKey, a.assertionId],
    });
    await c.write(CHALLENGER, 'challenge', [a.assertionId, 1n, manifestHash('e'), manifestHash('r')], BOND);
    expect(
      (await revertOf(c.write(STRANGER, 'assertFact', [c.templateId, a.subjectHash, TRUE, manifestHash('2'), c.policyId], BOND))).errorName,
    ).toBe('AssertionPending');
    await c.write(RESOLVER, 'resolve', [a.assertionId, TRUE]);

    const next = await assertNew({ subjectHash: a.subjectHash, outcome: UNDETERMINED });
    expect(next.factKey).toBe(a.factKey);
    expect(next.assertionId).toBeGreaterThan(a.assertionId);
    const fact = await read<{ assertionId: bigint; status: number; outcome: number; resolutionId: bigint }>('getFact', [a.factKey]);
    expect(fact).toMatchObject({ assertionId: next.assertionId, status: ASSERTED, outcome: UNDETERMINED, resolutionId: 0n });
  });

  test('getAssertion refuses unknown ids', async () => {
    const count = await read<bigint>('assertionCount');
    expect(await revertOf(read('getAssertion', [0n]))).toEqual({ errorName: 'UnknownAssertion', args: [0n] });
    expect(await revertOf(read('getAssertion', [count + 1n]))).toEqual({ errorName: 'UnknownAssertion', args: [count + 1n] });
  });
});

describe('challenge', () => {
  test('refuses an unknown assertion and a wrong bond', async () => {
    const a = await assertNew();
    const count = await read<bigint>('assertionCount');
    expect(await revertOf(c.write(CHALLENGER, 'challenge', [count + 1n, 1n, manifestHash('e'), manifestHash('r')], BOND))).toEqual({
      errorName: 'UnknownAssertion',
      args: [count + 1n],
    });
    expect(await revertOf(c.write(CHALLENGER, 'challenge', [a.assertionId, 1n, manifestHash('e'), manifestHash('r')], 0n))).toEqual({
      errorName: 'WrongBond',
      args: [BOND, 0n],
    });
  });

  test('marks the assertion CHALLENGED, records who and emits AssertionChallenged; a second challenge is refused', async () => {
    const a = await assertNew();
    const receipt = await c.write(CHALLENGER, 'challenge', [a.assertionId, 42n, manifestHash('e'), manifestHash('r')], BOND);
    const block = await c.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    expect(eventsOf(receipt)).toEqual([
      {
        eventName: 'AssertionChallenged',
        args: {
          assertionId: a.assertionId,
          factKey: a.factKey,
          challenger: c.addr(CHALLENGER),
          caseId: 42n,
          manifestHash: manifestHash(a.subjectHash),
          evidenceDigest: manifestHash('e'),
          rationaleHash: manifestHash('r'),
          bondPayer: c.addr(CHALLENGER),
          bySignature: false,
          nonce: 0n,
        },
      },
    ]);
    expect(await read('getAssertion', [a.assertionId])).toMatchObject({
      status: CHALLENGED,
      challenger: c.addr(CHALLENGER),
      challengedAt: block.timestamp,
      bondPayer: c.addr(CHALLENGER),
    });
    expect(await read('getFact', [a.factKey])).toMatchObject({ status: CHALLENGED, outcome: TRUE });
    expect(await revertOf(c.write(STRANGER, 'challenge', [a.assertionId, 1n, manifestHash('e'), manifestHash('r')], BOND))).toEqual({
      errorName: 'NotChallengeable',
      args: [a.assertionId, CHALLENGED],
    });
  });

  test('allowed until one second before expiry, refused at expiry', async () => {
    const early = await assertNew();
    await c.nextTimestamp(early.expiresAt - 1n);
    await c.write(CHALLENGER, 'challenge', [early.assertionId, 1n, manifestHash('e'), manifestHash('r')], BOND);
    expect((await read<{ status: number }>('getAssertion', [early.assertionId])).status).toBe(CHALLENGED);

    const late = await assertNew();
    await c.nextTimestamp(late.expiresAt);
    expect(await revertOf(c.write(CHALLENGER, 'challenge', [late.assertionId, 1n, manifestHash('e'), manifestHash('r')], BOND))).toEqual({
      errorName: 'LivenessExpired',
      args: [late.assertionId, late.expiresAt],
    });
  });

  test('refused after resolution', async () => {
    const a = await assertNew();
    await c.nextTimestamp(a.expiresAt);
    await c.write(STRANGER, 'settle', [a.assertionId]);
    expect(await revertOf(c.write(CHALLENGER, 'challenge', [a.assertionId, 1n, manifestHash('e'), manifestHash('r')], BOND))).toEqual({
      errorName: 'NotChallengeable',
      args: [a.assertionId, RESOLVED],
    });
  });
});

describe('settle', () => {
  test('refused before liveness has passed', async () => {
    const a = await assertNew();
    expect(await revertOf(c.write(STRANGER, 'settle', [a.assertionId]))).toEqual({
      errorName: 'LivenessNotExpired',
      args: [a.assertionId, a.expiresAt],
    });
    await c.nextTimestamp(a.expiresAt - 1n);
    expect((await revertOf(c.write(STRANGER, 'settle', [a.assertionId]))).errorName).toBe('LivenessNotExpired');
  });

  test('anyone settles at expiry: RESOLVED with the asserted outcome, bond credited to the asserter', async () => {
    const a = await assertNew({ outcome: FALSE });
    const creditBefore = await read<bigint>('withdrawable', [c.addr(ASSERTER)]);
    const resolutions = await read<bigint>('resolutionCount');
    await c.nextTimestamp(a.expiresAt);
    const receipt = await c.write(STRANGER, 'settle', [a.assertionId]);
    const resolutionId = resolutions + 1n;
    expect(eventsOf(receipt)).toEqual([
      {
        eventName: 'AssertionResolved',
        args: { assertionId: a.assertionId, factKey: a.factKey, resolutionId, outcome: FALSE, how: LIVENESS, resolvedBy: c.addr(STRANGER) },
      },
      { eventName: 'BondCredited', args: { account: c.addr(ASSERTER), assertionId: a.assertionId, amount: BOND } },
    ]);
    expect(await read('getFact', [a.factKey])).toEqual({
      assertionId: a.assertionId,
      status: RESOLVED,
      outcome: FALSE,
      manifestHash: manifestHash(a.subjectHash),
      resolutionId,
      policyId: c.policyId,
      resolvedAt: a.expiresAt,
    });
    expect(await read('getResolution', [resolutionId])).toEqual({
      assertionId: a.assertionId,
      factKey: a.factKey,
      outcome: FALSE,
      how: LIVENESS,
      resolvedAt: a.expiresAt,
    });
    expect(await read('assertionOfResolution', [resolutionId])).toBe(a.assertionId);
    expect(await read('resolutionCount')).toBe(resolutionId);
    expect(await read('withdrawable', [c.addr(ASSERTER)])).toBe(creditBefore + BOND);
    expect(await read('getAssertion', [a.assertionId])).toMatchObject({
      status: RESOLVED,
      outcome: FALSE,
      resolvedOutcome: FALSE,
      how: LIVENESS,
      resolutionId,
      resolvedAt: a.expiresAt,
    });
    expect(await revertOf(c.write(STRANGER, 'settle', [a.assertionId]))).toEqual({
      errorName: 'NotSettleable',
      args: [a.assertionId, RESOLVED],
    });
  });

  test('refused for a challenged assertion and an unknown one', async () => {
    const a = await challenged();
    await c.nextTimestamp(a.expiresAt + 10n);
    expect(await revertOf(c.write(STRANGER, 'settle', [a.assertionId]))).toEqual({
      errorName: 'NotSettleable',
      args: [a.assertionId, CHALLENGED],
    });
    expect(await revertOf(c.write(STRANGER, 'settle', [0n]))).toEqual({ errorName: 'UnknownAssertion', args: [0n] });
  });
});

describe('resolve', () => {
  test('only the policy resolver, only challenged assertions, only valid outcomes', async () => {
    const pending = await assertNew();
    expect(await revertOf(c.write(RESOLVER, 'resolve', [pending.assertionId, TRUE]))).toEqual({
      errorName: 'NotChallenged',
      args: [pending.assertionId, ASSERTED],
    });
    const a = await challenged();
    expect(await revertOf(c.write(STRANGER, 'resolve', [a.assertionId, TRUE]))).toEqual({
      errorName: 'NotResolver',
      args: [c.addr(STRANGER), c.addr(RESOLVER)],
    });
    expect(await revertOf(c.write(OWNER, 'resolve', [a.assertionId, TRUE]))).toEqual({
      errorName: 'NotResolver',
      args: [c.addr(OWNER), c.addr(RESOLVER)],
    });
    expect(await revertOf(c.write(RESOLVER, 'resolve', [a.assertionId, 0]))).toEqual({ errorName: 'InvalidOutcome', args: [0] });
    expect(await revertOf(c.write(RESOLVER, 'resolve', [a.assertionId, 4]))).toEqual({ errorName: 'InvalidOutcome', args: [4] });
    expect(await revertOf(c.write(RESOLVER, 'resolve', [0n, TRUE]))).toEqual({ errorName: 'UnknownAssertion', args: [0n] });
  });

  test('the asserter proved right takes both bonds', async () => {
    const a = await challenged();
    const before = await read<bigint>('withdrawable', [c.addr(ASSERTER)]);
    const receipt = await c.write(RESOLVER, 'resolve', [a.assertionId, TRUE]);
    const [resolved, credited] = eventsOf(receipt);
    expect(resolved).toEqual({
      eventName: 'AssertionResolved',
      args: {
        assertionId: a.assertionId,
        factKey: a.factKey,
        resolutionId: resolved?.args.resolutionId,
        outcome: TRUE,
        how: ARBITRATION,
        resolvedBy: c.addr(RESOLVER),
      },
    });
    expect(credited).toEqual({
      eventName: 'BondCredited',
      args: { account: c.addr(ASSERTER), assertionId: a.assertionId, amount: BOND * 2n },
    });
    expect(await read('withdrawable', [c.addr(ASSERTER)])).toBe(before + BOND * 2n);
    expect(await read('getFact', [a.factKey])).toMatchObject({
      status: RESOLVED,
      outcome: TRUE,
      resolutionId: resolved?.args.resolutionId,
    });
    expect(await revertOf(c.write(RESOLVER, 'resolve', [a.assertionId, TRUE]))).toEqual({
      errorName: 'NotChallenged',
      args: [a.assertionId, RESOLVED],
    });
  });

  test('the challenger proved right: its bond payer takes both bonds and the fact shows the resolved outcome', async () => {
    const a = await challenged();
    const before = await read<bigint>('withdrawable', [c.addr(CHALLENGER)]);
    const receipt = await c.write(RESOLVER, 'resolve', [a.assertionId, UNDETERMINED]);
    expect(eventsOf(receipt)[1]).toEqual({
      eventName: 'BondCredited',
      args: { account: c.addr(CHALLENGER), assertionId: a.assertionId, amount: BOND * 2n },
    });
    expect(await read('withdrawable', [c.addr(CHALLENGER)])).toBe(before + BOND * 2n);
    expect(await read('getFact', [a.factKey])).toMatchObject({ status: RESOLVED, outcome: UNDETERMINED });
    expect(await read('getAssertion', [a.assertionId])).toMatchObject({ outcome: TRUE, resolvedOutcome: UNDETERMINED, how: ARBITRATION });
  });

  test('getResolution refuses unknown ids', async () => {
    const count = await read<bigint>('resolutionCount');
    expect(await revertOf(read('getResolution', [count + 1n]))).toEqual({ errorName: 'UnknownResolution', args: [count + 1n] });
    expect(await revertOf(read('getResolution', [0n]))).toEqual({ errorName: 'UnknownResolution', args: [0n] });
  });
});

describe('withdraw', () => {
  test('refused with nothing credited', async () => {
    expect(await revertOf(c.write(RELAYER, 'withdraw', []))).toEqual({ errorName: 'NothingToWithdraw', args: [] });
  });

  test('pays the credited bonds and emits BondWithdrawn', async () => {
    const a = await assertNew();
    await c.nextTimestamp(a.expiresAt);
    await c.write(STRANGER, 'settle', [a.assertionId]);
    const credited = await read<bigint>('withdrawable', [c.addr(ASSERTER)]);
    expect(credited).toBeGreaterThanOrEqual(BOND);
    const balanceBefore = await c.publicClient.getBalance({ address: c.addr(ASSERTER) });
    const receipt = await c.write(ASSERTER, 'withdraw', []);
    expect(eventsOf(receipt)).toEqual([{ eventName: 'BondWithdrawn', args: { account: c.addr(ASSERTER), amount: credited } }]);
    const balanceAfter = await c.publicClient.getBalance({ address: c.addr(ASSERTER) });
    expect(balanceAfter).toBe(balanceBefore + credited - receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await read('withdrawable', [c.addr(ASSERTER)])).toBe(0n);
  });

  test('reverts with WithdrawFailed when the receiver refuses ether, keeping the credit', async () => {
    const { abi, bytecode } = compileTestContracts().RejectEther;
    const wallet = c.wallets[STRANGER]!;
    const deployHash = await wallet.deployContract({ abi, bytecode, account: wallet.account, chain: foundry });
    const rejecter = getAddress((await c.publicClient.waitForTransactionReceipt({ hash: deployHash })).contractAddress as Address);
    const bothAbis = [...abi, ...registryAbi] as Abi;
    const subjectHash = newSubject();
    const assertHash = await wallet.writeContract({
      address: rejecter,
      abi: bothAbis,
      functionName: 'assertFact',
      args: [c.address, c.templateId, subjectHash, manifestHash('rejecter'), c.policyId],
      value: BOND,
      account: wallet.account,
      chain: foundry,
    });
    const assertReceipt = await c.publicClient.waitForTransactionReceipt({ hash: assertHash });
    const [asserted] = parseEventLogs({ abi: registryAbi, logs: assertReceipt.logs, eventName: 'FactAsserted' });
    expect(asserted?.args.asserter).toBe(rejecter);
    await c.nextTimestamp((asserted?.args.expiresAt ?? 0n) + 1n);
    await c.write(STRANGER, 'settle', [asserted?.args.assertionId ?? 0n]);
    expect(await read('withdrawable', [rejecter])).toBe(BOND);

    const failure = await revertOf(
      wallet.writeContract({
        address: rejecter,
        abi: bothAbis,
        functionName: 'withdraw',
        args: [c.address],
        account: wallet.account,
        chain: foundry,
      }),
    );
    expect(failure).toEqual({ errorName: 'WithdrawFailed', args: [] });
    expect(await read('withdrawable', [rejecter])).toBe(BOND);
  });
});

describe('policy immutability', () => {
  test('an assertion keeps the policy version it was made under', async () => {
    const family = policyFamily('immutability');
    const v1Receipt = await c.write(OWNER, 'registerPolicy', [family, 100n, 0n, c.addr(RESOLVER), 1000n]);
    const v1 = eventsOf(v1Receipt)[0]?.args.policyId as bigint;
    const a = await assertNew({ policyId: v1, value: 0n });

    const v2Receipt = await c.write(OWNER, 'registerPolicy', [family, 5000n, 1n, c.addr(STRANGER), 2000n]);
    const v2 = eventsOf(v2Receipt)[0]?.args.policyId as bigint;
    expect(await read('latestPolicyOf', [family])).toBe(v2);

    expect(await read('getAssertion', [a.assertionId])).toMatchObject({ policyId: v1, expiresAt: a.assertedAt + 100n });
    expect(await read('getPolicy', [v1])).toEqual({
      family,
      bond: 0n,
      version: 1n,
      liveness: 100n,
      resolver: c.addr(RESOLVER),
      freshness: 1000n,
    });
    // v1's bond (zero), not v2's, is what a challenge must post.
    expect(await revertOf(c.write(CHALLENGER, 'challenge', [a.assertionId, 1n, manifestHash('e'), manifestHash('r')], 1n))).toEqual({
      errorName: 'WrongBond',
      args: [0n, 1n],
    });
    await c.write(CHALLENGER, 'challenge', [a.assertionId, 1n, manifestHash('e'), manifestHash('r')], 0n);
    // v2's resolver has no say over a v1 assertion.
    expect(await revertOf(c.write(STRANGER, 'resolve', [a.assertionId, FALSE]))).toEqual({
      errorName: 'NotResolver',
      args: [c.addr(STRANGER), c.addr(RESOLVER)],
    });
    const receipt = await c.write(RESOLVER, 'resolve', [a.assertionId, FALSE]);
    // Zero bond: nothing is credited.
    expect(eventsOf(receipt).map((e) => e.eventName)).toEqual(['AssertionResolved']);
    expect(await read('getFact', [a.factKey])).toMatchObject({ status: RESOLVED, outcome: FALSE, policyId: v1 });
  });
});
