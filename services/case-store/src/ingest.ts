// From an analysis-completed event to a published case: read the manifest from the
// pipeline in chunks, check its hash, parse it, build the report, write it once.
import { createHash } from 'node:crypto';
import { ManifestSchema, subjects, type AnalysisCompletedEvent, type CasePublishedEvent } from '@lineage/schemas';
import { ApiError, type Logger, type Nats } from '@lineage/service-kit';
import { buildCase } from './report';
import { isStorableId, type CaseStore } from './store';
import type { CaseFacts } from './facts';

/** An event that can never become a case (bad hash, bad manifest): retrying will not help. */
export class PermanentIngestError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PermanentIngestError';
  }
}

export interface IngestOptions {
  maxManifestBytes: number;
  /** Called between manifest chunks so a long read keeps its JetStream delivery alive. */
  heartbeat?: () => void;
  requestId: string;
}

export class Ingest {
  constructor(
    private readonly nats: () => Nats,
    /** Publishes the case-published event on the events stream; resolves once the stream has it. */
    private readonly announce: (event: CasePublishedEvent) => Promise<unknown>,
    private readonly store: CaseStore,
    private readonly facts: CaseFacts,
    private readonly log: Logger,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /**
   * Idempotent: an analysis that already has a case gets no new work, only its
   * case-published event again (the first attempt may have died before sending it).
   */
  async apply(event: AnalysisCompletedEvent, opts: IngestOptions): Promise<{ caseId: string; created: boolean }> {
    if (!isStorableId(event.analysisId)) throw new PermanentIngestError('analysis id out of range');
    const existing = await this.store.caseOfAnalysis(event.analysisId);
    if (existing) {
      await this.announce({
        analysisId: event.analysisId,
        caseId: existing.id,
        manifestHash: existing.manifestHash,
        publishedAt: existing.createdAt,
      });
      return { caseId: existing.id, created: false };
    }
    const bytes = await this.readManifest(event, opts);
    const hash = '0x' + createHash('sha256').update(bytes).digest('hex');
    if (hash !== event.manifestHash) throw new PermanentIngestError('manifest hash mismatch');
    let json: unknown;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw new PermanentIngestError('manifest is not JSON');
    }
    const parsed = ManifestSchema.safeParse(json);
    if (!parsed.success)
      throw new PermanentIngestError(`manifest does not match its schema (${parsed.error.issues[0]?.path.join('.') ?? ''})`);
    const manifest = parsed.data;
    if (manifest.pair.origin.commit !== event.pair.origin.commit || manifest.pair.target.commit !== event.pair.target.commit) {
      throw new PermanentIngestError('manifest pair differs from the event');
    }
    const built = buildCase(event, manifest);
    const p = event.pair;
    const factKey = this.facts.factKey({
      origin_url: p.origin.url,
      origin_commit: p.origin.commit,
      target_url: p.target.url,
      target_commit: p.target.commit,
    });
    const out = await this.store.insertCase({
      analysisId: event.analysisId,
      built,
      engineVersion: manifest.engineVersion,
      createdAt: this.now(),
      fact: { templateId: this.facts.template, factKey },
    });
    this.log.info(
      { analysisId: event.analysisId, caseId: out.id, created: out.created, evidence: built.evidence.length },
      'case published',
    );
    const stored = await this.store.caseOfAnalysis(event.analysisId);
    if (stored)
      await this.announce({
        analysisId: event.analysisId,
        caseId: stored.id,
        manifestHash: stored.manifestHash,
        publishedAt: stored.createdAt,
      });
    return { caseId: out.id, created: out.created };
  }

  private async readManifest(event: AnalysisCompletedEvent, opts: IngestOptions): Promise<Buffer> {
    if (event.manifestBytes > opts.maxManifestBytes) throw new PermanentIngestError('manifest too large');
    const chunks: Buffer[] = [];
    let got = 0;
    let total = -1;
    do {
      const reply = await this.nats().request(
        subjects.analysis.manifest,
        { id: event.analysisId, offset: got },
        { requestId: opts.requestId },
      );
      if (reply.manifestHash !== event.manifestHash) throw new PermanentIngestError('pipeline serves a different manifest');
      if (reply.offset !== got) throw new Error('manifest chunk at the wrong offset');
      if (total === -1) {
        total = reply.totalBytes;
        if (total > opts.maxManifestBytes) throw new PermanentIngestError('manifest too large');
      } else if (reply.totalBytes !== total) throw new Error('manifest length changed while being read');
      const chunk = Buffer.from(reply.bytesBase64, 'base64');
      if (chunk.length === 0 && got < total) throw new Error('empty manifest chunk');
      chunks.push(chunk);
      got += chunk.length;
      if (got > total) throw new PermanentIngestError('manifest longer than announced');
      opts.heartbeat?.();
    } while (got < total);
    return Buffer.concat(chunks, got);
  }
}

/** Whether a failed delivery is worth retrying: transport and availability problems are. */
export function isTransient(err: unknown): boolean {
  if (err instanceof PermanentIngestError) return false;
  if (err instanceof ApiError) return !['VALIDATION_FAILED'].includes(err.code);
  return true;
}
