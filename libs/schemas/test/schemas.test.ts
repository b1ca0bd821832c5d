import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  analysisApi,
  casesApi,
  factsApi,
  fieldIssues,
  Limit,
  publicRoutes,
  buildOpenApiDocument,
  documentedCodes,
  documentedStatuses,
  findRoute,
  ERROR_STATUS,
  subjects,
} from '../src';

const SECRET = 'unique-secret-value-93f1';

describe('field issues never carry input values', () => {
  it('names paths and issue kinds only', () => {
    const r = analysisApi.CreateAnalysisRequest.safeParse({
      pair: { origin: { url: SECRET, commit: SECRET }, target: { url: 42 } },
      bogusKey: SECRET,
    });
    expect(r.success).toBe(false);
    if (r.success) return;
    const issues = fieldIssues(r.error);
    expect(JSON.stringify(issues)).not.toContain(SECRET);
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'pair.origin.commit', issue: 'invalid_commit_sha' },
        { path: 'pair.target.url', issue: 'invalid_type' },
        { path: 'pair.target.commit', issue: 'required' },
        { path: 'bogusKey', issue: 'unrecognized_key' },
      ]),
    );
  });
  it("takes validate's pinned pair as it came back, and checks the shapes of its ref and committedAt", () => {
    const side = (url: string, c: string) => ({ url, ref: null, commit: c.repeat(40), committedAt: '1763763900' });
    const pinned = analysisApi.ValidateResponse.parse({ pair: { origin: side('a/b', 'a'), target: { ...side('c/d', 'b'), ref: 'main' } } });
    expect(analysisApi.CreateAnalysisRequest.safeParse(pinned).success).toBe(true);
    const r = analysisApi.CreateAnalysisRequest.safeParse({
      pair: { origin: { ...side('a/b', 'a'), ref: '--upload-pack=x' }, target: { ...side('c/d', 'b'), committedAt: SECRET } },
    });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(fieldIssues(r.error)).toEqual([
      { path: 'pair.origin.ref', issue: 'invalid_git_ref' },
      { path: 'pair.target.committedAt', issue: 'invalid_decimal_string' },
    ]);
  });
  it('names each unknown key (a field, not a value), at its depth', () => {
    const r = analysisApi.CreateAnalysisRequest.safeParse({
      pair: { origin: { url: 'a/b', commit: 'a'.repeat(40), extra: SECRET }, target: { url: 'c/d', commit: 'b'.repeat(40) } },
      bogusKey: 1,
      other_key: SECRET,
    });
    expect(r.success).toBe(false);
    if (r.success) return;
    expect(fieldIssues(r.error)).toEqual([
      { path: 'pair.origin.extra', issue: 'unrecognized_key' },
      { path: 'bogusKey', issue: 'unrecognized_key' },
      { path: 'other_key', issue: 'unrecognized_key' },
    ]);
  });
  it('a key that does not look like a field name is reported at its parent, not echoed', () => {
    for (const odd of ['a.b', 'x'.repeat(65), 'zq\u0000', 'ключ', '<script>', '']) {
      const r = casesApi.ChallengePreparationRequest.safeParse({
        challenger: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
        rationale: 'long enough here',
        [odd]: 1,
      });
      expect(r.success).toBe(false);
      if (!r.success) expect(fieldIssues(r.error)).toEqual([{ path: '(root)', issue: 'unrecognized_key' }]);
    }
  });
  it('lists at most 50 fields', () => {
    const r = casesApi.SearchQuery.safeParse(Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`k${i}`, 'x'])));
    expect(r.success).toBe(false);
    if (!r.success) expect(fieldIssues(r.error)).toHaveLength(50);
  });
  it('enum failures do not list the received value', () => {
    const r = casesApi.CaseListQuery.safeParse({ verdict: SECRET });
    expect(r.success).toBe(false);
    if (!r.success) expect(JSON.stringify(fieldIssues(r.error))).toBe('[{"path":"verdict","issue":"invalid_enum_value"}]');
  });
});

