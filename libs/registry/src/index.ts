export { registryAbi, registryBytecode, registryCompiler } from './generated/LineageRegistry';
export { toUint256, type BigIntish } from './bigints';
export {
  OUTCOMES,
  ASSERTION_STATUSES,
  RESOLUTION_KINDS,
  outcomeToUint8,
  outcomeFromUint8,
  statusToUint8,
  statusFromUint8,
  resolutionKindToUint8,
  resolutionKindFromUint8,
  type Outcome,
  type AssertionStatus,
  type ResolutionKind,
} from './enums';
export { REGISTRY_EVENT_NAMES, type RegistryEventName } from './events';
export {
  lineageSubjectHash,
  lineageFactKey,
  factKeyOf,
  factKeyOfDecimal,
  commitToBytes20,
  MAX_SUBJECT_URL_BYTES,
  type LineagePair,
} from './subject';
export {
  REGISTRY_EIP712_NAME,
  REGISTRY_EIP712_VERSION,
  challengeTypes,
  eip712DomainType,
  buildChallengeTypedData,
  challengeDigest,
  recoverChallengeSigner,
  rationaleHashOf,
  challengeDeadline,
  challengeTypedDataToJson,
  MAX_CHALLENGE_TTL_SECONDS,
  ZERO_BYTES32,
  type ChallengeDomain,
  type ChallengeMessage,
  type ChallengeTypedData,
  type ChallengeTypedDataInput,
} from './eip712';
export {
  deployRegistry,
  registerLineageDefaults,
  assertLineageFact,
  policyFamily,
  LINEAGE_TEMPLATE_TEXT,
  DEFAULT_DEV_POLICY,
  type RegistryWalletClient,
  type RegistryClients,
  type PolicyInput,
  type DeployedRegistry,
  type RegisteredDefaults,
  type AssertLineageInput,
  type AssertedFact,
} from './deploy';
export { localClients } from './clients';
export { startAnvil, anvilBinary, type AnvilOptions, type AnvilHandle } from './anvil';
export { devAccounts, devAccount, DEV_ACCOUNT_COUNT, DEV_MNEMONIC, type DevAccount } from './dev-accounts';
export { deployDev, assertDev, type DevDeployment, type AssertDevInput } from './dev';
export { readRegistryDomain } from './domain';
export { readFact, type ChainFact, type ReadFactInput } from './read';
