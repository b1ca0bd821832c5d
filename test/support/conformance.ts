// Whether a response the API gave is one its OpenAPI document describes: the status is listed for the
// operation, and an error's `code` is in that response's `error.code` enum. Used by the e2e setup file that
// records every request of the suite (observed-statuses.ts) and by the fuzzer (fuzz.ts).

export interface Observation {
  method: string;
  /** The request path as sent (percent-encoded), without the query. */
  path: string;
  status: number;
  /** `error.code` of an error envelope; null when the body was not one. */
  code: string | null;
}

type Schema = { properties?: Record<string, Schema>; enum?: string[] };
type Operation = { responses: Record<string, { content?: Record<string, { schema?: Schema }> }> };
export type OpenApiDoc = { paths: Record<string, Record<string, Operation>> };

/**
 * Answers no operation documents: a path no route has (or a method the path lacks) is 404 NOT_FOUND, and
 * what the server answers before routing (the rate limit, oversized or malformed request heads) can be
 * any path's answer. docs/api.md says so.
 */
export const UNROUTED: Record<number, string[]> = {
  404: ['NOT_FOUND'],
  429: ['RATE_LIMITED'],
  431: ['HEADERS_TOO_LARGE'],
  400: ['VALIDATION_FAILED'],
};

const matchers = new WeakMap<OpenApiDoc, { template: string; re: RegExp }[]>();

/** The operation of the document a request is for (the gateway's routing: case-insensitive, optional trailing slash). */
export function operationOf(doc: OpenApiDoc, method: string, path: string): { template: string; op: Operation } | null {
  let list = matchers.get(doc);
  if (!list) {
    list = Object.keys(doc.paths)
      .filter((t) => t.startsWith('/api/'))
      .map((template) => ({ template, re: new RegExp(`^${template.replace(/\./g, '\\.').replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i') }));
    matchers.set(doc, list);
  }
  const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  for (const { template, re } of list) {
    const op = doc.paths[template]![m];
    if (op && re.test(path)) return { template, op };
  }
  return null;
}

/** The error codes the document lists for an operation's status; null when it lists the status without codes. */
export function codesOf(op: Operation, status: number): string[] | null {
  return op.responses[String(status)]?.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? null;
}

/** What is wrong with an observed response, or null when the document describes it. */
export function undocumented(doc: OpenApiDoc, o: Observation): string | null {
  const at = `${o.method.toUpperCase()} ${o.path} → ${o.status}${o.code ? ` ${o.code}` : ''}`;
  const found = operationOf(doc, o.method, o.path);
  if (!found) {
    const allowed = UNROUTED[o.status];
    if (!allowed) return `${at}: no operation matches, and ${o.status} is not an answer to an unknown route`;
    if (!o.code || !allowed.includes(o.code)) return `${at}: an unknown route answers ${o.status} with ${allowed.join(' or ')}`;
    return null;
  }
  const where = `${o.method.toUpperCase()} ${found.template}`;
  if (!found.op.responses[String(o.status)]) {
    return `${at}: ${where} does not document ${o.status} (it documents ${Object.keys(found.op.responses).join(', ')})`;
  }
  if (o.status >= 400) {
    const codes = codesOf(found.op, o.status);
    if (!o.code) return `${at}: an error without an error envelope`;
    if (!codes || !codes.includes(o.code))
      return `${at}: ${where} documents ${o.status} with ${codes?.join(', ') ?? 'no codes'}, not ${o.code}`;
  }
  return null;
}
