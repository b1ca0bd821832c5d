import type { RequestHandler } from 'express';
import { ApiError, sendError } from '@lineage/service-kit';
import { TokenBuckets } from './rate-limit';

/** Per-client-address limit on the API (probes and metrics are not limited). */
export function rateLimit(perSecond: number, burst: number): RequestHandler {
  const buckets = new TokenBuckets(perSecond, burst);
  return (req, res, next) => {
    const wait = buckets.take(req.ip ?? 'unknown');
    if (wait === 0) return next();
    sendError(res, new ApiError('RATE_LIMITED', 'Too many requests; retry later.', undefined, { 'Retry-After': String(wait) }));
  };
}
