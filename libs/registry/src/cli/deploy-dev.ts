#!/usr/bin/env node
// Dev only: deploys LineageRegistry to a local anvil with anvil's public
// development account 0, registers the lineage template and the default
// policy, and prints one JSON line for `make dev` to capture:
//   node libs/registry/dist/cli/deploy-dev.js --rpc http://127.0.0.1:8545
import { deployDev } from '../dev';
import { cliOptions, jsonLine, runMain } from './args';

runMain(async () => {
  const opts = cliOptions({ rpc: { type: 'string' } });
  console.log(jsonLine(await deployDev(opts.rpc ?? 'http://127.0.0.1:8545')));
});
