export * from './types';
export { EngineError, isEngineError, inStage, stageError, type EngineErrorCode, type ErrorSide, type LimitName } from './errors';
export { ENGINE_VERSION, MANIFEST_VERSION } from './version';
export { DEFAULT_LIMITS, resolveLimits, Deadline } from './limits';
export { inventory, type StageOptions } from './inventory';
export { fingerprint, type FingerprintOptions, type FingerprintMemo } from './fingerprint';
export { FingerprintCache } from './fingerprint-cache';
export { history, histories } from './history';
export { topology } from './lineage/topology';
export { lineageSignals, WEIGHTS as LINEAGE_WEIGHTS } from './lineage/signals/index';
export { compare, type SideData } from './compare';
export { decide, SUPPORT_THRESHOLDS, MIN_CODE_TOKENS, DECLARATION_CODE_FLOOR } from './decide/index';
export { buildManifest, canonicalBytes, manifestHash, type ManifestInput } from './manifest';
export { analyze, MIN_BYTES_FOR_WORKERS, type AnalyzeInput } from './analyze';
export { runStages, STAGES, type AnalysisContext, type StageHooks, type StageOutputs, type StageResults } from './stages';
export { classify, classifyPath, languageOf, isSafePath } from './classify';
export { tokenize, grammarLoads, GRAMMARS, type TokenStream } from './tokenize';
export { nativeParserInUse } from './tokenize/treesitter';
export { winnow, DEFAULT_K, DEFAULT_WINDOW } from './winnow';
export { FingerprintPool } from './workers/pool';
export * as git from './git';
export {
  checkRemote,
  checkRemoteSyntax,
  isPrivateAddress,
  parseAllowedHosts,
  pinnedGitConfig,
  RemoteRefusal,
  DEFAULT_HOSTS,
  MAX_URL_LENGTH,
  type AllowedHost,
  type RemotePolicy,
  type CheckedRemote,
} from './remote/policy';
