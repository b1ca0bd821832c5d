import { createHash } from 'node:crypto';
import { ApiError } from '@lineage/service-kit';
import { TokenBuckets } from '../src/rate-limit';
import { ApiKeys } from '../src/auth';
import { loadGatewayConfig } from '../src/config';

describe('token bucket', () => {
  it('allows a burst, then refills at the configured rate', () => {
    let now = 0;
    const b = new TokenBuckets(2, 3, 10, () => now);
    expect([b.take('a'), b.take('a'), b.take('a')]).toEqual([0, 0, 0]);
    expect(b.take('a')).toBe(1);
    expect(b.take('b')).toBe(0); // clients are independent
    now += 500; // one token back at 2/s
    expect(b.take('a')).toBe(0);
    expect(b.take('a')).toBeGreaterThan(0);
  });
  it('bounds the number of tracked clients', () => {
    let now = 0;
    const b = new TokenBuckets(1, 1, 2, () => now);
    b.take('a');
    b.take('b');
    b.take('c'); // evicts a
    now += 1;
    expect(b.take('a')).toBe(0); // a starts with a full bucket again
  });
});

describe('API keys', () => {
  const key = 'lk_test_key_1';
  const hash = createHash('sha256').update(key).digest('hex');
  it('accepts a configured key and returns its digest', () => {
    expect(new ApiKeys([hash], true).authenticate(key)).toBe(hash);
  });
  it('refuses a missing key when required, and an unknown key always', () => {
    expect(() => new ApiKeys([hash], true).authenticate(null)).toThrow(ApiError);
    expect(new ApiKeys([hash], false).authenticate(null)).toBeNull();
    expect(() => new ApiKeys([hash], false).authenticate('nope')).toThrow(ApiError);
  });
  it('configuration refuses key hashes that are not sha256 hex', () => {
    expect(() => loadGatewayConfig({ API_KEY_HASHES: 'not-a-hash' })).toThrow(/API_KEY_HASHES/);
    expect(loadGatewayConfig({ API_KEY_HASHES: `${hash}, ${hash.toUpperCase()}` }).API_KEY_HASHES).toEqual([hash, hash]);
  });
});
