// A side's walk as the history stage keeps it for a common line under other ids, compact, and the common line of two
// such walks (common-line.ts finds it on the commits that may have an equivalent on the other side).
import { commonLine, EMPTY_TREES, type CommonLineFound, type WalkedCommit } from './common-line';

/**
 * A side's walk as the history stage keeps it for a common line, compact: one flat string a commit (`walkRecord`),
 * newest first, and its committer and author times at 2i and 2i + 1 of `times`.
 */
export interface WalkRecords {
  records: string[];
  times: number[];
}

/** One commit of WalkRecords: `<id> <tree> <parents…>\0<e-mail>\0<name>\0<subject>`. */
export const walkRecord = (
  c: { id: string; tree: string; parents: readonly string[] },
  email: string,
  name: string,
  subject: string,
): string => `${c.id} ${c.tree} ${c.parents.join(' ')}\0${email}\0${name}\0${subject}`;

const treeOf = (r: string): string => {
  const a = r.indexOf(' ');
  return r.slice(a + 1, r.indexOf(' ', a + 1));
};
const authoredOf = (w: WalkRecords, i: number): string => {
  const r = w.records[i]!;
  return `${w.times[2 * i + 1]}\0${r.slice(r.lastIndexOf('\0') + 1)}`;
};
function walked(w: WalkRecords, i: number): WalkedCommit {
  const [head = '', email = '', name = '', subject = ''] = w.records[i]!.split('\0');
  const [id = '', tree = '', ...parents] = head.split(' ');
  return { id, tree, parents: parents.filter(Boolean), time: w.times[2 * i]!, at: w.times[2 * i + 1]!, email, name, subject };
}

/**
 * commonLine of two walks as the history stage keeps them, reading only the commits that may have an equivalent on the
 * other side (a non-empty tree or an author time and subject the other side also has): two unrelated histories stop
 * after one look-up a commit, without an object for either side's commits.
 */
export function commonLineOfWalks(o: WalkRecords, t: WalkRecords, min: { commits: number; share: number }): CommonLineFound | null {
  if (!o.records.length || !t.records.length) return null;
  const index = (w: WalkRecords, at: readonly number[]): { trees: Set<string>; authored: Set<string> } => {
    const trees = new Set<string>();
    const authored = new Set<string>();
    for (const i of at) {
      const tree = treeOf(w.records[i]!);
      if (!EMPTY_TREES.has(tree)) trees.add(tree);
      authored.add(authoredOf(w, i));
    }
    return { trees, authored };
  };
  const keep = (w: WalkRecords, other: { trees: Set<string>; authored: Set<string> }, at: readonly number[]): number[] =>
    at.filter((i) => other.trees.has(treeOf(w.records[i]!)) || other.authored.has(authoredOf(w, i)));
  const all = (w: WalkRecords): number[] => Array.from({ length: w.records.length }, (_, i) => i);
  // The smaller walk's index first: the larger one is scanned against it, and indexed only for what it kept.
  const [small, large] = o.records.length <= t.records.length ? [o, t] : [t, o];
  const largeKept = keep(large, index(small, all(small)), all(large));
  if (largeKept.length < min.commits) return null;
  const smallKept = keep(small, index(large, largeKept), all(small));
  if (smallKept.length < min.commits) return null;
  const [oKept, tKept] = small === o ? [smallKept, largeKept] : [largeKept, smallKept];
  const idOf = (w: WalkRecords): string => w.records[0]!.slice(0, w.records[0]!.indexOf(' '));
  return commonLine(
    oKept.map((i) => walked(o, i)),
    tKept.map((i) => walked(t, i)),
    min,
    { size: { origin: o.records.length, target: t.records.length }, heads: { origin: idOf(o), target: idOf(t) } },
  );
}
