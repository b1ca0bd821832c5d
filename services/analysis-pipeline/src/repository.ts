// The one owner of `analysis.analyses` (and of `analysis.manifests`, written in the same transaction that completes
// an analysis): every read and write of an analysis row is a method here, so its state machine, lease and stage
// list are changed in one place.
import type { analysisApi } from '@lineage/schemas';
import type { Knex } from '@lineage/service-kit';
import type { z } from 'zod';
import { SCHEMA } from './migrations';

type Analysis = z.input<typeof analysisApi.Analysis>;
export type AnalysisState = Analysis['state'];
export type StageView = Analysis['stages'][number];
export type StageName = StageView['name'];
/** What a failed analysis records (`error` in the API). */
export interface AnalysisFailure {
  code: string;
  message: string;
  limit: string | null;
}

export interface AnalysisRow {
  id: string;
  origin_url: string;
  origin_commit: string;
  target_url: string;
  target_commit: string;
  engine_version: string;
  state: AnalysisState;
  stages: StageView[];
  case_id: string | null;
  manifest_hash: string | null;
  error: Analysis['error'];
  cancel_token_hash: string;
  api_key_hash: string | null;
  created_at: string;
  updated_at: string;
  cancel_requested: boolean;
  committed_at_origin: string | null;
  committed_at_target: string | null;
  worker: string | null;
  lease_until: string | null;
  job_published_at: string | null;
  /** what the interrupted attempts of stages that ran again spent, in ms (budget.ts) */
  interrupted_ms: string;
}

type Pair = { origin: { url: string; commit: string }; target: { url: string; commit: string } };
type Db = Knex | Knex.Transaction;

/** States that count against the queue bound (PIPELINE_MAX_QUEUED). */
export const ACTIVE_STATES = ['queued', 'running', 'cancelling'] as const;
/** Key of the advisory lock that makes the queue bound's count-then-insert exact across replicas. */
const QUEUE_BOUND_LOCK = 0x4c494e45; // 'LINE'
const now = () => Math.floor(Date.now() / 1000);

export class AnalysisRepository {
  constructor(readonly db: Knex) {}

  private table(q: Db = this.db) {
    return q.withSchema(SCHEMA).table('analyses');
  }

  async find(id: string, q: Db = this.db): Promise<AnalysisRow | undefined> {
    return (await this.table(q).where('id', id).first()) as AnalysisRow | undefined;
  }

  async stateOf(id: string): Promise<{ state: AnalysisState; cancel_requested: boolean } | undefined> {
    return (await this.table().where('id', id).first('state', 'cancel_requested')) as
      { state: AnalysisState; cancel_requested: boolean } | undefined;
  }

  // --- intake ---------------------------------------------------------------------------------------------------

  /**
   * Inserts a queued analysis unless the active ones already number `maxActive` ('full') or the pair already has a
   * live or completed analysis of this engine version (null; a partial unique index decides). Count and insert run
   * under one advisory lock, so the bound holds exactly however many replicas take requests.
   */
  async insertQueued(a: {
    pair: Pair;
    engineVersion: string;
    stages: StageView[];
    cancelTokenHash: string;
    apiKeyHash: string | null;
    maxActive: number;
  }): Promise<AnalysisRow | 'full' | null> {
    const t = now();
    return this.db.transaction(async (trx) => {
      // Raw: a function call, which the builder cannot express. Serialises the count and the insert below.
      await trx.raw('SELECT pg_advisory_xact_lock(?)', [QUEUE_BOUND_LOCK]);
      const active = (await this.table(trx).whereIn('state', ACTIVE_STATES).first(trx.raw('count(*)::int AS n'))) as { n: number };
      if (active.n >= a.maxActive) return 'full' as const;
      // Raw: ON CONFLICT on a partial unique index needs its predicate, which knex's onConflict cannot carry.
      const res = (await trx.raw(
        `INSERT INTO ${SCHEMA}.analyses (origin_url, origin_commit, target_url, target_commit, engine_version, state, stages, cancel_token_hash, api_key_hash, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'queued', ?::jsonb, ?, ?, ?, ?)
         ON CONFLICT (origin_url, origin_commit, target_url, target_commit, engine_version) WHERE state IN ('queued', 'running', 'cancelling', 'completed') DO NOTHING
         RETURNING *`,
        [
          a.pair.origin.url,
          a.pair.origin.commit,
          a.pair.target.url,
          a.pair.target.commit,
          a.engineVersion,
          JSON.stringify(a.stages),
          a.cancelTokenHash,
          a.apiKeyHash,
          t,
          t,
        ],
      )) as { rows: AnalysisRow[] };
      return res.rows[0] ?? null;
    });
  }

