#!/usr/bin/env node
// Measures gasUsed of every registry write on a fresh local anvil (from the
// transaction receipts) and prints a Markdown table for docs/registry.md:
//   npm run -w libs/registry generate && npx tsc -p libs/registry/tsconfig.json && node libs/registry/dist/cli/gas-report.js
import { createTestClient, http, keccak256, parseEventLogs, stringToBytes, type Hash, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { startAnvil } from '../anvil';
import { localClients } from '../clients';
import { DEFAULT_DEV_POLICY, LINEAGE_TEMPLATE_TEXT, deployRegistry, policyFamily } from '../deploy';
import { devAccount } from '../dev-accounts';
import { buildChallengeTypedData, rationaleHashOf, ZERO_BYTES32 } from '../eip712';
import { readRegistryDomain } from '../domain';
import { registryAbi } from '../generated/LineageRegistry';
import { lineageSubjectHash } from '../subject';
import { runMain } from './args';

runMain(async () => {
  const anvil = await startAnvil();
  try {
    const [owner, resolver, asserter, challenger, relayer] = [0, 1, 2, 3, 4].map((i) =>
      localClients(anvil.rpcUrl, devAccount(i).privateKey),
    );
    if (!owner || !resolver || !asserter || !challenger || !relayer) throw new Error('clients');
    const testClient = createTestClient({ mode: 'anvil', chain: foundry, transport: http(anvil.rpcUrl) });
    const rows: [string, bigint][] = [];
    const measure = async (label: string, hash: Hash) => {
      const receipt = await owner.publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`${label} reverted`);
      rows.push([label, receipt.gasUsed]);
      return receipt;
    };

    const deployed = await deployRegistry(owner);
    await measure('deploy (constructor)', deployed.txHash);
    const address = deployed.address;
    const call = { address, abi: registryAbi, chain: foundry } as const;
    const bond = DEFAULT_DEV_POLICY.bondWei;

    await measure(
      `registerTemplate (lineage text, ${Buffer.byteLength(LINEAGE_TEMPLATE_TEXT)} bytes)`,
      await owner.walletClient.writeContract({ ...call, functionName: 'registerTemplate', args: [LINEAGE_TEMPLATE_TEXT] }),
    );
    const p = DEFAULT_DEV_POLICY;
    const policyArgs = [policyFamily(p.family), p.livenessSeconds, p.bondWei, p.resolver, p.freshnessSeconds] as const;
    await measure(
      'registerPolicy (first version of a family)',
      await owner.walletClient.writeContract({ ...call, functionName: 'registerPolicy', args: policyArgs }),
    );
    await measure(
      'registerPolicy (next version)',
      await owner.walletClient.writeContract({ ...call, functionName: 'registerPolicy', args: policyArgs }),
    );

    const pair = (n: number) => ({
      originUrl: 'https://github.com/example/origin',
      originCommit: 'a'.repeat(40),
      targetUrl: `https://github.com/example/target-${n}`,
      targetCommit: 'b'.repeat(40),
    });
    const manifest = (n: number): Hex => keccak256(stringToBytes(`manifest-${n}`));
    const assertOne = async (n: number, label: string) => {
      const receipt = await measure(
        label,
        await asserter.walletClient.writeContract({
          ...call,
          functionName: 'assertFact',
          args: [1n, lineageSubjectHash(pair(n)), 1, manifest(n), 1n],
          value: bond,
        }),
      );
      const [event] = parseEventLogs({ abi: registryAbi, logs: receipt.logs, eventName: 'FactAsserted' });
      if (!event) throw new Error('no FactAsserted');
      return event.args;
    };

    const a1 = await assertOne(1, 'assertFact (first assertion on the registry: counter 0 -> 1)');
    await measure(
      'challenge (direct)',
      await challenger.walletClient.writeContract({
        ...call,
        functionName: 'challenge',
        args: [a1.assertionId, 1n, ZERO_BYTES32, rationaleHashOf('why')],
        value: bond,
      }),
    );
    await measure(
      'resolve (arbitration, bonds credited)',
      await resolver.walletClient.writeContract({ ...call, functionName: 'resolve', args: [a1.assertionId, 2] }),
    );
    await assertOne(1, 'assertFact (fact asserted before, resolved)');

    const a2 = await assertOne(2, 'assertFact (new fact)');
    await testClient.setNextBlockTimestamp({ timestamp: a2.expiresAt });
    await measure(
      'settle (liveness, bond credited)',
      await relayer.walletClient.writeContract({ ...call, functionName: 'settle', args: [a2.assertionId] }),
    );

    const a3 = await assertOne(3, 'assertFact (new fact)');
    const signer = privateKeyToAccount(devAccount(3).privateKey);
    const typed = buildChallengeTypedData({
      domain: await readRegistryDomain(owner.publicClient, address),
      message: {
        factKey: a3.factKey,
        caseId: 4211n,
        manifestHash: manifest(3),
        evidenceDigest: ZERO_BYTES32,
        rationaleHash: rationaleHashOf('the target predates the origin'),
        challenger: signer.address,
        nonce: await owner.publicClient.readContract({ ...call, functionName: 'nonces', args: [signer.address] }),
        deadline: a3.expiresAt,
      },
    });
    const signature = await signer.signTypedData(typed);
    await measure(
      'challengeWithSig (relayed, first nonce)',
      await relayer.walletClient.writeContract({
        ...call,
        functionName: 'challengeWithSig',
        args: [typed.message, signature],
        value: bond,
      }),
    );
    await measure('invalidateNonce', await challenger.walletClient.writeContract({ ...call, functionName: 'invalidateNonce', args: [] }));
    await measure('withdraw', await asserter.walletClient.writeContract({ ...call, functionName: 'withdraw', args: [] }));
    await measure(
      'transferOwnership',
      await owner.walletClient.writeContract({ ...call, functionName: 'transferOwnership', args: [devAccount(5).address] }),
    );

    // Identical repeats (e.g. several "assertFact (new fact)") are printed once.
    const seen = new Set<string>();
    console.log('| write | gasUsed |\n|---|---:|');
    for (const [label, gas] of rows) {
      const row = `| ${label} | ${gas.toString()} |`;
      if (!seen.has(row)) console.log(row);
      seen.add(row);
    }
  } finally {
    await anvil.stop();
  }
});
