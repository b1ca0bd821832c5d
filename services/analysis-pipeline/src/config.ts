import { z } from 'zod';
import { baseEnv, databaseEnv, envTypes, loadConfig } from '@lineage/service-kit';

export const pipelineEnv = {
  ...baseEnv,
  ...databaseEnv,
  HTTP_PORT: envTypes.port.default(8081),
  MIGRATE_ON_START: envTypes.bool.default(false),
  REPO_CACHE_DIR: z.string().min(1).default('.cache/repos'),
  REPO_CACHE_MAX_BYTES: z.coerce.number().int().positive().default(10 * 1024 ** 3),
  LINEAGE_REPO_ALLOWED_HOSTS: z.string().default('github.com,gitlab.com,codeberg.org,bitbucket.org'),
  LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: envTypes.bool.default(false),
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(16).default(1),
};
export type PipelineConfig = ReturnType<typeof loadPipelineConfig>;
export const loadPipelineConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(pipelineEnv, env);
