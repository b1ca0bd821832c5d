import { ConfigError, startService } from '@lineage/service-kit';
import { loadChainReaderConfig } from './config';
import { Chain } from './chain';
import { registerHandlers } from './handlers';

async function main(): Promise<void> {
  const config = loadChainReaderConfig();
  const chain = new Chain(config);
  await startService({
    name: 'chain-reader',
    port: config.HTTP_PORT,
    natsUrl: config.NATS_URL,
    logLevel: config.LOG_LEVEL,
    requestTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
    checks: { rpc: () => chain.check() },
    onNats: (nats) => registerHandlers(nats, chain),
  });
}

main().catch((err) => {
  console.error(JSON.stringify({ level: 'fatal', service: 'chain-reader', msg: err instanceof ConfigError ? err.message : 'start-up failed', err: err instanceof ConfigError ? undefined : String(err) }));
  process.exit(1);
});
