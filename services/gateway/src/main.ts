import { ConfigError, startService } from '@lineage/service-kit';
import { loadGatewayConfig } from './config';
import { ApiKeys } from './auth';
import { registerRoutes } from './routes';
import { rateLimit } from './rate-limit-middleware';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const keys = new ApiKeys(config.API_KEY_HASHES, config.AUTH_REQUIRED);
  await startService({
    name: 'gateway',
    port: config.HTTP_PORT,
    host: config.HTTP_HOST,
    natsUrl: config.NATS_URL,
    logLevel: config.LOG_LEVEL,
    requestTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
    trustProxy: config.TRUST_PROXY,
    routes: (app, rt) => {
      if (config.RATE_LIMIT_ENABLED) app.use('/api', rateLimit(config.RATE_LIMIT_PER_SECOND, config.RATE_LIMIT_BURST));
      registerRoutes(app, rt, keys, { version: process.env.npm_package_version ?? '0.1.0', baseUrl: config.PUBLIC_BASE_URL });
    },
  });
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(JSON.stringify({ level: 'fatal', service: 'gateway', msg: err.message }));
  else console.error(JSON.stringify({ level: 'fatal', service: 'gateway', msg: 'start-up failed', err: String(err) }));
  process.exit(1);
});
