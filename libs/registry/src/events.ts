/** Every event the registry emits; the indexer filters and projects these. */
export const REGISTRY_EVENT_NAMES = [
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
export type RegistryEventName = (typeof REGISTRY_EVENT_NAMES)[number];
