// Every event the registry emits (declared in @lineage/vocabulary; the indexer filters and projects these).
export { REGISTRY_EVENTS as REGISTRY_EVENT_NAMES, type RegistryEventName } from '@lineage/vocabulary';
