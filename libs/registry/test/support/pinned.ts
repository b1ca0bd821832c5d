import { ZERO_BYTES32, type ChallengeTypedDataInput } from '@lineage/registry';

// Fixed inputs whose hashes are pinned below. The integration tests check the
// same values against the deployed contract's views.
export const PINNED_PAIR = {
  originUrl: 'https://github.com/example/origin',
  originCommit: 'a'.repeat(40),
  targetUrl: 'https://github.com/example/target',
  targetCommit: 'b'.repeat(40),
};
export const PINNED_SUBJECT = '0x1deb8dd30269f02f2931d4978956d576b0de8b214e8754cd0378e97440f2e3f9';
export const PINNED_FACT_KEY = '95915057512624150524208365034496192760386843611482554179163418028273086459338';
export const PINNED_INPUT: ChallengeTypedDataInput = {
  domain: { chainId: '31337', verifyingContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
  message: {
    factKey: PINNED_FACT_KEY,
    caseId: '4211',
    manifestHash: `0x${'cd'.repeat(32)}`,
    evidenceDigest: ZERO_BYTES32,
    rationaleHash: '0xbf237864b7851e77e95e7a3eb6b00e46368ad90660626c7562c5da2da7d5e774',
    challenger: '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
    nonce: '0',
    deadline: '1763767500',
  },
};
export const PINNED_DIGEST = '0x7882bd2a8b49f8265ff36b264858b1a14b94bf8b9f75944be647ff8e0e92c832';
