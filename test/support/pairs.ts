// One reader for the pairs files (`../shared/real-repos/pairs.tsv`, `bench/accuracy/pairs.tsv`, the held-out
// `bench/accuracy/heldout/*.tsv`), shared by the real-repository tests and the accuracy benchmark: the columns, their
// checks and the clone of a bundle live here once.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Direction, VERDICTS } from '@lineage/schemas';

export const PAIRS_HEADER = ['name', 'origin', 'origin_commit', 'target', 'target_commit', 'accept', 'forbid_direction', 'note'] as const;
// The verdicts and directions a pair may name: the API's own lists.
const PAIR_VERDICTS: readonly string[] = VERDICTS;
const PAIR_DIRECTIONS: readonly string[] = Direction.options;

/** One pair as a pairs file states it. */
export interface PairRow {
  name: string;
  /** owner/name */
  origin: string;
  originCommit: string;
  target: string;
  targetCommit: string;
  /** verdicts that are right */
  accept: string[];
  /** directions that are wrong */
  forbid: string[];
  note: string;
  /** the line as written */
  raw: string;
}

/** A pairs file that breaks its format: the file and line are in the message. */
export class PairsFileError extends Error {}

const list = (s: string): string[] =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * The pairs of a file: its header must be PAIRS_HEADER; blank lines and lines starting with `#` are skipped; every
 * pair is checked (owner/name repositories, known verdicts and directions, a non-empty accept list, unique names).
 * An empty file (a held-out file created before its pairs are written) has none.
 */
export function readPairsFile(path: string): PairRow[] {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''));
  if (!lines.some((l) => l.trim())) return [];
  if (lines[0]!.split('\t').join(' ') !== PAIRS_HEADER.join(' '))
    throw new PairsFileError(`${path}: the header must be the tab-separated columns: ${PAIRS_HEADER.join(' ')}`);
  const pairs: PairRow[] = [];
  lines.slice(1).forEach((line, i) => {
    if (!line.trim() || line.startsWith('#')) return;
    const c = line.split('\t');
    const where = `${path}:${i + 2}`;
    if (c.length < 7 || c.length > 8) throw new PairsFileError(`${where}: expected 8 tab-separated columns, found ${c.length}`);
    const [name, origin, originCommit, target, targetCommit, accept, forbid, note] = c as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string?,
    ];
    for (const repo of [origin, target])
      if (!/^[\w.-]+\/[\w.-]+$/.test(repo)) throw new PairsFileError(`${where}: "${repo}" is not owner/name`);
    const p: PairRow = {
      name,
      origin,
      originCommit,
      target,
      targetCommit,
      accept: list(accept),
      forbid: list(forbid),
      note: note ?? '',
      raw: line,
    };
    for (const v of p.accept) if (!PAIR_VERDICTS.includes(v)) throw new PairsFileError(`${where}: unknown verdict ${v}`);
    for (const d of p.forbid) if (!PAIR_DIRECTIONS.includes(d)) throw new PairsFileError(`${where}: unknown direction ${d}`);
    if (!p.accept.length) throw new PairsFileError(`${where}: empty accept list`);
    if (pairs.some((q) => q.name === name)) throw new PairsFileError(`${where}: duplicate pair name ${name}`);
    pairs.push(p);
  });
  return pairs;
}

/** The shared development set's pairs, or a clear error naming the folder to set when it is missing. */
export function sharedPairs(dir: string): PairRow[] {
  const file = `${dir}/pairs.tsv`;
  if (!existsSync(file))
    throw new Error(
      `the shared development set is missing: ${file} (set LINEAGE_REAL_REPOS to the folder holding pairs.tsv and the bundles)`,
    );
  return readPairsFile(file);
}

/** `git clone --bare` of a bundle into `dest`, with no system or user git configuration read. */
export function cloneBundle(bundle: string, dest: string): void {
  execFileSync('git', ['clone', '--bare', '--quiet', bundle, dest], {
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  });
}
