import { z } from 'zod';
import { baseEnv, envTypes, loadConfig } from '@lineage/service-kit';

const sha256Hex = /^[0-9a-f]{64}$/;

export const gatewayEnv = {
  ...baseEnv,
  HTTP_PORT: envTypes.port.default(8080),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  AUTH_REQUIRED: envTypes.bool.default(false),
  /** Comma-separated sha256 hex digests of accepted API keys; the keys themselves are never configured. */
  API_KEY_HASHES: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((list) => list.every((h) => sha256Hex.test(h)), 'sha256_hex_list'),
  RATE_LIMIT_ENABLED: envTypes.bool.default(true),
  RATE_LIMIT_PER_SECOND: z.coerce.number().positive().max(100_000).default(20),
  RATE_LIMIT_BURST: z.coerce.number().int().positive().max(100_000).default(60),
  PUBLIC_BASE_URL: z.string().url().optional(),
};

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;
export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(gatewayEnv, env);
