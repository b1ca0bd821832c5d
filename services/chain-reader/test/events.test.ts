import { encodeEventTopics, encodeAbiParameters, type Hex } from 'viem';
import { registryAbi } from '@lineage/registry';
import { decodeRegistryLog } from '../src/events';

const base = {
  address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  blockNumber: '0x10' as Hex,
  blockHash: `0x${'AB'.repeat(32)}` as Hex,
  transactionHash: `0x${'cd'.repeat(32)}` as Hex,
  logIndex: '0x3' as Hex,
};

describe('decodeRegistryLog', () => {
  it('decodes FactAsserted with every integer as a decimal string', () => {
    const topics = encodeEventTopics({
      abi: registryAbi,
      eventName: 'FactAsserted',
      args: { assertionId: 7n, factKey: 2n ** 255n, asserter: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' },
    });
    const data = encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'bytes32' }, { type: 'uint8' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'uint64' }],
      [1n, `0x${'11'.repeat(32)}`, 1, `0x${'22'.repeat(32)}`, 1n, 1763767500n],
    );
    const e = decodeRegistryLog({ ...base, topics: topics as Hex[], data }, 1763763900n);
    expect(e).toEqual({
      name: 'FactAsserted',
      blockNumber: '16',
      blockHash: `0x${'ab'.repeat(32)}`,
      blockTimestamp: '1763763900',
      txHash: `0x${'cd'.repeat(32)}`,
      logIndex: 3,
      args: {
        assertionId: '7',
        factKey: (2n ** 255n).toString(),
        asserter: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        templateId: '1',
        subjectHash: `0x${'11'.repeat(32)}`,
        outcome: '1',
        manifestHash: `0x${'22'.repeat(32)}`,
        policyId: '1',
        expiresAt: '1763767500',
      },
    });
  });

  it('skips logs that are not registry events', () => {
    expect(decodeRegistryLog({ ...base, topics: [`0x${'00'.repeat(32)}`], data: '0x' }, 1n)).toBeNull();
  });
});
