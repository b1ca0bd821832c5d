// The CLI's human report: everything in it is read from the manifest, so the
// report of a recomputed manifest is the same report. Dates are ISO 8601 (UTC);
// every repository-derived string is escaped before it reaches a terminal.
import { isoTime } from './compare/format';
import { commonLineHow } from './lineage/common-line';
import type { Direction, EvidenceItem, LineageSignal, Location, Manifest, SkipReason } from './types';

const DIRECTION_WORDS: Record<Direction, string> = {
  ORIGIN_TO_TARGET: 'the target derives from the origin',
  TARGET_TO_ORIGIN: 'the origin derives from the target',
  NONE: 'no direction',
};

const SKIP_WORDS: Record<SkipReason, string> = {
  SYMLINK: 'symbolic link, never followed',
  SUBMODULE: 'submodule, never fetched',
  FILE_TOO_LARGE: 'larger than maxFileBytes, not read',
  UNSAFE_PATH: 'unsafe path (absolute, `..`, `.git`, control characters), not read',
  HISTORY_TRUNCATED: 'history walk stopped at maxCommits',
  MISSING_OBJECT: 'object missing from the repository (a partial clone), not read',
};

const SIGNAL_WORDS: Record<LineageSignal['kind'], string> = {
  ANCESTRY: 'one pinned commit is in the other history',
  DECLARATION: 'a declaration of descent',
  SUCCESSOR: 'the original points at its successor',
  IDENTITY: "who kept the shared project's names",
  RENAMED_AT_FORK: 'who took a new name when the histories parted',
  MAINTAINERS: 'who continued the pre-fork authors',
  SYNC_MERGES: 'merges that pull from the common line',
  POST_FORK_CHRONOLOGY: 'who kept working on the shared line',
};

