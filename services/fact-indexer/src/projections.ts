import { CursorCodec, notFound, type Knex } from '@lineage/service-kit';
import type { factsApi } from '@lineage/schemas';
import type { z } from 'zod';
import { SCHEMA } from './migrations';

type Meta = z.input<typeof factsApi.IndexerMeta>;
type Fact = z.input<typeof factsApi.Fact>;

const isIdPosition = (v: unknown): v is { id: string } =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' && /^[0-9]{1,78}$/.test((v as { id: string }).id);

/** Read side of the facts schema: what every replica serves. */
export class Projections {
  constructor(private readonly db: Knex, private readonly cursors: CursorCodec) {}

  private t(name: string) {
    return this.db.withSchema(SCHEMA).table(name);
  }

  async meta(): Promise<Meta> {
    const c = await this.t('cursor').where('id', 1).first();
    const indexed = c?.indexed_block ?? null;
    const finalized = c?.finalized_block ?? null;
    const head = c?.head_block ?? null;
    return {
      indexedBlock: indexed === null ? null : String(indexed),
      finalizedBlock: finalized === null ? null : String(finalized),
      lagBlocks: head === null || indexed === null ? null : String(Math.max(0, Number(head) - Number(indexed))),
    };
  }

  static fact(r: { fact_key: string; template_id: string; subject_hash: string; canonical: Fact['canonical']; latest: Fact['latest']; fresh_until: string | null }): Fact {
    return {
      factKey: String(r.fact_key),
      templateId: String(r.template_id),
      subjectHash: r.subject_hash,
      canonical: r.canonical,
      latest: r.latest,
      fresh: r.fresh_until !== null && Number(r.fresh_until) > Date.now() / 1000,
    };
  }

  async fact(factKey: string) {
    const r = await this.t('facts').where('fact_key', factKey).first();
    if (!r) throw notFound('FACT_NOT_FOUND', 'fact');
    return { fact: Projections.fact(r), meta: await this.meta() };
  }

  async facts(q: { outcome?: string; fresh?: boolean; limit: number; cursor?: string }) {
    const scope = `facts:${q.outcome ?? ''}:${q.fresh ?? ''}`;
    const after = q.cursor ? this.cursors.decode(scope, q.cursor, isIdPosition).id : null;
    const b = this.t('facts').select('*').orderBy('fact_key', 'asc').limit(q.limit + 1);
    if (q.outcome) b.where('canonical_outcome', q.outcome);
    const nowS = Math.floor(Date.now() / 1000);
    if (q.fresh === true) b.where('fresh_until', '>', nowS);
    if (q.fresh === false) b.where((w) => w.whereNull('fresh_until').orWhere('fresh_until', '<=', nowS));
    if (after) b.where('fact_key', '>', after);
    const rows = await b;
    const page = rows.slice(0, q.limit);
    return {
      items: page.map(Projections.fact),
      nextCursor: rows.length > q.limit ? this.cursors.encode(scope, { id: String(page[page.length - 1].fact_key) }) : null,
      meta: await this.meta(),
    };
  }

  async resolution(resolutionId: string) {
    const r = await this.t('resolutions').where('resolution_id', resolutionId).first();
    if (!r) throw notFound('RESOLUTION_NOT_FOUND', 'resolution');
    const f = await this.t('facts').where('fact_key', r.fact_key).first();
    return {
      resolution: {
        resolutionId: String(r.resolution_id),
        factKey: String(r.fact_key),
        assertionId: String(r.assertion_id),
        outcome: r.outcome,
        method: r.method,
        canonical: f?.canonical ?? null,
        latest: f?.latest ?? null,
        blockNumber: String(r.block_number),
        txHash: r.tx_hash,
        resolvedAt: String(r.resolved_at),
      },
      meta: await this.meta(),
    };
  }

  private async keyset<T>(table: string, idCol: string, q: { limit: number; cursor?: string }, map: (r: Record<string, unknown>) => T, order: 'asc' | 'desc' = 'asc', filter?: (b: Knex.QueryBuilder) => void, scopeExtra = '') {
    const scope = `${table}${scopeExtra}`;
    const after = q.cursor ? this.cursors.decode(scope, q.cursor, isIdPosition).id : null;
    const b = this.t(table).select('*').orderBy(idCol, order).limit(q.limit + 1);
    filter?.(b);
    if (after) b.where(idCol, order === 'asc' ? '>' : '<', after);
    const rows = (await b) as Record<string, unknown>[];
    const page = rows.slice(0, q.limit);
    return {
      items: page.map(map),
      nextCursor: rows.length > q.limit ? this.cursors.encode(scope, { id: String(page[page.length - 1]![idCol]) }) : null,
      meta: await this.meta(),
    };
  }

  policies(q: { limit: number; cursor?: string }) {
    return this.keyset('policies', 'policy_id', q, (r) => ({
      policyId: String(r.policy_id), livenessSeconds: String(r.liveness_seconds), bondWei: String(r.bond_wei), resolver: String(r.resolver),
      freshnessSeconds: String(r.freshness_seconds), createdAt: String(r.created_at), blockNumber: String(r.block_number),
    }));
  }

  templates(q: { limit: number; cursor?: string }) {
    return this.keyset('templates', 'template_id', q, (r) => ({
      templateId: String(r.template_id), name: String(r.name), text: String(r.text), textHash: String(r.text_hash), createdAt: String(r.created_at), blockNumber: String(r.block_number),
    }));
  }

  activity(q: { kind?: string; limit: number; cursor?: string }, finalizedBlock: bigint | null) {
    return this.keyset(
      'activity', 'id', q,
      (r) => {
        const ids = r.ids as Record<string, string | null>;
        return {
          id: String(r.id), kind: r.kind, factKey: ids.factKey ?? null, assertionId: ids.assertionId ?? null, resolutionId: ids.resolutionId ?? null,
          policyId: ids.policyId ?? null, templateId: ids.templateId ?? null, actor: ids.actor ?? null, blockNumber: String(r.block_number),
          blockHash: String(r.block_hash), txHash: String(r.tx_hash), logIndex: String(r.log_index),
          finalized: finalizedBlock !== null && BigInt(String(r.block_number)) <= finalizedBlock, timestamp: String(r.timestamp),
        };
      },
      'desc',
      (b) => { if (q.kind) b.where('kind', q.kind); },
      `:${q.kind ?? ''}`,
    );
  }
}
