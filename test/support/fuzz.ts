// Property-based fuzzing of the public API, generated from its OpenAPI document (the one the gateway serves):
// every operation's path parameters, query parameters, bodies and headers, plus paths and methods no route
// has. Each request carries marker strings (`zq…`) inside its values. For every response the invariants are:
//   - no 5xx;
//   - the status is one the operation documents (an unknown route: 404 NOT_FOUND, or what the server
//     answers before routing), and an error's `code` is in that status's documented `enum`;
//   - an error is the JSON envelope, its requestId the X-Request-Id header; a success matches its schema;
//   - no stack frame and no file path in the body;
//   - no marker in the body or a header (the one exception: the repository URLs a created analysis or a
//     validated pair returns are the resource itself, so they are taken out before looking).
// Used by test/e2e/fuzz.test.ts (a fixed seed, 1,000 requests, in make test) and bench/fuzz/run.ts (longer runs).
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { findRoute } from '@lineage/schemas';
import { SCENARIOS } from '../fixtures/scenarios';
import { startChainStack, type ChainStack } from './chain-stack';
import { operationOf, UNROUTED, undocumented, type OpenApiDoc } from './conformance';
import { startGitServer } from './git-http';
import { waitFor } from './processes';

// ---------------------------------------------------------------------------------------------- types

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  example?: unknown;
};
type Parameter = { name: string; in: 'path' | 'query'; required?: boolean; schema: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  security?: unknown[];
};
type FullDoc = OpenApiDoc & { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, JsonSchema> } };

/** What the fuzzer knows about the running stack beyond the document. */
export interface FuzzContext {
  doc: FullDoc;
  /** `http://127.0.0.1:<gateway port>` */
  origin: string;
  /** Analyses that exist, with the cancel token of each: one completed (with its manifest hash), one cancelled. */
  analyses: { id: string; cancelToken: string; manifestHash: string | null }[];
  /** Cases that exist. */
  caseIds: string[];
  /** Real cursors, of the lists they came from: sent to their own list with other filters, and to others. */
  cursors: string[];
  /** The base URL of the only repositories the pipeline allows (a local git server with one fixture pair). */
  allowedRepo: string;
}

export interface FuzzRequest {
  /** `http`: node's client; `raw`: bytes written to a socket (what a client library would refuse to send). */
  via: 'http' | 'raw';
  method: string;
  /** Path and query as sent (percent-encoded where the generator encoded). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Marker strings placed inside values; none may come back. */
  markers: string[];
  /** Operation template (`GET /api/v1/cases/{id}`) or `unrouted`, for the counts. */
  label: string;
}

export interface FuzzResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

// ------------------------------------------------------------------------------------------ generators

