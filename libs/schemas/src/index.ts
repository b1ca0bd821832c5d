// The public surface of @lineage/schemas, named one by one: what a service may import is read here.
export { z } from './zod';
export {
  ACTIVITY_KINDS,
  ANALYSIS_STATES,
  ActivityKind,
  Address,
  AnalysisState,
  Commit,
  Confidence,
  Cursor,
  DecimalId,
  Direction,
  EmptyBody,
  FactStatus,
  Hash32,
  LAYERS,
  Layer,
  Limit,
  NoQuery,
  OUTCOMES,
  Outcome,
  QueryBoolean,
  QueryText,
  STAGE_NAMES,
  StageName,
  StageState,
  Strength,
  Timestamp,
  VERDICTS,
  Verdict,
  page,
} from './common';
export { ERROR_CODES, ERROR_STATUS, ErrorBody, type ErrorCode, ErrorCodeSchema, FieldIssue, WireError, fieldIssues } from './errors';
export { type Caller, REQUEST_ID_HEADER, type SubjectDef, replyEnvelope, subjects } from './subjects';
export {
  AnalysisCompletedEvent,
  AnalysisJob,
  AnalysisProgressEvent,
  CasePublishedEvent,
  type MessageDef,
  eventSubjects,
  messages,
  streams,
} from './streams';
export {
  API_BASE,
  type Composition,
  type PublicRoute,
  type RouteCall,
  type RouteInput,
  type RouteReply,
  type SuccessResponse,
  isLocal,
  publicRoutes,
} from './routes';
export { buildOpenApiDocument, documentedCodes, documentedStatuses, errorCodesOf, findRoute } from './openapi';
export * as analysisApi from './api/analysis';
export * as casesApi from './api/cases';
export { CliAnalyzeOutput, CliErrorOutput, CliOutput, CliVerifyOutput, cliOutputJsonSchema } from './cli';
export * as factsApi from './api/facts';
export * as fragmentApi from './api/fragment';
export {
  MAX_MANIFEST_EVIDENCE,
  ManifestAlternative,
  ManifestChronologyFact,
  ManifestEvidenceItem,
  ManifestLayerScore,
  ManifestLineage,
  ManifestLocation,
  ManifestSchema,
  ManifestSkippedItem,
  type ParsedManifest,
} from './manifest';
