// The public surface of @lineage/vocabulary: each shared vocabulary is declared once, here, and imported everywhere else.
export {
  CONFIDENCES,
  type Confidence,
  DIRECTIONS,
  type Direction,
  LAYERS,
  type Layer,
  STRENGTHS,
  type Strength,
  VERDICTS,
  type Verdict,
} from './decision';
export { ENGINE_STAGE_NAMES, type EngineStageName, STAGE_NAMES, type StageName } from './stages';
export {
  CHRONOLOGY_KINDS,
  type ChronologyKind,
  EVIDENCE_KINDS,
  type EvidenceKind,
  LINEAGE_SIGNAL_KINDS,
  type LineageSignalKind,
} from './evidence';
export {
  ACTIVITY_KINDS,
  ASSERTION_STATUSES,
  type ActivityKind,
  type AssertionStatus,
  OUTCOMES,
  type Outcome,
  REGISTRY_EVENTS,
  type RegistryEventName,
  RESOLUTION_KINDS,
  type ResolutionKind,
} from './registry';
