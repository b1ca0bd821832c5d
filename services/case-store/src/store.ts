import type { Knex } from '@lineage/service-kit';
import { ApiError, CursorCodec, fitsBigint, keysetPage, notFound, preparedQuery } from '@lineage/service-kit';
import { VERDICTS, type casesApi } from '@lineage/schemas';
import { z } from 'zod';
import { SCHEMA } from './migrations';
import type { BuiltCase } from './report';

type CaseCard = z.input<typeof casesApi.CaseCard>;
/** The report as stored (JSONB written by `insert`): the case report without the fields added when it is read. */
export type StoredReport = Omit<z.input<typeof casesApi.CaseReport>, 'id' | 'analysisId' | 'createdAt' | 'factKey' | 'fact'>;
/** An evidence item as stored; its id is the row's sequence number. */
type StoredItem = Omit<z.input<typeof casesApi.EvidenceItem>, 'id'>;
export interface CaseRow {
  id: string;
  analysis_id: string;
  origin_url: string;
  origin_commit: string;
  target_url: string;
  target_commit: string;
  verdict: string;
  confidence: string;
  direction: string;
  manifest_hash: string;
  origin_committed_at: string | null;
  target_committed_at: string | null;
  fact_template_id: string | null;
  fact_key: string | null;
  created_at: string;
}

/** Columns of a case card (never the report: cards must not detoast it). */
const CARD_COLUMNS = [
  'id',
  'analysis_id',
  'origin_url',
  'origin_commit',
  'origin_committed_at',
  'target_url',
  'target_commit',
  'target_committed_at',
  'verdict',
  'confidence',
  'direction',
  'manifest_hash',
  'fact_template_id',
  'fact_key',
  'created_at',
];

/** The card columns as SQL, for the statements written by hand. */
const CARD_SQL = CARD_COLUMNS.map((c) => `"${c}"`).join(', ');

/**
 * A repository search first reads this many of the newest cases per result wanted (see repositoryPart): a term
 * matching at least 1 in 10 of them is common enough that the newest matches are found by reading newest first.
 */
const PROBE_ROWS_PER_RESULT = 10;

/** Whether a decimal id fits the bigint columns; larger ids cannot exist (and must not reach SQL). */
export const isStorableId = fitsBigint;

// Cursor positions (checked before they reach a query): a case id, an evidence rank, a search hit.
const decimalId = z.string().regex(/^[0-9]{1,19}$/);
const IdPosition = z.object({ id: decimalId });
const SeqPosition = z.object({
  seq: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1),
});
const SearchPosition = z.object({ rank: z.union([z.literal(0), z.literal(1), z.literal(2)]), id: decimalId });

/**
 * A built query run as a named prepared statement (planned once per connection, see preparedQuery): the hottest
 * reads, and lists whose generic plan is as good as a custom one. The builder's text is the same on every call.
 */
function prepared<R>(db: Knex, query: Knex.QueryBuilder): Promise<R[]> {
  const { sql, bindings } = query.toSQL().toNative();
  return preparedQuery<R>(db, sql, bindings);
}

export type EvidenceFilter = { layer?: string; strength?: string; kind?: string; path?: string };

/**
 * The cases schema: writes of published cases (idempotent per analysis) and every
 * read behind the case routes. Lists are keyset-paginated with signed cursors bound
 * to the list and its filters; nothing uses OFFSET.
 */
export class CaseStore {
  constructor(
    private readonly db: Knex,
    private readonly cursors: CursorCodec,
  ) {}

  private cases() {
    return this.db.withSchema(SCHEMA).table('cases');
  }

  static card(r: CaseRow): CaseCard {
    return {
      id: String(r.id),
      pair: {
        origin: {
          url: r.origin_url,
          commit: r.origin_commit,
          committedAt: r.origin_committed_at === null ? null : String(r.origin_committed_at),
        },
        target: {
          url: r.target_url,
          commit: r.target_commit,
          committedAt: r.target_committed_at === null ? null : String(r.target_committed_at),
        },
      },
      verdict: r.verdict as CaseCard['verdict'],
      confidence: r.confidence as CaseCard['confidence'],
      direction: r.direction as CaseCard['direction'],
      manifestHash: r.manifest_hash,
      createdAt: String(r.created_at),
    };
  }

  private cardSelect(q: Knex.QueryBuilder) {
    return q.select(CARD_COLUMNS);
  }

  // ---- writes -------------------------------------------------------------

  /** The case of an analysis, if it has one. */
  async caseOfAnalysis(analysisId: string): Promise<{ id: string; manifestHash: string; createdAt: string } | null> {
    const row = (await this.cases().where('analysis_id', analysisId).first('id', 'manifest_hash', 'created_at')) as
      { id: string; manifest_hash: string; created_at: string } | undefined;
    return row ? { id: String(row.id), manifestHash: row.manifest_hash, createdAt: String(row.created_at) } : null;
  }

