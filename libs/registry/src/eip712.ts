import {
  getAddress,
  hashTypedData,
  isAddress,
  isHex,
  keccak256,
  recoverTypedDataAddress,
  stringToBytes,
  type Address,
  type Hex,
} from 'viem';
import { toUint256, type BigIntish } from './bigints';

/** The registry's EIP-712 domain name and version (also returned by eip712Domain()). */
export const REGISTRY_EIP712_NAME = 'LineageRegistry';
export const REGISTRY_EIP712_VERSION = '1';

/** The Challenge type (docs/registry.md §5), field order as in the contract's CHALLENGE_TYPEHASH. */
export const challengeTypes = {
  Challenge: [
    { name: 'factKey', type: 'uint256' },
    { name: 'caseId', type: 'uint256' },
    { name: 'manifestHash', type: 'bytes32' },
    { name: 'evidenceDigest', type: 'bytes32' },
    { name: 'rationaleHash', type: 'bytes32' },
    { name: 'challenger', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

/** The EIP712Domain type as wallets expect it in eth_signTypedData_v4 payloads. */
export const eip712DomainType = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
] as const;

export interface ChallengeDomain {
  name: string;
  version: string;
  chainId: bigint;
  verifyingContract: Address;
}

export interface ChallengeMessage {
  factKey: bigint;
  caseId: bigint;
  manifestHash: Hex;
  evidenceDigest: Hex;
  rationaleHash: Hex;
  challenger: Address;
  nonce: bigint;
  deadline: bigint;
}

export interface ChallengeTypedData {
  domain: ChallengeDomain;
  types: typeof challengeTypes;
  primaryType: 'Challenge';
  message: ChallengeMessage;
}

/** Input form: integers as bigints or decimal strings (as the public API carries them). */
export interface ChallengeTypedDataInput {
  domain: { name?: string; version?: string; chainId: BigIntish; verifyingContract: string };
  message: {
    factKey: BigIntish;
    caseId: BigIntish;
    manifestHash: string;
    evidenceDigest: string;
    rationaleHash: string;
    challenger: string;
    nonce: BigIntish;
    deadline: BigIntish;
  };
}

/** 32 zero bytes: the evidenceDigest when a challenger attaches none. */
export const ZERO_BYTES32: Hex = `0x${'0'.repeat(64)}`;

function toBytes32(value: string, name: string): Hex {
  if (!isHex(value, { strict: true }) || value.length !== 66) throw new TypeError(`${name} must be 0x-prefixed 32-byte hex`);
  return value.toLowerCase() as Hex;
}

function toAddress(value: string, name: string): Address {
  if (!isAddress(value, { strict: false })) throw new TypeError(`${name} must be a 20-byte hex address`);
  return getAddress(value);
}

/**
 * Builds the typed data a challenger's wallet signs. Every integer is made a
 * bigint here, before viem sees it, so the digest cannot depend on how a
 * caller spelled a number.
 */
export function buildChallengeTypedData(input: ChallengeTypedDataInput): ChallengeTypedData {
  const { domain, message } = input;
  return {
    domain: {
      name: domain.name ?? REGISTRY_EIP712_NAME,
      version: domain.version ?? REGISTRY_EIP712_VERSION,
      chainId: toUint256(domain.chainId, 'domain.chainId'),
      verifyingContract: toAddress(domain.verifyingContract, 'domain.verifyingContract'),
    },
    types: challengeTypes,
    primaryType: 'Challenge',
    message: {
      factKey: toUint256(message.factKey, 'factKey'),
      caseId: toUint256(message.caseId, 'caseId'),
      manifestHash: toBytes32(message.manifestHash, 'manifestHash'),
      evidenceDigest: toBytes32(message.evidenceDigest, 'evidenceDigest'),
      rationaleHash: toBytes32(message.rationaleHash, 'rationaleHash'),
      challenger: toAddress(message.challenger, 'challenger'),
      nonce: toUint256(message.nonce, 'nonce'),
      deadline: toUint256(message.deadline, 'deadline'),
    },
  };
}

/** The EIP-712 digest; equals the contract's challengeDigest view for the same domain and message. */
export function challengeDigest(typedData: ChallengeTypedData): Hex {
  return hashTypedData(typedData);
}

/** The address that signed the typed data (EOA signatures). */
export function recoverChallengeSigner(typedData: ChallengeTypedData, signature: Hex): Promise<Address> {
  return recoverTypedDataAddress({ ...typedData, signature });
}

/** keccak256 of the UTF-8 rationale text: what goes into the message's rationaleHash. */
export function rationaleHashOf(rationale: string): Hex {
  return keccak256(stringToBytes(rationale));
}

/** Longest signature validity the helpers hand out. */
export const MAX_CHALLENGE_TTL_SECONDS = 3600n;

/** now + ttl, with ttl clamped to 1..MAX_CHALLENGE_TTL_SECONDS. */
export function challengeDeadline(nowSeconds: bigint, ttlSeconds: bigint = MAX_CHALLENGE_TTL_SECONDS): bigint {
  const ttl = ttlSeconds < 1n ? 1n : ttlSeconds > MAX_CHALLENGE_TTL_SECONDS ? MAX_CHALLENGE_TTL_SECONDS : ttlSeconds;
  return nowSeconds + ttl;
}

/** JSON-safe form for an API response: integers as decimal strings, EIP712Domain included for raw wallets. */
export function challengeTypedDataToJson(typedData: ChallengeTypedData) {
  const { domain, message } = typedData;
  return {
    domain: { ...domain, chainId: domain.chainId.toString(10) },
    types: { EIP712Domain: eip712DomainType, ...challengeTypes },
    primaryType: 'Challenge' as const,
    message: {
      ...message,
      factKey: message.factKey.toString(10),
      caseId: message.caseId.toString(10),
      nonce: message.nonce.toString(10),
      deadline: message.deadline.toString(10),
    },
  };
}
