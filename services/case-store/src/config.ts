import { z } from 'zod';
import { baseEnv, databaseEnv, envTypes, loadConfig } from '@lineage/service-kit';

export const caseStoreEnv = {
  ...baseEnv,
  ...databaseEnv,
  HTTP_PORT: envTypes.port.default(8082),
  /** HMAC key for pagination cursors; every replica must share it. The default is for local development only. */
  CURSOR_SECRET: z.string().min(16).default('lineage-dev-cursor-secret-not-for-production'),
  MIGRATE_ON_START: envTypes.bool.default(false),
};
export const loadCaseStoreConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(caseStoreEnv, env);
