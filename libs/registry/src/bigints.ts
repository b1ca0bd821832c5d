/**
 * Identifiers travel as decimal strings (docs/api.md); viem must get
 * bigints. Converting strictly here, before viem, matters: some viem versions
 * silently drop a string chainId from an EIP-712 domain and change the digest.
 */
const DECIMAL = /^(0|[1-9][0-9]{0,77})$/;
const UINT256_MAX = (1n << 256n) - 1n;

export type BigIntish = bigint | string;

/** A uint256 from a bigint or a canonical decimal string (no sign, no leading zeros, no hex). */
export function toUint256(value: BigIntish, name = 'value'): bigint {
  let n: bigint;
  if (typeof value === 'bigint') {
    n = value;
  } else if (typeof value === 'string' && DECIMAL.test(value)) {
    n = BigInt(value);
  } else {
    throw new TypeError(`${name} must be a bigint or a decimal string`);
  }
  if (n < 0n || n > UINT256_MAX) throw new RangeError(`${name} is out of uint256 range`);
  return n;
}
