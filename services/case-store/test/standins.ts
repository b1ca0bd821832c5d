// Stand-ins for other services on a real NATS server: the analysis-pipeline's manifest
// subject (serving manifests a test registers) and the fact-indexer's fact subject.
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection, Subscription } from '@nats-io/nats-core';
import { eventSubjects, subjects, type AnalysisCompletedEvent } from '@lineage/schemas';

type Reply = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

export class Standins {
  readonly manifests = new Map<string, { bytes: Buffer; hash: string }>();
  /** Analysis ids whose manifest is "not ready" for this many more requests. */
  readonly notReady = new Map<string, number>();
  readonly facts = new Map<string, unknown>();
  manifestRequests = 0;
  factRequests = 0;
  private readonly subs: Subscription[] = [];

  private constructor(
    readonly nc: NatsConnection,
    private readonly chunkBytes: number,
  ) {}

  static async connect(url: string, chunkBytes = 4096): Promise<Standins> {
    return new Standins(await connect({ servers: url }), chunkBytes);
  }

  private serve(subject: string, queue: string, answer: (req: Record<string, unknown>) => Reply): Subscription {
    const sub = this.nc.subscribe(subject, {
      queue,
      callback: (_e, msg) => {
        msg.respond(JSON.stringify(answer(msg.json())));
      },
    });
    this.subs.push(sub);
    return sub;
  }

  servePipeline(): Subscription {
    return this.serve(subjects.analysis.manifest.subject, subjects.analysis.manifest.queue, (req) => {
      this.manifestRequests += 1;
      const id = String(req.id);
      const m = this.manifests.get(id);
      const left = this.notReady.get(id) ?? 0;
      if (left > 0) {
        this.notReady.set(id, left - 1);
        return { ok: false, error: { code: 'MANIFEST_NOT_READY', message: 'not yet' } };
      }
      if (!m) return { ok: false, error: { code: 'ANALYSIS_NOT_FOUND', message: 'No analysis has that identifier.' } };
      const offset = Number(req.offset ?? 0);
      const chunk = m.bytes.subarray(offset, offset + this.chunkBytes);
      return { ok: true, result: { manifestHash: m.hash, totalBytes: m.bytes.length, offset, bytesBase64: chunk.toString('base64') } };
    });
  }

  serveFacts(): Subscription {
    return this.serve(subjects.facts.get.subject, subjects.facts.get.queue, (req) => {
      this.factRequests += 1;
      const f = this.facts.get(String(req.factKey));
      if (!f) return { ok: false, error: { code: 'FACT_NOT_FOUND', message: 'No fact has that identifier.' } };
      return { ok: true, result: { fact: f, meta: { indexedBlock: '10', finalizedBlock: '8', lagBlocks: '0' } } };
    });
  }

  /** The indexer's fact list, one page (what the case-store's presence set is built from). */
  serveFactList(): Subscription {
    return this.serve(subjects.facts.list.subject, subjects.facts.list.queue, () => ({
      ok: true,
      result: { items: [...this.facts.values()], nextCursor: null, meta: { indexedBlock: '10', finalizedBlock: '8', lagBlocks: '0' } },
    }));
  }

  /** Publish on the events stream; `msgId` defaults to the pipeline's `completed-<id>` (deduplicated by JetStream). */
  async publish(event: AnalysisCompletedEvent | Record<string, unknown>, msgId?: string): Promise<void> {
    const id = msgId ?? `completed-${String((event as { analysisId?: unknown }).analysisId)}`;
    await jetstream(this.nc).publish(eventSubjects.analysisCompleted, JSON.stringify(event), { msgID: id });
  }

  async close(): Promise<void> {
    for (const s of this.subs) s.unsubscribe();
    await this.nc.drain();
  }
}
