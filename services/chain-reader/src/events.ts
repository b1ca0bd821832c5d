import { parseEventLogs, type Hex, type Log, type RpcLog } from 'viem';
import { registryAbi } from '@lineage/registry';
import type { factsApi } from '@lineage/schemas';

/** A log exactly as eth_getLogs returns it (anvil and recent geth add blockTimestamp). */
export interface RawLog {
  address: string;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  blockHash: Hex;
  blockTimestamp?: Hex;
  transactionHash: Hex;
  logIndex: Hex;
  removed?: boolean;
}

type Arg = string | boolean;

/** bigints become decimal strings at the edge; bytes are lower-cased; addresses keep their checksum. */
function wireArg(v: unknown): Arg {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return /^0x[0-9a-fA-F]{40}$/.test(v) ? v : /^0x[0-9a-fA-F]*$/.test(v) ? v.toLowerCase() : v;
  throw new TypeError('unsupported event argument type');
}

/** A registry log decoded with the registry ABI (viem's parseEventLogs, strict: logs the ABI does not decode are left out). */
export type RegistryLog = ReturnType<typeof parseRegistryLogs>[number];

/** Decode the registry's logs (as getLogs returns them, or raw from the node); logs not in the ABI are left out. */
export function parseRegistryLogs(logs: readonly (Log | RpcLog)[]) {
  return parseEventLogs({ abi: registryAbi, logs: logs as Log[], strict: true });
}

/** A decoded registry log on the wire, at its block's timestamp. */
export function registryEvent(log: RegistryLog, timestamp: bigint): factsApi.ChainEvent {
  const args: Record<string, Arg> = {};
  for (const [k, v] of Object.entries(log.args as Record<string, unknown>)) args[k] = wireArg(v);
  return {
    name: log.eventName as factsApi.ChainEvent['name'],
    blockNumber: log.blockNumber!.toString(),
    blockHash: log.blockHash!.toLowerCase(),
    blockTimestamp: timestamp.toString(),
    txHash: log.transactionHash!.toLowerCase(),
    logIndex: log.logIndex!,
    args,
  };
}

/** Decode one registry log; null for a log that is not a registry event. */
export function decodeRegistryLog(log: RawLog, timestamp: bigint): factsApi.ChainEvent | null {
  const [decoded] = parseRegistryLogs([log as unknown as RpcLog]);
  return decoded ? registryEvent(decoded, timestamp) : null;
}
