// The hot queries' plans, checked with EXPLAIN on a real PostgreSQL: none of them
// scans the evidence table sequentially, and facets are answered from an index.
import { Client } from 'pg';
import { CursorCodec, createDb, migrate, type Knex } from '@lineage/service-kit';
import { SCHEMA, migrations } from '../src/migrations';
import { CaseStore } from '../src/store';
import { freshDatabase } from '../../../test/support/processes';

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: Knex;
let pg: Client;
let store: CaseStore;
const captured: { sql: string; bindings: unknown[]; prepared: boolean }[] = [];

const CASES = 20_000;
/** Evidence rows for the first EVIDENCE_CASES cases only (enough for realistic per-case plans). */
const EVIDENCE_CASES = 400;
const PER_CASE = 60;

beforeAll(async () => {
  database = await freshDatabase('lineage_case_plans');
  db = createDb({ url: database.url, schema: SCHEMA, poolMax: 4, applicationName: 'case-plans-test' });
  await migrate(db, SCHEMA, migrations);
  // Synthetic rows straight in SQL: the plans depend on sizes and distributions, not contents.
  await db.raw(`
    insert into cases.cases (analysis_id, origin_url, origin_commit, target_url, target_commit, verdict, confidence, direction, manifest_hash, engine_version, evidence_count, report, created_at)
    select g, 'https://github.com/owner' || (g % 97) || '/repo' || g, lpad(to_hex(g), 40, '0'), 'https://gitlab.com/fork' || g || '/thing', lpad(to_hex(g + 1), 40, '0'),
      (array['INDEPENDENT','SHARED_UPSTREAM','DECLARED_FORK','LIKELY_DERIVED','HEAVILY_DERIVED','INSUFFICIENT_EVIDENCE'])[1 + g % 6], 'MEDIUM', 'NONE',
      '0x' || repeat('ab', 32), 'e1', ${PER_CASE}, '{}'::jsonb, 1700000000 + g
    from generate_series(1, ${CASES}) g`);
  await db.raw(`
    insert into cases.evidence (case_id, seq, layer, strength, kind, language, origin_path, target_path, item)
    select c.id, s, (array['CODE','STRUCTURE','HISTORY','TEST','LANGUAGE','DEPENDENCY'])[1 + s % 6], (array['WEAK','MODERATE','STRONG'])[1 + s % 3],
      'KIND_' || (s % 5), case when s % 3 = 0 then null else 'typescript' end, 'src/dir' || (s % 4) || '/f' || s || '.ts', 'src/dir' || (s % 4) || '/f' || s || '.ts',
      jsonb_build_object('detail', 'item ' || s)
    from cases.cases c cross join generate_series(1, ${PER_CASE}) s where c.id <= ${EVIDENCE_CASES}`);
  await db.raw('vacuum analyze cases.cases');
  await db.raw('vacuum analyze cases.evidence');
  store = new CaseStore(db, new CursorCodec('plan-test-secret-0123456789'));
  db.on('query', (q: { sql: string; bindings?: unknown[]; prepared?: boolean }) =>
    captured.push({ sql: q.sql, bindings: q.bindings ?? [], prepared: q.prepared === true }),
  );
  pg = new Client({ connectionString: database.url });
  await pg.connect();
  await pg.query('set search_path to cases, public');
});

afterAll(async () => {
  await pg?.end();
  await db?.destroy();
  await database?.drop();
});

/** Run `fn`, then EXPLAIN every statement it issued; return the plan nodes of each. */
async function plansOf(fn: () => Promise<unknown>): Promise<PlanNode[][]> {
  captured.length = 0;
  await fn();
  const out: PlanNode[][] = [];
  for (const [i, q] of captured.entries()) {
    let res;
    if (q.prepared) {
      // A prepared statement runs its generic plan after a few executions: that is the plan to check.
      await pg.query(`prepare plan_check_${i} as ${q.sql}`);
      await pg.query('set plan_cache_mode = force_generic_plan');
      const args = q.bindings.map((b) => (b === null ? 'null' : `'${String(b).replace(/'/g, "''")}'`)).join(', ');
      res = await pg.query(`explain (format json) execute plan_check_${i}${args ? `(${args})` : ''}`);
      await pg.query('reset plan_cache_mode');
      await pg.query(`deallocate plan_check_${i}`);
    } else {
      res = await pg.query(`explain (format json) ${q.sql}`, q.bindings as unknown[]);
    }
    const nodes: PlanNode[] = [];
    const walk = (n: PlanNode) => {
      nodes.push(n);
      for (const c of n.Plans ?? []) walk(c);
    };
    walk((res.rows[0]['QUERY PLAN'] as { Plan: PlanNode }[])[0]!.Plan);
    out.push(nodes);
  }
  return out;
}