const MARKER = fc.stringMatching(/^[a-z0-9]{10}$/).map((s) => `zq${s}`);
const BIG_IDS = [
  '0',
  '1',
  '42',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  (2n ** 256n - 1n).toString(),
  (2n ** 256n).toString(),
  '9'.repeat(78),
  '9'.repeat(200),
];
const ODD_NUMBERS = ['007', '-1', '1.0', '1e3', '0x1f', ' 1', '1 ', '+1', '٣', '１'];
/** Already percent-encoded path segments: traversal, encoded NUL, invalid escapes, overlong UTF-8. */
const RAW_SEGMENTS = [
  '..%2f..%2fetc%2fpasswd',
  '..%2F',
  '%2e%2e',
  '..',
  '.',
  '%00',
  '%zz',
  '%c0%ae%c0%ae',
  '%ff%fe',
  '%E2%80%AE',
  '%25',
  '%2F',
  '%5c..%5c',
  ';',
  '%3B',
  '*',
  '~',
];
const ODD_KEYS = [
  'bogusKey',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'a.b',
  'a[b]',
  'x'.repeat(100),
  'ключ',
  '$where',
  'id',
  'limit',
  '0',
  '-',
  '',
];
const CONTENT_TYPES = [
  ...Array<string>(16).fill('application/json'),
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json;charset=UTF-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'text/plain',
  'application/json-seq',
  'application/jsonx',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/merge-patch+json',
  ';;;',
  '',
];

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
/** Percent-encode; a lone surrogate becomes the bytes of its WTF-8 form (%ED%A0%80): invalid UTF-8 on the wire. */
function enc(s: string): string {
  let out = '';
  for (const ch of s) {
    // for…of yields whole code points; a lone surrogate comes alone, and encodeURIComponent refuses it.
    const u = ch.charCodeAt(0);
    if (ch.length === 1 && u >= 0xd800 && u <= 0xdfff)
      out += [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** A string with a marker inside, of a kind validation may trip on. */
const markedString = (marker: string) =>
  fc.oneof(
    fc.constant(marker),
    fc.string({ maxLength: 20 }).map((s) => `${s}${marker}${s}`),
    fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => `${s}${marker}`),
    fc
      .constantFrom('\u0000', '\ud800', '\u202e', '\r\n', '\t', '\\', '"', "'", '%', '../', '<script>', '${x}', '{{x}}')
      .map((c) => `${c}${marker}${c}`),
    fc.integer({ min: 1, max: 4000 }).map((n) => `${marker}${'x'.repeat(n)}`),
  );

/** A JSON value of the wrong kind for wherever it lands. */
const wrongValue = (marker: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    markedString(marker),
    fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -0, 2 ** 53 + 1, [], {}, ''),
    fc.array(markedString(marker), { maxLength: 3 }),
    fc.dictionary(pick(ODD_KEYS), markedString(marker), { maxKeys: 3 }),
    fc.integer({ min: 2, max: 400 }).map((depth) => nest(depth, marker)),
  );

function nest(depth: number, leaf: unknown): unknown {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

function resolve(doc: FullDoc, s: JsonSchema): JsonSchema {
  let out = s;
  for (let i = 0; out.$ref && i < 10; i++) out = doc.components?.schemas?.[out.$ref.replace('#/components/schemas/', '')] ?? {};
  return out;
}

/** Values a field of this name and schema accepts, or nearly: the document's constraints, and what the stack has. */
function validValue(ctx: FuzzContext, schema: JsonSchema, name: string, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(ctx.doc, schema);
  if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf)!.map((x) => validValue(ctx, x, name, depth)));
  if (s.enum) return pick(s.enum);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'object' || s.properties) {
    if (depth > 6) return fc.constant({});
    const props = Object.entries(s.properties ?? {});
    const required = new Set(s.required ?? []);
    return fc
      .tuple(...props.map(([k, v]) => fc.option(validValue(ctx, v, k, depth + 1), { freq: required.has(k) ? 20 : 2, nil: undefined })))
      .map((vals) => Object.fromEntries(props.map(([k], i) => [k, vals[i]]).filter(([, v]) => v !== undefined)));
  }
  if (type === 'array') return fc.array(validValue(ctx, s.items ?? {}, name, depth + 1), { maxLength: 3 });
  if (type === 'integer' || type === 'number') {
    const int = fc.integer({ min: s.minimum ?? 0, max: Math.min(s.maximum ?? 1000, 1e9) });
    return name === 'limit' ? int.map(String) : int; // query numbers travel as text
  }
  if (type === 'boolean') return fc.boolean();
  // Strings: by field where the document's pattern cannot say what the stack would accept.
  if (name === 'url')
    return fc.oneof(
      { weight: 3, arbitrary: fc.nat(50).map((n) => `${ctx.allowedRepo}/fuzz/repo-${n}`) },
      { weight: 1, arbitrary: pick([`${ctx.allowedRepo}/fork-declared/origin.git`, `${ctx.allowedRepo}/fork-declared/target.git`]) },
      pick([
        'owner/repo',
        'https://github.com/owner/repo',
        'https://gitlab.com/a/b',
        'http://169.254.169.254/latest/meta-data',
        'file:///etc/passwd',
        'git@github.com:a/b.git',
        'https://user:pass@github.com/a/b',
        'https://127.0.0.1:1/x',
        'https://[::1]/a/b',
      ]),
    );
  if (name === 'id' || name === 'factKey' || name === 'resolutionId' || name === 'minBlock')
    return fc.oneof(pick(BIG_IDS), pick([...ctx.analyses.map((a) => a.id), ...ctx.caseIds]), fc.nat().map(String));
  if (name === 'cursor')
    return fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/),
      fc.constant('eyJpZCI6IjEifQ' + 'A'.repeat(43)),
      ...(ctx.cursors.length ? [pick(ctx.cursors)] : []),
    );
  if (name === 'q' || name === 'repository')
    return fc.oneof(
      pick(['example', 'github.com', 'owner/repo', 'DECLARED_FORK', 'heavily_derived', '1', '9223372036854775808', '%', '_', '\\']),
      fc.string({ minLength: 1, maxLength: 30 }),
    );
  if (name === 'rationale') return fc.string({ minLength: 10, maxLength: 120 });
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern));
    } catch {
      // Lookaheads (git refs): fall back to what the pattern plainly allows.
      return s.example !== undefined ? fc.constant(s.example) : pick(['main', 'v1.0.0', 'feature/x', 'a'.repeat(40)]);
    }
  }
  return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 40) });
}

