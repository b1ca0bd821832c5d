// Every route fuzzed, against the real stack: requests generated from the served OpenAPI document (paths,
// path and query parameters, bodies, content types and encodings, headers, raw bytes) with a fixed seed, and
// for each response the invariants of test/support/fuzz.ts: no 5xx, a documented status with a documented
// error code, the error envelope, no stack frame or file path, no echoed value. Longer runs: bench/fuzz/run.ts.
import fc from 'fast-check';
import { describe as describeRequest, newTally, probe, requests, startFuzzStack, violations, type FuzzContext } from '../support/fuzz';

const SEED = Number(process.env.FUZZ_SEED ?? 20_251_124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);

let ctx: FuzzContext;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ ctx, stop } = await startFuzzStack());
}, 240_000);
afterAll(async () => {
  await stop?.();
}, 60_000);

it(`${RUNS} generated requests (seed ${SEED}) keep every invariant`, async () => {
  const tally = newTally();
  await fc.assert(
    fc.asyncProperty(requests(ctx), async (r) => {
      const problems = await probe(ctx, r, tally);
      if (problems.length) throw new Error(`${problems.join('; ')}\n  request: ${describeRequest(r)}`);
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: false },
  );
  // The run reached the places it is meant to: every operation, errors of each kind, successes, strays.
  expect(tally.sent).toBeGreaterThanOrEqual(RUNS);
  for (const op of Object.entries(ctx.doc.paths)
    .filter(([p]) => p.startsWith('/api/'))
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))) {
    expect({ op, sent: (tally.byRoute[op] ? Object.values(tally.byRoute[op]!).reduce((a, b) => a + b, 0) : 0) > 0 }).toEqual({
      op,
      sent: true,
    });
  }
  // (304 and 422 are rarer than one in 500 here; the pipeline e2e test gives both.)
  for (const status of ['200', '202', '400', '401', '404', '409', '413', '415', '431'])
    expect({ status, seen: (tally.byStatus[status] ?? 0) > 0 }).toEqual({ status, seen: true });
}, 300_000);

it('the invariants catch what they are meant to catch', () => {
  // A check that never fails proves nothing: feed it responses that break each invariant.
  const r = {
    via: 'http' as const,
    method: 'GET',
    target: '/api/v1/cases/zq0000000000',
    headers: {},
    markers: ['zq0000000000'],
    label: 'x',
  };
  const envelope = (code: string, extra = '') => Buffer.from(`{"error":{"code":"${code}","message":"m","requestId":"rid"${extra}}}`);
  const res = (status: number, body: Buffer, headers: Record<string, string> = { 'x-request-id': 'rid' }) => ({ status, headers, body });
  expect(violations(ctx, r, res(400, envelope('VALIDATION_FAILED')))).toEqual([]);
  expect(violations(ctx, r, res(500, envelope('INTERNAL'))).join()).toMatch(/5xx/);
  expect(violations(ctx, r, res(409, envelope('INDEXER_BEHIND'))).join()).toMatch(/does not document 409/);
  expect(violations(ctx, r, res(404, envelope('ANALYSIS_NOT_FOUND'))).join()).toMatch(/not ANALYSIS_NOT_FOUND/);
  expect(violations(ctx, r, res(400, envelope('VALIDATION_FAILED', ',"fields":[{"path":"zq0000000000","issue":"x"}]'))).join()).toMatch(
    /marker .* echoed/,
  );
  expect(violations(ctx, r, res(400, envelope('VALIDATION_FAILED'), { 'x-request-id': 'rid', location: '/zq0000000000' })).join()).toMatch(
    /echoed in header location/,
  );
  expect(
    violations(ctx, r, res(400, envelope('VALIDATION_FAILED', ',"stack":"Error: x\\n    at parse (/srv/app/dist/routes.js:10:3)"'))).join(),
  ).toMatch(/stack frame.*file path/);
  expect(violations(ctx, r, res(400, Buffer.from('Bad Request'))).join()).toMatch(/not JSON/);
  expect(violations(ctx, r, res(400, envelope('VALIDATION_FAILED'), { 'x-request-id': 'other' })).join()).toMatch(/requestId differs/);
  expect(violations(ctx, r, res(200, Buffer.from('{"case":{}}'))).join()).toMatch(/does not match/);
  expect(violations(ctx, { ...r, target: '/api/v1/elsewhere' }, res(400, envelope('MALFORMED_JSON'))).join()).toMatch(/unknown route/);
});
