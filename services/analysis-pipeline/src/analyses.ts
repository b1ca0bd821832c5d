import { createHash, randomBytes } from 'node:crypto';
import { messages, STAGE_NAMES, type analysisApi } from '@lineage/schemas';
import { ApiError, fitsBigint, notFound, type JetStream, type Knex } from '@lineage/service-kit';
import type { z } from 'zod';
import { SCHEMA } from './migrations';
import type { AnalysisRepository, AnalysisRow } from './repository';

type Analysis = z.input<typeof analysisApi.Analysis>;
type CreateInput = {
  body: z.output<typeof analysisApi.CreateAnalysisRequest>;
  idempotencyKey: string | null;
  caller: { apiKeyHash: string | null };
};

/** Raw bytes per manifest chunk: base64 of this stays well under NATS's default 1 MiB payload. */
export const MANIFEST_CHUNK_BYTES = 512 * 1024;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const now = () => Math.floor(Date.now() / 1000);

export const initialStages = (): Analysis['stages'] =>
  STAGE_NAMES.map((name) => ({
    name,
    state: 'pending',
    startedAt: null,
    finishedAt: null,
    done: null,
    total: null,
    unit: null,
    attempt: 0,
  }));

/** Seconds a client refused with QUEUE_FULL is asked to wait (`Retry-After`). */
export const QUEUE_FULL_RETRY_AFTER_SECONDS = 30;

export interface AnalysesOptions {
  /** Bound on queued + running + cancelling analyses (PIPELINE_MAX_QUEUED). */
  maxActive: number;
  /** Tests only (LINEAGE_FAULT_AFTER_INSERT): runs right after a new row commits, before its job is published. */
  afterInsert?: () => void;
}

/** Publish an analysis's job to the work queue (its Nats-Msg-Id makes a repeat inside the duplicate window a no-op). */
export const publishJob = (js: JetStream, analysisId: string) => js.publish(messages.analysisJob, { analysisId: String(analysisId) });

/** The analysis API: creation (deduplicated, idempotent, bounded), reads, cancellation, manifests. */
export class Analyses {
  constructor(
    private readonly db: Knex,
    private readonly repo: AnalysisRepository,
    private readonly js: () => JetStream,
    private readonly engineVersion: string,
    /** Canonical form of an allowed repository URL; refuses what the policy refuses. */
    private readonly canonicalUrl: (url: string, field: string) => string,
    private readonly opts: AnalysesOptions = { maxActive: Number.MAX_SAFE_INTEGER },
  ) {}

  static view(r: AnalysisRow): Analysis {
    return {
      id: String(r.id),
      state: r.state,
      pair: { origin: { url: r.origin_url, commit: r.origin_commit }, target: { url: r.target_url, commit: r.target_commit } },
      engineVersion: r.engine_version,
      // Rows written before stages carried `attempt`: a stage that started once is on attempt 1.
      stages: r.stages.map((st) => ({ ...st, attempt: st.attempt ?? (st.state === 'pending' ? 0 : 1) })),
      caseId: r.case_id === null ? null : String(r.case_id),
      manifestHash: r.manifest_hash,
      error: r.error,
      createdAt: String(r.created_at),
      updatedAt: String(r.updated_at),
    };
  }

