import type { Migration } from '@lineage/service-kit';

export const SCHEMA = 'facts';

/** Projections of the registry's events. Identifiers are numeric(78) so any uint256 fits. */
export const migrations: Migration[] = [
  {
    name: '0001_facts',
    async up(knex) {
      // A schema builder replays every statement it has collected, so take a fresh one per table.
      const s = () => knex.schema.withSchema(SCHEMA);
      await s().createTable('templates', (t) => {
        t.decimal('template_id', 78, 0).primary();
        t.text('name').notNullable();
        t.text('text').notNullable();
        t.string('text_hash', 66).notNullable();
        t.bigInteger('block_number').notNullable();
        t.bigInteger('created_at').notNullable();
      });
      await s().createTable('policies', (t) => {
        t.decimal('policy_id', 78, 0).primary();
        t.decimal('liveness_seconds', 78, 0).notNullable();
        t.decimal('bond_wei', 78, 0).notNullable();
        t.string('resolver', 42).notNullable();
        t.decimal('freshness_seconds', 78, 0).notNullable();
        t.bigInteger('block_number').notNullable();
        t.bigInteger('created_at').notNullable();
      });
      await s().createTable('facts', (t) => {
        t.decimal('fact_key', 78, 0).primary();
        t.decimal('template_id', 78, 0).notNullable();
        t.string('subject_hash', 66).notNullable();
        t.jsonb('canonical');
        t.jsonb('latest');
        t.string('canonical_outcome', 16);
        t.bigInteger('fresh_until');
      });
      await s().createTable('resolutions', (t) => {
        t.decimal('resolution_id', 78, 0).primary();
        t.decimal('fact_key', 78, 0).notNullable();
        t.decimal('assertion_id', 78, 0).notNullable();
        t.string('outcome', 16).notNullable();
        t.string('method', 16).notNullable();
        t.bigInteger('block_number').notNullable();
        t.string('tx_hash', 66).notNullable();
        t.bigInteger('resolved_at').notNullable();
      });
      await s().createTable('activity', (t) => {
        t.bigIncrements('id').primary();
        t.string('kind', 32).notNullable();
        t.jsonb('ids').notNullable();
        t.bigInteger('block_number').notNullable();
        t.string('block_hash', 66).notNullable();
        t.string('tx_hash', 66).notNullable();
        t.integer('log_index').notNullable();
        t.bigInteger('timestamp').notNullable();
        t.unique(['block_hash', 'log_index']);
        t.index(['kind', 'id']);
      });
      await s().createTable('blocks', (t) => {
        t.bigInteger('number').primary();
        t.string('hash', 66).notNullable();
        t.string('parent_hash', 66).notNullable();
      });
      await s().createTable('cursor', (t) => {
        t.integer('id').primary();
        t.bigInteger('indexed_block');
        t.bigInteger('finalized_block');
        t.bigInteger('head_block');
      });
    },
    async down(knex) {
      for (const t of ['cursor', 'blocks', 'activity', 'resolutions', 'facts', 'policies', 'templates']) await knex.schema.withSchema(SCHEMA).dropTableIfExists(t);
    },
  },
];
