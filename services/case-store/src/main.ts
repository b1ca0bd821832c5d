import { messages, type CasePublishedEvent } from '@lineage/schemas';
import { CursorCodec, JetStream, baseServiceOptions, openServiceDb, runMain, startService, type Nats } from '@lineage/service-kit';
import { loadCaseStoreConfig } from './config';
import { SCHEMA, migrations } from './migrations';
import { CaseStore } from './store';
import { CaseFacts, FactPresence } from './facts';
import { ChallengePreparer } from './challenge';
import { Ingest } from './ingest';
import { CompletedEventsConsumer } from './consumer';
import { registerHandlers } from './handlers';

runMain('case-store', async () => {
  const config = loadCaseStoreConfig();
  const db = await openServiceDb('case-store', config, SCHEMA, migrations);
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
    ...baseServiceOptions('case-store', config),
    db,
    onNats: async (n, rt) => {
      nats = n;
      registerHandlers(n, { store, facts, challenges });
      if (config.FACT_PRESENCE_REFRESH_MS > 0) {
        presence = new FactPresence(bus, rt.log, config.FACT_PRESENCE_REFRESH_MS, config.FACT_PRESENCE_MAX);
        presence.start();
      }
      if (config.CONSUMER_ENABLED) {
        const js = await JetStream.open(n.nc);
        const announce = (e: CasePublishedEvent) => js.publish(messages.casePublished, e);
        consumer = new CompletedEventsConsumer(js, new Ingest(bus, announce, store, facts, rt.log), rt.log, {
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
});