/** Control characters (C0, DEL, C1) and bidi overrides shown as `\u{…}` escapes: a file name cannot drive the terminal. */
export function terminalSafe(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

const date = (t: string | null): string => (t === null ? 'unknown' : isoTime(Number(t)));
const short = (id: string | null): string => (id ? id.slice(0, 12) : '-');
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const loc = (l: Location | null): string => (l ? `${terminalSafe(l.path)}${l.startLine ? `:${l.startLine}-${l.endLine}` : ''}` : '-');

/** The strongest evidence first (score, then id): the same order whatever produced the manifest. */
export function strongest(evidence: readonly EvidenceItem[], n: number): EvidenceItem[] {
  return [...evidence].sort((a, b) => Number(b.score) - Number(a.score) || (a.id < b.id ? -1 : 1)).slice(0, n);
}

export interface ReportInput {
  manifest: Manifest;
  hash: string;
  /** what the user named each side with (a path or URL), used when the manifest records no URL */
  names: { origin: string; target: string };
}

export function humanReport({ manifest: m, hash, names }: ReportInput): string {
  const out: string[] = [];
  const line = (s = ''): void => void out.push(s);
  line(`${m.verdict}, confidence ${m.confidence}: ${DIRECTION_WORDS[m.direction]}`);
  line(`  ${terminalSafe(m.summary)}`);
  line();
  const pinned = (side: 'origin' | 'target') => m.chronology.find((c) => c.kind === 'PINNED_COMMIT' && c.side === side);
  for (const side of ['origin', 'target'] as const) {
    const p = pinned(side);
    const label = side === 'origin' ? 'Origin' : 'Target';
    line(`${label}  ${terminalSafe(m.pair[side].url ?? names[side])}`);
    line(`        commit ${m.pair[side].commit}, ${date(p?.time ?? null)}${p ? `; ${terminalSafe(p.detail)}` : ''}`);
  }
  line();

  line('How the histories relate');
  const lin = m.lineage;
  const rewritten = m.evidence.find((e) => e.kind === 'REWRITTEN_COMMITS');
  if (!lin) {
    if (rewritten) line(`  No commit id appears in both histories, but ${terminalSafe(rewritten.detail)}.`);
    else line('  No commit appears in both histories: any relation rests on the code and the other layers below.');
    const attribution = m.evidence.find((e) => e.kind === 'COPYRIGHT_ATTRIBUTION');
    if (attribution) line(`  Copyright: ${terminalSafe(attribution.detail)}.`);
    const successor = m.evidence.find((e) => e.kind === 'SUCCESSOR_NAMED');
    if (successor) line(`  Successor: ${terminalSafe(successor.detail)}.`);
    const inCode = m.evidence.find((e) => e.kind === 'DECLARED_IN_CODE');
    if (inCode) line(`  Declared in code: ${terminalSafe(inCode.detail)}.`);
  } else {
    const fp = lin.forkPoints[0];
    const shared = m.metrics.sharedCommits;
    const cl = lin.commonLine;
    if (cl) {
      line(
        `  No commit id appears in both histories, but ${plural(cl.commits, 'commit')} are the same under other ids, commit after commit (${commonLineHow(cl)})${lin.truncated ? ' (at least: the walk stopped at maxCommits)' : ''}: common ancestry is proven.`,
      );
      line(
        `  The common line ends at the origin's ${cl.origin.commit.slice(0, 12)} and the target's ${cl.target.commit.slice(0, 12)}, authored ${date(cl.authored)}.`,
      );
    } else
      line(
        `  ${plural(shared, 'commit')} in both histories${lin.truncated ? ' (at least: the walk stopped at maxCommits)' : ''}: common ancestry is proven.`,
      );
    if (fp && !cl)
      line(
        `  Fork point: ${fp.commit.slice(0, 12)}, ${date(fp.time)}${lin.forkPoints.length > 1 ? ` (one of ${lin.forkPoints.length} merge bases)` : ''}.`,
      );
    line(`  After it: the origin made ${plural(lin.originOnlyCommits, 'commit')}, the target ${plural(lin.targetOnlyCommits, 'commit')}.`);
    const who =
      lin.original === 'none'
        ? 'The signals cannot tell which side is the original.'
        : `The ${lin.original} is the original${lin.certain ? ' (certain: ancestry)' : ''}.`;
    line(`  ${who}${lin.thirdLine ? " Neither side continues the shared history's authors: both may continue a third line." : ''}`);
    const deciding = lin.signals.filter((s) => s.original !== 'none');
    const neutral = lin.signals.filter((s) => s.original === 'none');
    if (deciding.length) line('  What decided it:');
    for (const s of deciding)
      line(`    - ${s.kind} (${SIGNAL_WORDS[s.kind]}), for the ${s.original} as original, weight ${s.weight}: ${terminalSafe(s.detail)}`);
    for (const s of neutral) line(`    - ${s.kind}, no side: ${terminalSafe(s.detail)}`);
  }
  line();

  line('Chronology (UTC)');
  for (const c of m.chronology) {
    line(
      `  ${(c.time === null ? '-' : date(c.time)).padEnd(20)}  ${c.side.padEnd(6)}  ${c.kind.padEnd(25)} ${short(c.commit).padEnd(12)}  ${terminalSafe(c.detail)}`,
    );
  }
  line();

  line('Layers');
  for (const l of m.layers) line(`  ${l.layer.padEnd(11)} ${l.score}  (${plural(l.items, 'item')})`);
  line(
    `  Code containment: ${m.metrics.targetContainment} of the target's code material is in the origin, ${m.metrics.originContainment} of the origin's in the target.`,
  );
  line();

  line('Strongest evidence (origin file:lines | target file:lines)');
  const top = strongest(m.evidence, 10);
  if (!top.length) line('  none');
  top.forEach((e, i) => {
    line(`  ${String(i + 1).padStart(2)}. ${e.kind} (${e.layer}, ${e.strength}, score ${e.score})`);
    line(`      origin ${loc(e.origin)}`);
    line(`      target ${loc(e.target)}`);
    line(`      ${terminalSafe(e.detail)}`);
  });
  if (m.evidence.length > top.length) line(`  … ${m.evidence.length - top.length} more in the manifest (--json, --manifest)`);
  line();

  line(`Skipped (${m.skipped.length})`);
  if (!m.skipped.length) line('  nothing: every tracked file within the limits was read, and each history was walked whole');
  const byReason = new Map<string, number>();
  for (const s of m.skipped) byReason.set(`${s.side ?? '-'}\0${s.reason}`, (byReason.get(`${s.side ?? '-'}\0${s.reason}`) ?? 0) + 1);
  for (const [k, n] of [...byReason].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const [side, reason] = k.split('\0') as [string, SkipReason];
    line(`  ${side}: ${plural(n, 'item')} ${reason}: ${SKIP_WORDS[reason]}`);
  }
  for (const s of m.skipped.slice(0, 10)) {
    const size = s.size === undefined ? '' : s.reason === 'HISTORY_TRUNCATED' ? ` (${s.size} commits walked)` : ` (${s.size} bytes)`;
    line(`    ${s.side ?? '-'} ${s.path ? terminalSafe(s.path) : '(history)'}: ${s.reason}${size}`);
  }
  if (m.skipped.length > 10) line(`    … ${m.skipped.length - 10} more in the manifest`);
  line();

  line('Alternatives');
  for (const a of m.alternatives) line(`  ${a.verdict.padEnd(22)} ${a.score}  ${terminalSafe(a.reason)}`);
  line();
  line(`Manifest hash: ${hash}  (${m.engineVersion}, manifest version ${m.manifestVersion})`);
  return out.join('\n') + '\n';
}
