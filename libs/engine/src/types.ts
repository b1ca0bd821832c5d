// Public result types. Every stage output is plain JSON data (arrays, strings,
// integers) so the pipeline can persist it at a stage boundary and resume.

import type {
  ChronologyKind,
  Confidence,
  Direction,
  EvidenceKind,
  Layer,
  LineageSignalKind,
  StageName,
  Strength,
  Verdict,
} from '@lineage/vocabulary';

// The shared vocabularies are declared once, in @lineage/vocabulary; the engine's public surface re-exports them.
export {
  ENGINE_STAGE_NAMES,
  VERDICTS,
  LAYERS,
  type ChronologyKind,
  type Confidence,
  type Direction,
  type EngineStageName,
  type EvidenceKind,
  type Layer,
  type LineageSignalKind,
  type StageName,
  type Strength,
  type Verdict,
} from '@lineage/vocabulary';
export type Side = 'origin' | 'target';

export interface RepoRef {
  /** A local git repository, bare or with a work tree (the work tree is never read). */
  dir: string;
  /** 40-hex commit id (or any rev the repository resolves; the resolved id is what is recorded). */
  commit: string;
  /** Public URL, recorded in the manifest when given. */
  url?: string;
}

export interface Limits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  maxCommits: number;
  /** Wall-clock budget of a whole analysis, in milliseconds. */
  timeBudgetMs: number;
}

export interface Progress {
  stage: StageName;
  done: number;
  total: number;
  unit: 'files' | 'commits' | 'fingerprints' | 'items';
  side?: Side;
}
export type ProgressFn = (p: Progress) => void;

export type FileClass = 'source' | 'test' | 'docs' | 'config' | 'vendored' | 'generated' | 'minified' | 'binary';

export interface InventoryFile {
  path: string;
  blobId: string;
  size: number;
  class: FileClass;
  language: string | null;
  lines: number;
}

export type SkipReason =
  | 'SYMLINK'
  | 'SUBMODULE'
  | 'FILE_TOO_LARGE'
  | 'UNSAFE_PATH'
  | 'HISTORY_TRUNCATED'
  /** the tree names a blob the repository does not have (a partial clone): it cannot be read */
  | 'MISSING_OBJECT';

export interface SkippedItem {
  side?: Side;
  path: string;
  reason: SkipReason;
  /** bytes for FILE_TOO_LARGE, commits walked for HISTORY_TRUNCATED */
  size?: number;
}

export interface InventorySummary {
  files: number;
  bytes: number;
  lines: number;
  byClass: Record<string, number>;
  byLanguage: Record<string, number>;
  skipped: number;
}

export interface Inventory {
  commit: string;
  files: InventoryFile[];
  skipped: SkippedItem[];
  summary: InventorySummary;
}

/** Winnowed fingerprints of one file, as parallel arrays. */
export interface FileFingerprints {
  path: string;
  blobId: string;
  language: string;
  tokens: number;
  hashes: number[];
  /** 1-based first and last line of each selected k-gram. */
  startLines: number[];
  endLines: number[];
  /** Low-entropy k-grams (few distinct token kinds): common idioms, no weight. */
  lowEntropy: number[];
}

export interface LanguageItem {
  kind: 'IDENTIFIER' | 'COMMENT' | 'STRING';
  text: string;
  path: string;
  line: number;
}

export interface Fingerprints {
  commit: string;
  k: number;
  window: number;
  files: FileFingerprints[];
  /** Rare identifiers, comments and string literals, for the LANGUAGE and TEST layers. */
  language: LanguageItem[];
  /** Test names found in test files. */
  tests: LanguageItem[];
  /** Contents of dependency manifests and declaration files (bounded). */
  manifests: { path: string; blobId: string; text: string }[];
  totalTokens: number;
}

export interface CommitInfo {
  id: string;
  time: number;
  parents: string[];
  /** the author's e-mail address, lowercase (absent in a history stage persisted by an engine before 0.7.3) */
  email?: string;
  /** the author's name (absent as `email`) */
  author?: string;
  /** a merge's: what its message says it merged, the repository it names or else the branch (lineage/followed-line.ts) */
  from?: string;
  /** the author time (`time` is the committer's; absent in a history stage persisted by an engine before 0.7.17) */
  at?: number;
}

