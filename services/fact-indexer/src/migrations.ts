import type { Migration } from '@lineage/service-kit';

export const SCHEMA = 'facts';

/**
 * Projections of the registry's events. Identifiers are numeric(78) so any
 * uint256 fits. Rows written for blocks above the finalized one carry their
 * block number, and the changes they make to existing rows are kept in
 * `journal`, so a reorg (or a restart) can roll them back exactly.
 */
export const migrations: Migration[] = [
  {
    name: '0001_facts',
    async up(knex) {
      // A schema builder replays every statement it has collected, so take a fresh one per table.
      const s = () => knex.schema.withSchema(SCHEMA);
      await s().createTable('templates', (t) => {
        t.decimal('template_id', 78, 0).primary();
        t.text('text').notNullable();
        t.string('text_hash', 66).notNullable();
        t.bigInteger('block_number').notNullable();
        t.string('tx_hash', 66).notNullable();
        t.bigInteger('created_at').notNullable();
      });
      await s().createTable('policies', (t) => {
        t.decimal('policy_id', 78, 0).primary();
        t.string('family', 66).notNullable();
        t.decimal('version', 78, 0).notNullable();
        t.decimal('liveness_seconds', 78, 0).notNullable();
        t.decimal('bond_wei', 78, 0).notNullable();
        t.string('resolver', 42).notNullable();
        t.decimal('freshness_seconds', 78, 0).notNullable();
        t.bigInteger('block_number').notNullable();
        t.string('tx_hash', 66).notNullable();
        t.bigInteger('created_at').notNullable();
      });
      // Latest state of every assertion (the canonical side lives in facts.canonical).
      await s().createTable('assertions', (t) => {
        t.decimal('assertion_id', 78, 0).primary();
        t.decimal('fact_key', 78, 0).notNullable();
        t.decimal('policy_id', 78, 0).notNullable();
        t.jsonb('state').notNullable();
        t.bigInteger('block_number').notNullable();
      });
      await s().createTable('facts', (t) => {
        t.decimal('fact_key', 78, 0).primary();
        t.decimal('template_id', 78, 0).notNullable();
        t.string('subject_hash', 66).notNullable();
        t.jsonb('canonical');
        t.jsonb('latest');
        t.string('canonical_outcome', 16);
        /** resolvedAt + the policy's freshness of the canonical resolution; null unless canonical is RESOLVED. */
        t.bigInteger('canonical_fresh_until');
        /** canonical_fresh_until, or null when latest carries a newer pending assertion. */
        t.bigInteger('fresh_until');
        t.bigInteger('block_number').notNullable();
        t.index(['canonical_outcome', 'fact_key']);
      });
      await s().createTable('resolutions', (t) => {
        t.decimal('resolution_id', 78, 0).primary();
        t.decimal('fact_key', 78, 0).notNullable();
        t.decimal('assertion_id', 78, 0).notNullable();
        t.string('outcome', 16).notNullable();
        t.string('method', 16).notNullable();
        t.string('resolved_by', 42).notNullable();
        t.bigInteger('block_number').notNullable();
        t.string('block_hash', 66).notNullable();
        t.string('tx_hash', 66).notNullable();
        t.bigInteger('resolved_at').notNullable();
      });
      // Every registry event; seq = block_number * 1e5 + log_index orders them and makes re-application a no-op.
      await s().createTable('events', (t) => {
        t.bigInteger('seq').primary();
        t.string('kind', 32).notNullable();
        t.jsonb('args').notNullable();
        t.decimal('fact_key', 78, 0);
        t.decimal('assertion_id', 78, 0);
        t.decimal('resolution_id', 78, 0);
        t.decimal('policy_id', 78, 0);
        t.decimal('template_id', 78, 0);
        t.string('actor', 42);
        t.bigInteger('block_number').notNullable().index();
        t.string('block_hash', 66).notNullable();
        t.string('tx_hash', 66).notNullable();
        t.integer('log_index').notNullable();
        t.bigInteger('timestamp').notNullable();
        t.index(['kind', 'seq']);
      });
      // Headers of the non-finalized blocks plus the finalized one, for parent-hash checks.
      await s().createTable('blocks', (t) => {
        t.bigInteger('number').primary();
        t.string('hash', 66).notNullable();
        t.string('parent_hash', 66).notNullable();
        t.bigInteger('timestamp').notNullable();
      });
      // Before-images of rows changed by non-finalized blocks (undo log).
      await s().createTable('journal', (t) => {
        t.bigIncrements('id').primary();
        t.bigInteger('block_number').notNullable().index();
        t.string('tbl', 32).notNullable();
        t.string('pk', 80).notNullable();
        t.jsonb('before');
      });
      await s().createTable('cursor', (t) => {
        t.integer('id').primary();
        t.string('chain_id', 20);
        t.string('registry', 42);
        t.bigInteger('indexed_block');
        /** The block up to which canonical views are applied: min(chain finalized, indexed). */
        t.bigInteger('finalized_block');
        /** Highest finalized block the chain ever reported; never decreases. */
        t.bigInteger('chain_finalized_block');
        t.bigInteger('head_block');
        t.bigInteger('head_timestamp');
        t.text('halted');
        t.bigInteger('updated_at');
      });
    },
    async down(knex) {
      for (const t of ['cursor', 'journal', 'blocks', 'events', 'resolutions', 'facts', 'assertions', 'policies', 'templates'])
        await knex.schema.withSchema(SCHEMA).dropTableIfExists(t);
    },
  },
  {
    // Development databases migrated with the first skeleton of 0001 (tables `activity` etc.) get the schema above;
    // they held no data (nothing indexed before this version).
    name: '0002_facts_replace_skeleton',
    async up(knex) {
      if (await knex.schema.withSchema(SCHEMA).hasTable('events')) return;
      for (const t of ['cursor', 'blocks', 'activity', 'resolutions', 'facts', 'policies', 'templates'])
        await knex.schema.withSchema(SCHEMA).dropTableIfExists(t);
      await migrations[0]!.up(knex);
    },
    async down() {
      // Nothing to undo: 0001's down removes the tables.
    },
  },
  {
    // The chain the projection belongs to, beside chain id and registry: the registry's deployment block and its hash.
    // A fresh chain (a restarted dev anvil) reuses the chain id and, with the same deployer and nonce, the address;
    // its deployment block's hash differs from the first block on. Nullable: a row written before this migration
    // (or by an older replica during a rolling update) gets them filled by the writer (src/indexer.ts, recover).
    name: '0003_facts_cursor_chain_identity',
    async up(knex) {
      await knex.schema.withSchema(SCHEMA).alterTable('cursor', (t) => {
        t.bigInteger('deployed_block');
        t.string('deployed_block_hash', 66);
      });
    },
    async down(knex) {
      await knex.schema.withSchema(SCHEMA).alterTable('cursor', (t) => {
        t.dropColumn('deployed_block_hash');
        t.dropColumn('deployed_block');
      });
    },
  },
];