const seqScans = (plans: PlanNode[][], table: string) =>
  plans.flat().filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === table);

describe('query plans', () => {
  const caseId = String(EVIDENCE_CASES / 2);

  it.each([
    {},
    { layer: 'CODE' },
    { strength: 'STRONG', kind: 'KIND_1' },
    { path: 'src/dir1/' },
    { layer: 'TEST', strength: 'WEAK', kind: 'KIND_2', path: 'src/' },
  ])('filtered evidence with facets %j never scans evidence sequentially', async (filter) => {
    const plans = await plansOf(() => store.evidence({ id: caseId, limit: 20, ...filter }));
    // One statement: the page (Limit) and the facets (an aggregate over grouping sets).
    expect(plans).toHaveLength(1);
    const types = plans.flat().map((n) => n['Node Type']);
    expect(types).toContain('Limit');
    expect(types.some((t) => t === 'Aggregate' || t === 'MixedAggregate')).toBe(true);
    expect(seqScans(plans, 'evidence')).toEqual([]);
    const used = plans
      .flat()
      .filter((n) => n['Relation Name'] === 'evidence')
      .map((n) => n['Node Type']);
    expect(used.length).toBeGreaterThanOrEqual(2);
  });

  it('evidence, case reads, lists and searches run as prepared statements', async () => {
    captured.length = 0;
    await store.evidence({ id: caseId, limit: 20, layer: 'CODE' });
    await store.report(caseId);
    await store.list({ limit: 20, verdict: 'LIKELY_DERIVED' });
    expect(captured.map((q) => q.prepared)).toEqual([true, true, true]);
    captured.length = 0;
    await store.search({ q: 'fork12', limit: 20 });
    await store.list({ limit: 20, repository: 'fork12' });
    expect(captured.map((q) => q.prepared)).toEqual([true, true]);
  });

  it("a filtered page reads the filter's index, not every row of the case in seq order", async () => {
    const plans = await plansOf(() => store.evidence({ id: caseId, limit: 20, layer: 'CODE' }));
    const page = plans[0]!.filter((n) => n['Relation Name'] === 'evidence');
    expect(page.map((n) => n['Index Name'])).not.toContain('evidence_pkey');
  });

  it('facets without a path filter are index-only', async () => {
    const plans = await plansOf(() => store.evidence({ id: caseId, limit: 20, layer: 'CODE' }));
    const facetPlan = plans.find((p) => p.some((n) => n['Node Type'] === 'Aggregate' || n['Node Type'] === 'MixedAggregate'));
    expect(facetPlan?.some((n) => n['Node Type'] === 'Index Only Scan' && n['Index Name'] === 'evidence_facets')).toBe(true);
  });

  it('the second page of evidence starts from its key', async () => {
    const first = await store.evidence({ id: caseId, limit: 10 });
    const plans = await plansOf(() => store.evidence({ id: caseId, limit: 10, cursor: first.nextCursor! }));
    expect(seqScans(plans, 'evidence')).toEqual([]);
  });

  it('case reads, lists and search never scan evidence; report and list by verdict do not scan cases either', async () => {
    const report = await plansOf(() => store.report(caseId));
    expect(seqScans(report, 'cases')).toEqual([]);
    const list = await plansOf(() => store.list({ limit: 20 }));
    expect(seqScans(list, 'cases')).toEqual([]);
    const byVerdict = await plansOf(() => store.list({ limit: 20, verdict: 'LIKELY_DERIVED' }));
    expect(seqScans(byVerdict, 'cases')).toEqual([]);
    const search = await plansOf(() => store.search({ q: 'fork123', limit: 20 }));
    expect(seqScans([...report, ...list, ...byVerdict, ...search], 'evidence')).toEqual([]);
  });

  it('repository substring search has an index path (the trigram indexes)', async () => {
    const search = await plansOf(() => store.search({ q: 'Fork1234', limit: 20 }));
    const indexes = search
      .flat()
      .map((n) => n['Index Name'])
      .filter(Boolean);
    expect(indexes).toEqual(expect.arrayContaining(['cases_origin_url_trgm', 'cases_target_url_trgm']));
    expect(seqScans(search, 'cases')).toEqual([]);
    const filtered = await plansOf(() => store.list({ repository: 'fork1234', limit: 20 }));
    expect(seqScans(filtered, 'cases')).toEqual([]);
  });
});
