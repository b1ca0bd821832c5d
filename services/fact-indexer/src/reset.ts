// `node dist/reset.js --yes`: empty the facts projections and the cursor (which
// clears a halt) and exit. The replica holding the writer lease notices on its
// next poll and indexes again from the registry's deployment block; reads show
// an empty projection until it catches up. The way out of a halt
// (docs/operations.md, "Indexer halted").
import { createDb } from '@lineage/service-kit';
import { loadIndexerConfig } from './config';
import { SCHEMA } from './migrations';
import { readCursor, resetProjections } from './store';

const line = (level: string, msg: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level, service: 'fact-indexer', msg, ...extra });

async function run(): Promise<number> {
  if (!process.argv.slice(2).includes('--yes')) {
    console.error(
      line(
        'error',
        "refusing to reset without --yes: this empties every facts projection; the writer then re-indexes the chain from the registry's deployment block",
      ),
    );
    return 2;
  }
  const db = createDb({ url: loadIndexerConfig().DATABASE_URL, schema: SCHEMA, poolMax: 1, applicationName: 'fact-indexer-reset' });
  try {
    const was = await db.transaction(async (trx) => {
      // Read without a row lock: TRUNCATE takes its own locks, and a writer mid-step finishes before it proceeds.
      const c = await readCursor(trx);
      await resetProjections(trx);
      return c;
    });
    console.log(
      line('info', 'facts projection reset', {
        was: was ? { chainId: was.chain_id, registry: was.registry, indexedBlock: was.indexed_block, halted: was.halted } : null,
      }),
    );
    return 0;
  } finally {
    await db.destroy();
  }
}

run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(line('fatal', 'reset failed', { err: err instanceof Error ? err.message : String(err) }));
    process.exit(1);
  },
);
