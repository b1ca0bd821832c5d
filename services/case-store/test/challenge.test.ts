import { buildChallengeTypedData, challengeDigest } from '@lineage/registry';
import { concat, encodeAbiParameters, keccak256, stringToBytes } from 'viem';
import { prepareTypedData } from '../src/challenge';
import { retryDelayMs } from '../src/consumer';

// Fixed inputs as the API carries them: every integer a decimal string.
const inputs = {
  domain: { name: 'LineageRegistry', version: '1', chainId: '31337', verifyingContract: '0x5fbdb2315678afecb367f032d93f642f64180aa3' },
  factKey: '73786976294838206464',
  caseId: '42',
  manifestHash: '0x' + 'cd'.repeat(32),
  rationale: 'The shared files are vendored from a common upstream.',
  challenger: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  nonce: '0',
  deadline: 1763767500n,
};

describe('challenge preparation (pure part)', () => {
  it('pins the EIP-712 digest of fixed inputs', () => {
    const out = prepareTypedData(inputs);
    expect(out.digest).toBe(PINNED_DIGEST);
    expect(out.relay).toEqual({ contract: '0x5FbDB2315678afecb367f032d93F642f64180aa3', function: 'challengeWithSig' });
  });

  it('the pinned digest is the EIP-712 hash computed by hand from the spec', () => {
    const h = (t: string) => keccak256(stringToBytes(t));
    const domainSeparator = keccak256(
      encodeAbiParameters(
        [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
        [
          h('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'),
          h('LineageRegistry'),
          h('1'),
          31337n,
          '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        ],
      ),
    );
    const structHash = keccak256(
      encodeAbiParameters(
        ['bytes32', 'uint256', 'uint256', 'bytes32', 'bytes32', 'bytes32', 'address', 'uint256', 'uint256'].map((type) => ({ type })),
        [
          h(
            'Challenge(uint256 factKey,uint256 caseId,bytes32 manifestHash,bytes32 evidenceDigest,bytes32 rationaleHash,address challenger,uint256 nonce,uint256 deadline)',
          ),
          73786976294838206464n,
          42n,
          inputs.manifestHash,
          '0x' + '00'.repeat(32),
          h(inputs.rationale),
          '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          0n,
          1763767500n,
        ],
      ),
    );
    expect(keccak256(concat(['0x1901', domainSeparator, structHash]))).toBe(PINNED_DIGEST);
  });

  it('returns JSON-safe typed data whose integers are decimal strings and that rebuilds to the same digest', () => {
    const out = prepareTypedData(inputs);
    const m = out.typedData.message;
    expect(m).toMatchObject({
      factKey: '73786976294838206464',
      caseId: '42',
      nonce: '0',
      deadline: '1763767500',
      evidenceDigest: '0x' + '00'.repeat(32),
    });
    expect(m.challenger).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(out.typedData.domain.chainId).toBe('31337');
    expect(out.typedData.types.EIP712Domain).toBeDefined();
    expect(JSON.parse(JSON.stringify(out))).toEqual(out);
    // What a wallet does with it: back to bigints, same digest.
    expect(challengeDigest(buildChallengeTypedData({ domain: out.typedData.domain, message: m }))).toBe(out.digest);
  });

  it('a different nonce, case or rationale gives a different digest', () => {
    const base = prepareTypedData(inputs).digest;
    expect(prepareTypedData({ ...inputs, nonce: '1' }).digest).not.toBe(base);
    expect(prepareTypedData({ ...inputs, caseId: '43' }).digest).not.toBe(base);
    expect(prepareTypedData({ ...inputs, rationale: inputs.rationale + '!' }).digest).not.toBe(base);
    expect(prepareTypedData({ ...inputs, evidenceDigest: '0x' + '01'.repeat(32) }).digest).not.toBe(base);
  });
});

describe('consumer retry delay', () => {
  it('grows from 1 s and is capped at 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(retryDelayMs)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});

const PINNED_DIGEST = '0xd4975b9418e00c3363dbe566ed36ef72f0daf1b74019ed6d4ba25c4179a08c96';