  /** The pair's live or completed analysis of this engine version, if any. */
  async findLiveOrCompleted(pair: Pair, engineVersion: string): Promise<AnalysisRow | undefined> {
    return (await this.table()
      .where({
        origin_url: pair.origin.url,
        origin_commit: pair.origin.commit,
        target_url: pair.target.url,
        target_commit: pair.target.commit,
        engine_version: engineVersion,
      })
      .whereIn('state', ['queued', 'running', 'cancelling', 'completed'])
      .first()) as AnalysisRow | undefined;
  }

  /** Record that an analysis's job reached the work queue (the reconciler leaves it alone from then on). */
  async markJobPublished(id: string, q: Db = this.db): Promise<void> {
    await this.table(q).where('id', id).whereNull('job_published_at').update({ job_published_at: now() });
  }

  /**
   * Hands each queued analysis older than `createdBefore` whose job was never recorded as published to `publish`,
   * then records it, in one transaction whose rows are taken `FOR UPDATE SKIP LOCKED` (concurrent sweeps split them).
   */
  async sweepUnpublished(createdBefore: number, batch: number, publish: (id: string) => Promise<void>): Promise<number> {
    return this.db.transaction(async (trx) => {
      const rows = (await this.table(trx)
        .select('id')
        .where('state', 'queued')
        .whereNull('job_published_at')
        .where('created_at', '<=', createdBefore)
        .orderBy('id')
        .limit(batch)
        .forUpdate()
        .skipLocked()) as { id: string }[];
      for (const { id } of rows) {
        await publish(String(id));
        await this.markJobPublished(id, trx);
      }
      return rows.length;
    });
  }

  /** Active analyses by state (what the queue bound counts). */
  async activeCounts(): Promise<Record<(typeof ACTIVE_STATES)[number], number>> {
    const rows = (await this.table()
      .select('state', this.db.raw('count(*)::int AS n'))
      .whereIn('state', ACTIVE_STATES)
      .groupBy('state')) as { state: string; n: number }[];
    const n = (s: string) => rows.find((r) => r.state === s)?.n ?? 0;
    return { queued: n('queued'), running: n('running'), cancelling: n('cancelling') };
  }

  /**
   * Cancel request: a queued analysis is cancelled at once (its pending stages too), a running one is marked
   * `cancelling` for its worker. 'finished' for a completed or failed one; a cancelled or cancelling one is returned as is.
   */
  async requestCancel(id: string): Promise<{ id: string; state: AnalysisState } | 'finished'> {
    return this.db.transaction(async (trx) => {
      const cur = (await this.table(trx).where('id', id).forUpdate().first()) as AnalysisRow;
      if (cur.state === 'completed' || cur.state === 'failed') return 'finished' as const;
      if (cur.state === 'cancelled' || cur.state === 'cancelling') return { id: String(cur.id), state: cur.state };
      const state: AnalysisState = cur.state === 'queued' ? 'cancelled' : 'cancelling';
      const stages =
        state === 'cancelled' ? cur.stages.map((s) => (s.state === 'pending' ? { ...s, state: 'cancelled' as const } : s)) : cur.stages;
      await this.table(trx)
        .where('id', id)
        .update({ state, cancel_requested: true, stages: JSON.stringify(stages), updated_at: now() });
      return { id: String(cur.id), state };
    });
  }

  // --- the worker's lease ---------------------------------------------------------------------------------------

  /** Takes the row lease when it is free, run out or already ours; false when another worker holds it. */
  async takeLease(id: string, worker: string, seconds: number): Promise<boolean> {
    const n = await this.table()
      .where('id', id)
      .andWhere((w) => w.whereNull('lease_until').orWhere('lease_until', '<', now()).orWhere('worker', worker))
      .update({ worker, lease_until: now() + seconds });
    return n > 0;
  }

  /** Extends our lease; false when another worker has taken it over. */
  async renewLease(id: string, worker: string, seconds: number): Promise<boolean> {
    return (
      (await this.table()
        .where({ id, worker })
        .update({ lease_until: now() + seconds })) > 0
    );
  }

  async releaseLease(id: string, worker: string): Promise<void> {
    await this.table().where({ id, worker }).update({ lease_until: null });
  }

  /** Seconds until the current lease runs out (0 when it has). */
  async leaseLeft(id: string): Promise<number> {
    const cur = (await this.table().where('id', id).first('lease_until')) as { lease_until: string | null } | undefined;
    return Math.max(0, Number(cur?.lease_until ?? 0) - now());
  }

  // --- the worker's state transitions ---------------------------------------------------------------------------

  /** Only a queued analysis becomes running: a concurrent cancel of a queued one must win. */
  async startRunning(id: string): Promise<void> {
    await this.table().where({ id, state: 'queued' }).update({ state: 'running', updated_at: now() });
  }

  async patchStage(id: string, name: StageName, patch: Partial<StageView>, q: Db = this.db): Promise<void> {
    // jsonb update in place: the stage list is small and only this job's worker writes it.
    await q.raw(
      `UPDATE ${SCHEMA}.analyses SET stages = (
         SELECT jsonb_agg(CASE WHEN s->>'name' = ? THEN s || ?::jsonb ELSE s END ORDER BY ord)
         FROM jsonb_array_elements(stages) WITH ORDINALITY AS t(s, ord)
       ), updated_at = ? WHERE id = ?`,
      [name, JSON.stringify(patch), now(), id],
    );
  }

