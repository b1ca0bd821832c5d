import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { ApiError } from '@lineage/service-kit';

export function bearerOf(req: Request): string | null {
  const h = req.get('authorization');
  if (!h) return null;
  const m = /^Bearer ([\x21-\x7e]{1,512})$/.exec(h);
  if (!m) throw new ApiError('UNAUTHENTICATED', 'The Authorization header must be "Bearer <token>".');
  return m[1]!;
}

/**
 * API keys for write routes: only their sha256 digests are configured. A key
 * that is present but unknown is refused even when keys are optional.
 */
export class ApiKeys {
  private readonly hashes: Buffer[];
  constructor(
    hashes: string[],
    readonly required: boolean,
  ) {
    this.hashes = hashes.map((h) => Buffer.from(h, 'hex'));
  }

  /** Returns the caller's key digest, or null for an anonymous caller where that is allowed. */
  authenticate(bearer: string | null): string | null {
    if (bearer === null) {
      if (this.required) throw new ApiError('UNAUTHENTICATED', 'This route needs an API key.');
      return null;
    }
    const digest = createHash('sha256').update(bearer).digest();
    if (!this.hashes.some((h) => timingSafeEqual(h, digest))) throw new ApiError('UNAUTHENTICATED', 'The API key is not valid.');
    return digest.toString('hex');
  }

  isKey(bearer: string): boolean {
    const digest = createHash('sha256').update(bearer).digest();
    return this.hashes.some((h) => timingSafeEqual(h, digest));
  }
}
