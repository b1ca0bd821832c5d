import { concat, encodeAbiParameters, keccak256, stringToBytes, type Hex } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import {
  ASSERTION_STATUSES,
  DEV_MNEMONIC,
  MAX_CHALLENGE_TTL_SECONDS,
  OUTCOMES,
  REGISTRY_EVENT_NAMES,
  RESOLUTION_KINDS,
  buildChallengeTypedData,
  challengeDeadline,
  challengeDigest,
  challengeTypedDataToJson,
  commitToBytes20,
  DEV_ACCOUNT_COUNT,
  devAccount,
  devAccounts,
  factKeyOf,
  factKeyOfDecimal,
  lineageFactKey,
  lineageSubjectHash,
  outcomeFromUint8,
  outcomeToUint8,
  policyFamily,
  rationaleHashOf,
  registryAbi,
  registryBytecode,
  resolutionKindFromUint8,
  resolutionKindToUint8,
  statusFromUint8,
  statusToUint8,
  toUint256,
} from '@lineage/registry';
import { PINNED_DIGEST, PINNED_FACT_KEY, PINNED_INPUT, PINNED_PAIR, PINNED_SUBJECT } from './support/pinned';

describe('subject hash and fact key', () => {
  test('pinned lineage subjectHash and factKey', () => {
    expect(lineageSubjectHash(PINNED_PAIR)).toBe(PINNED_SUBJECT);
    expect(factKeyOf(1n, PINNED_SUBJECT)).toBe(BigInt(PINNED_FACT_KEY));
    expect(factKeyOfDecimal('1', PINNED_SUBJECT)).toBe(PINNED_FACT_KEY);
    expect(lineageFactKey(1n, PINNED_PAIR)).toBe(BigInt(PINNED_FACT_KEY));
  });

  test('the recipe is abi.encode(string, bytes20, string, bytes20) and abi.encode(uint256, bytes32)', () => {
    const manual = keccak256(
      encodeAbiParameters(
        [{ type: 'string' }, { type: 'bytes20' }, { type: 'string' }, { type: 'bytes20' }],
        [PINNED_PAIR.originUrl, `0x${'a'.repeat(40)}`, PINNED_PAIR.targetUrl, `0x${'b'.repeat(40)}`],
      ),
    );
    expect(manual).toBe(PINNED_SUBJECT);
    expect(BigInt(keccak256(concat([`0x${'0'.repeat(63)}1`, PINNED_SUBJECT])))).toBe(BigInt(PINNED_FACT_KEY));
  });

  test('commits are case-insensitive 40-hex; anything else is refused', () => {
    expect(lineageSubjectHash({ ...PINNED_PAIR, originCommit: 'A'.repeat(40) })).toBe(PINNED_SUBJECT);
    expect(commitToBytes20(`0x${'F'.repeat(40)}`)).toBe(`0x${'f'.repeat(40)}`);
    expect(() => commitToBytes20('a'.repeat(39))).toThrow(TypeError);
    expect(() => commitToBytes20('g'.repeat(40))).toThrow(TypeError);
    expect(() => commitToBytes20('a'.repeat(64))).toThrow(TypeError);
  });

  test('URLs are not normalised and are bounded', () => {
    expect(lineageSubjectHash({ ...PINNED_PAIR, originUrl: `${PINNED_PAIR.originUrl}/` })).not.toBe(PINNED_SUBJECT);
    expect(() => lineageSubjectHash({ ...PINNED_PAIR, targetUrl: '' })).toThrow(RangeError);
    expect(() => lineageSubjectHash({ ...PINNED_PAIR, targetUrl: 'x'.repeat(2049) })).toThrow(RangeError);
  });

  test('factKeyOf refuses a malformed subject hash and a non-decimal template id', () => {
    expect(() => factKeyOf(1n, '0x1234')).toThrow(TypeError);
    expect(() => factKeyOf('0x01', PINNED_SUBJECT)).toThrow(TypeError);
  });
});

