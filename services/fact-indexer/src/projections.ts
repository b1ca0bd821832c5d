import { CursorCodec, idPosition, keysetPage, keysetQuery, notFound, type Knex } from '@lineage/service-kit';
import { ACTIVITY_KINDS, type factsApi } from '@lineage/schemas';
import type { z } from 'zod';
import { SCHEMA } from './migrations';

type Meta = z.input<typeof factsApi.IndexerMeta>;
type Fact = z.input<typeof factsApi.Fact>;

/** A cursor position: a uint256 id (fact key, policy, template) or an activity seq, in decimal. */
const IdPosition = idPosition(78);

export interface Cursorish {
  indexed_block: string | null;
  finalized_block: string | null;
  head_block: string | null;
  head_timestamp: string | null;
  halted: string | null;
}

/** Chain time: freshness windows are measured on the chain's clock (its head), not the server's. */
const chainNow = (c: Cursorish | undefined): bigint =>
  c?.head_timestamp ? BigInt(c.head_timestamp) : BigInt(Math.floor(Date.now() / 1000));

const templateName = (text: string): string | null => /^([a-z0-9_./-]{1,64}):/.exec(text)?.[1] ?? null;

/** Read side of the facts schema: what every replica serves. */
export class Projections {
  constructor(
    private readonly db: Knex,
    private readonly cursors: CursorCodec,
  ) {}

  private t(name: string) {
    return this.db.withSchema(SCHEMA).table(name);
  }

  async cursor(): Promise<Cursorish | undefined> {
    return this.t('cursor').where('id', 1).first();
  }

  /**
   * Lag is head − indexed, and only that: unknown (null) while the writer is
   * halted (the head it last saw says nothing about the chain now) or when the
   * head is below the indexed block (a lagging node, or another chain).
   */
  static meta(c: Cursorish | undefined): Meta {
    const indexed = c?.indexed_block ?? null;
    const head = c?.head_block ?? null;
    const halted = Boolean(c?.halted);
    return {
      indexedBlock: indexed === null || BigInt(indexed) < 0n ? null : String(indexed),
      finalizedBlock: c?.finalized_block == null || BigInt(c.finalized_block) < 0n ? null : String(c.finalized_block),
      lagBlocks:
        halted || head === null || indexed === null || BigInt(head) < BigInt(indexed) ? null : String(BigInt(head) - BigInt(indexed)),
      halted,
    };
  }

  /** The list meta plus the head and the halt reason, from the cursor row, so every replica reports them. */
  async meta(): Promise<Meta & { headBlock: string | null; haltReason: string | null }> {
    const c = await this.cursor();
    return { ...Projections.meta(c), headBlock: c?.head_block == null ? null : String(c.head_block), haltReason: c?.halted ?? null };
  }

  static fact(r: Record<string, unknown>, now: bigint): Fact {
    return {
      factKey: String(r.fact_key),
      templateId: String(r.template_id),
      subjectHash: String(r.subject_hash),
      canonical: (r.canonical ?? null) as Fact['canonical'],
      latest: (r.latest ?? null) as Fact['latest'],
      fresh: r.fresh_until !== null && r.fresh_until !== undefined && BigInt(String(r.fresh_until)) > now,
    };
  }

  async fact(factKey: string) {
    const [r, c] = await Promise.all([this.t('facts').where('fact_key', factKey).first(), this.cursor()]);
    if (!r) throw notFound('FACT_NOT_FOUND', 'fact');
    return { fact: Projections.fact(r, chainNow(c)), meta: Projections.meta(c) };
  }

  /** Canonical view only (for the direct-read comparison); null when the fact is unknown. */
  async canonical(factKey: string) {
    return (await this.views(factKey)).canonical;
  }

  /** Both views (null when the fact is unknown) and the list meta, for the direct-read comparison. */
  async views(factKey: string) {
    const [r, c] = await Promise.all([this.t('facts').where('fact_key', factKey).first(), this.cursor()]);
    return {
      canonical: (r?.canonical ?? null) as Fact['canonical'],
      latest: (r?.latest ?? null) as Fact['latest'],
      meta: Projections.meta(c),
    };
  }