  /**
   * Publish a case and its evidence in one transaction. A second insert for the same
   * analysis (redelivery, a concurrent replica) changes nothing and returns the existing id.
   */
  async insertCase(input: {
    analysisId: string;
    built: BuiltCase;
    engineVersion: string;
    createdAt: number;
    fact: { templateId: string; factKey: string | null };
  }): Promise<{ id: string; created: boolean }> {
    const { report, evidence } = input.built;
    return this.db.transaction(async (trx) => {
      const inserted = (await trx
        .withSchema(SCHEMA)
        .table('cases')
        .insert({
          analysis_id: input.analysisId,
          origin_url: report.pair.origin.url,
          origin_commit: report.pair.origin.commit,
          origin_committed_at: report.pair.origin.committedAt,
          target_url: report.pair.target.url,
          target_commit: report.pair.target.commit,
          target_committed_at: report.pair.target.committedAt,
          verdict: report.verdict,
          confidence: report.confidence,
          direction: report.direction,
          manifest_hash: report.manifestHash,
          engine_version: input.engineVersion,
          evidence_count: evidence.length,
          fact_template_id: input.fact.templateId,
          fact_key: input.fact.factKey,
          report: JSON.stringify(report),
          created_at: input.createdAt,
        })
        .onConflict('analysis_id')
        .ignore()
        .returning('id')) as { id: string }[];
      if (inserted.length === 0) {
        const existing = (await trx.withSchema(SCHEMA).table('cases').where('analysis_id', input.analysisId).first('id')) as { id: string };
        return { id: String(existing.id), created: false };
      }
      const caseId = String(inserted[0]!.id);
      for (let i = 0; i < evidence.length; i += 1000) {
        await trx
          .withSchema(SCHEMA)
          .table('evidence')
          .insert(evidence.slice(i, i + 1000).map((e) => ({ ...e, case_id: caseId, item: JSON.stringify(e.item) })));
      }
      return { id: caseId, created: true };
    });
  }

  // ---- reads --------------------------------------------------------------

  async list(q: { verdict?: string; repository?: string; limit: number; cursor?: string }) {
    const common = {
      cursors: this.cursors,
      scope: `cases:${q.verdict ?? ''}:${q.repository ?? ''}`,
      position: IdPosition,
      cursor: q.cursor,
      limit: q.limit,
      positionOf: (r: CaseRow) => ({ id: String(r.id) }),
    };
    const repository = q.repository;
    const page = repository
      ? // A substring of a repository URL: see repositoryPart.
        await keysetPage({
          ...common,
          fetch: (after, take) => {
            const sql = new Params();
            const conditions = [
              ...(q.verdict ? [`verdict = ${sql.add(q.verdict, 'text')}`] : []),
              ...(after ? [`id < ${sql.add(after.id, 'bigint')}`] : []),
            ];
            return preparedQuery<CaseRow>(
              this.db,
              `select * from (${repositoryPart(sql, repository, conditions, take)}) hits order by id desc`,
              sql.values,
            );
          },
        })
      : await keysetPage({
          ...common,
          query: q.verdict ? this.cardSelect(this.cases()).where('verdict', q.verdict) : this.cardSelect(this.cases()),
          order: [{ column: 'id', direction: 'desc', key: 'id' }],
          run: (b) => prepared<CaseRow>(this.db, b),
        });
    return { items: page.rows.map(CaseStore.card), nextCursor: page.nextCursor };
  }

  async get(id: string): Promise<CaseRow> {
    if (!isStorableId(id)) throw notFound('CASE_NOT_FOUND', 'case');
    const [row] = await prepared<CaseRow>(this.db, this.cardSelect(this.cases()).where('id', id));
    if (!row) throw notFound('CASE_NOT_FOUND', 'case');
    return row;
  }

  async report(id: string): Promise<{ row: CaseRow; report: StoredReport }> {
    if (!isStorableId(id)) throw notFound('CASE_NOT_FOUND', 'case');
    const [row] = await prepared<CaseRow & { report: StoredReport }>(
      this.db,
      this.cases()
        .select([...CARD_COLUMNS, 'report'])
        .where('id', id),
    );
    if (!row) throw notFound('CASE_NOT_FOUND', 'case');
    const { report, ...rest } = row;
    return { row: rest, report };
  }

  private async caseExists(id: string): Promise<void> {
    const rows = await prepared(this.db, this.cases().select(this.db.raw('1')).where('id', id));
    if (rows.length === 0) throw notFound('CASE_NOT_FOUND', 'case');
  }

