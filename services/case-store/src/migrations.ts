import type { Migration } from '@lineage/service-kit';

export const SCHEMA = 'cases';

export const migrations: Migration[] = [
  {
    name: '0001_cases',
    async up(knex) {
      await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await knex.schema.withSchema(SCHEMA).createTable('cases', (t) => {
        t.bigIncrements('id').primary();
        t.bigInteger('analysis_id').notNullable().unique();
        t.text('origin_url').notNullable();
        t.string('origin_commit', 40).notNullable();
        t.text('target_url').notNullable();
        t.string('target_commit', 40).notNullable();
        t.string('verdict', 32).notNullable();
        t.string('confidence', 8).notNullable();
        t.string('direction', 24).notNullable();
        t.string('manifest_hash', 66).notNullable();
        t.text('fact_key');
        t.jsonb('report').notNullable();
        t.bigInteger('created_at').notNullable();
        t.index(['verdict', 'id']);
      });
      await knex.raw(`CREATE INDEX cases_origin_url_trgm ON ${SCHEMA}.cases USING gin (lower(origin_url) gin_trgm_ops)`);
      await knex.raw(`CREATE INDEX cases_target_url_trgm ON ${SCHEMA}.cases USING gin (lower(target_url) gin_trgm_ops)`);
      await knex.schema.withSchema(SCHEMA).createTable('evidence', (t) => {
        t.bigIncrements('id').primary();
        t.bigInteger('case_id').notNullable().references('id').inTable(`${SCHEMA}.cases`).onDelete('CASCADE');
        t.string('layer', 16).notNullable();
        t.string('kind', 64).notNullable();
        t.string('strength', 16).notNullable();
        t.string('language', 32);
        t.text('path');
        t.jsonb('item').notNullable();
        t.index(['case_id', 'id']);
        t.index(['case_id', 'layer', 'strength', 'kind', 'id']);
      });
      await knex.raw(`CREATE INDEX evidence_case_path ON ${SCHEMA}.evidence (case_id, path text_pattern_ops)`);
    },
    async down(knex) {
      await knex.schema.withSchema(SCHEMA).dropTableIfExists('evidence');
      await knex.schema.withSchema(SCHEMA).dropTableIfExists('cases');
    },
  },
];