describe('EIP-712 challenge', () => {
  test('pinned digest for fixed inputs', () => {
    expect(challengeDigest(buildChallengeTypedData(PINNED_INPUT))).toBe(PINNED_DIGEST);
  });

  test('the digest equals a by-hand EIP-712 encoding (domain separator + struct hash)', () => {
    const m = buildChallengeTypedData(PINNED_INPUT).message;
    const domainSeparator = keccak256(
      encodeAbiParameters(
        [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
        [
          keccak256(stringToBytes('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)')),
          keccak256(stringToBytes('LineageRegistry')),
          keccak256(stringToBytes('1')),
          31337n,
          '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        ],
      ),
    );
    const structHash = keccak256(
      encodeAbiParameters(
        [
          { type: 'bytes32' },
          { type: 'uint256' },
          { type: 'uint256' },
          { type: 'bytes32' },
          { type: 'bytes32' },
          { type: 'bytes32' },
          { type: 'address' },
          { type: 'uint256' },
          { type: 'uint256' },
        ],
        [
          keccak256(
            stringToBytes(
              'Challenge(uint256 factKey,uint256 caseId,bytes32 manifestHash,bytes32 evidenceDigest,bytes32 rationaleHash,address challenger,uint256 nonce,uint256 deadline)',
            ),
          ),
          m.factKey,
          m.caseId,
          m.manifestHash,
          m.evidenceDigest,
          m.rationaleHash,
          m.challenger,
          m.nonce,
          m.deadline,
        ],
      ),
    );
    expect(keccak256(concat(['0x1901', domainSeparator, structHash]))).toBe(PINNED_DIGEST);
  });

  test('decimal strings and bigints give the same typed data and digest; chainId is always a bigint', () => {
    const fromStrings = buildChallengeTypedData(PINNED_INPUT);
    const fromBigints = buildChallengeTypedData({
      domain: { ...PINNED_INPUT.domain, chainId: 31337n },
      message: {
        ...PINNED_INPUT.message,
        factKey: BigInt(PINNED_FACT_KEY),
        caseId: 4211n,
        nonce: 0n,
        deadline: 1763767500n,
        challenger: PINNED_INPUT.message.challenger.toLowerCase(),
        manifestHash: PINNED_INPUT.message.manifestHash.toUpperCase().replace('0X', '0x'),
      },
    });
    expect(fromBigints).toEqual(fromStrings);
    expect(typeof fromStrings.domain.chainId).toBe('bigint');
    expect(fromStrings.domain).toEqual({
      name: 'LineageRegistry',
      version: '1',
      chainId: 31337n,
      verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    });
    expect(challengeDigest(fromBigints)).toBe(PINNED_DIGEST);
  });

  test('every field changes the digest', () => {
    const base = buildChallengeTypedData(PINNED_INPUT);
    const variants = [
      { ...base, domain: { ...base.domain, chainId: 1n } },
      { ...base, domain: { ...base.domain, name: 'Other' } },
      { ...base, domain: { ...base.domain, version: '2' } },
      { ...base, domain: { ...base.domain, verifyingContract: '0x0000000000000000000000000000000000000001' as const } },
      ...(['factKey', 'caseId', 'nonce', 'deadline'] as const).map((k) => ({
        ...base,
        message: { ...base.message, [k]: base.message[k] + 1n },
      })),
      ...(['manifestHash', 'evidenceDigest', 'rationaleHash'] as const).map((k) => ({
        ...base,
        message: { ...base.message, [k]: `0x${'11'.repeat(32)}` as Hex },
      })),
      { ...base, message: { ...base.message, challenger: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const } },
    ];
    const digests = new Set(variants.map((v) => challengeDigest(v)));
    expect(digests.size).toBe(variants.length);
    expect(digests.has(PINNED_DIGEST)).toBe(false);
  });

  test('refuses numbers that are not canonical decimal uint256 strings, and malformed hex', () => {
    const bad = ['0x10', '-1', '01', '1.5', ' 1', '', (1n << 256n).toString()];
    for (const nonce of bad) {
      expect(() => buildChallengeTypedData({ ...PINNED_INPUT, message: { ...PINNED_INPUT.message, nonce } })).toThrow();
    }
    expect(() =>
      buildChallengeTypedData({ ...PINNED_INPUT, domain: { ...PINNED_INPUT.domain, chainId: 31337 as unknown as string } }),
    ).toThrow(TypeError);
    expect(() => buildChallengeTypedData({ ...PINNED_INPUT, message: { ...PINNED_INPUT.message, manifestHash: '0x1234' } })).toThrow(
      TypeError,
    );
    expect(() => buildChallengeTypedData({ ...PINNED_INPUT, message: { ...PINNED_INPUT.message, challenger: '0x1234' } })).toThrow(
      TypeError,
    );
    expect(toUint256('115792089237316195423570985008687907853269984665640564039457584007913129639935')).toBe((1n << 256n) - 1n);
  });

  test('JSON form carries decimal strings and the EIP712Domain type', () => {
    const json = challengeTypedDataToJson(buildChallengeTypedData(PINNED_INPUT));
    expect(json.domain.chainId).toBe('31337');
    expect(json.message).toMatchObject({ factKey: PINNED_FACT_KEY, caseId: '4211', nonce: '0', deadline: '1763767500' });
    expect(json.types.EIP712Domain.map((f) => f.name)).toEqual(['name', 'version', 'chainId', 'verifyingContract']);
    expect(json.primaryType).toBe('Challenge');
    // Round trip back to the same digest.
    expect(challengeDigest(buildChallengeTypedData({ domain: json.domain, message: json.message }))).toBe(PINNED_DIGEST);
  });

  test('rationaleHashOf is keccak256 of UTF-8; challengeDeadline clamps the ttl', () => {
    expect(rationaleHashOf('The target repository predates the origin.')).toBe(PINNED_INPUT.message.rationaleHash);
    expect(challengeDeadline(1000n, 60n)).toBe(1060n);
    expect(challengeDeadline(1000n, 10n ** 9n)).toBe(1000n + MAX_CHALLENGE_TTL_SECONDS);
    expect(challengeDeadline(1000n, 0n)).toBe(1001n);
    expect(challengeDeadline(1000n)).toBe(1000n + MAX_CHALLENGE_TTL_SECONDS);
  });
});

describe('enums', () => {
  test('outcomes, statuses and resolution kinds map to the contract values 1..n and back; 0 is null', () => {
    expect(OUTCOMES.map(outcomeToUint8)).toEqual([1, 2, 3]);
    expect([1, 2, 3].map(outcomeFromUint8)).toEqual(['TRUE', 'FALSE', 'UNDETERMINED']);
    expect(ASSERTION_STATUSES.map(statusToUint8)).toEqual([1, 2, 3]);
    expect([1n, 2n, 3n].map(statusFromUint8)).toEqual(['ASSERTED', 'CHALLENGED', 'RESOLVED']);
    expect(RESOLUTION_KINDS.map(resolutionKindToUint8)).toEqual([1, 2]);
    expect([1, 2].map(resolutionKindFromUint8)).toEqual(['LIVENESS', 'ARBITRATION']);
    expect(outcomeFromUint8(0)).toBeNull();
    expect(statusFromUint8(0n)).toBeNull();
    expect(() => outcomeFromUint8(4)).toThrow(RangeError);
    expect(() => resolutionKindFromUint8(3)).toThrow(RangeError);
    expect(() => outcomeToUint8('MAYBE' as never)).toThrow(RangeError);
  });

  test('the ABI declares the same enums (internalType) for outcome and status outputs', () => {
    const getFact = registryAbi.find((i) => i.type === 'function' && i.name === 'getFact');
    const json = JSON.stringify(getFact);
    expect(json).toContain('enum LineageRegistry.Status');
    expect(json).toContain('enum LineageRegistry.Outcome');
  });
});

describe('generated artefacts and dev accounts', () => {
  test('ABI has every documented function and event; bytecode is present', () => {
    const functions = new Set<string>(registryAbi.filter((i) => i.type === 'function').map((i) => i.name));
    for (const name of [
      'registerTemplate',
      'registerPolicy',
      'assertFact',
      'challenge',
      'challengeWithSig',
      'settle',
      'resolve',
      'withdraw',
      'invalidateNonce',
      'transferOwnership',
      'getFact',
      'getAssertion',
      'getPolicy',
      'getResolution',
      'nonces',
      'challengeDigest',
      'eip712Domain',
      'factKeyOf',
      'lineageSubjectHash',
    ]) {
      expect(functions.has(name)).toBe(true);
    }
    const events = registryAbi.filter((i) => i.type === 'event').map((i) => i.name);
    expect([...events].sort()).toEqual([...REGISTRY_EVENT_NAMES].sort());
    expect(registryBytecode).toMatch(/^0x[0-9a-f]{2000,}$/);
  });

  test("devAccounts are anvil's published development accounts, derived on demand", () => {
    // The first two addresses and the first key as Foundry's anvil prints them at start-up (public development values).
    expect(devAccount(0).address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(devAccount(1).address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    for (let i = 0; i < DEV_ACCOUNT_COUNT; i++) expect(privateKeyToAccount(devAccount(i).privateKey).address).toBe(devAccount(i).address);
    expect(devAccounts().map((a) => a.address)).toEqual(
      Array.from({ length: DEV_ACCOUNT_COUNT }, (_, i) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex: i }).address),
    );
    expect(devAccount(3)).toBe(devAccount(3));
    expect(() => devAccount(DEV_ACCOUNT_COUNT)).toThrow(RangeError);
  });

  test('policyFamily pads a name to bytes32 and bounds it', () => {
    expect(policyFamily('a')).toBe(`0x61${'0'.repeat(62)}`);
    expect(() => policyFamily('')).toThrow(RangeError);
    expect(() => policyFamily('x'.repeat(33))).toThrow(RangeError);
  });
});
