// Plain words for the pages, in the CLI report's vocabulary (libs/engine/src/report.ts) and the case
// summary's neutral tone (services/case-store/src/report.ts): evidence, never accusations.
// Each table is a Record over a vocabulary of @lineage/vocabulary: a new verdict, stage or evidence kind does not
// compile until the pages have words for it.
import type { ChronologyKind, Confidence, Direction, EvidenceKind, Layer, StageName, Verdict } from '@lineage/vocabulary';

export const VERDICT_WORDS: Record<Verdict, { title: string; plain: string }> = {
  INDEPENDENT: { title: 'Independent', plain: 'the evidence does not indicate that either repository derives from the other' },
  SHARED_UPSTREAM: { title: 'Shared upstream', plain: 'the overlap is explained by history both repositories share' },
  DECLARED_FORK: { title: 'Declared fork', plain: 'one repository declares the other as its upstream' },
  LIKELY_DERIVED: { title: 'Likely derived', plain: 'material likely derives from the other repository' },
  HEAVILY_DERIVED: { title: 'Heavily derived', plain: 'a large share of material derives from the other repository' },
  INSUFFICIENT_EVIDENCE: { title: 'Insufficient evidence', plain: 'there is not enough comparable material to decide' },
};

export const DIRECTION_WORDS: Record<Direction, string> = {
  ORIGIN_TO_TARGET: 'the target derives from the origin',
  TARGET_TO_ORIGIN: 'the origin derives from the target',
  NONE: 'no direction could be established',
};

export const CONFIDENCE_WORDS: Record<Confidence, string> = {
  HIGH: 'high confidence',
  MEDIUM: 'medium confidence',
  LOW: 'low confidence',
};

/**
 * The decisive signals and the evidence kinds the engine records for each (libs/engine/src/lineage/signals/,
 * libs/engine/src/compare): a signal on the page links to these items in the evidence list.
 */
export const SIGNALS: { key: string; title: string; plain: string; kinds: EvidenceKind[] }[] = [
  {
    key: 'fork',
    title: 'Fork point',
    plain: 'the newest commit both histories hold, and the commits each side made after it',
    kinds: ['SHARED_COMMITS', 'PINNED_COMMIT_IN_OTHER_HISTORY'],
  },
  {
    key: 'identity',
    title: 'Identity',
    plain: "who kept the shared project's names, and who took a new one when the histories parted",
    kinds: ['IDENTITY_KEPT', 'RENAMED_AT_FORK'],
  },
  { key: 'maintainers', title: 'Maintainer continuity', plain: 'who continued the pre-fork authors', kinds: ['MAINTAINERS_CONTINUED'] },
  {
    key: 'declarations',
    title: 'Declarations',
    plain:
      "a declaration of descent (in prose, or in a comment of matched code), a denial of it, the original pointing at its successor, or a licence keeping the other side's copyright notice",
    kinds: ['DECLARED_UPSTREAM', 'DENIED_DESCENT', 'DECLARED_IN_CODE', 'SUCCESSOR_NAMED', 'COPYRIGHT_ATTRIBUTION'],
  },
  {
    key: 'chronology',
    title: 'Chronology',
    plain: 'merges that pull from the common line, and which side had matched material first',
    kinds: ['SYNC_MERGES', 'POST_FORK_CHRONOLOGY'],
  },
];

export const LAYER_WORDS: Record<Layer, string> = {
  CODE: 'code fragments',
  STRUCTURE: 'file and directory structure',
  HISTORY: 'commit history',
  TEST: 'tests',
  LANGUAGE: 'identifiers, comments and strings',
  DEPENDENCY: 'dependencies',
};

export const STAGE_WORDS: Record<StageName, string> = {
  resolve: 'Resolve the pinned commits',
  fetch: 'Fetch both repositories',
  inventory: 'List the files',
  fingerprint: 'Fingerprint the code',
  history: 'Walk both histories',
  compare: 'Compare',
  decide: 'Decide',
  manifest: 'Write the evidence manifest',
  publish: 'Publish the case',
};