export interface PathVersion {
  commit: string;
  time: number;
  blobId: string;
  /** the path the blob was at, when the file was since moved (a version followed through a rename; see history.ts) */
  path?: string;
}

export interface History {
  commit: string;
  headTime: number;
  commitsWalked: number;
  truncated: boolean;
  /** Every walked commit, newest first (git rev-list order, by date). */
  commits: CommitInfo[];
  /** Per path at the pinned commit: its blob versions, oldest first (bounded). */
  pathVersions: Record<string, PathVersion[]>;
  /** Names this repository went by: at the pinned commit, and in earlier versions of its root identity files (sampled). */
  names: {
    pinned: NameRef[];
    past: NameRef[];
    /**
     * Every sampled earlier version's names in order of time, each `key`, lowercase `name` and the version's commit
     * `time` (absent in a history stage persisted by an engine before 0.7.3): `past` keeps only each name's first
     */
    samples?: { key: string; name: string; time: number }[];
  };
  /** The oldest and newest author times of the walked commits (absent when none was walked). */
  authored?: { oldest: number; newest: number };
}

/** A name a repository goes by, and where it was read. */
export interface NameRef {
  /** lowercase; Go module paths without their major-version suffix */
  name: string;
  kind: 'package' | 'module' | 'project' | 'url' | 'title';
  /** which identity this is (`kind:file`): two snapshots are compared key by key */
  key: string;
  path: string;
  line: number;
  blobId: string;
  commit: string;
}

export interface AuthorCount {
  name: string;
  email: string;
  commits: number;
}

/**
 * How the two histories relate, answered by git on a view of both object
 * stores (merge bases, reachability counts), bounded by maxCommits per walk.
 */
export interface Topology {
  /** the newest commits both histories hold (merge bases), newest first; empty when nothing is shared */
  forkPoints: { commit: string; time: number }[];
  /** the origin's pinned commit is in the target's history (the target continues it) */
  originIsAncestor: boolean;
  targetIsAncestor: boolean;
  /** commits reachable from both pinned commits */
  sharedCommits: number;
  /** commits only in one history: made after the fork point */
  originOnly: number;
  targetOnly: number;
  /** a walk stopped at maxCommits (the counts are then lower bounds), or a side is a shallow clone */
  truncated: boolean;
  /** authors of the shared commits, and of each side's own commits dated after the newest fork point */
  authors: { preFork: AuthorCount[]; origin: AuthorCount[]; target: AuthorCount[] };
  /**
   * A side's own departure from the shared line after the fork point (lineage/former-identity.ts): it took its present
   * name then, and its later commits are counted from then on for the maintainers signal. Absent before engine 0.7.5.
   */
  departed?: Partial<Record<Side, { at: number; former: string; current: string }>>;
  /** merges among a side's own commits that bring in a commit of the other side's mainline: pulls from the other line */
  syncMerges: { origin: number; target: number };
  /**
   * Own commits of both sides that are the same commit under other ids (author time and subject): a history
   * converted apart, or cherry-picks. Counted as shared history by the maintainers signal. Absent before engine 0.6.3.
   */
  equivalentCommits?: number;
  /** names the project carried at the newest fork point */
  forkPointNames: NameRef[];
  /** declaration sentences of the fork point's prose files (normalised): text both sides inherited */
  forkPointSentences: string[];
  /**
   * On each side, when a name of the fork point first gave way to another name under the same key: the oldest of
   * the side's own commits, up to RENAME_WINDOW_S after the fork point, whose version of the file names the
   * project differently. Absent in a history stage persisted by an engine before 0.6.0.
   */
  renames?: { origin: Rename[]; target: Rename[] };
  /**
   * With no commit id in common: commits both histories hold under other ids (the same author time, author e-mail
   * and subject), when there are enough of them to be a history rewritten apart (replayed into a monorepo, a
   * directory extracted with its history) rather than chance. Absent otherwise, and before engine 0.6.7.
   */
  rewritten?: RewrittenHistory;
  /**
   * With no commit id in common: each side's authors (commits per name and e-mail) and the author of its oldest
   * commit when the walk reached it, for copyright attribution (lineage/licence.ts). Absent otherwise, and before
   * engine 0.6.10.
   */
  sideAuthors?: Record<
    Side,
    { authors: AuthorCount[]; founder: { name: string; email: string } | null; latest?: { name: string; email: string } | null }
  >;
  /**
   * With no commit id in common: the line both histories hold under other ids, commit after commit (the same root
   * tree, or the same author time and subject with the same author e-mail or name; lineage/common-line.ts). The
   * topology is then read as for shared ids, from the newest pair on the line (`forkPoints` holds the origin's commit
   * of it), and `sharedCommits` stays 0. Absent otherwise, and in manifests of engines that did not read it.
   */
  commonLine?: CommonLine;
}

