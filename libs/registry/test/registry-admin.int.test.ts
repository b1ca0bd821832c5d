import { getEip712Domain } from 'viem/actions';
import { hashDomain, keccak256, stringToBytes, zeroAddress, stringToHex } from 'viem';
import {
  DEFAULT_DEV_POLICY,
  LINEAGE_TEMPLATE_TEXT,
  REGISTRY_EVENT_NAMES,
  policyFamily,
  readRegistryDomain,
  registryAbi,
} from '@lineage/registry';
import { OWNER, RESOLVER, STRANGER, eventsOf, revertOf, startRegistryChain, type RegistryTestChain } from './support/chain';

let c: RegistryTestChain;
beforeAll(async () => {
  c = await startRegistryChain();
});
afterAll(async () => {
  await c?.stop();
});

const read = <T>(functionName: string, args: readonly unknown[] = []): Promise<T> =>
  c.publicClient.readContract({ address: c.address, abi: registryAbi, functionName, args } as never) as Promise<T>;

describe('deployment and ownership', () => {
  test('the deployer owns the registry and the constructor emits OwnershipTransferred', async () => {
    const receipt = await c.publicClient.getTransactionReceipt({ hash: c.deployTxHash });
    expect(eventsOf(receipt)).toEqual([
      { eventName: 'OwnershipTransferred', args: { previousOwner: zeroAddress, newOwner: c.addr(OWNER) } },
    ]);
    expect(await read('owner')).toBe(c.addr(OWNER));
    expect(receipt.blockNumber).toBe(c.deployedBlock);
  });

  test('constants are exposed', async () => {
    expect(await read('NAME')).toBe('LineageRegistry');
    expect(await read('VERSION')).toBe('1');
    expect(await read('MAX_TEMPLATE_BYTES')).toBe(4096n);
    expect(await read('MAX_LIVENESS')).toBe(365n * 86400n);
    expect(await read('MAX_FRESHNESS')).toBe(3650n * 86400n);
    expect(await read('CHALLENGE_TYPEHASH')).toBe(
      keccak256(
        stringToBytes(
          'Challenge(uint256 factKey,uint256 caseId,bytes32 manifestHash,bytes32 evidenceDigest,bytes32 rationaleHash,address challenger,uint256 nonce,uint256 deadline)',
        ),
      ),
    );
  });

  test('transferOwnership: only the owner, never to zero, emits OwnershipTransferred', async () => {
    expect(await revertOf(c.write(STRANGER, 'transferOwnership', [c.addr(STRANGER)]))).toEqual({
      errorName: 'NotOwner',
      args: [c.addr(STRANGER)],
    });
    expect(await revertOf(c.write(OWNER, 'transferOwnership', [zeroAddress]))).toEqual({ errorName: 'ZeroAddress', args: [] });

    const receipt = await c.write(OWNER, 'transferOwnership', [c.addr(STRANGER)]);
    expect(eventsOf(receipt)).toEqual([
      { eventName: 'OwnershipTransferred', args: { previousOwner: c.addr(OWNER), newOwner: c.addr(STRANGER) } },
    ]);
    expect(await read('owner')).toBe(c.addr(STRANGER));
    // The old owner lost the role; the new one has it.
    expect((await revertOf(c.write(OWNER, 'registerTemplate', ['x']))).errorName).toBe('NotOwner');
    await c.write(STRANGER, 'transferOwnership', [c.addr(OWNER)]);
    expect(await read('owner')).toBe(c.addr(OWNER));
  });
});

describe('EIP-712 domain (EIP-5267)', () => {
  test('eip712Domain() returns name, version, chainId and this contract', async () => {
    const [fields, name, version, chainId, verifyingContract, salt, extensions] =
      await read<readonly [string, string, string, bigint, string, string, readonly bigint[]]>('eip712Domain');
    expect(fields).toBe('0x0f');
    expect(name).toBe('LineageRegistry');
    expect(version).toBe('1');
    expect(chainId).toBe(BigInt(c.anvil.chainId));
    expect(verifyingContract).toBe(c.address);
    expect(salt).toBe(`0x${'0'.repeat(64)}`);
    expect(extensions).toEqual([]);
  });

  test("readRegistryDomain keeps the declared fields only; DOMAIN_SEPARATOR matches viem's hashDomain", async () => {
    // viem's getEip712Domain also returns the zero salt: hashing with that domain would add a salt field.
    const { domain: viemDomain } = await getEip712Domain(c.publicClient, { address: c.address });
    expect(viemDomain.salt).toBe(`0x${'0'.repeat(64)}`);
    expect(await readRegistryDomain(c.publicClient, c.address)).toEqual({
      name: 'LineageRegistry',
      version: '1',
      chainId: BigInt(c.anvil.chainId),
      verifyingContract: c.address,
    });
    expect(await read('DOMAIN_SEPARATOR')).toBe(
      hashDomain({
        domain: { name: 'LineageRegistry', version: '1', chainId: BigInt(c.anvil.chainId), verifyingContract: c.address },
        types: {
          EIP712Domain: [
            { name: 'name', type: 'string' },
            { name: 'version', type: 'string' },
            { name: 'chainId', type: 'uint256' },
            { name: 'verifyingContract', type: 'address' },
          ],
        },
      }),
    );
  });
});

