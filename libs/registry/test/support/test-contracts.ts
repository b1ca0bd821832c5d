// Helper contracts for the tests, compiled here with solc from npm:
// - RejectEther has no receive/fallback: it asserts through the registry and
//   then cannot take its bond back (the registry's WithdrawFailed path);
// - SmartWallet answers ERC-1271 isValidSignature for its owner's key (the
//   smart-contract-wallet path of challengeWithSig).
import type { Abi, Hex } from 'viem';

const SOURCE = `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;
interface IRegistry {
    function assertFact(uint256, bytes32, uint8, bytes32, uint256) external payable returns (uint256);
    function withdraw() external;
}
contract RejectEther {
    function assertFact(address r, uint256 t, bytes32 s, bytes32 m, uint256 p) external payable returns (uint256) {
        return IRegistry(r).assertFact{value: msg.value}(t, s, 1, m, p);
    }
    function withdraw(address r) external {
        IRegistry(r).withdraw();
    }
}
contract SmartWallet {
    address public immutable owner;
    constructor(address owner_) { owner = owner_; }
    function isValidSignature(bytes32 digest, bytes calldata sig) external view returns (bytes4) {
        if (sig.length != 65) return 0xffffffff;
        bytes32 r = bytes32(sig[0:32]);
        bytes32 s = bytes32(sig[32:64]);
        uint8 v = uint8(sig[64]);
        return ecrecover(digest, v, r, s) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}
`;

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

let cache: { RejectEther: Compiled; SmartWallet: Compiled } | undefined;

export function compileTestContracts(): { RejectEther: Compiled; SmartWallet: Compiled } {
  if (cache) return cache;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'TestContracts.sol': { content: SOURCE } },
    settings: { evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const pick = (name: string): Compiled => {
    const contract = output.contracts['TestContracts.sol']?.[name];
    if (!contract) throw new Error(`${name} missing from solc output`);
    return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  };
  cache = { RejectEther: pick('RejectEther'), SmartWallet: pick('SmartWallet') };
  return cache;
}
