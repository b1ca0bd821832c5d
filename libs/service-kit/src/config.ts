import { z } from 'zod';

/** Raised at start-up; names every bad variable and why, never its value. */
export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; issue: string }[]) {
    super(`invalid configuration: ${problems.map((p) => `${p.variable} (${p.issue})`).join(', ')}`);
    this.name = 'ConfigError';
  }
}

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const port = z.coerce.number().int().min(1).max(65535);
const ms = z.coerce.number().int().min(1).max(3_600_000);

/** Variables every service reads. */
export const baseEnv = {
  /** Where HTTP listens. Loopback unless told otherwise: a laptop on a café network must not expose the API; the chart and the image set 0.0.0.0 for pods. */
  HTTP_HOST: z.string().min(1).max(255).default('127.0.0.1'),
  NATS_URL: z.string().min(1).default('nats://127.0.0.1:4222'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SHUTDOWN_TIMEOUT_MS: ms.default(25_000),
  /** Keep serving (with /ready at 503) this long after SIGTERM, so balancers stop routing first. Kubernetes uses a preStop sleep instead. */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  NATS_REQUEST_TIMEOUT_MS: ms.default(5_000),
};

export const envTypes = { bool, port, ms };

export const databaseEnv = {
  DATABASE_URL: z.string().min(1).default('postgres://postgres@127.0.0.1:5432/lineage'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** How long a query waits for a pooled connection (and a connect for the server) before answering 503; keep it below NATS_REQUEST_TIMEOUT_MS. */
  DATABASE_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
};

/** Parse `env` with a service's schema; fail fast naming each variable. */
export function loadConfig<S extends z.ZodRawShape>(shape: S, env: NodeJS.ProcessEnv = process.env): z.infer<z.ZodObject<S>> {
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => ({
    variable: i.path.map(String).join('.') || '(env)',
    issue: i.code === 'invalid_type' && /received undefined$/.test(i.message) ? 'required' : i.code,
  }));
  throw new ConfigError(problems);
}
