import type { Migration } from '@lineage/service-kit';

export const SCHEMA = 'analysis';

export const migrations: Migration[] = [
  {
    name: '0001_analyses',
    async up(knex) {
      await knex.schema.withSchema(SCHEMA).createTable('analyses', (t) => {
        t.bigIncrements('id').primary();
        t.text('origin_url').notNullable();
        t.string('origin_commit', 40).notNullable();
        t.text('target_url').notNullable();
        t.string('target_commit', 40).notNullable();
        t.string('engine_version', 64).notNullable();
        t.string('state', 16).notNullable();
        t.jsonb('stages').notNullable();
        t.bigInteger('case_id');
        t.string('manifest_hash', 66);
        t.jsonb('error');
        t.string('cancel_token_hash', 64).notNullable();
        t.string('api_key_hash', 64);
        t.boolean('cancel_requested').notNullable().defaultTo(false);
        t.bigInteger('created_at').notNullable();
        t.bigInteger('updated_at').notNullable();
      });
      // At most one live (queued/running/cancelling/completed) analysis per pinned pair and engine version.
      await knex.raw(`CREATE UNIQUE INDEX analyses_live_pair ON ${SCHEMA}.analyses (origin_url, origin_commit, target_url, target_commit, engine_version)
        WHERE state IN ('queued', 'running', 'cancelling', 'completed')`);
      await knex.schema.withSchema(SCHEMA).createTable('idempotency_keys', (t) => {
        t.string('scope', 64).notNullable(); // api key digest, or 'anonymous'
        t.string('key', 128).notNullable();
        t.string('request_hash', 64).notNullable();
        t.bigInteger('analysis_id').notNullable();
        t.jsonb('response').notNullable();
        t.bigInteger('created_at').notNullable();
        t.primary(['scope', 'key']);
      });
      await knex.schema.withSchema(SCHEMA).createTable('manifests', (t) => {
        t.bigInteger('analysis_id').primary();
        t.string('manifest_hash', 66).notNullable();
        t.binary('bytes').notNullable();
      });
      await knex.schema.withSchema(SCHEMA).createTable('stage_outputs', (t) => {
        t.bigInteger('analysis_id').notNullable();
        t.string('stage', 16).notNullable();
        t.binary('output').notNullable();
        t.primary(['analysis_id', 'stage']);
      });
    },
    async down(knex) {
      for (const t of ['stage_outputs', 'manifests', 'idempotency_keys', 'analyses'])
        await knex.schema.withSchema(SCHEMA).dropTableIfExists(t);
    },
  },
  {
    name: '0002_worker_lease',
    async up(knex) {
      await knex.schema.withSchema(SCHEMA).alterTable('analyses', (t) => {
        t.string('worker', 64);
        t.bigInteger('lease_until');
        t.bigInteger('committed_at_origin');
        t.bigInteger('committed_at_target');
      });
    },
    async down(knex) {
      await knex.schema.withSchema(SCHEMA).alterTable('analyses', (t) => {
        t.dropColumns('worker', 'lease_until', 'committed_at_origin', 'committed_at_target');
      });
    },
  },
  {
    // When the job reached the work queue: a queued analysis without it is republished by the reconciler.
    // Rows from before stay null, so a queued one is republished once (deduplicated, or recognised by the worker).
    // The partial index serves the queue bound's count and the reconciler's sweep.
    name: '0003_job_published',
    async up(knex) {
      await knex.schema.withSchema(SCHEMA).alterTable('analyses', (t) => {
        t.bigInteger('job_published_at');
      });
      await knex.raw(`CREATE INDEX analyses_active ON ${SCHEMA}.analyses (id) WHERE state IN ('queued', 'running', 'cancelling')`);
    },
    async down(knex) {
      await knex.raw(`DROP INDEX IF EXISTS ${SCHEMA}.analyses_active`);
      await knex.schema.withSchema(SCHEMA).alterTable('analyses', (t) => {
        t.dropColumn('job_published_at');
      });
    },
  },
  {
    // The time budget is one per analysis (budget.ts): a stage that runs again overwrites its times, so what its
    // interrupted attempts spent is kept here. Rows from before start at 0.
    name: '0004_interrupted_ms',
    async up(knex) {
      await knex.schema.withSchema(SCHEMA).alterTable('analyses', (t) => {
        t.bigInteger('interrupted_ms').notNullable().defaultTo(0);
      });
    },
    async down(knex) {
      await knex.schema.withSchema(SCHEMA).alterTable('analyses', (t) => {
        t.dropColumn('interrupted_ms');
      });
    },
  },
];
