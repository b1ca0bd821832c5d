import { createServer } from 'node:net';
import { ApiError, createDb, dbCheck, isStoreUnavailable, toReplyError, toWireError } from '../src';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('a database that is not there is 503 SERVICE_UNAVAILABLE, never 500 INTERNAL', () => {
  it('recognises socket failures, the SQLSTATEs of an unavailable server, pool timeouts and dropped connections', () => {
    for (const code of [
      'ECONNREFUSED',
      'ECONNRESET',
      'EPIPE',
      'ETIMEDOUT',
      'EHOSTUNREACH',
      'ENOTFOUND',
      '57P01',
      '57P02',
      '57P03',
      '53300',
      '08000',
      '08003',
      '08006',
      '08001',
      '08P01',
    ]) {
      expect([code, isStoreUnavailable(withCode(code))]).toEqual([code, true]);
    }
    const knexTimeout = Object.assign(
      new Error('Knex: Timeout acquiring a connection. The pool is probably full. Are you missing a .transacting(trx) call?'),
      { name: 'KnexTimeoutError' },
    );
    for (const e of [
      knexTimeout,
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated'),
      // knex puts the query before the driver's message (seen when the database went away with a query in flight)
      new Error('update "analysis"."analyses" set "case_id" = $1 where "id" = $2 - Connection terminated unexpectedly'),
      new Error('select 1 - timeout expired'),
      new Error('timeout expired'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('Client was closed and is not queryable'),
      new Error('wrapped', { cause: withCode('ECONNREFUSED') }),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed'),
    ]) {
      expect([e.message, isStoreUnavailable(e)]).toEqual([e.message, true]);
    }
  });

  it('leaves bugs and data errors alone', () => {
    for (const e of [
      new Error('boom'),
      new Error('select 1 - boom'),
      new Error('the timeout expired when the job ran'),
      withCode('23505', 'duplicate key'),
      withCode('22003', 'value out of range for type bigint'),
      withCode('42P01', 'relation does not exist'),
      null,
      'ECONNREFUSED',
      42,
    ]) {
      expect(isStoreUnavailable(e)).toBe(false);
    }
    expect(toWireError(withCode('23505')).wire.code).toBe('INTERNAL');
  });

  it('maps in the one place replies are made (HTTP and NATS), without internals in the message', () => {
    const err = withCode('57P01', 'terminating connection due to administrator command');
    const http = toWireError(err);
    expect(http).toEqual({
      wire: { code: 'SERVICE_UNAVAILABLE', message: 'The service cannot reach its database right now; retry shortly.' },
      internal: false,
    });
    expect(toReplyError(err).wire.code).toBe('SERVICE_UNAVAILABLE');
    expect(new ApiError(http.wire.code, http.wire.message).status).toBe(503);
  });

  it('a real pool on an address nobody listens on: the query fails fast and is classified; readiness says unreachable', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer();
      srv.listen(0, '127.0.0.1', () => {
        const a = srv.address();
        srv.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
      });
    });
    const db = createDb({
      url: `postgres://postgres@127.0.0.1:${port}/none`,
      schema: 'x',
      poolMax: 2,
      applicationName: 'unavailable-test',
    });
    try {
      const t0 = Date.now();
      const err = await db.raw('select 1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(Date.now() - t0).toBeLessThan(3_000);
      expect(isStoreUnavailable(err)).toBe(true);
      expect(toWireError(err).wire.code).toBe('SERVICE_UNAVAILABLE');
      expect(await dbCheck(db)).toEqual({ ok: false, detail: 'unreachable' });
    } finally {
      await db.destroy();
    }
  });
});