/** Commits two histories without a commit id in common hold under other ids, commit after commit: a common line. */
export interface CommonLine {
  /** equivalent commits on the line */
  commits: number;
  /** of them, those with the same root tree on both sides */
  sameTree: number;
  /** the newest pair on the line, one commit on each side, with its committer time (Unix seconds) */
  origin: { commit: string; time: number };
  target: { commit: string; time: number };
  /** the newest pair's author time (the later of the two), Unix seconds: when the line ends */
  authored: number;
}

/** Commits two histories with no id in common both hold under other ids. */
export interface RewrittenHistory {
  /** how many (distinct author time, e-mail and subject) */
  commits: number;
  /** each side's commits walked */
  origin: number;
  target: number;
  /** author time of the newest such commit, Unix seconds */
  newest: number;
  /**
   * What the two sides' copies of the newest of them changed (lineage/slices.ts): the same content (a copy), or each
   * its own part (two slices of one history). Absent in manifests of engines before 0.7.9.
   */
  content?: SliceContent;
}

/** What the two sides' copies of the commits they hold under other ids changed (lineage/slices.ts). */
export interface SliceContent {
  /** matched commits compared (the newest SLICE_SAMPLE, by author time) that changed content on both sides */
  compared: number;
  /** blobs written on both sides, summed over the compared commits */
  shared: number;
  /** the smaller side's blobs written, summed over the compared commits */
  changed: number;
}

export interface Rename {
  key: string;
  kind: NameRef['kind'];
  /** the fork point's name and the one that replaced it */
  from: string;
  to: string;
  commit: string;
  time: number;
  path: string;
}

/** Output of the history stage: each side's walk and how the two relate. */
export interface PairHistory {
  origin: History;
  target: History;
  topology: Topology;
}

export interface Location {
  path: string;
  startLine: number;
  endLine: number;
  blobId: string;
}

export interface EvidenceItem {
  id: string;
  layer: Layer;
  kind: EvidenceKind;
  strength: Strength;
  /** fixed-precision decimal string, 4 places */
  score: string;
  language?: string;
  origin: Location | null;
  target: Location | null;
  detail: string;
}

/** A signal on which side is the original, from shared history (HISTORY layer). */
export interface LineageSignal {
  kind: LineageSignalKind;
  /** the side this signal says is the original (`none`: recorded, but it cannot tell) */
  original: Side | 'none';
  /** decimal string, 4 places: the weight it carries in the decision (ancestry 10: certain) */
  weight: string;
  detail: string;
}

export interface LineageResult {
  forkPoints: { commit: string; time: string }[];
  originOnlyCommits: number;
  targetOnlyCommits: number;
  truncated: boolean;
  signals: LineageSignal[];
  /** neither side continues the people who made the shared history: both may continue a third line */
  thirdLine: boolean;
  /** the side the signals make the original (`none`: they cannot tell) */
  original: Side | 'none';
  /** ancestry decided it: one pinned commit is in the other's history */
  certain: boolean;
  /**
   * No commit id in common, but a line both histories hold under other ids (Topology's `commonLine`): the newest pair
   * on it is the fork point on each side (times as decimal strings). Absent otherwise.
   */
  commonLine?: {
    commits: number;
    sameTree: number;
    origin: { commit: string; time: string };
    target: { commit: string; time: string };
    authored: string;
  };
}

