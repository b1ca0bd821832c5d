#!/usr/bin/env node
// Dev only: asserts a lineage fact for a pinned pair with one of anvil's
// public development accounts (default 0), posting the policy's bond; prints
// one JSON line. Used by the demo:
//   node libs/registry/dist/cli/assert-dev.js --address 0x… --origin-url … --origin-commit … \
//     --target-url … --target-commit … --outcome TRUE --manifest-hash 0x… [--rpc …] [--template-id 1] [--policy-id 1] [--account 0]
import type { Address, Hex } from 'viem';
import { assertDev } from '../dev';
import { OUTCOMES, type Outcome } from '../enums';
import { cliOptions, jsonLine, required, runMain } from './args';

runMain(async () => {
  const opts = cliOptions({
    rpc: { type: 'string' },
    address: { type: 'string' },
    'origin-url': { type: 'string' },
    'origin-commit': { type: 'string' },
    'target-url': { type: 'string' },
    'target-commit': { type: 'string' },
    outcome: { type: 'string' },
    'manifest-hash': { type: 'string' },
    'template-id': { type: 'string' },
    'policy-id': { type: 'string' },
    account: { type: 'string' },
  });
  const outcome = required(opts.outcome, 'outcome');
  if (!(OUTCOMES as readonly string[]).includes(outcome)) throw new Error(`--outcome must be one of ${OUTCOMES.join(', ')}`);
  const asserted = await assertDev({
    rpcUrl: opts.rpc ?? 'http://127.0.0.1:8545',
    address: required(opts.address, 'address') as Address,
    pair: {
      originUrl: required(opts['origin-url'], 'origin-url'),
      originCommit: required(opts['origin-commit'], 'origin-commit'),
      targetUrl: required(opts['target-url'], 'target-url'),
      targetCommit: required(opts['target-commit'], 'target-commit'),
    },
    outcome: outcome as Outcome,
    manifestHash: required(opts['manifest-hash'], 'manifest-hash') as Hex,
    templateId: opts['template-id'] ?? '1',
    policyId: opts['policy-id'] ?? '1',
    accountIndex: Number(opts.account ?? '0'),
  });
  console.log(jsonLine(asserted));
});
