// The whole system as separate processes: private NATS, a fresh database, the five services.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, freshDatabase, startNats, startService, waitReady, SERVICES, type Proc, type ServiceName } from './processes';

export interface Stack {
  api: string;
  ports: Record<ServiceName, number>;
  procs: Record<ServiceName, Proc>;
  nats: Awaited<ReturnType<typeof startNats>>;
  databaseUrl: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startStack(opts: { extraEnv?: Partial<Record<ServiceName, Record<string, string>>> } = {}): Promise<Stack> {
  const nats = await startNats();
  const db = await freshDatabase('lineage_e2e');
  const ports = {} as Record<ServiceName, number>;
  for (const s of SERVICES) ports[s] = await freePort();
  const env = {
    NATS_URL: nats.url,
    DATABASE_URL: db.url,
    LOG_LEVEL: 'debug',
    MIGRATE_ON_START: 'true',
    RATE_LIMIT_ENABLED: 'false',
    SHUTDOWN_TIMEOUT_MS: '10000',
  };
  const procs = {} as Record<ServiceName, Proc>;
  for (const s of SERVICES) procs[s] = startService(s, { ...env, HTTP_PORT: String(ports[s]), ...(opts.extraEnv?.[s] ?? {}) });
  try {
    await Promise.all(SERVICES.map((s) => waitReady(ports[s], 60_000)));
  } catch (err) {
    for (const s of SERVICES) process.stderr.write(`--- ${s}\n${procs[s].output().slice(-2000)}\n`);
    throw err;
  }
  return {
    api: `http://127.0.0.1:${ports.gateway}/api/v1`,
    ports,
    procs,
    nats,
    databaseUrl: db.url,
    env,
    async stop() {
      await Promise.all(SERVICES.map((s) => procs[s].stop()));
      await nats.stop();
      await db.drop();
    },
  };
}

/**
 * A stack whose pipeline may fetch from one local git server (loopback allowed), with a repository cache of its
 * own that `stop()` removes, and one fingerprinting thread.
 */
export async function startStackWithGitServer(gitPort: number): Promise<Stack> {
  const cache = mkdtempSync(join(tmpdir(), 'lineage-cache-'));
  const stack = await startStack({
    extraEnv: {
      'analysis-pipeline': {
        LINEAGE_REPO_ALLOWED_HOSTS: `http://127.0.0.1:${gitPort}`,
        LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'true',
        REPO_CACHE_DIR: cache,
        WORKER_THREADS: '1',
      },
    },
  });
  const stop = stack.stop;
  return {
    ...stack,
    stop: async () => {
      await stop();
      rmSync(cache, { recursive: true, force: true });
    },
  };
}