  /**
   * Starts a stage's attempt (`patch` as patchStage's). A stage left running was interrupted: the time its attempt
   * spent, up to the row's last write, is added to `interrupted_ms` in the same statement, so it is counted once.
   */
  async startStage(id: string, name: StageName, patch: Partial<StageView>): Promise<void> {
    await this.db.raw(
      `UPDATE ${SCHEMA}.analyses SET interrupted_ms = interrupted_ms + 1000 * COALESCE((
         SELECT GREATEST(0, updated_at - (s->>'startedAt')::bigint)
         FROM jsonb_array_elements(stages) AS t(s)
         WHERE s->>'name' = ? AND s->>'state' = 'running' AND s->>'startedAt' IS NOT NULL
       ), 0), stages = (
         SELECT jsonb_agg(CASE WHEN s->>'name' = ? THEN s || ?::jsonb ELSE s END ORDER BY ord)
         FROM jsonb_array_elements(stages) WITH ORDINALITY AS t(s, ord)
       ), updated_at = ? WHERE id = ?`,
      [name, name, JSON.stringify(patch), now(), id],
    );
  }

  async setCommitTimes(id: string, committedAt: { origin: string; target: string }, q: Db = this.db): Promise<void> {
    await this.table(q).where('id', id).update({ committed_at_origin: committedAt.origin, committed_at_target: committedAt.target });
  }

  /** Stores the manifest (idempotently: a retry after a lost commit answer writes the same) and completes the analysis. */
  async complete(id: string, manifest: { hash: string; bytes: Buffer }): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx
        .withSchema(SCHEMA)
        .table('manifests')
        .insert({ analysis_id: id, manifest_hash: manifest.hash, bytes: manifest.bytes })
        .onConflict('analysis_id')
        .ignore();
      await this.patchStage(id, 'publish', { state: 'done', finishedAt: String(now()), done: 1, total: 1, unit: 'items' }, trx);
      await this.table(trx).where('id', id).update({ state: 'completed', manifest_hash: manifest.hash, updated_at: now() });
    });
  }

  /** Cancelled at a stage boundary: pending and running stages become cancelled. */
  async finishCancel(id: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row = (await this.table(trx).where('id', id).forUpdate().first()) as AnalysisRow;
      const stages = row.stages.map((s) => (s.state === 'pending' || s.state === 'running' ? { ...s, state: 'cancelled' as const } : s));
      await this.table(trx)
        .where('id', id)
        .update({ state: 'cancelled', stages: JSON.stringify(stages), updated_at: now() });
    });
  }

  /** Failed: the running stage too, with the error. */
  async fail(id: string, error: AnalysisFailure): Promise<void> {
    await this.db.transaction(async (trx) => {
      const row = (await this.table(trx).where('id', id).forUpdate().first()) as AnalysisRow;
      const stages = row.stages.map((s) => (s.state === 'running' ? { ...s, state: 'failed' as const, finishedAt: String(now()) } : s));
      await this.table(trx)
        .where('id', id)
        .update({ state: 'failed', error: JSON.stringify(error), stages: JSON.stringify(stages), updated_at: now() });
    });
  }

  /** Failed before any worker saw it (its job never reached the work queue). */
  async failUnqueued(id: string, error: AnalysisFailure): Promise<void> {
    await this.table()
      .where('id', id)
      .update({ state: 'failed', error: JSON.stringify(error), updated_at: now() });
  }

  /** Idempotent: a repeated case-published event writes the same value again. */
  async linkCase(id: string, caseId: string): Promise<void> {
    await this.table().where({ id }).update({ case_id: caseId });
  }

  // --- manifests ------------------------------------------------------------------------------------------------

  /** One chunk of the stored manifest from `offset` (0-based), with its hash and total length; undefined before completion. */
  async manifestChunk(
    id: string,
    offset: number,
    size: number,
  ): Promise<{ manifestHash: string; total: number; chunk: Buffer } | undefined> {
    const m = await this.db
      .withSchema(SCHEMA)
      .table('manifests')
      .select(
        'manifest_hash',
        this.db.raw('octet_length(bytes) as total'),
        this.db.raw('substring(bytes from ? for ?) as chunk', [offset + 1, size]),
      )
      .where('analysis_id', id)
      .first();
    return m ? { manifestHash: m.manifest_hash as string, total: Number(m.total), chunk: m.chunk as Buffer } : undefined;
  }

  async manifestBytes(id: string): Promise<number> {
    const m = await this.db.withSchema(SCHEMA).table('manifests').where('analysis_id', id).first(this.db.raw('octet_length(bytes) as n'));
    return Number(m?.n ?? 0);
  }
}