/** What an evidence item of each kind says (the item's own detail gives its figures). */
export const EVIDENCE_WORDS: Record<EvidenceKind, string> = {
  CODE_FRAGMENT: 'a fragment of code both sides hold, matched by its fingerprints',
  SAME_FILE_PATH: 'a file at the same path on both sides',
  SAME_FILE_NAME: 'a file of the same name on both sides, at different paths',
  SAME_DIRECTORY: 'a directory laid out the same way on both sides',
  SAME_TEST_NAME: 'a test of the same name on both sides',
  SAME_FIXTURE: 'a test fixture with the same content on both sides',
  SHARED_IDENTIFIER: 'an uncommon identifier both sides use',
  SHARED_COMMENT: 'a comment both sides carry word for word',
  SHARED_STRING: 'a string literal both sides carry',
  SHARED_TYPO: 'a misspelling both sides make',
  SAME_DEPENDENCY: 'a dependency both sides declare',
  SAME_DEPENDENCY_PIN: 'a dependency both sides pin to the same version',
  SHARED_COMMITS: 'commits both histories hold',
  PINNED_COMMIT_IN_OTHER_HISTORY: "one side's pinned commit is in the other's history",
  EQUIVALENT_COMMITS: 'a line of commits both histories hold under other ids',
  REWRITTEN_COMMITS: 'commits both histories hold rewritten, with the same authors, times and messages',
  IDENTITY_KEPT: "the side that kept the shared project's names",
  RENAMED_AT_FORK: 'the side that took a new name when the histories parted',
  MAINTAINERS_CONTINUED: 'the side whose commits continue the authors of the shared history',
  DECLARED_UPSTREAM: 'a statement that one project derives from the other',
  DENIED_DESCENT: 'a statement that a project does not derive from the other',
  DECLARED_IN_CODE: 'a comment in matched code naming where it came from',
  SUCCESSOR_NAMED: 'the original pointing at its successor',
  COPYRIGHT_ATTRIBUTION: "a licence keeping the other side's copyright notice",
  SYNC_MERGES: 'merges that pull from the common line',
  POST_FORK_CHRONOLOGY: 'which side had matched material first after the histories parted',
};

/** What a chronology fact of each kind dates. */
export const CHRONOLOGY_WORDS: Record<ChronologyKind, string> = {
  PINNED_COMMIT: 'the commit the analysis was pinned to',
  OLDEST_COMMIT_WALKED: 'the oldest commit the history walk reached',
  MATERIAL_FIRST_APPEARANCE: 'when matched material first appeared on a side',
  FORK_POINT: 'the newest commit both histories hold',
  SHARED_COMMITS: 'commits both histories hold',
  IMPORTED_HISTORY: 'a history committed in one go: its dates say when the material was imported',
  EQUIVALENT_COMMITS: 'a line of commits both histories hold under other ids',
  REWRITTEN_COMMITS: 'commits both histories hold rewritten',
  COMMON_TEMPLATE: 'a template both sides were generated from',
  THIRD_PARTY_CODE: 'a third-party library both sides embed',
  COPYRIGHT_ATTRIBUTION: "a licence keeping the other side's copyright notice",
  DECLARED_UPSTREAM: 'a statement that one project derives from the other',
  DECLARED_IN_CODE: 'a comment in matched code naming where it came from',
  SUCCESSOR_NAMED: 'the original pointing at its successor',
};

/** A table's words for a value read from a stored case (any engine version): undefined for one this version does not know. */
export const wordsFor = <T>(table: Record<string, T>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

export const shortCommit = (c: string | null | undefined): string => (c ? c.slice(0, 12) : 'unknown');

/** A Unix time (seconds, number or decimal string) as an ISO date (UTC); `unknown` when absent. */
export function day(t: number | string | null | undefined): string {
  const n = typeof t === 'string' ? (/^[0-9]{1,16}$/.test(t) ? Number(t) : NaN) : (t ?? NaN);
  if (!Number.isFinite(n)) return 'unknown';
  const d = new Date(n * 1000);
  return Number.isNaN(d.getTime()) ? 'unknown' : d.toISOString().slice(0, 10);
}

/** A Unix time as ISO 8601 (UTC, seconds). */
export function isoTime(t: string | null | undefined): string {
  if (!t || !/^[0-9]{1,16}$/.test(t)) return 'unknown';
  const d = new Date(Number(t) * 1000);
  return Number.isNaN(d.getTime()) ? 'unknown' : `${d.toISOString().slice(0, 19)}Z`;
}

/**
 * Control characters (C0, DEL, C1) and bidirectional overrides made visible as `\u{…}`, so a file name or a
 * line of code cannot reorder what a reader sees (as the CLI does for terminals). Escaping for HTML comes after.
 */
export function visible(s: string): string {
  return s.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`,
  );
}

/** `owner/name` for forge URLs, the URL otherwise (as the case summary names repositories). */
export function repositoryName(url: string): string {
  const m = /^[a-z]+:\/\/[^/]+\/([^/]+\/[^/]+?)(?:\.git)?\/?$/i.exec(url);
  return m ? m[1]! : url;
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