/** A JSON body for a request schema: valid-ish, then changed in a few places. */
function bodyValue(ctx: FuzzContext, schema: JsonSchema, marker: string): fc.Arbitrary<unknown> {
  const edits = fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    {
      weight: 2,
      arbitrary: fc.array(
        fc.record({
          at: fc.nat(),
          kind: pick(['replace', 'delete', 'unknown-key', 'wrap'] as const),
          value: wrongValue(marker),
          key: pick(ODD_KEYS),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    },
  );
  return fc.tuple(validValue(ctx, schema, '(root)'), edits).map(([value, list]) => {
    let v = structuredClone(value);
    for (const e of list) v = edit(v, e);
    return v;
  });
}

/** Apply one change at the `at`-th object or array node (depth-first) of a JSON value. */
function edit(root: unknown, e: { at: number; kind: 'replace' | 'delete' | 'unknown-key' | 'wrap'; value: unknown; key: string }): unknown {
  const nodes: { parent: Record<string, unknown> | null; key: string; node: unknown }[] = [];
  const walk = (node: unknown, parent: Record<string, unknown> | null, key: string) => {
    nodes.push({ parent, key, node });
    if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) walk(v, node as Record<string, unknown>, k);
  };
  walk(root, null, '');
  const target = nodes[e.at % nodes.length]!;
  const set = (v: unknown) => {
    if (target.parent) target.parent[target.key] = v;
    else root = v;
  };
  if (e.kind === 'replace') set(e.value);
  else if (e.kind === 'wrap') set([target.node]);
  else if (e.kind === 'delete' && target.parent) delete target.parent[target.key];
  else if (e.kind === 'unknown-key' && target.node && typeof target.node === 'object' && !Array.isArray(target.node))
    (target.node as Record<string, unknown>)[e.key] = e.value;
  return root;
}

/** The bytes of a body: JSON text, or what a broken client sends. */
function bodyBytes(value: unknown, marker: string): fc.Arbitrary<Buffer> {
  const text = JSON.stringify(value) ?? 'null';
  const duplicateKeys = () => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return `{"a":"${marker}","a":1}`;
    const entries = Object.entries(value);
    const first = entries[0]?.[0] ?? 'a';
    return `{${JSON.stringify(first)}:${JSON.stringify(marker)},${text.slice(1)}`;
  };
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(Buffer.from(text)) },
    { weight: 2, arbitrary: fc.constant(Buffer.from(duplicateKeys())) },
    {
      weight: 2,
      arbitrary: pick([
        'null',
        '',
        ' ',
        '0',
        '"x"',
        '[]',
        'true',
        '{}',
        '{',
        '{"a":',
        `{"${marker}":}`,
        `${marker}`,
        '\ufeff{}',
        '{}x',
        `[${'['.repeat(30)}`,
        'NaN',
        '{"a":1}{"b":2}',
      ]).map((t) => Buffer.from(t)),
    },
    // Deep nesting under the 64 KiB limit (the parser must not overflow its stack), and a body over it.
    { weight: 1, arbitrary: fc.integer({ min: 1000, max: 32_000 }).map((n) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`)) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1000, max: 10_000 }).map((n) => Buffer.from(`{"pair":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`)),
    },
    {
      weight: 1,
      arbitrary: fc.constant(
        Buffer.concat([
          Buffer.from('{"origin":{"url":"a/b'),
          Buffer.from([0xff, 0xfe, 0xc0, 0xae, 0xed, 0xa0, 0x80]),
          Buffer.from(`${marker}"},"target":{"url":"c/d"}}`),
        ]),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 60_000, max: 90_000 }).map((n) => Buffer.from(JSON.stringify({ pad: marker + 'x'.repeat(n) }))),
    },
  );
}

function encodeBody(bytes: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip') return gzipSync(bytes);
  if (encoding === 'deflate') return deflateSync(bytes);
  return bytes;
}

/** Path parameter values, already encoded for the path. */
const pathValue = (ctx: FuzzContext, name: string, marker: string) =>
  fc.oneof(
    { weight: 12, arbitrary: validValue(ctx, { type: 'string' }, name).map((v) => enc(String(v))) },
    { weight: 2, arbitrary: pick(ODD_NUMBERS).map(enc) },
    { weight: 2, arbitrary: pick(RAW_SEGMENTS) },
    { weight: 2, arbitrary: markedString(marker).map(enc) },
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: pick(RAW_SEGMENTS).map((s) => `${marker}${s}`) },
    { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 20_000 }).map((n) => '9'.repeat(n)) },
  );

