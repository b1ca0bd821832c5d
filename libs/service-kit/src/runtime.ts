import type { Express } from 'express';
import type { Knex } from 'knex';
import { createLogger, type Logger } from './logger';
import { createMetrics, type ServiceMetrics } from './metrics';
import { Readiness } from './readiness';
import { createHttpApp, finishHttpApp, listen, type HttpServerHandle } from './http';
import { Nats } from './nats';
import { dbCheck } from './db';
import { installShutdown, type ShutdownStep } from './shutdown';
import { ApiError } from './errors';

export interface ServiceOptions {
  name: string;
  port: number;
  host?: string;
  natsUrl: string;
  logLevel: string;
  requestTimeoutMs: number;
  shutdownTimeoutMs: number;
  shutdownDelayMs?: number;
  trustProxy?: number;
  db?: Knex;
  /** Routes beyond /health, /ready and /metrics (the gateway's API). */
  routes?: (app: Express, rt: ServiceRuntime) => void;
  /** Called once NATS is connected: register handlers, start consumers. */
  onNats?: (nats: Nats, rt: ServiceRuntime) => Promise<void> | void;
  /** Extra readiness checks (e.g. the RPC endpoint). */
  checks?: Record<string, () => Promise<{ ok: boolean; detail?: string }>>;
  /** Stop taking work and finish or hand back what is in flight (before NATS drains). */
  beforeDrain?: ShutdownStep[];
  /** Release what remains after NATS has drained. */
  afterDrain?: ShutdownStep[];
  exit?: (code: number) => void;
}

export interface ServiceRuntime {
  name: string;
  log: Logger;
  metrics: ServiceMetrics;
  readiness: Readiness;
  http: HttpServerHandle;
  /** The connection once established; throws SERVICE_UNAVAILABLE before that. */
  nats(): Nats;
  shutdown(): Promise<void>;
}

/**
 * The common skeleton of every service: HTTP probes up first (so /health answers
 * and /ready says why it is not ready), then NATS, with a graceful shutdown that
 * turns readiness off before closing anything.
 */
export async function startService(opts: ServiceOptions): Promise<ServiceRuntime> {
  const log = createLogger(opts.name, opts.logLevel);
  const metrics = createMetrics(opts.name);
  const readiness = new Readiness();
  let nats: Nats | null = null;
  // Ready only once onNats has registered the service's handlers and consumers: a request routed here
  // between the connect and the registration would find nobody serving its subject.
  let serving = false;
  readiness.add('nats', () => (!nats ? { ok: false, detail: 'connecting' } : !serving ? { ok: false, detail: 'starting' } : nats.check()));
  if (opts.db) {
    const db = opts.db;
    readiness.add('postgres', () => dbCheck(db));
  }
  for (const [name, check] of Object.entries(opts.checks ?? {})) readiness.add(name, check);

  const app = createHttpApp({ logger: log, metrics, readiness, trustProxy: opts.trustProxy });
  const rt: ServiceRuntime = {
    name: opts.name,
    log,
    metrics,
    readiness,
    http: undefined as unknown as HttpServerHandle,
    nats: () => {
      if (!nats) throw new ApiError('SERVICE_UNAVAILABLE', 'The message bus is not connected yet.');
      return nats;
    },
    shutdown: async () => undefined,
  };
  opts.routes?.(app, rt);
  finishHttpApp(app);
  rt.http = await listen(app, opts.port, opts.host);
  log.info({ port: rt.http.port }, 'http listening');

  const steps: ShutdownStep[] = [
    { name: 'unready-delay', run: () => new Promise((r) => setTimeout(r, opts.shutdownDelayMs ?? 0)) },
    { name: 'http', run: () => rt.http.close(Math.max(1000, opts.shutdownTimeoutMs - 2000)) },
    ...(opts.beforeDrain ?? []),
    { name: 'nats-handlers', run: async () => nats?.stopServing() },
    { name: 'nats-drain', run: async () => nats?.drain() },
    ...(opts.afterDrain ?? []),
    ...(opts.db ? [{ name: 'postgres', run: () => opts.db!.destroy() }] : []),
  ];
  rt.shutdown = installShutdown({ log, readiness, timeoutMs: opts.shutdownTimeoutMs, steps, exit: opts.exit });

  nats = await Nats.connect({ servers: opts.natsUrl, name: opts.name, log, metrics, requestTimeoutMs: opts.requestTimeoutMs });
  await opts.onNats?.(nats, rt);
  serving = true;
  return rt;
}
