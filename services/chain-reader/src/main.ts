import { baseServiceOptions, runMain, startService } from '@lineage/service-kit';
import { loadChainReaderConfig } from './config';
import { Chain } from './chain';
import { registerHandlers } from './handlers';

runMain('chain-reader', async () => {
  const config = loadChainReaderConfig();
  const chain = new Chain(config);
  await startService({
    ...baseServiceOptions('chain-reader', config),
    checks: { rpc: () => chain.check() },
    onNats: (nats) => registerHandlers(nats, chain),
  });
});