/** One query parameter as `k=v` pieces (zero, one or several: duplicates and array forms). */
const queryPieces = (ctx: FuzzContext, p: Parameter, marker: string): fc.Arbitrary<string[]> =>
  fc.oneof(
    { weight: p.required ? 1 : p.name === 'cursor' ? 30 : 10, arbitrary: fc.constant<string[]>([]) },
    { weight: 12, arbitrary: validValue(ctx, p.schema, p.name).map((v) => [`${enc(p.name)}=${enc(String(v))}`]) },
    { weight: 2, arbitrary: markedString(marker).map((v) => [`${enc(p.name)}=${enc(v)}`]) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(validValue(ctx, p.schema, p.name), markedString(marker))
        .map(([a, b]) => [`${p.name}=${enc(String(a))}`, `${p.name}=${enc(b)}`]),
    },
    { weight: 1, arbitrary: markedString(marker).map((v) => [`${p.name}[]=${enc(v)}`, `${p.name}[x]=${enc(v)}`]) },
    {
      weight: 1,
      arbitrary: pick(['', '%zz', '%00', '+', '%2B1', 'true', 'TRUE', '1e2', '0x10', '-5', '101', '%E2%80%AE']).map((v) => [
        `${p.name}=${v}`,
      ]),
    },
    { weight: 1, arbitrary: fc.constant<string[]>([p.name]) },
  );

const unknownQuery = (marker: string) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constant<string[]>([]) },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.tuple(pick(ODD_KEYS), markedString(marker)).map(([k, v]) => `${enc(k)}=${enc(v)}`),
        { minLength: 1, maxLength: 2 },
      ),
    },
  );

interface OperationInfo {
  template: string;
  method: string;
  op: Operation;
}

function operations(doc: FullDoc): OperationInfo[] {
  const out: OperationInfo[] = [];
  for (const [template, ops] of Object.entries(doc.paths)) {
    if (!template.startsWith('/api/')) continue;
    for (const [method, op] of Object.entries(ops)) out.push({ template, method: method.toUpperCase(), op: op as Operation });
  }
  return out;
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];

