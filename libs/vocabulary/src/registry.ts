// The registry contract's words: its events and enums, as the ABI names them (libs/registry checks them against it).

/** Every event the registry emits; the indexer filters and projects these. */
export const REGISTRY_EVENTS = [
  'OwnershipTransferred',
  'TemplateRegistered',
  'PolicyRegistered',
  'FactAsserted',
  'AssertionChallenged',
  'AssertionResolved',
  'NonceInvalidated',
  'BondCredited',
  'BondWithdrawn',
] as const;
export type RegistryEventName = (typeof REGISTRY_EVENTS)[number];

/** The events the public activity feed lists. */
export const ACTIVITY_KINDS = [
  'TemplateRegistered',
  'PolicyRegistered',
  'FactAsserted',
  'AssertionChallenged',
  'AssertionResolved',
] as const satisfies readonly RegistryEventName[];
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** The contract's enums in their on-chain order (uint8 value = index + 1; 0 is "none"). */
export const OUTCOMES = ['TRUE', 'FALSE', 'UNDETERMINED'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const ASSERTION_STATUSES = ['ASSERTED', 'CHALLENGED', 'RESOLVED'] as const;
export type AssertionStatus = (typeof ASSERTION_STATUSES)[number];

export const RESOLUTION_KINDS = ['LIVENESS', 'ARBITRATION'] as const;
export type ResolutionKind = (typeof RESOLUTION_KINDS)[number];
