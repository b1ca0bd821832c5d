import { z } from 'zod';
import { baseEnv, envTypes, loadConfig } from '@lineage/service-kit';

export const chainReaderEnv = {
  ...baseEnv,
  HTTP_PORT: envTypes.port.default(8084),
  /** The only RPC URL in the system. Unset: the service runs and reports the registry as unconfigured. */
  RPC_URL: z.string().url().optional(),
  REGISTRY_ADDRESS: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'address')
    .optional(),
  REGISTRY_DEPLOYED_BLOCK: z.coerce.number().int().min(0).optional(),
  CHAIN_ID: z.coerce.number().int().positive().optional(),
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** Widest eth_getLogs range asked for; halved automatically whenever the node refuses one. */
  LOGS_MAX_BLOCK_RANGE: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /** Budget for one logs reply (NATS messages are capped at 1 MiB by default). */
  LOGS_MAX_REPLY_BYTES: z.coerce
    .number()
    .int()
    .min(16_384)
    .max(4_000_000)
    .default(768 * 1024),
  /** Attempts for a transient RPC failure before answering CHAIN_UNAVAILABLE. */
  RPC_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  RPC_BACKOFF_MS: z.coerce.number().int().min(1).max(10_000).default(100),
};
export type ChainReaderConfig = ReturnType<typeof loadChainReaderConfig>;
export const loadChainReaderConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(chainReaderEnv, env);
