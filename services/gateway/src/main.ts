import { baseServiceOptions, runMain, startService } from '@lineage/service-kit';
import { loadGatewayConfig } from './config';
import { ApiKeys } from './auth';
import { registerRoutes } from './routes';
import { rateLimit } from './rate-limit-middleware';
import { mountPages } from './pages';

runMain('gateway', async () => {
  const config = loadGatewayConfig();
  const keys = new ApiKeys(config.API_KEY_HASHES, config.AUTH_REQUIRED);
  await startService({
    ...baseServiceOptions('gateway', config),
    trustProxy: config.TRUST_PROXY,
    routes: (app, rt) => {
      if (config.RATE_LIMIT_ENABLED) app.use('/api', rateLimit(config.RATE_LIMIT_PER_SECOND, config.RATE_LIMIT_BURST));
      registerRoutes(app, rt, keys, { version: process.env.npm_package_version ?? '0.1.0', baseUrl: config.PUBLIC_BASE_URL });
      mountPages(app, rt, keys, {
        rateLimit: { enabled: config.RATE_LIMIT_ENABLED, perSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST },
        baseUrl: config.PUBLIC_BASE_URL,
      });
    },
  });
});
