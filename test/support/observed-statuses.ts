// A setup file of the e2e project (jest.config.js): every request a test file makes to the public API with
// fetch is recorded as (method, path, status, error code), and after the file's tests the record is checked
// against the OpenAPI document generated from the same route list the gateway serves. A route that answers
// a status, or an error code, its operation does not document fails the file, naming the request.
import { buildOpenApiDocument } from '@lineage/schemas';
import { undocumented, type Observation, type OpenApiDoc } from './conformance';

const observed: Observation[] = [];
const realFetch = globalThis.fetch;

async function errorCode(res: Response): Promise<string | null> {
  try {
    const body = (await res.clone().json()) as { error?: { code?: unknown } };
    return typeof body?.error?.code === 'string' ? body.error.code : null;
  } catch {
    return null;
  }
}

globalThis.fetch = async function observedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const res = await realFetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (/^\/api\/v1(\/|$)/i.test(url.pathname)) {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    observed.push({ method, path: url.pathname, status: res.status, code: res.status >= 400 ? await errorCode(res) : null });
  }
  return res;
} as typeof fetch;

afterAll(() => {
  globalThis.fetch = realFetch;
  if (observed.length === 0) return;
  const doc = buildOpenApiDocument({ version: 'observed' }) as unknown as OpenApiDoc;
  const problems = [...new Set(observed.map((o) => undocumented(doc, o)).filter((p): p is string => p !== null))];
  if (problems.length > 0) {
    throw new Error(`responses the OpenAPI document does not describe (${problems.length}):\n  ${problems.slice(0, 30).join('\n  ')}`);
  }
});

/** For a test that checks the recorder itself: what this file has recorded so far. */
export const observedSoFar = (): readonly Observation[] => observed;
