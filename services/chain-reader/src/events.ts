import { decodeEventLog, type Hex } from 'viem';
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

/** Decode one registry log; unknown topics (not in the ABI) are skipped by the caller. */
export function decodeRegistryLog(log: RawLog, timestamp: bigint): factsApi.ChainEvent | null {
  let decoded;
  try {
    decoded = decodeEventLog({ abi: registryAbi, data: log.data, topics: log.topics as [Hex, ...Hex[]], strict: true });
  } catch {
    return null;
  }
  const args: Record<string, Arg> = {};
  for (const [k, v] of Object.entries(decoded.args as Record<string, unknown>)) args[k] = wireArg(v);
  return {
    name: decoded.eventName as factsApi.ChainEvent['name'],
    blockNumber: BigInt(log.blockNumber).toString(),
    blockHash: log.blockHash.toLowerCase(),
    blockTimestamp: timestamp.toString(),
    txHash: log.transactionHash.toLowerCase(),
    logIndex: Number(BigInt(log.logIndex)),
    args,
  };
}