  async create(input: CreateInput) {
    const origin = { url: this.canonicalUrl(input.body.pair.origin.url, 'pair.origin.url'), commit: input.body.pair.origin.commit };
    const target = { url: this.canonicalUrl(input.body.pair.target.url, 'pair.target.url'), commit: input.body.pair.target.commit };
    if (origin.url === target.url) {
      throw new ApiError('VALIDATION_FAILED', 'Origin and target must be different repositories.', [
        { path: 'pair.target.url', issue: 'same_as_origin' },
      ]);
    }
    const scope = input.caller.apiKeyHash ?? 'anonymous';
    const requestHash = sha256(JSON.stringify([origin, target]));
    if (input.idempotencyKey) {
      const prior = await this.db.withSchema(SCHEMA).table('idempotency_keys').where({ scope, key: input.idempotencyKey }).first();
      if (prior) {
        if (prior.request_hash !== requestHash) {
          throw new ApiError('VALIDATION_FAILED', 'This Idempotency-Key was used for a different request.', [
            { path: 'Idempotency-Key', issue: 'reused' },
          ]);
        }
        return prior.response as { analysis: Analysis; cancelToken: string | null; created: boolean };
      }
    }
    const token = randomBytes(24).toString('base64url');
    const inserted = await this.repo.insertQueued({
      pair: { origin, target },
      engineVersion: this.engineVersion,
      stages: initialStages(),
      cancelTokenHash: sha256(token),
      apiKeyHash: input.caller.apiKeyHash,
      maxActive: this.opts.maxActive,
    });
    let response: { analysis: Analysis; cancelToken: string | null; created: boolean };
    if (inserted !== null && inserted !== 'full') {
      const row = inserted;
      this.opts.afterInsert?.();
      // The job id is the analysis id: a retried publish is dropped by the stream's duplicate window. Should this
      // process die before the job is recorded as published, the reconciler publishes it (reconciler.ts).
      try {
        await publishJob(this.js(), row.id);
      } catch {
        // No job, no analysis: mark it failed so the pair is not blocked, and let the client retry.
        await this.repo.failUnqueued(row.id, {
          code: 'SERVICE_UNAVAILABLE',
          message: 'The work queue did not accept the job.',
          limit: null,
        });
        throw new ApiError('SERVICE_UNAVAILABLE', 'The work queue is not available; retry shortly.');
      }
      await this.repo.markJobPublished(row.id);
      response = { analysis: Analyses.view(row), cancelToken: token, created: true };
    } else {
      // The pair's live or completed analysis is returned even when the queue is full: it adds no work.
      const existing = await this.repo.findLiveOrCompleted({ origin, target }, this.engineVersion);
      if (!existing) {
        if (inserted === 'full') {
          throw new ApiError('QUEUE_FULL', 'The analysis queue is full; retry later.', undefined, {
            'Retry-After': String(QUEUE_FULL_RETRY_AFTER_SECONDS),
          });
        }
        // Only possible if the conflicting analysis failed or was cancelled between the insert and this read.
        throw new ApiError('SERVICE_UNAVAILABLE', 'The analysis could not be created; retry shortly.');
      }
      response = { analysis: Analyses.view(existing), cancelToken: null, created: false };
    }
    if (input.idempotencyKey) {
      await this.db
        .withSchema(SCHEMA)
        .table('idempotency_keys')
        .insert({
          scope,
          key: input.idempotencyKey,
          request_hash: requestHash,
          analysis_id: response.analysis.id,
          response: JSON.stringify(response),
          created_at: now(),
        })
        .onConflict(['scope', 'key'])
        .ignore();
    }
    return response;
  }

  async row(id: string): Promise<AnalysisRow> {
    // An id beyond bigint names no analysis (and must not reach SQL, where it is an error).
    if (!fitsBigint(id)) throw notFound('ANALYSIS_NOT_FOUND', 'analysis');
    const r = await this.repo.find(id);
    if (!r) throw notFound('ANALYSIS_NOT_FOUND', 'analysis');
    return r;
  }

  async get(id: string) {
    return { analysis: Analyses.view(await this.row(id)) };
  }

  /** Cancel token (or the creating API key) required; takes effect at the next stage boundary. */
  async cancel(input: { id: string; bearer: string | null; caller: { apiKeyHash: string | null } }) {
    const r = await this.row(input.id);
    if (input.bearer === null) throw new ApiError('UNAUTHENTICATED', "Cancelling needs the analysis's cancel token.");
    const byToken = sha256(input.bearer) === r.cancel_token_hash;
    const byKey = input.caller.apiKeyHash !== null && input.caller.apiKeyHash === r.api_key_hash;
    if (!byToken && !byKey) throw new ApiError('FORBIDDEN', 'This credential cannot cancel this analysis.');
    const out = await this.repo.requestCancel(input.id);
    if (out === 'finished') throw new ApiError('ANALYSIS_FINISHED', 'The analysis has already finished.');
    return out;
  }

  /** One chunk of the manifest bytes from `offset` (NATS messages are bounded; callers loop). */
  async manifest(id: string, offset = 0) {
    const { state } = await this.row(id);
    const m = await this.repo.manifestChunk(id, offset, MANIFEST_CHUNK_BYTES);
    // Only an analysis that may still complete is "not ready"; a cancelled or failed one never gets a manifest.
    if (!m && state === 'cancelled')
      throw new ApiError('ANALYSIS_CANCELLED', 'The analysis was cancelled: it has no manifest and never will.');
    if (!m && state === 'failed') throw new ApiError('ANALYSIS_FAILED', 'The analysis failed: it has no manifest and never will.');
    if (!m) throw new ApiError('MANIFEST_NOT_READY', 'The manifest exists once the analysis completes.');
    if (offset > m.total)
      throw new ApiError('VALIDATION_FAILED', 'The offset is past the end of the manifest.', [{ path: 'offset', issue: 'too_big' }]);
    return { manifestHash: m.manifestHash, totalBytes: m.total, offset, bytesBase64: m.chunk.toString('base64') };
  }
}