/** A request for one operation of the document. */
function operationRequest(ctx: FuzzContext, o: OperationInfo): fc.Arbitrary<FuzzRequest> {
  const params = o.op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const bodySchema = o.op.requestBody?.content['application/json']?.schema;
  const needsAuth = o.op.security !== undefined;
  return fc.record({ m1: MARKER, m2: MARKER, m3: MARKER }).chain(({ m1, m2, m3 }) => {
    const markers = [m1, m2, m3];
    return fc
      .record({
        method: fc.oneof({ weight: 12, arbitrary: fc.constant(o.method) }, { weight: 1, arbitrary: pick(OTHER_METHODS) }),
        path: fc.tuple(...pathParams.map((p) => pathValue(ctx, p.name, m1))).map((vals) => {
          let i = 0;
          return o.template.replace(/\{\w+\}/g, () => vals[i++]!);
        }),
        query: fc
          .tuple(fc.tuple(...queryParams.map((p) => queryPieces(ctx, p, m2))), unknownQuery(m2), fc.boolean())
          .map(([known, unknown, first]) => {
            const all = first ? [...unknown, ...known.flat()] : [...known.flat(), ...unknown];
            return all.length ? `?${all.join('&')}` : '';
          }),
        body: bodySchema
          ? fc.option(
              bodyValue(ctx, bodySchema, m3).chain((v) => bodyBytes(v, m3)),
              { freq: 8, nil: undefined },
            )
          : fc.option(
              pick(['{}', '', `{"x":"${m3}"}`, 'null']).map((t) => Buffer.from(t)),
              { freq: 4, nil: undefined },
            ),
        contentType: pick(CONTENT_TYPES).chain((t) =>
          t.includes('charset') ? fc.oneof(fc.constant(t), fc.constant(`application/json; charset=${m3}`)) : fc.constant(t),
        ),
        encoding: fc.oneof(
          { weight: 24, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: pick(['gzip', 'deflate', 'br', 'identity', m3, 'gzip, gzip']) },
        ),
        corrupt: fc.boolean(),
        auth: needsAuth
          ? fc.oneof(
              { weight: 3, arbitrary: fc.constant(undefined) },
              { weight: 2, arbitrary: pick(ctx.analyses.map((a) => `Bearer ${a.cancelToken}`)) },
              {
                weight: 2,
                arbitrary: pick([
                  `Bearer ${m1}`,
                  `Basic ${m1}`,
                  'Bearer',
                  'Bearer  two spaces',
                  `bearer ${m1}`,
                  `Bearer ${'x'.repeat(600)}${m1}`,
                ]),
              },
            )
          : fc.option(fc.constant(`Bearer ${m1}`), { freq: 8, nil: undefined }),
        extra: fc.option(
          fc.oneof(
            fc.constant<[string, string]>(['idempotency-key', m2]),
            fc.constant<[string, string]>(['idempotency-key', `${m2} with spaces`]),
            fc.constant<[string, string]>(['idempotency-key', `${m2}${'k'.repeat(200)}`]),
            fc.constant<[string, string]>(['if-none-match', `"${m2}"`]),
            fc.constant<[string, string]>(['if-none-match', '*']),
            pick(ctx.analyses.filter((a) => a.manifestHash).map((a): [string, string] => ['if-none-match', `"${a.manifestHash}"`])),
            fc.constant<[string, string]>(['x-request-id', 'not a valid id']),
            fc.constant<[string, string]>(['accept', 'text/html']),
            fc.integer({ min: 9000, max: 20_000 }).map((n): [string, string] => ['x-padding', `${m2}${'p'.repeat(n)}`]),
          ),
          { freq: 3, nil: undefined },
        ),
      })
      .map((r): FuzzRequest => {
        const headers: Record<string, string> = {};
        let body: Buffer | undefined;
        if (r.body !== undefined && (r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH')) {
          body = encodeBody(r.body, r.encoding);
          if (r.encoding) {
            headers['content-encoding'] = r.encoding;
            if (r.corrupt) body = Buffer.concat([body.subarray(0, Math.floor(body.length / 2)), Buffer.from(m3)]);
          }
          if (r.contentType !== '') headers['content-type'] = r.contentType;
        }
        if (r.auth) headers.authorization = r.auth;
        if (r.extra) headers[r.extra[0]] = r.extra[1];
        return { via: 'http', method: r.method, target: `${r.path}${r.query}`, headers, body, markers, label: `${o.method} ${o.template}` };
      });
  });
}

/** A path or method no route has, or a request a client library would refuse to send. */
function strayRequest(): fc.Arbitrary<FuzzRequest> {
  return fc.record({ marker: MARKER, method: pick(OTHER_METHODS), n: fc.nat(1000) }).chain(({ marker, method, n }) =>
    fc.oneof(
      fc
        .array(
          fc.oneof(
            pick(['cases', 'analyses', 'facts', '1', 'v1', 'api', '..', '%2e', 'openapi.json', '']),
            fc.constant(marker),
            fc.string({ maxLength: 8 }).map(enc),
          ),
          { minLength: 1, maxLength: 5 },
        )
        .map((segs): FuzzRequest => ({
          via: 'http',
          method,
          target: `/api/v1/${segs.join('/')}`,
          headers: {},
          markers: [marker],
          label: 'unrouted',
        })),
      pick([
        '/api',
        '/api/v1',
        '/api/v2/cases',
        '//api/v1/cases',
        '/api/v1/cases/1/2',
        '/API/V1/CASES',
        '/api/v1/protocol/',
        '/api/v1/./cases',
        '/api/v1/openapi.json.bak',
      ]).map((target): FuzzRequest => ({ via: 'http', method, target, headers: {}, markers: [marker], label: 'unrouted' })),
      // Raw bytes: unencoded unicode and spaces in the path, control characters, broken request lines and
      // headers, contradictory framing, no Host. [request line, extra header lines, body, send Host]
      pick<[string, string, string, boolean]>([
        [`GET /api/v1/cases/${marker}\u00e9 HTTP/1.1`, '', '', true],
        [`GET /api/v1/search?q=${marker} x HTTP/1.1`, '', '', true],
        [`GET /api/v1/cases/\u0001${marker} HTTP/1.1`, '', '', true],
        ['GET /api/v1/cases HTTP/9.9', '', '', true],
        ['BREW /api/v1/cases HTTP/1.1', '', '', true],
        [`GET /api/v1/cases/${n}`, '', '', true],
        ['GET api/v1/cases HTTP/1.1', '', '', true],
        ['GET /api/v1/cases HTTP/1.1', `Broken header line ${marker}\r\n`, '', true],
        ['GET /api/v1/cases HTTP/1.1', `X-Bad\u0001: ${marker}\r\n`, '', true],
        ['GET /api/v1/cases HTTP/1.1', '', '', false],
        [`GET /api/v1/cases/${n} HTTP/1.0`, '', '', false],
        ['GET /api/v1/cases HTTP/1.1', 'Content-Length: -1\r\n', '', true],
        [
          'POST /api/v1/analyses HTTP/1.1',
          'Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n',
          `zz\r\n${marker}\r\n0\r\n\r\n`,
          true,
        ],
        ['POST /api/v1/analyses HTTP/1.1', 'Content-Length: 5\r\nContent-Length: 6\r\nContent-Type: application/json\r\n', '{}', true],
        [
          'POST /api/v1/analyses HTTP/1.1',
          'Content-Length: 2\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n',
          '2\r\n{}\r\n0\r\n\r\n',
          true,
        ],
        [
          'POST /api/v1/analyses HTTP/1.1',
          `Content-Type: application/json\r\nContent-Length: ${12 + marker.length}\r\n`,
          `{"pair":"${marker}\u00ff"}`,
          true,
        ],
      ]).map(([line, extra, body, host]): FuzzRequest => ({
        via: 'raw',
        method: line.split(' ')[0]!,
        target: line.split(' ')[1] ?? '',
        headers: {},
        body: Buffer.from(`${line}\r\n${extra}${host ? 'Host: fuzz\r\n' : ''}Connection: close\r\n\r\n${body}`, 'latin1'),
        markers: [marker],
        label: 'raw bytes',
      })),
    ),
  );
}

/** Every request the fuzzer sends: operations of the document, weighted evenly, and some strays. */
export function requests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const ops = operations(ctx.doc).map((o) => ({ weight: 6, arbitrary: operationRequest(ctx, o) }));
  return fc.oneof(...ops, { weight: 10, arbitrary: strayRequest() });
}

