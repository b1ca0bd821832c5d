import { concat, getAddress, hexToBigInt, keccak256, numberToHex, parseSignature, stringToBytes, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import {
  DEFAULT_DEV_POLICY,
  buildChallengeTypedData,
  challengeDigest,
  devAccount,
  factKeyOf,
  lineageSubjectHash,
  rationaleHashOf,
  readRegistryDomain,
  recoverChallengeSigner,
  registryAbi,
  ZERO_BYTES32,
  type ChallengeTypedData,
  type ChallengeTypedDataInput,
} from '@lineage/registry';
import {
  ASSERTER,
  CHALLENGER,
  RELAYER,
  RESOLVER,
  STRANGER,
  eventsOf,
  revertOf,
  startRegistryChain,
  type RegistryTestChain,
} from './support/chain';
import { compileTestContracts } from './support/test-contracts';

const TRUE = 1;
const CHALLENGED = 2;
const RESOLVED = 3;
const BOND = DEFAULT_DEV_POLICY.bondWei;
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const challengerAccount = privateKeyToAccount(devAccount(CHALLENGER).privateKey);
const strangerAccount = privateKeyToAccount(devAccount(STRANGER).privateKey);

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
const manifestOf = (subjectHash: Hex): Hex => keccak256(subjectHash);

async function assertNew(): Promise<{ assertionId: bigint; factKey: bigint; subjectHash: Hex; expiresAt: bigint }> {
  const subjectHash = keccak256(stringToBytes(`sig-subject-${++seq}`));
  const receipt = await c.write(ASSERTER, 'assertFact', [c.templateId, subjectHash, TRUE, manifestOf(subjectHash), c.policyId], BOND);
  const args = eventsOf(receipt)[0]?.args ?? {};
  return { assertionId: args.assertionId as bigint, factKey: args.factKey as bigint, subjectHash, expiresAt: args.expiresAt as bigint };
}

/** Typed data the way the API prepares it: decimal strings in, bigints out. */
async function prepare(
  a: { factKey: bigint; subjectHash: Hex },
  overrides: Partial<ChallengeTypedDataInput['message']> = {},
): Promise<ChallengeTypedData> {
  const domain = await readRegistryDomain(c.publicClient, c.address);
  const nonce = await read<bigint>('nonces', [challengerAccount.address]);
  return buildChallengeTypedData({
    domain: { ...domain, chainId: domain.chainId.toString() },
    message: {
      factKey: a.factKey.toString(),
      caseId: '17',
      manifestHash: manifestOf(a.subjectHash),
      evidenceDigest: ZERO_BYTES32,
      rationaleHash: rationaleHashOf('the target predates the origin'),
      challenger: challengerAccount.address,
      nonce: nonce.toString(),
      deadline: ((await c.now()) + 600n).toString(),
      ...overrides,
    },
  });
}

const relay = (typed: ChallengeTypedData, signature: Hex, value = BOND) =>
  c.write(RELAYER, 'challengeWithSig', [typed.message, signature], value);

function splitSignature(signature: Hex): { r: Hex; s: Hex; v: number } {
  const { r, s, v } = parseSignature(signature);
  return { r, s, v: Number(v) };
}
const joinSignature = (r: Hex, s: Hex, v: number): Hex => concat([r, s, numberToHex(v, { size: 1 })]);

describe('digests agree with the contract', () => {
  test("the contract's challengeDigest equals viem's for the same typed data", async () => {
    const domain = await readRegistryDomain(c.publicClient, c.address);
    const max = ((1n << 256n) - 1n).toString();
    const inputs: ChallengeTypedDataInput['message'][] = [
      {
        factKey: '1',
        caseId: '0',
        manifestHash: ZERO_BYTES32,
        evidenceDigest: ZERO_BYTES32,
        rationaleHash: ZERO_BYTES32,
        challenger: challengerAccount.address,
        nonce: '0',
        deadline: '0',
      },
      {
        factKey: max,
        caseId: max,
        manifestHash: `0x${'ff'.repeat(32)}`,
        evidenceDigest: `0x${'AB'.repeat(32)}`,
        rationaleHash: rationaleHashOf('ünïcode rationale'),
        challenger: challengerAccount.address.toLowerCase(),
        nonce: max,
        deadline: max,
      },
    ];
    for (const message of inputs) {
      const typed = buildChallengeTypedData({ domain, message });
      expect(await read('challengeDigest', [typed.message])).toBe(challengeDigest(typed));
    }
  });

  test('the lineageSubjectHash view equals the library recipe', async () => {
    const pair = {
      originUrl: 'https://github.com/owner/ørigin',
      originCommit: 'ABCDEF0123456789abcdef0123456789ABCDEF01',
      targetUrl: 'https://gitlab.com/group/target',
      targetCommit: '0123456789abcdef0123456789abcdef01234567',
    };
    expect(await read('lineageSubjectHash', [pair.originUrl, `0x${pair.originCommit}`, pair.targetUrl, `0x${pair.targetCommit}`])).toBe(
      lineageSubjectHash(pair),
    );
  });
});

describe('challengeWithSig', () => {
  test("a relayer submits the challenger's signed challenge and posts the bond", async () => {
    const a = await assertNew();
    const typed = await prepare(a);
    const signature = await challengerAccount.signTypedData(typed);
    expect(await recoverChallengeSigner(typed, signature)).toBe(challengerAccount.address);

    const receipt = await relay(typed, signature);
    expect(eventsOf(receipt)).toEqual([
      {
        eventName: 'AssertionChallenged',
        args: {
          assertionId: a.assertionId,
          factKey: a.factKey,
          challenger: challengerAccount.address,
          caseId: 17n,
          manifestHash: manifestOf(a.subjectHash),
          evidenceDigest: ZERO_BYTES32,
          rationaleHash: rationaleHashOf('the target predates the origin'),
          bondPayer: c.addr(RELAYER),
          bySignature: true,
          nonce: typed.message.nonce,
        },
      },
    ]);
    expect(await read('nonces', [challengerAccount.address])).toBe(typed.message.nonce + 1n);
    expect(await read('getAssertion', [a.assertionId])).toMatchObject({
      status: CHALLENGED,
      challenger: challengerAccount.address,
      bondPayer: c.addr(RELAYER),
    });
  });

  test('a replayed signature is refused', async () => {
    const a = await assertNew();
    const typed = await prepare(a);
    const signature = await challengerAccount.signTypedData(typed);
    await relay(typed, signature);
    // Resolve it and assert the same fact with the same manifest again: the
    // signed message matches the new assertion, and only the spent nonce stops a replay.
    await c.write(RESOLVER, 'resolve', [a.assertionId, TRUE]);
    await c.write(ASSERTER, 'assertFact', [c.templateId, a.subjectHash, TRUE, manifestOf(a.subjectHash), c.policyId], BOND);
    expect(await read('getFact', [a.factKey])).toMatchObject({ status: 1, manifestHash: manifestOf(a.subjectHash) });
    expect(await revertOf(relay(typed, signature))).toEqual({
      errorName: 'InvalidNonce',
      args: [challengerAccount.address, typed.message.nonce + 1n],
    });
  });

  test('a signature past its deadline is refused; at the deadline it is accepted', async () => {
    const a = await assertNew();
    const past = await prepare(a, { deadline: ((await c.now()) - 1n).toString() });
    expect(await revertOf(relay(past, await challengerAccount.signTypedData(past)))).toEqual({
      errorName: 'SignatureExpired',
      args: [past.message.deadline],
    });

    const now = await c.now();
    const soon = await prepare(a, { deadline: (now + 30n).toString() });
    const signature = await challengerAccount.signTypedData(soon);
    await c.nextTimestamp(now + 31n);
    expect(await revertOf(relay(soon, signature))).toEqual({ errorName: 'SignatureExpired', args: [now + 30n] });

    const b = await assertNew();
    const edge = await prepare(b, { deadline: ((await c.now()) + 30n).toString() });
    await c.nextTimestamp(edge.message.deadline);
    await relay(edge, await challengerAccount.signTypedData(edge));
    expect((await read<{ status: number }>('getAssertion', [b.assertionId])).status).toBe(CHALLENGED);
  });

  test('a signature by someone other than the named challenger is refused', async () => {
    const a = await assertNew();
    const typed = await prepare(a);
    expect(await revertOf(relay(typed, await strangerAccount.signTypedData(typed)))).toEqual({
      errorName: 'WrongSigner',
      args: [strangerAccount.address, challengerAccount.address],
    });
  });

  test('a signature for a different message is refused (the digest covers every field)', async () => {
    const a = await assertNew();
    const typed = await prepare(a);
    const signature = await challengerAccount.signTypedData(typed);
    const tampered = { ...typed, message: { ...typed.message, caseId: typed.message.caseId + 1n } };
    expect((await revertOf(relay(tampered, signature))).errorName).toBe('WrongSigner');
  });

  test('the malleable twin of a valid signature (high s) is refused', async () => {
    const a = await assertNew();
    const typed = await prepare(a);
    const { r, s, v } = splitSignature(await challengerAccount.signTypedData(typed));
    const twin = joinSignature(r, numberToHex(SECP256K1_N - hexToBigInt(s), { size: 32 }), v === 27 ? 28 : 27);
    expect(await revertOf(relay(typed, twin))).toEqual({ errorName: 'MalleableSignature', args: [] });
  });

  test('malformed signatures are refused: length, v, unrecoverable', async () => {
    const a = await assertNew();
    const typed = await prepare(a);
    const signature = await challengerAccount.signTypedData(typed);
    const { r, s, v } = splitSignature(signature);
    expect(await revertOf(relay(typed, concat([r, s])))).toEqual({ errorName: 'InvalidSignatureLength', args: [64n] });
    expect(await revertOf(relay(typed, concat([signature, '0x00'])))).toEqual({ errorName: 'InvalidSignatureLength', args: [66n] });
    expect(await revertOf(relay(typed, joinSignature(r, s, v - 27)))).toEqual({ errorName: 'InvalidSignatureV', args: [v - 27] });
    expect(await revertOf(relay(typed, joinSignature(ZERO_BYTES32, s, v)))).toEqual({ errorName: 'InvalidSignature', args: [] });
  });

  test('a zero challenger, a wrong nonce and a wrong bond are refused', async () => {
    const a = await assertNew();
    const zero = await prepare(a, { challenger: '0x0000000000000000000000000000000000000000' });
    expect(await revertOf(relay(zero, await challengerAccount.signTypedData(zero)))).toEqual({ errorName: 'ZeroAddress', args: [] });

    const current = await read<bigint>('nonces', [challengerAccount.address]);
    const ahead = await prepare(a, { nonce: (current + 1n).toString() });
    expect(await revertOf(relay(ahead, await challengerAccount.signTypedData(ahead)))).toEqual({
      errorName: 'InvalidNonce',
      args: [challengerAccount.address, current],
    });

    const typed = await prepare(a);
    expect(await revertOf(relay(typed, await challengerAccount.signTypedData(typed), 0n))).toEqual({
      errorName: 'WrongBond',
      args: [BOND, 0n],
    });
    // Failed relays spend nothing.
    expect(await read('nonces', [challengerAccount.address])).toBe(current);
  });

  test('a fact without an assertion, or a signed manifest that is not the asserted one, is refused', async () => {
    const unknownFact = factKeyOf(c.templateId, keccak256(stringToBytes('never asserted')));
    const none = await prepare({ factKey: unknownFact, subjectHash: ZERO_BYTES32 });
    expect(await revertOf(relay(none, await challengerAccount.signTypedData(none)))).toEqual({
      errorName: 'NoActiveAssertion',
      args: [unknownFact],
    });

    const a = await assertNew();
    const other = keccak256(stringToBytes('another manifest'));
    const mismatch = await prepare(a, { manifestHash: other });
    expect(await revertOf(relay(mismatch, await challengerAccount.signTypedData(mismatch)))).toEqual({
      errorName: 'ManifestMismatch',
      args: [manifestOf(a.subjectHash), other],
    });
  });

  test('a signed challenge after resolution, or after liveness, is refused', async () => {
    const settled = await assertNew();
    const typed = await prepare(settled);
    const signature = await challengerAccount.signTypedData(typed);
    await c.nextTimestamp(settled.expiresAt);
    await c.write(STRANGER, 'settle', [settled.assertionId]);
    expect(await revertOf(relay(typed, signature))).toEqual({
      errorName: 'SignatureExpired',
      args: [typed.message.deadline],
    });
    const fresh = await prepare(settled);
    expect(await revertOf(relay(fresh, await challengerAccount.signTypedData(fresh)))).toEqual({
      errorName: 'NotChallengeable',
      args: [settled.assertionId, RESOLVED],
    });

    const expired = await assertNew();
    const late = await prepare(expired, { deadline: (expired.expiresAt + 100n).toString() });
    await c.nextTimestamp(expired.expiresAt);
    expect(await revertOf(relay(late, await challengerAccount.signTypedData(late)))).toEqual({
      errorName: 'LivenessExpired',
      args: [expired.assertionId, expired.expiresAt],
    });
  });
});

describe('invalidateNonce', () => {
  test('burns the current nonce, voiding a signed challenge, and emits NonceInvalidated', async () => {
    const a = await assertNew();
    const typed = await prepare(a);
    const signature = await challengerAccount.signTypedData(typed);
    const receipt = await c.write(CHALLENGER, 'invalidateNonce', []);
    expect(eventsOf(receipt)).toEqual([
      { eventName: 'NonceInvalidated', args: { account: challengerAccount.address, nonce: typed.message.nonce } },
    ]);
    expect(await read('nonces', [challengerAccount.address])).toBe(typed.message.nonce + 1n);
    expect(await revertOf(relay(typed, signature))).toEqual({
      errorName: 'InvalidNonce',
      args: [challengerAccount.address, typed.message.nonce + 1n],
    });
  });
});

describe('smart-contract wallets (ERC-1271)', () => {
  async function deploy(name: 'SmartWallet' | 'RejectEther', args: readonly unknown[] = []): Promise<Address> {
    const { abi, bytecode } = compileTestContracts()[name];
    const wallet = c.wallets[STRANGER]!;
    const hash = await wallet.deployContract({ abi, bytecode, args, account: wallet.account, chain: foundry });
    return getAddress((await c.publicClient.waitForTransactionReceipt({ hash })).contractAddress as Address);
  }

  test("a wallet contract's challenge is accepted when isValidSignature approves the digest", async () => {
    const smartWallet = await deploy('SmartWallet', [challengerAccount.address]);
    const a = await assertNew();
    const typed = await prepare(a, { challenger: smartWallet, nonce: '0' });
    const receipt = await relay(typed, await challengerAccount.signTypedData(typed));
    expect(eventsOf(receipt)[0]?.args).toMatchObject({ challenger: smartWallet, bySignature: true, nonce: 0n });
    expect(await read('nonces', [smartWallet])).toBe(1n);
  });

  test('refused when the wallet does not approve, or does not implement ERC-1271', async () => {
    const smartWallet = await deploy('SmartWallet', [challengerAccount.address]);
    const a = await assertNew();
    const typed = await prepare(a, { challenger: smartWallet, nonce: '0' });
    expect(await revertOf(relay(typed, await strangerAccount.signTypedData(typed)))).toEqual({
      errorName: 'InvalidContractSignature',
      args: [smartWallet],
    });
    const noErc1271 = await deploy('RejectEther');
    const other = await prepare(a, { challenger: noErc1271, nonce: '0' });
    expect(await revertOf(relay(other, await challengerAccount.signTypedData(other)))).toEqual({
      errorName: 'InvalidContractSignature',
      args: [noErc1271],
    });
  });
});
