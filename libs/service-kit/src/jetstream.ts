import { jetstream, jetstreamManager, RetentionPolicy, type JetStreamClient } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { streams } from '@lineage/schemas';

/**
 * Create the project's streams if they are missing (idempotent; every service
 * that publishes may call it). Work queue: one consumer takes each job once;
 * the duplicate window makes a re-published job id a no-op.
 */
export async function ensureStreams(nc: NatsConnection): Promise<JetStreamClient> {
  const jsm = await jetstreamManager(nc);
  const wanted = [
    { name: streams.jobs.name, subjects: [...streams.jobs.subjects], retention: RetentionPolicy.Workqueue, duplicate_window: nanos(10 * 60_000) },
    { name: streams.events.name, subjects: [...streams.events.subjects], retention: RetentionPolicy.Limits, duplicate_window: nanos(10 * 60_000), max_age: nanos(7 * 24 * 3600_000) },
  ];
  for (const cfg of wanted) {
    try {
      await jsm.streams.info(cfg.name);
    } catch {
      await jsm.streams.add(cfg).catch(async (err: unknown) => {
        // Another replica may have created it between our info and add.
        await jsm.streams.info(cfg.name).catch(() => {
          throw err;
        });
      });
    }
  }
  return jetstream(nc);
}
