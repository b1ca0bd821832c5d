import { encodeAbiParameters, isHex, keccak256, type Hex } from 'viem';
import { toUint256, type BigIntish } from './bigints';

/** A pinned pair as the lineage template's subject. Commits are 40-hex git object ids. */
export interface LineagePair {
  /** Exactly the repository URL of the pinned pair (as the case records it); not normalised here. */
  originUrl: string;
  originCommit: string;
  targetUrl: string;
  targetCommit: string;
}

/** Bound on each URL so the on-chain and off-chain encodings stay small. */
export const MAX_SUBJECT_URL_BYTES = 2048;

const COMMIT = /^(0x)?[0-9a-fA-F]{40}$/;

/** A 40-hex commit as the ABI's bytes20 (lower-case, 0x-prefixed); case-insensitive input. */
export function commitToBytes20(commit: string): Hex {
  if (!COMMIT.test(commit)) throw new TypeError('commit must be 40 hex digits');
  return `0x${commit.replace(/^0x/, '').toLowerCase()}` as Hex;
}

function checkUrl(url: string, name: string): string {
  const bytes = Buffer.byteLength(url, 'utf8');
  if (bytes === 0 || bytes > MAX_SUBJECT_URL_BYTES) throw new RangeError(`${name} must be 1..${MAX_SUBJECT_URL_BYTES} bytes`);
  return url;
}

/**
 * subjectHash = keccak256(abi.encode(string originUrl, bytes20 originCommit,
 * string targetUrl, bytes20 targetCommit)); equals the contract's
 * lineageSubjectHash view.
 */
export function lineageSubjectHash(pair: LineagePair): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'string' }, { type: 'bytes20' }, { type: 'string' }, { type: 'bytes20' }],
      [
        checkUrl(pair.originUrl, 'originUrl'),
        commitToBytes20(pair.originCommit),
        checkUrl(pair.targetUrl, 'targetUrl'),
        commitToBytes20(pair.targetCommit),
      ],
    ),
  );
}

function checkBytes32(value: string, name: string): Hex {
  if (!isHex(value, { strict: true }) || value.length !== 66) throw new TypeError(`${name} must be 0x-prefixed 32-byte hex`);
  return value;
}

/** factKey = uint256(keccak256(abi.encode(uint256 templateId, bytes32 subjectHash))). */
export function factKeyOf(templateId: BigIntish, subjectHash: Hex | string): bigint {
  const id = toUint256(templateId, 'templateId');
  return BigInt(keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes32' }], [id, checkBytes32(subjectHash, 'subjectHash')])));
}

/** factKeyOf as the decimal string the public API uses for identifiers. */
export function factKeyOfDecimal(templateId: BigIntish, subjectHash: Hex | string): string {
  return factKeyOf(templateId, subjectHash).toString(10);
}

/** The lineage fact key of a pinned pair, straight from the pair. */
export function lineageFactKey(templateId: BigIntish, pair: LineagePair): bigint {
  return factKeyOf(templateId, lineageSubjectHash(pair));
}
