// What the engine records: the kinds of evidence items, of chronology facts and of lineage signals. A manifest
// of another engine version may carry other kinds (the manifest schema keeps them free text); these are this one's.

/** Kinds of an evidence item (the manifest's `evidence`), by layer. */
export const EVIDENCE_KINDS = [
  // CODE
  'CODE_FRAGMENT',
  // STRUCTURE
  'SAME_FILE_PATH',
  'SAME_FILE_NAME',
  'SAME_DIRECTORY',
  // TEST
  'SAME_TEST_NAME',
  'SAME_FIXTURE',
  // LANGUAGE
  'SHARED_IDENTIFIER',
  'SHARED_COMMENT',
  'SHARED_STRING',
  'SHARED_TYPO',
  // DEPENDENCY
  'SAME_DEPENDENCY',
  'SAME_DEPENDENCY_PIN',
  // HISTORY
  'SHARED_COMMITS',
  'PINNED_COMMIT_IN_OTHER_HISTORY',
  'EQUIVALENT_COMMITS',
  'REWRITTEN_COMMITS',
  'IDENTITY_KEPT',
  'RENAMED_AT_FORK',
  'MAINTAINERS_CONTINUED',
  'DECLARED_UPSTREAM',
  'DENIED_DESCENT',
  'DECLARED_IN_CODE',
  'SUCCESSOR_NAMED',
  'COPYRIGHT_ATTRIBUTION',
  'SYNC_MERGES',
  'POST_FORK_CHRONOLOGY',
] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** Kinds of a chronology fact (the manifest's `chronology`): dated or undated facts of the two histories. */
export const CHRONOLOGY_KINDS = [
  'PINNED_COMMIT',
  'OLDEST_COMMIT_WALKED',
  'MATERIAL_FIRST_APPEARANCE',
  'FORK_POINT',
  'SHARED_COMMITS',
  'IMPORTED_HISTORY',
  'EQUIVALENT_COMMITS',
  'REWRITTEN_COMMITS',
  'COMMON_TEMPLATE',
  'THIRD_PARTY_CODE',
  'COPYRIGHT_ATTRIBUTION',
  'DECLARED_UPSTREAM',
  'DECLARED_IN_CODE',
  'SUCCESSOR_NAMED',
] as const;
export type ChronologyKind = (typeof CHRONOLOGY_KINDS)[number];

/** Kinds of a lineage signal: what says which side of a shared history is the original. */
export const LINEAGE_SIGNAL_KINDS = [
  'ANCESTRY',
  'DECLARATION',
  'SUCCESSOR',
  'IDENTITY',
  'RENAMED_AT_FORK',
  'MAINTAINERS',
  'SYNC_MERGES',
  'POST_FORK_CHRONOLOGY',
] as const;
export type LineageSignalKind = (typeof LINEAGE_SIGNAL_KINDS)[number];
