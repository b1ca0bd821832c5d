// The whole stack on a real anvil with the registry deployed, and the helpers
// the chain-side end-to-end tests share.
import { deployDev, devAccount, localClients, registryAbi, startAnvil, type AnvilHandle } from '@lineage/registry';
import { startStack, type Stack } from './stack';
import { json } from './http';
import type { ServiceName } from './processes';

export interface ChainStack {
  anvil: AnvilHandle;
  registry: Awaited<ReturnType<typeof deployDev>>;
  stack: Stack;
  stop(): Promise<void>;
}

export async function startChainStack(extraEnv: Partial<Record<ServiceName, Record<string, string>>> = {}): Promise<ChainStack> {
  const anvil = await startAnvil({ slotsInAnEpoch: 1 });
  const registry = await deployDev(anvil.rpcUrl);
  const stack = await startStack({
    extraEnv: {
      ...extraEnv,
      'chain-reader': {
        RPC_URL: anvil.rpcUrl,
        REGISTRY_ADDRESS: registry.address,
        REGISTRY_DEPLOYED_BLOCK: String(registry.deployedBlock),
        ...(extraEnv['chain-reader'] ?? {}),
      },
    },
  });
  return {
    anvil,
    registry,
    stack,
    async stop() {
      await stack.stop();
      await anvil.stop();
    },
  };
}

const KINDS = ['TemplateRegistered', 'PolicyRegistered', 'FactAsserted', 'AssertionChallenged', 'AssertionResolved'];

/** Every registry event of the five public kinds on the chain, as sorted `block:logIndex`. */
export async function chainActivity(c: ChainStack): Promise<string[]> {
  const logs = await localClients(c.anvil.rpcUrl, devAccount(0).privateKey).publicClient.getContractEvents({
    address: c.registry.address,
    abi: registryAbi,
    fromBlock: 0n,
  });
  return logs
    .filter((l) => KINDS.includes(l.eventName))
    .map((l) => `${l.blockNumber}:${l.logIndex}`)
    .sort();
}

/** The same, as projected and served by `GET /activity` (every page). */
export async function projectedActivity(c: ChainStack): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: { blockNumber: string; logIndex: string }[]; nextCursor: string | null } = await json(
      await fetch(`${c.stack.api}/activity?limit=100${cursor ? `&cursor=${cursor}` : ''}`),
    );
    for (const i of page.items) out.push(`${i.blockNumber}:${i.logIndex}`);
    cursor = page.nextCursor;
  } while (cursor);
  return out.sort();
}