describe('pagination and identifiers', () => {
  it('limit defaults to 20 and is bounded to 1..100', () => {
    expect(Limit.parse(undefined)).toBe(20);
    expect(Limit.parse('100')).toBe(100);
    for (const bad of ['0', '101', '-1', '1.5', 'x']) expect(Limit.safeParse(bad).success).toBe(false);
  });
  it('fact keys are decimal strings that fit uint256 and nothing else', () => {
    expect(factsApi.FactKeyParams.safeParse({ factKey: (2n ** 256n - 1n).toString() }).success).toBe(true);
    for (const bad of ['0x10', '01', '-1', '1e3', '']) expect(factsApi.FactKeyParams.safeParse({ factKey: bad }).success).toBe(false);
  });
  it('an id beyond uint256 is too_big, however many digits; a non-number of 78+ characters is refused without throwing', () => {
    const over = casesApi.CaseIdParams.safeParse({ id: (2n ** 256n).toString() });
    expect(over.success).toBe(false);
    if (!over.success) expect(fieldIssues(over.error)).toEqual([{ path: 'id', issue: 'too_big' }]);
    expect(casesApi.CaseIdParams.safeParse({ id: '9'.repeat(78) }).success).toBe(false);
    expect(casesApi.CaseIdParams.safeParse({ id: '9'.repeat(77) }).success).toBe(true);
    expect(casesApi.CaseIdParams.safeParse({ id: '9223372036854775808' }).success).toBe(true); // beyond bigint: well-formed, and not found
    for (const bad of ['x'.repeat(78), '1'.repeat(79), '1'.repeat(77) + 'x']) {
      const r = casesApi.CaseIdParams.safeParse({ id: bad });
      expect(r.success).toBe(false);
      if (!r.success) expect(fieldIssues(r.error).map((f) => f.issue)).toContain('invalid_decimal_string');
    }
  });
  it('page sizes in a query string are plain decimal digits', () => {
    for (const odd of ['0x10', '1e1', ' 5', '5 ', '+5', '5.0', '']) expect(Limit.safeParse(odd).success).toBe(false);
    expect(Limit.parse(7)).toBe(7); // services ask each other with numbers
  });
  it('search and filter text refuses control characters (PostgreSQL text cannot hold NUL)', () => {
    for (const q of ['a\u0000b', '\u0000', 'x\ny', '\u007f']) {
      const r = casesApi.SearchQuery.safeParse({ q });
      expect(r.success).toBe(false);
      if (!r.success) expect(fieldIssues(r.error)).toEqual([{ path: 'q', issue: 'invalid_text' }]);
    }
    expect(casesApi.CaseListQuery.safeParse({ repository: 'a\u0000' }).success).toBe(false);
    expect(casesApi.EvidenceQuery.safeParse({ path: 'src/\u0000' }).success).toBe(false);
    expect(casesApi.SearchQuery.safeParse({ q: 'github.com/owner/répo ✓' }).success).toBe(true);
  });
  it('fresh accepts only the words true and false', () => {
    expect(factsApi.FactListQuery.parse({ fresh: 'true' }).fresh).toBe(true);
    expect(factsApi.FactListQuery.parse({ fresh: 'false' }).fresh).toBe(false);
    expect(factsApi.FactListQuery.safeParse({ fresh: 'yes' }).success).toBe(false);
  });
  it('git refs cannot smuggle options or traversal', () => {
    for (const ok of ['main', 'v1.2.0', 'feature/x', 'a'.repeat(40)]) expect(analysisApi.GitRef.safeParse(ok).success).toBe(true);
    for (const bad of ['--upload-pack=x', 'a..b', 'x@{1}', 'a b', 'a\nb', ''])
      expect(analysisApi.GitRef.safeParse(bad).success).toBe(false);
  });
});

describe('facts.read / read-list replies', () => {
  const meta = { indexedBlock: '10', finalizedBlock: '8', lagBlocks: '0', halted: false };
  it('an empty page read from the chain keeps its source (the projection shape would also take it)', () => {
    const reply = subjects.facts.readList.response.parse({ source: 'chain', items: [], nextCursor: null, meta });
    expect(reply).toMatchObject({ source: 'chain' });
  });
  it('a projection page parses as one', () => {
    expect(subjects.facts.readList.response.parse({ items: [], nextCursor: null, meta })).not.toHaveProperty('source');
  });
});

