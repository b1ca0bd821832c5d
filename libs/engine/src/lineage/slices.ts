// Two slices of one history (docs/engine.md, standard 5, "Slices of one history"): a copy keeps the content of the
// commits it took. An extraction with its files' history (plug_cowboy from plug) or a history replayed into a monorepo
// holds, under other ids, commits that changed the same blobs as the other side's. Two projects split out of a third
// (notebook and qtconsole, each filtered from IPython's history to its own subtree) hold the same commits too, each
// with only its own part of every change: the commits prove common ancestry, and nothing in them says one side took
// from the other. Pure but for the git call that lists what each commit changed.
import type { SliceContent } from '../types';
import type { WalkRecords } from './walk-records';

/**
 * The newest matched commits compared, at most: enough to see what each side kept, and a bound on the work (one
 * `git diff-tree` of this many commits a side) however long the histories they share.
 */
export const SLICE_SAMPLE = 400;

/**
 * Below this share of the content changed in common (blobs both sides' copies of the commits wrote, over the smaller
 * side's), each side kept a different part of the same commits. A copy keeps all of it (1.00 on plug × plug_cowboy,
 * IPython × notebook and IPython × qtconsole); the two splits of IPython share 0.22, their repository-wide
 * `.gitignore` and `.mailmap`.
 */
export const SLICE_SHARE_MAX = 0.5;

/** The empty blob: an empty `__init__.py` is the same in every slice and proves nothing. */
const EMPTY_BLOBS: ReadonlySet<string> = new Set([
  'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
  '473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813',
]);

/** Two slices of one history: the commits in common changed mostly different content on each side. */
export const slicesApart = (s: SliceContent | undefined): boolean =>
  s !== undefined && s.compared > 0 && s.shared < SLICE_SHARE_MAX * s.changed;

/**
 * The commits both walks hold under the same author time, e-mail and subject, one id on each side, newest first (the
 * first walked of any key met twice on a side), at most SLICE_SAMPLE.
 */
export function matchedCommits(o: WalkRecords, t: WalkRecords, keys: ReadonlySet<string>): Array<[string, string]> {
  const ids = (w: WalkRecords): Map<string, { id: string; at: number }> => {
    const out = new Map<string, { id: string; at: number }>();
    for (let i = 0; i < w.records.length; i++) {
      const r = w.records[i]!;
      const [head = '', email = '', , subject = ''] = r.split('\0');
      const at = w.times[2 * i + 1]!;
      const key = `${at}\0${email}\0${subject}`;
      if (keys.has(key) && !out.has(key)) out.set(key, { id: head.slice(0, head.indexOf(' ')), at });
    }
    return out;
  };
  const oi = ids(o);
  const ti = ids(t);
  const both = [...oi].flatMap(([k, a]) => {
    const b = ti.get(k);
    return b ? [{ k, at: a.at, pair: [a.id, b.id] as [string, string] }] : [];
  });
  both.sort((x, y) => y.at - x.at || (x.k < y.k ? -1 : x.k > y.k ? 1 : 0));
  return both.slice(0, SLICE_SAMPLE).map((x) => x.pair);
}

/** The blobs each commit wrote, from `git diff-tree --stdin -r --root` output (against its first parent). */
export function blobsWritten(out: string): Map<string, Set<string>> {
  const res = new Map<string, Set<string>>();
  let cur: Set<string> | undefined;
  for (const l of out.split('\n')) {
    if (!l) continue;
    if (l[0] !== ':') {
      cur = new Set();
      res.set(l.slice(0, l.indexOf(' ') < 0 ? l.length : l.indexOf(' ')), cur);
      continue;
    }
    // :<old mode> <new mode> <old blob> <new blob> <status>\t<path>
    const blob = l.split('\t', 1)[0]!.split(' ')[3] ?? '';
    if (cur && /^[0-9a-f]+$/.test(blob) && !/^0+$/.test(blob) && !EMPTY_BLOBS.has(blob)) cur.add(blob);
  }
  return res;
}

/** SliceContent of the matched commits, given what each side's commits wrote (blobsWritten of each side). */
export function sliceContent(
  pairs: ReadonlyArray<[string, string]>,
  written: { origin: Map<string, Set<string>>; target: Map<string, Set<string>> },
): SliceContent {
  let compared = 0;
  let shared = 0;
  let changed = 0;
  for (const [o, t] of pairs) {
    const a = written.origin.get(o);
    const b = written.target.get(t);
    if (!a?.size || !b?.size) continue;
    compared++;
    for (const x of a) if (b.has(x)) shared++;
    changed += Math.min(a.size, b.size);
  }
  return { compared, shared, changed };
}

/** The `git diff-tree` arguments that list what the commits given on stdin wrote (merges against their first parent). */
export const DIFF_TREE_ARGS = ['diff-tree', '--stdin', '-r', '--root', '-m', '--first-parent', '--no-renames'];
