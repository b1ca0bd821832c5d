// The check behind test/support/observed-statuses.ts (every e2e response must be documented), on its own:
// it must refuse what the OpenAPI document does not describe, or the e2e suite's record proves nothing.
import { buildOpenApiDocument } from '@lineage/schemas';
import { undocumented, type OpenApiDoc } from '../support/conformance';
import { observedSoFar } from '../support/observed-statuses';

const doc = buildOpenApiDocument({ version: 'test' }) as unknown as OpenApiDoc;
const check = (method: string, path: string, status: number, code: string | null = null) =>
  undocumented(doc, { method, path, status, code });

describe('the documented-response check', () => {
  it('accepts what the document lists', () => {
    expect(check('POST', '/api/v1/analyses', 202)).toBeNull();
    expect(check('POST', '/api/v1/analyses', 200)).toBeNull();
    expect(check('GET', '/api/v1/analyses/7/manifest', 304)).toBeNull();
    expect(check('GET', '/api/v1/analyses/7/manifest', 409, 'ANALYSIS_CANCELLED')).toBeNull();
    expect(check('POST', '/api/v1/cases/7/challenge-preparation', 415, 'UNSUPPORTED_MEDIA_TYPE')).toBeNull();
    expect(check('GET', '/api/v1/Cases/', 429, 'RATE_LIMITED')).toBeNull();
    expect(check('GET', '/api/v1/no/such/route', 404, 'NOT_FOUND')).toBeNull();
    expect(check('PUT', '/api/v1/cases', 404, 'NOT_FOUND')).toBeNull();
  });
  it('refuses a status the operation does not list', () => {
    expect(check('GET', '/api/v1/cases', 404, 'NOT_FOUND')).toMatch(/does not document 404/);
    expect(check('GET', '/api/v1/protocol', 415, 'UNSUPPORTED_MEDIA_TYPE')).toMatch(/does not document 415/);
    expect(check('GET', '/api/v1/analyses/1', 500, 'INTERNAL')).toMatch(/does not document 500/);
    expect(check('POST', '/api/v1/analyses/1/cancel', 200)).toMatch(/does not document 200/);
  });
  it('refuses an error code the status does not list, and an error without an envelope', () => {
    expect(check('GET', '/api/v1/cases/1', 404, 'ANALYSIS_NOT_FOUND')).toMatch(/not ANALYSIS_NOT_FOUND/);
    expect(check('GET', '/api/v1/analyses/1/manifest', 409, 'INDEXER_BEHIND')).toMatch(/not INDEXER_BEHIND/);
    expect(check('GET', '/api/v1/cases/1', 404, null)).toMatch(/without an error envelope/);
    expect(check('GET', '/api/v1/nothing', 404, 'CASE_NOT_FOUND')).toMatch(/unknown route/);
    expect(check('GET', '/api/v1/nothing', 503, 'SERVICE_UNAVAILABLE')).toMatch(/unknown route/);
  });
  it('the recorder is installed in this project', () => {
    expect(Array.isArray(observedSoFar())).toBe(true);
    expect(globalThis.fetch.name).toBe('observedFetch');
  });
});