  /** One case's evidence, filtered, in rank order, with exact facet counts over the whole filtered set. */
  async evidence(q: { id: string; limit: number; cursor?: string } & EvidenceFilter) {
    if (!isStorableId(q.id)) throw notFound('CASE_NOT_FOUND', 'case');
    type Row = {
      part: number;
      seq: number;
      item: StoredItem;
      layer: string | null;
      strength: string | null;
      kind: string | null;
      language: string | null;
      n: number;
      g: number;
    };
    let facetRows: Row[] = [];
    const page = await keysetPage({
      cursors: this.cursors,
      scope: `evidence:${q.id}:${q.layer ?? ''}:${q.strength ?? ''}:${q.kind ?? ''}:${q.path ?? ''}`,
      position: SeqPosition,
      cursor: q.cursor,
      limit: q.limit,
      positionOf: (r: Row) => ({ seq: r.seq }),
      fetch: async (after, take) => {
        // One round trip: the page and the facet counts, as two parts of a UNION ALL over the same filter.
        // A prepared statement per combination of filters: every condition is an equality on indexed
        // columns or a prefix filter on the case's few rows, so a generic plan serves. `seq + 0` keeps
        // that plan from walking the primary key in seq order (every row of the case, filtered after
        // reading it) instead of the filter's index and a sort of the few rows that match.
        // Raw SQL: the builder has no GROUPING SETS / grouping(), which the facet part is made of.
        const values: unknown[] = [q.id];
        const conds = ['case_id = $1'];
        if (q.layer) conds.push(`layer = $${values.push(q.layer)}`);
        if (q.strength) conds.push(`strength = $${values.push(q.strength)}`);
        if (q.kind) conds.push(`kind = $${values.push(q.kind)}`);
        if (q.path) {
          const n = values.push(`${escapeLike(q.path)}%`);
          conds.push(`(target_path like $${n} or origin_path like $${n})`);
        }
        const where = conds.join(' and ');
        const pageWhere = after !== null ? `${where} and seq > $${values.push(after.seq)}` : where;
        const sql = `(select 0 as part, seq, item, null::text as layer, null::text as strength, null::text as kind, null::text as language, null::int as n, null::int as g
            from ${SCHEMA}.evidence where ${pageWhere} order by seq + 0 limit $${values.push(take)})
          union all
          (select 1, null, null, layer, strength, kind, language, count(*)::int, grouping(layer, strength, kind, language)::int
            from ${SCHEMA}.evidence where ${where} group by grouping sets ((layer), (strength), (kind), (language), ()))`;
        const all = await preparedQuery<Row>(this.db, sql, values);
        facetRows = all.filter((r) => r.part === 1);
        return all.filter((r) => r.part === 0).sort((a, b) => a.seq - b.seq);
      },
    });
    const facets = {
      layer: {} as Record<string, number>,
      strength: {} as Record<string, number>,
      kind: {} as Record<string, number>,
      language: {} as Record<string, number>,
    };
    let total = 0;
    for (const f of facetRows) {
      // grouping() bitmask, one bit per argument, set when that column is NOT grouped.
      if (f.g === 0b1111) total = f.n;
      else if (f.g === 0b0111) facets.layer[f.layer!] = f.n;
      else if (f.g === 0b1011) facets.strength[f.strength!] = f.n;
      else if (f.g === 0b1101) facets.kind[f.kind!] = f.n;
      else if (f.g === 0b1110) facets.language[f.language ?? 'none'] = f.n;
    }
    // An empty filtered set: tell "unknown case" apart from "nothing matches".
    if (total === 0) await this.caseExists(q.id);
    return {
      items: page.rows.map((r) => ({ ...r.item, id: String(r.seq) })),
      nextCursor: page.nextCursor,
      total,
      facets,
    };
  }