  /** `outcome` filters on the canonical view; `fresh` as docs/facts.md defines it, on the chain's clock. */
  async facts(q: { outcome?: string; fresh?: boolean; limit: number; cursor?: string }) {
    let c: Cursorish | undefined;
    let now = 0n;
    const page = await keysetPage({
      cursors: this.cursors,
      scope: `facts:${q.outcome ?? ''}:${q.fresh ?? ''}`,
      position: IdPosition,
      cursor: q.cursor,
      limit: q.limit,
      // The freshness filter needs the chain's clock, from the cursor row: read it (after the page's cursor was checked) first.
      fetch: async (after, take) => {
        c = await this.cursor();
        now = chainNow(c);
        const b = this.t('facts').select('*');
        if (q.outcome) b.where('canonical_outcome', q.outcome);
        if (q.fresh === true) b.where('fresh_until', '>', now.toString());
        if (q.fresh === false) b.where((w) => w.whereNull('fresh_until').orWhere('fresh_until', '<=', now.toString()));
        return (await keysetQuery(b, [{ column: 'fact_key', direction: 'asc', key: 'id' }], after, take)) as Record<string, unknown>[];
      },
      positionOf: (r: Record<string, unknown>) => ({ id: String(r.fact_key) }),
    });
    return {
      items: page.rows.map((r) => Projections.fact(r, now)),
      nextCursor: page.nextCursor,
      meta: Projections.meta(c),
    };
  }

  async resolution(resolutionId: string) {
    const r = await this.t('resolutions').where('resolution_id', resolutionId).first();
    if (!r) throw notFound('RESOLUTION_NOT_FOUND', 'resolution');
    const [f, c] = await Promise.all([this.t('facts').where('fact_key', r.fact_key).first(), this.cursor()]);
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
      meta: Projections.meta(c),
    };
  }

  private async keyset<T>(
    table: string,
    idCol: string,
    q: { limit: number; cursor?: string },
    map: (r: Record<string, unknown>, c: Cursorish | undefined) => T,
    order: 'asc' | 'desc' = 'asc',
    filter?: (b: Knex.QueryBuilder) => void,
    scopeExtra = '',
  ) {
    const query = this.t(table).select('*');
    filter?.(query);
    let c: Cursorish | undefined;
    const page = await keysetPage({
      cursors: this.cursors,
      scope: `${table}${scopeExtra}`,
      position: IdPosition,
      cursor: q.cursor,
      limit: q.limit,
      query,
      order: [{ column: idCol, direction: order, key: 'id' }],
      // The page and the cursor row (for the meta) together.
      run: async (b) => {
        const [rows, cursor] = await Promise.all([b as unknown as Promise<Record<string, unknown>[]>, this.cursor()]);
        c = cursor;
        return rows;
      },
      positionOf: (r: Record<string, unknown>) => ({ id: String(r[idCol]) }),
    });
    return {
      items: page.rows.map((r) => map(r, c)),
      nextCursor: page.nextCursor,
      meta: Projections.meta(c),
    };
  }

  policies(q: { limit: number; cursor?: string }) {
    return this.keyset('policies', 'policy_id', q, (r) => ({
      policyId: String(r.policy_id),
      family: String(r.family),
      version: String(r.version),
      livenessSeconds: String(r.liveness_seconds),
      bondWei: String(r.bond_wei),
      resolver: String(r.resolver),
      freshnessSeconds: String(r.freshness_seconds),
      createdAt: String(r.created_at),
      blockNumber: String(r.block_number),
    }));
  }

  templates(q: { limit: number; cursor?: string }) {
    return this.keyset('templates', 'template_id', q, (r) => ({
      templateId: String(r.template_id),
      name: templateName(String(r.text)),
      text: String(r.text),
      textHash: String(r.text_hash),
      createdAt: String(r.created_at),
      blockNumber: String(r.block_number),
    }));
  }

  /** Newest first; the id is block × 100000 + log index, stable across replicas and re-indexing. */
  activity(q: { kind?: string; limit: number; cursor?: string }) {
    return this.keyset(
      'events',
      'seq',
      q,
      (r, c) => ({
        id: String(r.seq),
        kind: r.kind as (typeof ACTIVITY_KINDS)[number],
        factKey: (r.fact_key ?? null) as string | null,
        assertionId: (r.assertion_id ?? null) as string | null,
        resolutionId: (r.resolution_id ?? null) as string | null,
        policyId: (r.policy_id ?? null) as string | null,
        templateId: (r.template_id ?? null) as string | null,
        actor: (r.actor ?? null) as string | null,
        blockNumber: String(r.block_number),
        blockHash: String(r.block_hash),
        txHash: String(r.tx_hash),
        logIndex: String(r.log_index),
        finalized: c?.finalized_block != null && BigInt(String(r.block_number)) <= BigInt(c.finalized_block),
        timestamp: String(r.timestamp),
      }),
      'desc',
      (b) => (q.kind ? b.where('kind', q.kind) : b.whereIn('kind', [...ACTIVITY_KINDS])),
      `:${q.kind ?? ''}`,
    );
  }
}
