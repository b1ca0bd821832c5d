import { z } from 'zod';
import { baseEnv, envTypes, loadConfig } from '@lineage/service-kit';

export const chainReaderEnv = {
  ...baseEnv,
  HTTP_PORT: envTypes.port.default(8084),
  /** The only RPC URL in the system. Unset: the service runs and reports the registry as unconfigured. */
  RPC_URL: z.string().url().optional(),
  REGISTRY_ADDRESS: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'address').optional(),
  REGISTRY_DEPLOYED_BLOCK: z.coerce.number().int().min(0).optional(),
  CHAIN_ID: z.coerce.number().int().positive().optional(),
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
};
export type ChainReaderConfig = ReturnType<typeof loadChainReaderConfig>;
export const loadChainReaderConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(chainReaderEnv, env);