  /**
   * Search ranking (docs/cases.md): an exact case id first, then cases whose verdict is
   * the term, then repository URL substring matches; newest first within each. A case
   * appears once, under its best match. The cursor is (rank, id).
   */
  async search(q: { q: string; limit: number; cursor?: string }) {
    const term = q.q.trim();
    if (term.length === 0) throw new ApiError('VALIDATION_FAILED', 'The request failed validation.', [{ path: 'q', issue: 'too_small' }]);
    const isId = isStorableId(term);
    const verdict = (VERDICTS as readonly string[]).includes(term.toUpperCase()) ? term.toUpperCase() : null;
    type Hit = CaseRow & { rank: number };
    const page = await keysetPage({
      cursors: this.cursors,
      scope: `search:${term}`,
      position: SearchPosition,
      cursor: q.cursor,
      limit: q.limit,
      positionOf: (r: Hit) => ({ rank: r.rank as 0 | 1 | 2, id: String(r.id) }),
      // One part per rank, each newest first, after the cursor's (rank, id): one prepared statement per shape
      // (which parts, whether a cursor), its generic plan good for every term (see repositoryPart).
      fetch: (after, take) => {
        const sql = new Params();
        const from = (rank: 0 | 1 | 2) => !after || after.rank <= rank;
        const below = (rank: 0 | 1 | 2) => (after && after.rank === rank ? [`id < ${sql.add(after.id, 'bigint')}`] : []);
        const id = isId ? sql.add(term, 'bigint') : null;
        const notId = id ? [`id <> ${id}`] : [];
        const parts: string[] = [];
        if (id && from(0))
          parts.push(`select ${CARD_SQL}, 0 as rank from ${SCHEMA}.cases where ${[`id = ${id}`, ...below(0)].join(' and ')}`);
        const v = verdict ? sql.add(verdict, 'text') : null;
        if (v && from(1)) {
          const where = [`verdict = ${v}`, ...notId, ...below(1)].join(' and ');
          parts.push(`select ${CARD_SQL}, 1 as rank from ${SCHEMA}.cases where ${where} order by id desc limit ${sql.add(take, 'int')}`);
        }
        parts.push(repositoryPart(sql, term, [...(v ? [`verdict <> ${v}`] : []), ...notId, ...below(2)], take));
        const union = parts.map((p) => `(${p})`).join(' union all ');
        return preparedQuery<Hit>(
          this.db,
          `select * from (${union}) hits order by rank, id desc limit ${sql.add(take, 'int')}`,
          sql.values,
        );
      },
    });
    const matched = ['caseId', 'verdict', 'repository'] as const;
    return {
      items: page.rows.map((r) => ({ matchedOn: matched[r.rank]!, case: CaseStore.card(r) })),
      nextCursor: page.nextCursor,
    };
  }
}

/** Positional parameters of a statement written by hand: each value once, typed, named by its place. */
class Params {
  readonly values: unknown[] = [];
  private readonly seen = new Map<string, string>();
  add(value: string | number, type: 'text' | 'bigint' | 'int'): string {
    const key = `${type}:${value}`;
    let ref = this.seen.get(key);
    if (!ref) {
      ref = `$${this.values.push(value)}::${type}`;
      this.seen.set(key, ref);
    }
    return ref;
  }
}

/**
 * The newest `take` cases that meet `conditions` and hold `term` in either repository URL, case-insensitively
 * (the trigram indexes are on lower(url)), as search hits of rank 2.
 *
 * There are two ways to find them, and which is cheap depends on how common the term is, which the planner cannot
 * tell: its estimate for a substring comes from a 100-entry histogram, so a rare name that happens to appear in it
 * is taken for 1 % of the table, and the plan walks every case newest first, filtering (110 ms at 100k cases, and
 * growing with the table) where the trigram indexes find the few matches in a millisecond. A common term
 * ("github") is the reverse: the newest cases hold the answer, and the indexes would visit most of the table. So
 * the statement looks instead of guessing: it reads the newest PROBE_ROWS_PER_RESULT × take cases; when they
 * hold `take` matches, those are the answer; otherwise the term matches fewer than 1 case in
 * PROBE_ROWS_PER_RESULT and the trigram indexes find every match to be sorted (`id + 0`: never the walk). What
 * is left is a band: a term rare among the newest but with thousands of matches further back pays for visiting
 * them all (23 ms for one in 4 % of 100k cases, where the planner's walk would have taken one). The
 * pattern reaches the plan only as `(select $n)`, a value it cannot look into, so custom and generic plans are
 * the same and the prepared statement is planned once per connection. A term under 3 characters has no
 * trigram and reads the whole index either way.
 */
function repositoryPart(sql: Params, term: string, conditions: string[], take: number): string {
  const like = sql.add(`%${escapeLike(term.toLowerCase())}%`, 'text');
  const match = `(lower(origin_url) like (select ${like}) or lower(target_url) like (select ${like}))`;
  const t = sql.add(take, 'int');
  const newest = conditions.length > 0 ? `where ${conditions.join(' and ')} ` : '';
  return `with probe as materialized (
      select * from (select ${CARD_SQL} from ${SCHEMA}.cases ${newest}order by id desc limit ${sql.add(PROBE_ROWS_PER_RESULT * take, 'int')}) newest
      where ${match} order by id desc limit ${t})
    select *, 2 as rank from probe where (select count(*) from probe) = ${t}
    union all
    (select ${CARD_SQL}, 2 as rank from ${SCHEMA}.cases where ${[match, ...conditions].join(' and ')} and (select count(*) from probe) < ${t}
      order by id + 0 desc limit ${t})`;
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