// ----------------------------------------------------------------------------------------------- wire

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

export async function send(ctx: FuzzContext, r: FuzzRequest): Promise<FuzzResponse> {
  return r.via === 'raw' ? sendRaw(ctx, r) : sendHttp(ctx, r);
}

function sendHttp(ctx: FuzzContext, r: FuzzRequest): Promise<FuzzResponse> {
  const url = new URL(ctx.origin);
  return new Promise((resolve, reject) => {
    const headers = { ...r.headers, ...(r.body !== undefined ? { 'content-length': String(r.body.length) } : {}) };
    const req = httpRequest({ host: url.hostname, port: url.port, method: r.method, path: r.target, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: flatten(res.headers), body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.on('error', reject);
    req.end(r.body);
  });
}

function sendRaw(ctx: FuzzContext, r: FuzzRequest): Promise<FuzzResponse> {
  const url = new URL(ctx.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.setTimeout(30_000, () => socket.destroy(new Error('no answer in 30 s')));
    socket.on('connect', () => socket.write(r.body!));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNRESET' ? resolve(parseRaw(Buffer.concat(chunks))) : reject(err),
    );
    socket.on('close', () => resolve(parseRaw(Buffer.concat(chunks))));
  });
}

function parseRaw(buf: Buffer): FuzzResponse {
  const text = buf.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: buf };
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = buf.subarray(Buffer.byteLength(text.slice(0, end + 4), 'latin1'));
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body };
}

function dechunk(b: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  for (;;) {
    const nl = b.indexOf('\r\n', i);
    if (nl < 0) break;
    const size = parseInt(b.subarray(i, nl).toString('latin1'), 16);
    if (!size) break;
    out.push(b.subarray(nl + 2, nl + 2 + size));
    i = nl + 2 + size + 2;
  }
  return Buffer.concat(out);
}

const flatten = (h: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));

// ---------------------------------------------------------------------------------------------- checks

