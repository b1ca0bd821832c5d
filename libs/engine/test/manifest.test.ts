import { createHash } from 'node:crypto';
import { canonicalBytes, manifestHash } from '@lineage/engine';

describe('manifest canonicalisation', () => {
  it('is RFC 8785: sorted keys, no whitespace, ES number formatting', () => {
    expect(canonicalBytes({ b: 1, a: [true, null, 'x'], c: { z: 1e21, y: 0.5 } }).toString()).toBe(
      '{"a":[true,null,"x"],"b":1,"c":{"y":0.5,"z":1e+21}}',
    );
  });

  it('key order of the input does not change the bytes', () => {
    expect(canonicalBytes({ x: 1, y: { b: 2, a: 1 } }).equals(canonicalBytes({ y: { a: 1, b: 2 }, x: 1 }))).toBe(true);
  });

  it('hash is 0x + sha256 of the canonical bytes', () => {
    const bytes = canonicalBytes({ hello: 'world' });
    expect(manifestHash(bytes)).toBe('0x' + createHash('sha256').update('{"hello":"world"}').digest('hex'));
    expect(manifestHash(bytes)).toMatch(/^0x[0-9a-f]{64}$/);
  });
});
