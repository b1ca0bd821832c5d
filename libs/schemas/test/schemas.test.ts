import { analysisApi, casesApi, factsApi, fieldIssues, Limit, publicRoutes, buildOpenApiDocument, ERROR_STATUS } from '../src';

const SECRET = 'unique-secret-value-93f1';

describe('field issues never carry input values', () => {
  it('names paths and issue kinds only', () => {
    const r = analysisApi.CreateAnalysisRequest.safeParse({ pair: { origin: { url: SECRET, commit: SECRET }, target: { url: 42 } }, [SECRET]: SECRET });
    expect(r.success).toBe(false);
    if (r.success) return;
    const issues = fieldIssues(r.error);
    expect(JSON.stringify(issues)).not.toContain(SECRET);
    expect(issues).toEqual(expect.arrayContaining([
      { path: 'pair.origin.commit', issue: 'invalid_commit_sha' },
      { path: 'pair.target.url', issue: 'invalid_type' },
      { path: 'pair.target.commit', issue: 'required' },
      { path: '(root)', issue: 'unrecognized_key' },
    ]));
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
  it('fresh accepts only the words true and false', () => {
    expect(factsApi.FactListQuery.parse({ fresh: 'true' }).fresh).toBe(true);
    expect(factsApi.FactListQuery.parse({ fresh: 'false' }).fresh).toBe(false);
    expect(factsApi.FactListQuery.safeParse({ fresh: 'yes' }).success).toBe(false);
  });
  it('git refs cannot smuggle options or traversal', () => {
    for (const ok of ['main', 'v1.2.0', 'feature/x', 'a'.repeat(40)]) expect(analysisApi.GitRef.safeParse(ok).success).toBe(true);
    for (const bad of ['--upload-pack=x', 'a..b', 'x@{1}', 'a b', 'a\nb', '']) expect(analysisApi.GitRef.safeParse(bad).success).toBe(false);
  });
});

describe('OpenAPI document', () => {
  it('documents every public route and every error status used', () => {
    const doc = buildOpenApiDocument({ version: 'test' }) as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const r of publicRoutes) {
      const op = doc.paths[r.path]?.[r.method];
      expect(op).toBeDefined();
      for (const s of r.errors) expect(op!.responses[String(s)]).toBeDefined();
    }
    expect(Object.values(ERROR_STATUS).every((s) => s >= 400 && s < 600)).toBe(true);
  });
});
