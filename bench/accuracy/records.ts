// The held-out set's records (bench/accuracy/README.md, "The held-out set"): pure functions over the
// text of heldout/FIRST-RESULTS.md (append-only: a row once written is never rewritten) and
// heldout/LATEST-RESULTS.md (rewritten each run). run.ts does the reading and writing.

/** The per-run table's columns (RESULTS.md and both held-out files). */
export const RUN_COLUMNS = [
  'pair',
  'orientation',
  'truth',
  'expected (accept / forbidden)',
  'got verdict',
  'direction',
  'confidence',
  'shared commits',
  'right? (strict)',
  'lenient',
  'false accusation?',
  'wall s',
  'peak RSS MB',
] as const;
/** A held-out record: the run's row, then what it ran with. */
export const RECORD_COLUMNS = [...RUN_COLUMNS, 'engine', 'date', 'commit', 'mode', 'pairs file'] as const;
const RIGHT_ALIGNED = new Set(['shared commits', 'wall s', 'peak RSS MB']);

export type HeldOutRecord = { [K in (typeof RECORD_COLUMNS)[number]]: string };
export interface ParsedRow {
  key: string;
  cells: Map<string, string>;
  line: string;
}

/** A markdown cell: `|` escaped, newlines flattened. */
export const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

export const tableHeader = (columns: readonly string[]): string[] => [
  `| ${columns.join(' | ')} |`,
  `|${columns.map((c) => (RIGHT_ALIGNED.has(c) ? '---:' : '---')).join('|')}|`,
];
export const tableRow = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;

/** The cells of a markdown table row (split on `|` not preceded by a backslash), unescaped. */
export function splitRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  return inner.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

/** A record is one pair, one orientation, one mode (plain, or with --urls). */
export const recordKey = (pair: string, orientation: string, mode: string): string => `${pair}\t${orientation}\t${mode}`;

/**
 * The record rows of a file: every table row under a header line that starts with `| pair |`
 * (each row read with the nearest header above it, so a file may hold tables of older layouts).
 */
export function parseRecords(text: string): ParsedRow[] {
  const rows: ParsedRow[] = [];
  let header: string[] | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      header = line.trim() ? undefined : header;
      continue;
    }
    const cells = splitRow(line);
    if (cells[0] === 'pair') {
      header = cells;
      continue;
    }
    if (!header || /^-+:?$/.test(cells[0] ?? '')) continue;
    const m = new Map(header.map((h, i) => [h, cells[i] ?? '']));
    rows.push({ key: recordKey(m.get('pair') ?? '', m.get('orientation') ?? '', m.get('mode') ?? ''), cells: m, line });
  }
  return rows;
}

const recordCells = (r: HeldOutRecord): string[] => RECORD_COLUMNS.map((c) => r[c]);
const keyOf = (r: HeldOutRecord): string => recordKey(r.pair, r.orientation, r.mode);

/**
 * What to add to FIRST-RESULTS.md: the records whose pair/orientation/mode has no row yet, in order,
 * each key once. `existing` undefined: the whole new file (intro, header, rows). Otherwise the text to
 * append after the file as it is (nothing when every key is recorded); a new header goes first when
 * the file's last table has other columns. Rows already there are never touched.
 */
export function firstResultsToAppend(
  existing: string | undefined,
  records: readonly HeldOutRecord[],
  intro: readonly string[],
): { text: string; added: HeldOutRecord[] } {
  const seen = new Set(existing === undefined ? [] : parseRecords(existing).map((r) => r.key));
  const added: HeldOutRecord[] = [];
  for (const r of records) {
    if (seen.has(keyOf(r))) continue;
    seen.add(keyOf(r));
    added.push(r);
  }
  if (!added.length) return { text: '', added };
  const rows = added.map((r) => tableRow(recordCells(r)));
  if (existing === undefined) return { text: [...intro, '', ...tableHeader(RECORD_COLUMNS), ...rows, ''].join('\n'), added };
  const lines = existing.split('\n');
  const lastHeader = [...lines].reverse().find((l) => l.startsWith('| pair |'));
  const lastLine = [...lines].reverse().find((l) => l.trim());
  const sameTable = lastHeader !== undefined && lastHeader === tableHeader(RECORD_COLUMNS)[0] && lastLine?.startsWith('|');
  const prefix = existing.length && !existing.endsWith('\n') ? '\n' : '';
  const body = sameTable ? rows : ['', ...tableHeader(RECORD_COLUMNS), ...rows];
  return { text: `${prefix}${body.join('\n')}\n`, added };
}

/**
 * The rows of LATEST-RESULTS.md: the previous file's rows with this run's records in place of theirs
 * (same key), new keys at the end; rows whose pair is no longer in the held-out set are dropped.
 */
export function latestRows(
  previous: string | undefined,
  records: readonly HeldOutRecord[],
  stillHeldOut: (pair: string) => boolean,
): string[] {
  const fresh = new Map(records.map((r) => [keyOf(r), tableRow(recordCells(r))]));
  const out: string[] = [];
  const done = new Set<string>();
  for (const row of previous === undefined ? [] : parseRecords(previous)) {
    if (done.has(row.key) || !stillHeldOut(row.cells.get('pair') ?? '')) continue;
    done.add(row.key);
    // An older layout's row is kept only if this run replaced it; otherwise it would not fit the header.
    const sameLayout = splitRow(row.line).length === RECORD_COLUMNS.length;
    if (fresh.has(row.key)) out.push(fresh.get(row.key)!);
    else if (sameLayout) out.push(row.line);
  }
  for (const [key, line] of fresh) if (!done.has(key)) out.push(line);
  return out;
}

export interface RecordSummary {
  mode: string;
  runs: number;
  strictRight: number;
  lenientRight: number;
  falseAccusations: number;
}

/** Scores of recorded rows per mode, read from their `right? (strict)`, `lenient` and `false accusation?` cells. */
export function summarize(rows: readonly ParsedRow[]): RecordSummary[] {
  const by = new Map<string, RecordSummary>();
  for (const r of rows) {
    const mode = r.cells.get('mode') ?? '';
    const s = by.get(mode) ?? { mode, runs: 0, strictRight: 0, lenientRight: 0, falseAccusations: 0 };
    s.runs++;
    if (r.cells.get('right? (strict)') === 'yes') s.strictRight++;
    if (r.cells.get('lenient') === 'yes') s.lenientRight++;
    if (r.cells.get('false accusation?') === 'YES') s.falseAccusations++;
    by.set(mode, s);
  }
  return [...by.values()];
}
