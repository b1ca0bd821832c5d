import type { Knex } from '@lineage/service-kit';
import { ApiError, CursorCodec, notFound } from '@lineage/service-kit';
import { VERDICTS, type casesApi } from '@lineage/schemas';
import type { z } from 'zod';
import { SCHEMA } from './migrations';

type CaseCard = z.input<typeof casesApi.CaseCard>;
type CaseRow = {
  id: string; analysis_id: string; origin_url: string; origin_commit: string; target_url: string; target_commit: string;
  verdict: string; confidence: string; direction: string; manifest_hash: string; report: Record<string, unknown>; created_at: string;
};

const isIdPosition = (v: unknown): v is { id: string } =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string' && /^[0-9]{1,20}$/.test((v as { id: string }).id);

/** Reads over the cases schema: keyset pagination (id descending = newest first), never OFFSET. */
export class CaseStore {
  constructor(private readonly db: Knex, private readonly cursors: CursorCodec) {}

  private cases() {
    return this.db.withSchema(SCHEMA).table('cases');
  }

  static card(r: CaseRow): CaseCard {
    const report = r.report as { pair?: { origin?: { committedAt?: string | null }; target?: { committedAt?: string | null } } };
    return {
      id: String(r.id),
      pair: {
        origin: { url: r.origin_url, commit: r.origin_commit, committedAt: report.pair?.origin?.committedAt ?? null },
        target: { url: r.target_url, commit: r.target_commit, committedAt: report.pair?.target?.committedAt ?? null },
      },
      verdict: r.verdict as CaseCard['verdict'],
      confidence: r.confidence as CaseCard['confidence'],
      direction: r.direction as CaseCard['direction'],
      manifestHash: r.manifest_hash,
      createdAt: String(r.created_at),
    };
  }

  async list(q: { verdict?: string; repository?: string; limit: number; cursor?: string }) {
    const scope = `cases:${q.verdict ?? ''}:${q.repository ?? ''}`;
    const after = q.cursor ? this.cursors.decode(scope, q.cursor, isIdPosition).id : null;
    const query = this.cases().select('*').orderBy('id', 'desc').limit(q.limit + 1);
    if (q.verdict) query.where('verdict', q.verdict);
    if (q.repository) {
      const like = `%${escapeLike(q.repository.toLowerCase())}%`;
      query.where((w) => w.whereRaw('lower(origin_url) like ?', [like]).orWhereRaw('lower(target_url) like ?', [like]));
    }
    if (after) query.where('id', '<', after);
    const rows = (await query) as CaseRow[];
    const page = rows.slice(0, q.limit);
    const next = rows.length > q.limit ? this.cursors.encode(scope, { id: String(page[page.length - 1]!.id) }) : null;
    return { items: page.map(CaseStore.card), nextCursor: next };
  }

  async get(id: string): Promise<CaseRow> {
    const row = (await this.cases().where('id', id).first()) as CaseRow | undefined;
    if (!row) throw notFound('CASE_NOT_FOUND', 'case');
    return row;
  }

  async report(id: string) {
    const row = await this.get(id);
    return { case: { ...(row.report as object), id: String(row.id), analysisId: String(row.analysis_id), fact: null } };
  }

  async evidence(q: { id: string; layer?: string; strength?: string; kind?: string; path?: string; limit: number; cursor?: string }) {
    await this.get(q.id);
    const scope = `evidence:${q.id}:${q.layer ?? ''}:${q.strength ?? ''}:${q.kind ?? ''}:${q.path ?? ''}`;
    const after = q.cursor ? this.cursors.decode(scope, q.cursor, isIdPosition).id : null;
    const filtered = () => {
      const b = this.db.withSchema(SCHEMA).table('evidence').where('case_id', q.id);
      if (q.layer) b.where('layer', q.layer);
      if (q.strength) b.where('strength', q.strength);
      if (q.kind) b.where('kind', q.kind);
      if (q.path) b.whereRaw('path like ?', [`${escapeLike(q.path)}%`]);
      return b;
    };
    const pageQuery = filtered().select('id', 'item').orderBy('id', 'asc').limit(q.limit + 1);
    if (after) pageQuery.where('id', '>', after);
    const [rows, facetRows] = await Promise.all([
      pageQuery as Promise<{ id: string; item: Record<string, unknown> }[]>,
      filtered()
        .select(this.db.raw(`grouping(layer, strength, kind, language) as g`), 'layer', 'strength', 'kind', 'language', this.db.raw('count(*)::int as n'))
        .groupByRaw('grouping sets ((layer), (strength), (kind), (language))') as unknown as Promise<
        { layer: string | null; strength: string | null; kind: string | null; language: string | null; n: number; g: number }[]
      >,
    ]);
    const facets = { layer: {} as Record<string, number>, strength: {} as Record<string, number>, kind: {} as Record<string, number>, language: {} as Record<string, number> };
    let total = 0;
    for (const f of facetRows) {
      // grouping() bitmask: 0b0111 → grouped by layer only, etc.
      if (f.g === 0b0111) { facets.layer[f.layer!] = f.n; total += f.n; }
      else if (f.g === 0b1011) facets.strength[f.strength!] = f.n;
      else if (f.g === 0b1101) facets.kind[f.kind!] = f.n;
      else if (f.g === 0b1110) facets.language[f.language ?? 'none'] = f.n;
    }
    const page = rows.slice(0, q.limit);
    return {
      items: page.map((r) => ({ ...r.item, id: String(r.id) })),
      nextCursor: rows.length > q.limit ? this.cursors.encode(scope, { id: String(page[page.length - 1]!.id) }) : null,
      total,
      facets,
    };
  }

  /** Exact case id, then verdict name, then repository substring; newest first within each. */
  async search(q: { q: string; limit: number; cursor?: string }) {
    const term = q.q.trim();
    if (term.length === 0) throw new ApiError('VALIDATION_FAILED', 'The request failed validation.', [{ path: 'q', issue: 'too_small' }]);
    const scope = `search:${term}`;
    const after = q.cursor ? this.cursors.decode(scope, q.cursor, isIdPosition).id : null;
    const upper = term.toUpperCase();
    let matchedOn: 'caseId' | 'verdict' | 'repository';
    const query = this.cases().select('*').orderBy('id', 'desc').limit(q.limit + 1);
    if (/^[0-9]{1,20}$/.test(term)) {
      matchedOn = 'caseId';
      query.where('id', term);
    } else if ((VERDICTS as readonly string[]).includes(upper)) {
      matchedOn = 'verdict';
      query.where('verdict', upper);
    } else {
      matchedOn = 'repository';
      const like = `%${escapeLike(term.toLowerCase())}%`;
      query.where((w) => w.whereRaw('lower(origin_url) like ?', [like]).orWhereRaw('lower(target_url) like ?', [like]));
    }
    if (after) query.where('id', '<', after);
    const rows = (await query) as CaseRow[];
    const page = rows.slice(0, q.limit);
    return {
      items: page.map((r) => ({ matchedOn, case: CaseStore.card(r) })),
      nextCursor: rows.length > q.limit ? this.cursors.encode(scope, { id: String(page[page.length - 1]!.id) }) : null,
    };
  }
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
