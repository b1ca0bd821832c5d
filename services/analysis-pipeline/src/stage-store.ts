import { gzipSync, gunzipSync } from 'node:zlib';
import type { Knex } from '@lineage/service-kit';
import { SCHEMA } from './migrations';

/** Stage outputs persisted at each boundary (gzip JSON), so a redelivered job resumes after the last done stage. */
export class StageStore {
  constructor(private readonly db: Knex) {}

  async save(trx: Knex.Transaction, analysisId: string, stage: string, output: unknown): Promise<void> {
    const bytes = gzipSync(Buffer.from(JSON.stringify(output)));
    await trx
      .withSchema(SCHEMA)
      .table('stage_outputs')
      .insert({ analysis_id: analysisId, stage, output: bytes })
      .onConflict(['analysis_id', 'stage'])
      .merge();
  }

  async load<T>(analysisId: string, stage: string): Promise<T> {
    const row = await this.db.withSchema(SCHEMA).table('stage_outputs').where({ analysis_id: analysisId, stage }).first();
    if (!row) throw new Error(`missing output of stage ${stage}`);
    return JSON.parse(gunzipSync(row.output as Buffer).toString('utf8')) as T;
  }

  async clear(analysisId: string): Promise<void> {
    await this.db.withSchema(SCHEMA).table('stage_outputs').where({ analysis_id: analysisId }).delete();
  }
}
