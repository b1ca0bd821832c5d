// Plain words for the pages, in the CLI report's vocabulary (libs/engine/src/report.ts) and the case
// summary's neutral tone (services/case-store/src/report.ts): evidence, never accusations.

export const VERDICT_WORDS: Record<string, { title: string; plain: string }> = {
  INDEPENDENT: { title: 'Independent', plain: 'the evidence does not indicate that either repository derives from the other' },
  SHARED_UPSTREAM: { title: 'Shared upstream', plain: 'the overlap is explained by history both repositories share' },
  DECLARED_FORK: { title: 'Declared fork', plain: 'one repository declares the other as its upstream' },
  LIKELY_DERIVED: { title: 'Likely derived', plain: 'material likely derives from the other repository' },
  HEAVILY_DERIVED: { title: 'Heavily derived', plain: 'a large share of material derives from the other repository' },
  INSUFFICIENT_EVIDENCE: { title: 'Insufficient evidence', plain: 'there is not enough comparable material to decide' },
};

export const DIRECTION_WORDS: Record<string, string> = {
  ORIGIN_TO_TARGET: 'the target derives from the origin',
  TARGET_TO_ORIGIN: 'the origin derives from the target',
  NONE: 'no direction could be established',
};

export const CONFIDENCE_WORDS: Record<string, string> = {
  HIGH: 'high confidence',
  MEDIUM: 'medium confidence',
  LOW: 'low confidence',
};

/**
 * The decisive signals and the evidence kinds the engine records for each (libs/engine/src/lineage/signals/,
 * libs/engine/src/compare): a signal on the page links to these items in the evidence list.
 */
export const SIGNALS: { key: string; title: string; plain: string; kinds: string[] }[] = [
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

export const LAYER_WORDS: Record<string, string> = {
  CODE: 'code fragments',
  STRUCTURE: 'file and directory structure',
  HISTORY: 'commit history',
  TEST: 'tests',
  LANGUAGE: 'identifiers, comments and strings',
  DEPENDENCY: 'dependencies',
};

export const STAGE_WORDS: Record<string, string> = {
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
