// Repository substring search on a real PostgreSQL, against a plain SQL reference: a term common among the
// newest cases (answered from the newest ones), a rare one (answered by the trigram indexes), one in between
// (some matches among the newest, more further back), each alone, with a verdict filter or as a search, and
// page by page. Both ways must give exactly the reference: the newest matches first, none twice, none missed.
import { CursorCodec, createDb, migrate, type Knex } from '@lineage/service-kit';
import { SCHEMA, migrations } from '../src/migrations';
import { CaseStore } from '../src/store';
import { freshDatabase } from '../../../test/support/processes';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: Knex;
let store: CaseStore;
const CASES = 3_000;

beforeAll(async () => {
  database = await freshDatabase('lineage_case_search');
  db = createDb({ url: database.url, schema: SCHEMA, poolMax: 2, applicationName: 'case-search-test' });
  await migrate(db, SCHEMA, migrations);
  // Origins: "common" in every 3rd case; "middle" in every 37th; "Rare" in 5 cases near the start (mixed case).
  // Targets: one fork each, so a case number is also a substring of its target URL.
  await db.raw(`
    insert into cases.cases (analysis_id, origin_url, origin_commit, target_url, target_commit, verdict, confidence, direction, manifest_hash, engine_version, evidence_count, report, created_at)
    select g,
      'https://github.com/' || case when g % 3 = 0 then 'common' when g % 37 = 0 then 'middle' when g in (11, 13, 14, 16, 17) then 'Rare' else 'someone' end || '/lib-' || g,
      lpad(to_hex(g), 40, '0'), 'https://gitlab.com/fork' || g || '/thing', lpad(to_hex(g + 1), 40, '0'),
      (array['INDEPENDENT','SHARED_UPSTREAM','DECLARED_FORK','LIKELY_DERIVED','HEAVILY_DERIVED','INSUFFICIENT_EVIDENCE'])[1 + g % 6], 'MEDIUM', 'NONE',
      '0x' || repeat('ab', 32), 'e1', 0, '{}'::jsonb, 1700000000 + g
    from generate_series(1, ${CASES}) g`);
  await db.raw('vacuum analyze cases.cases');
  store = new CaseStore(db, new CursorCodec('search-test-secret-0123456789'));
});

afterAll(async () => {
  await db?.destroy();
  await database?.drop();
});

/** Every matching case id, newest first, by the plainest SQL there is. */
async function reference(term: string, verdict?: string): Promise<string[]> {
  const like = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = (await db.raw(
    `select id from cases.cases where (lower(origin_url) like ? or lower(target_url) like ?) ${verdict ? 'and verdict = ?' : ''} order by id desc`,
    verdict ? [like, like, verdict] : [like, like],
  )) as { rows: { id: string }[] };
  return rows.rows.map((r) => String(r.id));
}

async function listAll(term: string, limit: number, verdict?: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ repository: term, verdict, limit, cursor });
    ids.push(...page.items.map((c) => c.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

/** Every hit of a search, page by page, as `tier:id`. */
async function searchHits(term: string, limit: number): Promise<string[]> {
  const hits: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.search({ q: term, limit, cursor });
    hits.push(...page.items.map((h) => `${h.matchedOn}:${h.case.id}`));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return hits;
}

const searchAll = async (term: string, limit: number) =>
  (await searchHits(term, limit)).filter((h) => h.startsWith('repository:')).map((h) => h.slice('repository:'.length));

describe('repository substring search', () => {
  it.each([
    ['common', 'in 1 of 3 cases: the newest cases hold a page of them'],
    ['rare', 'in 5 of the oldest cases: only the trigram indexes find them'],
    ['middle/', 'in 1 of 37: a few among the newest, most further back'],
    ['fork29', 'a case number: fork29 and fork290..2999'],
    ['no-such-repo', 'nowhere'],
  ])('"%s" (%s) lists exactly the reference, newest first, one page or many', async (term) => {
    const want = await reference(term);
    expect(new Set(want).size).toBe(want.length);
    const onePage = (await store.list({ repository: term, limit: 100 })).items.map((c) => c.id);
    expect(onePage).toEqual(want.slice(0, 100));
    expect(await listAll(term, 7)).toEqual(want);
    expect(await searchAll(term, 7)).toEqual(want);
  });

  it('the reference sets are what the test means them to be', async () => {
    expect((await reference('common')).length).toBe(1000);
    expect(await reference('rare')).toEqual(['17', '16', '14', '13', '11']);
    const middle = await reference('middle/');
    expect(middle.length).toBeGreaterThan(20);
    // A page of 7 reads one more (8) and first looks at the newest 10 × 8 cases: they hold some, not 8.
    const amongNewest = middle.filter((id) => Number(id) > CASES - 80).length;
    expect(amongNewest).toBeGreaterThan(0);
    expect(amongNewest).toBeLessThan(8);
  });

  it('a verdict filter applies to both ways', async () => {
    for (const term of ['common', 'middle/', 'rare']) {
      expect(await listAll(term, 5, 'DECLARED_FORK')).toEqual(await reference(term, 'DECLARED_FORK'));
    }
  });

  it.each(['2999', '29', 'declared_fork'])('a search for "%s" pages through its tiers without skipping or repeating', async (term) => {
    const whole = await searchHits(term, 100);
    expect(new Set(whole).size).toBe(whole.length);
    expect(await searchHits(term, 1)).toEqual(whole);
    expect(await searchHits(term, 13)).toEqual(whole);
  });

  it('a search for a verdict name or a case id keeps each case once, under its best match', async () => {
    const hits = (await store.search({ q: '2999', limit: 100 })).items.map((h) => [h.matchedOn, h.case.id]);
    expect(hits[0]).toEqual(['caseId', '2999']);
    // 2999 is also a substring of fork2999's URL: found as the id only.
    expect(hits.filter(([, id]) => id === '2999')).toHaveLength(1);
  });
});