const STACK_FRAME = /\n\s+at\s|\bat\s+[\w$.<>[\]]+\s+\(|\bat\s+\S+:\d+:\d+/;
const FILE_PATH = /(?:^|[\s"'(=])(?:\/[\w.@-]+)+\/[\w.@-]+\.(?:[cm]?js|ts)\b|node_modules|file:\/\/|[A-Za-z]:\\\\/;

/** The request path of a request target, as the server sees it. */
const pathOf = (target: string) => target.split('?')[0]!;

function undocumentedStatus(doc: OpenApiDoc, method: string, path: string, status: number): string | null {
  const found = operationOf(doc, method, path);
  const ok = found ? found.op.responses[String(status)] !== undefined : UNROUTED[status] !== undefined;
  return ok ? null : `${method} ${path} → ${status}: not a documented status`;
}

/** Every invariant the response breaks (empty: none). */
export function violations(ctx: FuzzContext, r: FuzzRequest, res: FuzzResponse): string[] {
  const out: string[] = [];
  const text = res.body.toString('utf8');
  if (res.status === 0) return [`no HTTP response ${res.body.toString('utf8')}`];
  if (res.status >= 500) out.push(`${res.status}: a 5xx`);
  let parsed: unknown;
  const isJson = res.status !== 304 && r.method !== 'HEAD';
  if (isJson) {
    try {
      parsed = JSON.parse(text);
    } catch {
      out.push(`${res.status}: the body is not JSON`);
    }
  } else if (res.body.length > 0) out.push('304 with a body');
  const error = (parsed as { error?: { code?: unknown; message?: unknown; requestId?: unknown; fields?: unknown } } | undefined)?.error;
  if (res.status >= 400 && r.method !== 'HEAD') {
    if (!error || typeof error.code !== 'string' || typeof error.message !== 'string' || typeof error.requestId !== 'string')
      out.push(`${res.status}: not the error envelope`);
    else if (error.requestId !== res.headers['x-request-id']) out.push(`${res.status}: requestId differs from X-Request-Id`);
    if (
      error?.fields !== undefined &&
      !(Array.isArray(error.fields) && error.fields.every((f) => typeof f?.path === 'string' && typeof f?.issue === 'string'))
    )
      out.push('fields are not {path, issue}');
  }
  // HEAD: the status of GET without its body, so only the status can be held to the document.
  const code = typeof error?.code === 'string' ? error.code : null;
  const problem =
    r.method === 'HEAD'
      ? undocumentedStatus(ctx.doc, r.method, pathOf(r.target), res.status)
      : undocumented(ctx.doc, { method: r.method, path: pathOf(r.target), status: res.status, code });
  if (problem) out.push(problem);
  // A success is what its operation's schema says (the same zod schema the document was generated from).
  const route = res.status < 300 ? findRoute(r.method, pathOf(r.target)) : null;
  const ok = route?.ok.find((o) => o.status === res.status);
  if (route && ok?.schema && parsed !== undefined && !ok.schema.safeParse(parsed).success)
    out.push(`${res.status}: the body does not match ${route.method.toUpperCase()} ${route.path}'s schema`);
  if (STACK_FRAME.test(text)) out.push('a stack frame in the body');
  if (FILE_PATH.test(text)) out.push('a file path in the body');
  // Markers: nowhere, except a created analysis's or a validated pair's repository URLs (the resource itself).
  let scanned = text;
  if (res.status < 300 && parsed && typeof parsed === 'object') {
    const copy = structuredClone(parsed) as { pair?: unknown; analysis?: { pair?: unknown } };
    delete copy.pair;
    if (copy.analysis) delete copy.analysis.pair;
    scanned = JSON.stringify(copy);
  }
  for (const m of r.markers) {
    if (scanned.includes(m)) out.push(`the marker ${m} is echoed in the body`);
    for (const [k, v] of Object.entries(res.headers)) if (v.includes(m)) out.push(`the marker ${m} is echoed in header ${k}`);
  }
  return out;
}

/** A request, shortened for a report line. */
export function describe(r: FuzzRequest): string {
  const body = r.body ? ` body(${r.body.length}B ${JSON.stringify(r.body.subarray(0, 120).toString('latin1'))})` : '';
  return `${r.via === 'raw' ? 'RAW ' : ''}${r.method} ${r.target.slice(0, 300)}${r.target.length > 300 ? `…(${r.target.length})` : ''} ${JSON.stringify(Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, v.slice(0, 80)])))}${body}`;
}

// ----------------------------------------------------------------------------------------------- runs

export interface Tally {
  sent: number;
  byStatus: Record<string, number>;
  byRoute: Record<string, Record<string, number>>;
  failures: { request: string; status: number; problems: string[]; body: string }[];
}

export const newTally = (): Tally => ({ sent: 0, byStatus: {}, byRoute: {}, failures: [] });

/** Send one request, count it, and return what is wrong with its response. */
export async function probe(ctx: FuzzContext, r: FuzzRequest, tally: Tally): Promise<string[]> {
  // A connection reset or a timeout is an answer too: a client got none.
  const res = await send(ctx, r).catch((err: NodeJS.ErrnoException): FuzzResponse => ({
    status: 0,
    headers: {},
    body: Buffer.from(`(${err.code ?? err.message})`),
  }));
  tally.sent++;
  const s = String(res.status);
  tally.byStatus[s] = (tally.byStatus[s] ?? 0) + 1;
  const route = (tally.byRoute[r.label] ??= {});
  route[s] = (route[s] ?? 0) + 1;
  const problems = violations(ctx, r, res);
  if (problems.length)
    tally.failures.push({ request: describe(r), status: res.status, problems, body: res.body.toString('utf8').slice(0, 300) });
  return problems;
}

/**
 * The stack the fuzzer runs against: all five services on a real chain with the registry deployed (so
 * `source=chain` reads answer), repositories allowed only from a local git server that serves one fixture
 * pair (nothing leaves the machine), and things to aim at: a completed analysis with its case and manifest,
 * a cancelled one, and (with one pipeline worker) every analysis the fuzzer creates failing fast at resolve.
 */
export async function startFuzzStack(
  opts: { rateLimit?: { perSecond: number; burst: number } } = {},
): Promise<{ ctx: FuzzContext; stop(): Promise<void> }> {
  const root = mkdtempSync(join(tmpdir(), 'lineage-fuzz-repos-'));
  const cache = mkdtempSync(join(tmpdir(), 'lineage-fuzz-cache-'));
  await SCENARIOS.find((x) => x.name === 'fork-declared')!.build(root);
  const git = await startGitServer(root);
  const quiet = { LOG_LEVEL: 'warn' };
  let chain: ChainStack | undefined;
  const stop = async () => {
    closeAgent();
    await chain?.stop();
    await git.stop();
    rmSync(root, { recursive: true, force: true });
    rmSync(cache, { recursive: true, force: true });
  };
  try {
    chain = await startChainStack({
      'analysis-pipeline': {
        ...quiet,
        WORKER_CONCURRENCY: '1',
        WORKER_THREADS: '1',
        REPO_CACHE_DIR: cache,
        GIT_TIMEOUT_MS: '20000',
        LINEAGE_REPO_ALLOWED_HOSTS: `http://127.0.0.1:${git.port}`,
        LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'true',
      },
      gateway: {
        ...quiet,
        ...(opts.rateLimit
          ? {
              RATE_LIMIT_ENABLED: 'true',
              RATE_LIMIT_PER_SECOND: String(opts.rateLimit.perSecond),
              RATE_LIMIT_BURST: String(opts.rateLimit.burst),
            }
          : {}),
      },
      'case-store': quiet,
      'fact-indexer': quiet,
      'chain-reader': quiet,
    });
    const api = chain.stack.api;
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${api}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const doc = (await call('GET', '/openapi.json')).body as FullDoc;

    // A completed analysis of the fixture pair, and its case.
    const v = await call('POST', '/repositories/validate', {
      origin: { url: `${git.url}/fork-declared/origin.git` },
      target: { url: `${git.url}/fork-declared/target.git` },
    });
    if (v.status !== 200) throw new Error(`validating the fixture pair answered ${v.status}`);
    const pair = {
      origin: { url: v.body.pair.origin.url, commit: v.body.pair.origin.commit },
      target: { url: v.body.pair.target.url, commit: v.body.pair.target.commit },
    };
    const created = await call('POST', '/analyses', { pair });
    if (created.status !== 202) throw new Error(`creating the fixture analysis answered ${created.status}`);
    const done = await waitFor(
      'the fixture analysis to complete',
      async () => {
        const a = (await call('GET', `/analyses/${created.body.analysis.id}`)).body.analysis;
        if (a.state === 'failed' || a.state === 'cancelled')
          throw new Error(`the fixture analysis ended ${a.state}: ${JSON.stringify(a.error)}`);
        return a.state === 'completed' && a.caseId !== null ? a : undefined;
      },
      150_000,
      250,
    );
    await waitFor('its case', async () => (await call('GET', `/cases/${done.caseId}`)).status === 200, 30_000);

    // One more, cancelled at once (or failed at resolve, should the worker take it first: its repository does
    // not exist). Either way it will never have a manifest.
    const other = await call('POST', '/analyses', {
      pair: { origin: pair.origin, target: { url: `${git.url}/fork-declared/target-copy.git`, commit: pair.target.commit } },
    });
    if (other.status !== 202) throw new Error(`creating the second analysis answered ${other.status}`);
    await call('POST', `/analyses/${other.body.analysis.id}/cancel`, undefined, { authorization: `Bearer ${other.body.cancelToken}` });

    const cursors: string[] = [];
    for (const list of [
      `/cases/${done.caseId}/evidence?limit=1`,
      `/cases/${done.caseId}/evidence?limit=1&layer=HISTORY`,
      '/activity?limit=1',
      '/templates?limit=1',
    ]) {
      const next = (await call('GET', list)).body.nextCursor;
      if (typeof next === 'string') cursors.push(next);
    }

    const ctx: FuzzContext = {
      doc,
      origin: new URL(api).origin,
      analyses: [
        { id: String(done.id), cancelToken: created.body.cancelToken, manifestHash: done.manifestHash },
        { id: String(other.body.analysis.id), cancelToken: other.body.cancelToken, manifestHash: null },
      ],
      caseIds: [String(done.caseId)],
      cursors,
      allowedRepo: git.url,
    };
    return { ctx, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function closeAgent(): void {
  agent.destroy();
}
