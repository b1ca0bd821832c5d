import { ConfigError, CursorCodec, createDb, ensureDatabase, ensureStreams, migrate, startService, type Nats } from '@lineage/service-kit';
import { loadCaseStoreConfig } from './config';
import { SCHEMA, migrations } from './migrations';
import { CaseStore } from './store';
import { CaseFacts, FactPresence } from './facts';
import { ChallengePreparer } from './challenge';
import { Ingest } from './ingest';
import { CompletedEventsConsumer } from './consumer';
import { registerHandlers } from './handlers';

async function main(): Promise<void> {
  const config = loadCaseStoreConfig();
  const db = createDb({ url: config.DATABASE_URL, schema: SCHEMA, poolMax: config.DATABASE_POOL_MAX, applicationName: 'case-store' });
  if (config.MIGRATE_ON_START) {
    await ensureDatabase(config.DATABASE_URL);
    await migrate(db, SCHEMA, migrations);
  }
  const store = new CaseStore(db, new CursorCodec(config.CURSOR_SECRET));
  let nats: Nats | null = null;
  const bus = () => {
    if (!nats) throw new Error('nats not connected');
    return nats;
  };
  let presence: FactPresence | null = null;
  const facts = new CaseFacts(bus, config.LINEAGE_TEMPLATE_ID, config.FACT_TIMEOUT_MS, {
    state: (key: string) => presence?.state(key) ?? 'unknown',
  });
  const challenges = new ChallengePreparer(bus, facts, config.CHALLENGE_TTL_SECONDS);
  let consumer: CompletedEventsConsumer | null = null;
  await startService({
    name: 'case-store',
    port: config.HTTP_PORT,
    natsUrl: config.NATS_URL,
    logLevel: config.LOG_LEVEL,
    requestTimeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: config.SHUTDOWN_DELAY_MS,
    db,
    onNats: async (n, rt) => {
      nats = n;
      registerHandlers(n, { store, facts, challenges });
      if (config.FACT_PRESENCE_REFRESH_MS > 0) {
        presence = new FactPresence(bus, rt.log, config.FACT_PRESENCE_REFRESH_MS, config.FACT_PRESENCE_MAX);
        presence.start();
      }
      if (config.CONSUMER_ENABLED) {
        const js = await ensureStreams(n.nc);
        const publish = (subject: string, data: string, msgID: string) => js.publish(subject, data, { msgID });
        consumer = new CompletedEventsConsumer(n.nc, new Ingest(bus, publish, store, facts, rt.log), rt.log, {
          maxDeliver: config.CONSUMER_MAX_DELIVER,
          concurrency: config.CONSUMER_CONCURRENCY,
          maxManifestBytes: config.MANIFEST_MAX_BYTES,
        });
        await consumer.start();
      }
    },
    beforeDrain: [
      { name: 'fact-presence', run: async () => presence?.stop() },
      { name: 'events-consumer', run: async () => consumer?.stop() },
    ],
  });
}

main().catch((err) => {
  console.error(JSON.stringify({ level: 'fatal', service: 'case-store', msg: err instanceof ConfigError ? err.message : 'start-up failed', err: err instanceof ConfigError ? undefined : String(err) }));
  process.exit(1);
});
