import { z } from 'zod';
import {
  ApiError,
  isMigrationRace,
  requestBodyError,
  ConfigError,
  CursorCodec,
  Readiness,
  baseEnv,
  baseServiceOptions,
  envTypes,
  loadConfig,
  toWireError,
  acceptRequestId,
  toReplyError,
  fromReplyError,
} from '../src';
import { WireError } from '@lineage/schemas';

describe('CursorCodec', () => {
  const codec = new CursorCodec('a-test-secret-of-enough-length');
  const isPos = z.strictObject({ id: z.string() });

  it('round-trips a position within its scope', () => {
    const c = codec.encode('cases:', { id: '42' });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(codec.decode('cases:', c, isPos)).toEqual({ id: '42' });
  });
  it('refuses an edited cursor, another scope, another secret, and junk', () => {
    const c = codec.encode('cases:', { id: '42' });
    const body = Buffer.from(JSON.stringify({ id: '1' })).toString('base64url');
    const forged = body + c.slice(-32);
    const attempts: [string, string, CursorCodec][] = [
      ['cases:', forged, codec],
      ['evidence:1', c, codec],
      ['cases:', c, new CursorCodec('another-secret-of-enough-length')],
      ['cases:', 'short', codec],
      ['cases:', 'x'.repeat(80), codec],
    ];
    for (const [scope, cursor, k] of attempts) {
      let caught: unknown;
      try {
        k.decode(scope, cursor, isPos);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ApiError);
      expect((caught as ApiError).code).toBe('VALIDATION_FAILED');
      expect((caught as ApiError).fields).toEqual([{ path: 'cursor', issue: 'invalid_cursor' }]);
    }
  });
  it('refuses a validly signed cursor whose content has the wrong shape', () => {
    const c = codec.encode('s', { other: 1 });
    expect(() => codec.decode('s', c, isPos)).toThrow(ApiError);
  });
});

