import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { ApiError } from './errors';

const MAC_LENGTH = 32;

/**
 * Keyset cursors: the position as JSON, base64url, with an HMAC so a forged or
 * edited cursor is a VALIDATION_FAILED and never reaches a query. `scope`
 * binds a cursor to one list (and its filters), so it cannot be replayed elsewhere.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('cursor secret too short');
  }

  encode(scope: string, position: unknown): string {
    const body = Buffer.from(JSON.stringify(position)).toString('base64url');
    // The MAC has a fixed length, so it needs no separator (base64url has no spare character).
    return body + this.mac(scope, body);
  }

  /** The position, checked by the list's zod schema; its parsed value is returned. */
  decode<T>(scope: string, cursor: string, position: z.ZodType<T>): T {
    const fail = () =>
      new ApiError('VALIDATION_FAILED', 'The cursor is not valid for this list.', [{ path: 'cursor', issue: 'invalid_cursor' }]);
    if (cursor.length <= MAC_LENGTH) throw fail();
    const body = cursor.slice(0, -MAC_LENGTH);
    const mac = cursor.slice(-MAC_LENGTH);
    const expected = this.mac(scope, body);
    if (mac.length !== expected.length || !timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) throw fail();
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw fail();
    }
    const parsed = position.safeParse(value);
    if (!parsed.success) throw fail();
    return parsed.data;
  }

  private mac(scope: string, body: string): string {
    return createHmac('sha256', this.secret).update(scope).update('\0').update(body).digest('base64url').slice(0, MAC_LENGTH);
  }
}
