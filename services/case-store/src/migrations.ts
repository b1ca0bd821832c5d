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
  {
    // Nothing was deployed with 0001; its tables are replaced (not altered) so every
    // database, old or new, ends with the same layout.
    name: '0002_cases_report_and_ranked_evidence',
    async up(knex) {
      await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await knex.schema.withSchema(SCHEMA).dropTableIfExists('evidence');
      await knex.schema.withSchema(SCHEMA).dropTableIfExists('cases');
      await knex.schema.withSchema(SCHEMA).createTable('cases', (t) => {
        // id order = publication order, so `id desc` is newest first and keyset-safe.
        t.bigIncrements('id').primary();
        t.bigInteger('analysis_id').notNullable().unique(); // one case per analysis: redelivered events are no-ops
        t.text('origin_url').notNullable();
        t.string('origin_commit', 40).notNullable();
        t.bigInteger('origin_committed_at');
        t.text('target_url').notNullable();
        t.string('target_commit', 40).notNullable();
        t.bigInteger('target_committed_at');
        t.string('verdict', 32).notNullable();
        t.string('confidence', 8).notNullable();
        t.string('direction', 24).notNullable();
        t.string('manifest_hash', 66).notNullable();
        t.string('engine_version', 64).notNullable();
        t.integer('evidence_count').notNullable();
        // lineageFactKey(template, pinned pair), computed once at publication (null if the pair cannot be a subject).
        t.bigInteger('fact_template_id');
        t.string('fact_key', 78);
        // The report as served, minus what is added at read time (ids, fact).
        t.jsonb('report').notNullable();
        t.bigInteger('created_at').notNullable();
        t.index(['verdict', 'id'], 'cases_verdict_id');
      });
      // Substring search over repository URLs (case-insensitive), one index per side.
      await knex.raw(`CREATE INDEX cases_origin_url_trgm ON ${SCHEMA}.cases USING gin (lower(origin_url) gin_trgm_ops)`);
      await knex.raw(`CREATE INDEX cases_target_url_trgm ON ${SCHEMA}.cases USING gin (lower(target_url) gin_trgm_ops)`);
      await knex.schema.withSchema(SCHEMA).createTable('evidence', (t) => {
        t.bigInteger('case_id').notNullable().references('id').inTable(`${SCHEMA}.cases`).onDelete('CASCADE');
        // 1-based rank in the case: strongest first, then score, then manifest order. It is
        // the item's public id and the keyset of the evidence route (immutable once written).
        t.integer('seq').notNullable();
        t.string('layer', 16).notNullable();
        t.string('strength', 16).notNullable();
        t.string('kind', 64).notNullable();
        t.string('language', 64);
        t.text('origin_path');
        t.text('target_path');
        t.jsonb('item').notNullable();
        t.primary(['case_id', 'seq']);
      });
      // Facets and filtered counts without touching the heap (index-only while the visibility map is current).
      await knex.raw(`CREATE INDEX evidence_facets ON ${SCHEMA}.evidence (case_id, layer, strength, kind, language)`);
    },
    async down(knex) {
      await knex.schema.withSchema(SCHEMA).dropTableIfExists('evidence');
      await knex.schema.withSchema(SCHEMA).dropTableIfExists('cases');
    },
  },
];