describe('configuration', () => {
  const shape = { PORT: z.coerce.number().int().min(1).max(65535), NAME: z.string().min(1), OPT: z.string().default('x') };
  it('parses and applies defaults', () => {
    expect(loadConfig(shape, { PORT: '80', NAME: 'n' })).toEqual({ PORT: 80, NAME: 'n', OPT: 'x' });
  });
  it('names every bad variable and never its value', () => {
    let err: unknown;
    try {
      loadConfig(shape, { PORT: 'secret-port-value' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as ConfigError).message;
    expect(msg).toContain('PORT');
    expect(msg).toContain('NAME (required)');
    expect(msg).not.toContain('secret-port-value');
  });
});

describe('listen address', () => {
  const shape = { ...baseEnv, HTTP_PORT: envTypes.port.default(8080) };
  it('is loopback unless HTTP_HOST says otherwise', () => {
    expect(baseServiceOptions('s', loadConfig(shape, {})).host).toBe('127.0.0.1');
    expect(baseServiceOptions('s', loadConfig(shape, { HTTP_HOST: '0.0.0.0' })).host).toBe('0.0.0.0');
  });
});

describe('error mapping', () => {
  it('keeps public codes, hides everything else', () => {
    expect(toWireError(new ApiError('CASE_NOT_FOUND', 'No case.')).wire).toEqual({ code: 'CASE_NOT_FOUND', message: 'No case.' });
    const internal = toWireError(new Error('db password=hunter2 at line 4'));
    expect(internal.internal).toBe(true);
    expect(internal.wire).toEqual({ code: 'INTERNAL', message: 'An internal error occurred.' });
    expect(new ApiError('RATE_LIMITED', 'x').status).toBe(429);
  });

  it('carries Retry-After across a NATS hop, and only there', () => {
    const full = new ApiError('QUEUE_FULL', 'The analysis queue is full; retry later.', undefined, { 'Retry-After': '30' });
    expect(full.status).toBe(429);
    // The HTTP body never grows a field; the NATS reply carries the delay so the gateway can send the header.
    expect(toWireError(full).wire).toEqual({ code: 'QUEUE_FULL', message: 'The analysis queue is full; retry later.' });
    const reply = toReplyError(full).wire;
    expect(reply).toEqual({ code: 'QUEUE_FULL', message: 'The analysis queue is full; retry later.', retryAfterSeconds: 30 });
    const back = fromReplyError(WireError.parse(JSON.parse(JSON.stringify(reply))));
    expect(back.status).toBe(429);
    expect(back.headers).toEqual({ 'Retry-After': '30' });
    // Without a Retry-After (or with an HTTP-date one) nothing is added, and nothing comes back.
    expect(toReplyError(new ApiError('CASE_NOT_FOUND', 'No case.')).wire).toEqual({ code: 'CASE_NOT_FOUND', message: 'No case.' });
    expect(
      toReplyError(new ApiError('RATE_LIMITED', 'x', undefined, { 'Retry-After': 'Wed, 21 Oct 2026 07:28:00 GMT' })).wire.retryAfterSeconds,
    ).toBeUndefined();
    expect(fromReplyError({ code: 'CASE_NOT_FOUND', message: 'No case.' }).headers).toBeUndefined();
  });
});

describe('readiness', () => {
  it('is ok only when every check passes, and stopping wins', async () => {
    const r = new Readiness().add('a', () => ({ ok: true })).add('b', async () => ({ ok: false, detail: 'down' }));
    expect((await r.evaluate()).status).toBe('unready');
    const ok = new Readiness().add('a', () => ({ ok: true }));
    expect((await ok.evaluate()).status).toBe('ok');
    ok.markStopping();
    expect((await ok.evaluate()).status).toBe('stopping');
  });
  it('a hanging or throwing check fails without hanging the probe', async () => {
    const r = new Readiness()
      .add('hang', () => new Promise(() => undefined))
      .add('throw', () => {
        throw new Error('x');
      });
    const rep = await r.evaluate(50);
    expect(rep.checks.hang).toEqual({ ok: false, detail: 'timed out' });
    expect(rep.checks.throw).toEqual({ ok: false, detail: 'check failed' });
  });
});

describe('request ids', () => {
  it('keeps well-formed ids and replaces others', () => {
    expect(acceptRequestId('abc-123')).toBe('abc-123');
    expect(acceptRequestId('has space')).toMatch(/^[0-9a-f-]{36}$/);
    expect(acceptRequestId('x'.repeat(129))).toMatch(/^[0-9a-f-]{36}$/);
    expect(acceptRequestId(undefined)).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('isMigrationRace', () => {
  it('counts another runner creating the same catalog objects a moment before, and nothing else', () => {
    for (const code of ['42P07', '42710', '42P06']) expect(isMigrationRace({ code, message: 'already exists' })).toBe(true);
    expect(isMigrationRace({ code: '42601', message: 'syntax error' })).toBe(false);
    expect(isMigrationRace({ code: '23505', constraint: 'cases_pkey', message: 'duplicate key' })).toBe(false);
  });
});

describe('requestBodyError', () => {
  it("names body-parser's client errors in the public vocabulary and leaves everything else to the caller", () => {
    expect(requestBodyError({ type: 'entity.parse.failed', status: 400 })?.code).toBe('MALFORMED_JSON');
    expect(requestBodyError({ type: 'entity.too.large', status: 413 })?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(requestBodyError({ type: 'parameters.too.many', status: 413 })?.code).toBe('PAYLOAD_TOO_LARGE');
    expect(requestBodyError({ type: 'charset.unsupported', status: 415 })?.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(requestBodyError({ status: 400 })?.code).toBe('VALIDATION_FAILED');
    expect(requestBodyError(new Error('boom'))).toBeNull();
    expect(requestBodyError({ status: 500 })).toBeNull();
  });
});