export interface ChronologyFact {
  kind: ChronologyKind;
  side: Side | 'both';
  /** Unix seconds as a decimal string, or null when unknown */
  time: string | null;
  commit: string | null;
  detail: string;
}

export interface LayerScore {
  layer: Layer;
  score: string;
  items: number;
}

export interface Comparison {
  /** present when the histories share commits */
  lineage: LineageResult | null;
  /** without shared history: the template both sides were generated from, when both say so and it shows (the manifest's COMMON_TEMPLATE fact) */
  template?: string;
  /** without shared history: the copyright holder of a library both sides embed, whose notice heads the matched code on both (the manifest's THIRD_PARTY_CODE fact) */
  thirdParty?: string;
  /** without shared commit ids: how many commits both histories hold under other ids (Topology's `rewritten`), when enough to be a rewritten history */
  rewritten?: number;
  /** without a common line: the commits held under other ids changed different content on each side (lineage/slices.ts): two slices of one history */
  rewrittenSlices?: boolean;
  /** without shared commit ids: the side whose licence names the other side's principal author as a copyright holder, or whose matched files add its own notice under one both keep (the manifest's COPYRIGHT_ATTRIBUTION items); absent when the two disagree */
  attributedBy?: Side;
  /** without shared commit ids: the side that points at the other as where the project went on (the manifest's SUCCESSOR_NAMED item), when only one does */
  successorNamedBy?: Side;
  /** without shared commit ids: the side whose matched code has a comment declaring descent from the other (the manifest's DECLARED_IN_CODE item), when only one does */
  declaredInCodeBy?: Side;
  /** with no history in common (no shared commit ids, none held under other ids): a project both sides declare descent from, which neither is (the manifest's DECLARED_UPSTREAM item that weighs nothing) */
  commonUpstream?: string;
  /** with no history in common: the side whose README says it remade the other's project in code of its own ("a Python implementation of Mustache"), when only one does (a DECLARED_UPSTREAM item that weighs nothing) */
  designClaimBy?: Side;
  layers: LayerScore[];
  evidence: EvidenceItem[];
  chronology: ChronologyFact[];
  metrics: {
    /** share of target's code material found in origin (4-place decimal string) */
    targetContainment: string;
    originContainment: string;
    sharedCommits: number;
    declaredUpstream: boolean;
    declaredBy: Side | 'none';
    /** weighted votes on which side's matched material appeared first */
    originFirstWeight: number;
    targetFirstWeight: number;
    originHeadIsShared: boolean;
    targetHeadIsShared: boolean;
    originCodeTokens: number;
    targetCodeTokens: number;
    fragments: number;
  };
}

export interface Alternative {
  verdict: Verdict;
  score: string;
  reason: string;
}

export interface Decision {
  verdict: Verdict;
  confidence: Confidence;
  direction: Direction;
  alternatives: Alternative[];
  summary: string;
}

export interface PairInput {
  origin: RepoRef;
  target: RepoRef;
}

export interface Manifest {
  manifestVersion: string;
  engineVersion: string;
  pair: { origin: { url: string | null; commit: string }; target: { url: string | null; commit: string } };
  limits: Limits;
  parameters: { k: number; window: number };
  inventory: { origin: InventorySummary; target: InventorySummary };
  skipped: SkippedItem[];
  chronology: ChronologyFact[];
  lineage: LineageResult | null;
  layers: LayerScore[];
  metrics: Comparison['metrics'];
  evidence: EvidenceItem[];
  alternatives: Alternative[];
  verdict: Verdict;
  confidence: Confidence;
  direction: Direction;
  summary: string;
}

export interface ManifestResult {
  bytes: Buffer;
  hash: string;
  manifest: Manifest;
}

export interface AnalysisResult extends ManifestResult {
  decision: Decision;
  comparison: Comparison;
  inventories: { origin: Inventory; target: Inventory };
}