describe('templates', () => {
  test('registerLineageDefaults registered the lineage template (storage keeps only the hash)', async () => {
    expect(c.templateId).toBe(1n);
    expect(await read('templateHash', [c.templateId])).toBe(keccak256(stringToBytes(LINEAGE_TEMPLATE_TEXT)));
  });

  test('registerTemplate: owner only, 1..4096 bytes, sequential ids, text in the event', async () => {
    expect(await revertOf(c.write(STRANGER, 'registerTemplate', ['claim']))).toEqual({ errorName: 'NotOwner', args: [c.addr(STRANGER)] });
    expect(await revertOf(c.write(OWNER, 'registerTemplate', ['']))).toEqual({ errorName: 'TemplateTextLength', args: [0n] });
    expect(await revertOf(c.write(OWNER, 'registerTemplate', ['x'.repeat(4097)]))).toEqual({
      errorName: 'TemplateTextLength',
      args: [4097n],
    });

    const before = await read<bigint>('templateCount');
    const text = 'y'.repeat(4096);
    const receipt = await c.write(OWNER, 'registerTemplate', [text]);
    const id = before + 1n;
    expect(eventsOf(receipt)).toEqual([
      { eventName: 'TemplateRegistered', args: { templateId: id, textHash: keccak256(stringToBytes(text)), text } },
    ]);
    expect(await read('templateCount')).toBe(id);
    expect(await read('templateHash', [id])).toBe(keccak256(stringToBytes(text)));
  });
});

describe('policies', () => {
  const family = policyFamily('test-family');

  test('registerLineageDefaults registered the default policy as version 1 of its family', async () => {
    expect(await read('getPolicy', [c.policyId])).toEqual({
      family: policyFamily(DEFAULT_DEV_POLICY.family),
      bond: DEFAULT_DEV_POLICY.bondWei,
      version: 1n,
      liveness: DEFAULT_DEV_POLICY.livenessSeconds,
      resolver: DEFAULT_DEV_POLICY.resolver,
      freshness: DEFAULT_DEV_POLICY.freshnessSeconds,
    });
    expect(await read('latestPolicyOf', [policyFamily(DEFAULT_DEV_POLICY.family)])).toBe(c.policyId);
  });

  test('registerPolicy refuses a non-owner and every out-of-bounds field', async () => {
    const resolver = c.addr(RESOLVER);
    expect(await revertOf(c.write(STRANGER, 'registerPolicy', [family, 60n, 0n, resolver, 60n]))).toEqual({
      errorName: 'NotOwner',
      args: [c.addr(STRANGER)],
    });
    expect(await revertOf(c.write(OWNER, 'registerPolicy', [stringToHex('', { size: 32 }), 60n, 0n, resolver, 60n]))).toEqual({
      errorName: 'EmptyPolicyFamily',
      args: [],
    });
    expect(await revertOf(c.write(OWNER, 'registerPolicy', [family, 0n, 0n, resolver, 60n]))).toEqual({
      errorName: 'InvalidLiveness',
      args: [0n],
    });
    expect(await revertOf(c.write(OWNER, 'registerPolicy', [family, 365n * 86400n + 1n, 0n, resolver, 60n]))).toEqual({
      errorName: 'InvalidLiveness',
      args: [365n * 86400n + 1n],
    });
    expect(await revertOf(c.write(OWNER, 'registerPolicy', [family, 60n, 0n, resolver, 0n]))).toEqual({
      errorName: 'InvalidFreshness',
      args: [0n],
    });
    expect(await revertOf(c.write(OWNER, 'registerPolicy', [family, 60n, 0n, resolver, 3650n * 86400n + 1n]))).toEqual({
      errorName: 'InvalidFreshness',
      args: [3650n * 86400n + 1n],
    });
    expect(await revertOf(c.write(OWNER, 'registerPolicy', [family, 60n, 0n, zeroAddress, 60n]))).toEqual({
      errorName: 'ZeroAddress',
      args: [],
    });
  });

  test('registering a family again makes a new version; the old one is unchanged', async () => {
    const first = await c.write(OWNER, 'registerPolicy', [family, 60n, 5n, c.addr(RESOLVER), 600n]);
    const [e1] = eventsOf(first);
    expect(e1?.eventName).toBe('PolicyRegistered');
    const v1 = e1?.args.policyId as bigint;
    expect(e1?.args).toEqual({ policyId: v1, family, resolver: c.addr(RESOLVER), version: 1n, liveness: 60n, bond: 5n, freshness: 600n });

    const second = await c.write(OWNER, 'registerPolicy', [family, 120n, 7n, c.addr(STRANGER), 900n]);
    const [e2] = eventsOf(second);
    const v2 = e2?.args.policyId as bigint;
    expect(e2?.args).toEqual({ policyId: v2, family, resolver: c.addr(STRANGER), version: 2n, liveness: 120n, bond: 7n, freshness: 900n });
    expect(v2).toBe(v1 + 1n);
    expect(await read('policyCount')).toBe(v2);
    expect(await read('latestPolicyOf', [family])).toBe(v2);
    expect(await read('getPolicy', [v1])).toEqual({
      family,
      bond: 5n,
      version: 1n,
      liveness: 60n,
      resolver: c.addr(RESOLVER),
      freshness: 600n,
    });
  });

  test('getPolicy refuses unknown ids', async () => {
    const count = await read<bigint>('policyCount');
    expect(await revertOf(read('getPolicy', [0n]))).toEqual({ errorName: 'UnknownPolicy', args: [0n] });
    expect(await revertOf(read('getPolicy', [count + 1n]))).toEqual({ errorName: 'UnknownPolicy', args: [count + 1n] });
  });
});

test('REGISTRY_EVENT_NAMES lists exactly the events in the ABI', () => {
  const inAbi = registryAbi.filter((item) => item.type === 'event').map((item) => item.name);
  expect([...REGISTRY_EVENT_NAMES].sort()).toEqual([...inAbi].sort());
});