describe('OpenAPI document', () => {
  type Doc = {
    openapi: string;
    paths: Record<
      string,
      Record<
        string,
        {
          responses: Record<
            string,
            { content?: Record<string, { schema: { properties: { error: { properties: { code: { enum: string[] } } } } } }> }
          >;
          requestBody?: unknown;
        }
      >
    >;
  };
  const doc = buildOpenApiDocument({ version: 'test' }) as Doc;
  const codesIn = (r: { content?: Record<string, { schema: { properties: { error: { properties: { code: { enum: string[] } } } } } }> }) =>
    r.content!['application/json']!.schema.properties.error.properties.code.enum;

  it('documents every public route with every status it can answer, and for each error status the codes', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const r of publicRoutes) {
      const op = doc.paths[r.path]?.[r.method];
      expect(op).toBeDefined();
      expect(Object.keys(op!.responses).map(Number).sort()).toEqual([...documentedStatuses(r)].sort());
      for (const s of documentedStatuses(r).filter((s) => s >= 400)) {
        expect(codesIn(op!.responses[String(s)]!)).toEqual(documentedCodes(r, s));
        for (const c of documentedCodes(r, s)) expect(ERROR_STATUS[c]).toBe(s);
      }
    }
    expect(Object.values(ERROR_STATUS).every((s) => s >= 400 && s < 600)).toBe(true);
  });
  it('lists the responses the API gives beyond the obvious ones', () => {
    const op = (method: string, path: string) => doc.paths[`/api/v1${path}`]![method]!;
    expect(Object.keys(op('post', '/analyses').responses)).toEqual(expect.arrayContaining(['200', '202']));
    expect(op('get', '/analyses/{id}/manifest').responses['304']).toBeDefined();
    expect(op('get', '/analyses/{id}/manifest').responses['304']!.content).toBeUndefined();
    expect(codesIn(op('get', '/analyses/{id}/manifest').responses['409']!)).toEqual([
      'ANALYSIS_CANCELLED',
      'ANALYSIS_FAILED',
      'MANIFEST_NOT_READY',
    ]);
    for (const r of publicRoutes) {
      const responses = doc.paths[r.path]![r.method]!.responses;
      expect(codesIn(responses['429']!)).toEqual(expect.arrayContaining(['RATE_LIMITED']));
      expect(codesIn(responses['431']!)).toEqual(['HEADERS_TOO_LARGE']);
      expect(codesIn(responses['400']!)).toContain('VALIDATION_FAILED');
      if (r.body) {
        expect(codesIn(responses['415']!)).toEqual(['UNSUPPORTED_MEDIA_TYPE']);
        expect(codesIn(responses['413']!)).toEqual(['PAYLOAD_TOO_LARGE']);
        expect(codesIn(responses['400']!)).toContain('MALFORMED_JSON');
      } else {
        expect(responses['415']).toBeUndefined();
      }
      if (r.method === 'post') expect(r.body).toBeDefined(); // every POST reads its body: 415 applies to each
    }
    expect(codesIn(op('post', '/analyses').responses['429']!)).toEqual(['QUEUE_FULL', 'RATE_LIMITED']);
  });
  it('finds the route of a request path the way the router does', () => {
    expect(findRoute('GET', '/api/v1/analyses/12/manifest')?.path).toBe('/api/v1/analyses/{id}/manifest');
    expect(findRoute('get', '/api/v1/cases/')?.path).toBe('/api/v1/cases');
    expect(findRoute('HEAD', '/api/v1/cases/..%2f..%2fetc')?.path).toBe('/api/v1/cases/{id}');
    expect(findRoute('post', '/api/v1/cases/1')).toBeNull();
    expect(findRoute('get', '/api/v1/cases/1/2')).toBeNull();
    expect(findRoute('get', '/api/v1/openapi.json')?.path).toBe('/api/v1/openapi.json');
    expect(findRoute('get', '/api/v1/openapiXjson')).toBeNull();
  });
});

describe('docs/api.md', () => {
  it('its table of error codes is ERROR_STATUS, row for row', () => {
    const text = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'api.md'), 'utf8');
    const rows = [...text.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(rows.sort()).toEqual(
      Object.entries(ERROR_STATUS)
        .map(([c, s]) => `${c} ${s}`)
        .sort(),
    );
  });
});
