// Maintainer continuity: who made the commits before the fork point, and on
// which side they went on committing. One person often appears under several
// names or addresses; records sharing an e-mail address or a name are one author.
import type { AuthorCount } from '../types';

/** Automation is nobody's maintainer. */
const BOT = /\[bot\]|^(dependabot|renovate|greenkeeper|github-actions|snyk-bot|pyup-bot|web-flow)\b|noreply@github\.com$/i;

export interface Continuity {
  /** share of the pre-fork commits' authorship that each side's post-fork commits continue (0..1) */
  origin: number;
  target: number;
  /** the pre-fork authors with the most commits, with their share, for the evidence */
  core: { name: string; share: number }[];
  /** commits counted (bots excluded) */
  counted: { preFork: number; origin: number; target: number };
}

class Authors {
  private readonly parent = new Map<string, string>();
  private find(k: string): string {
    let r = k;
    while (this.parent.get(r) !== r && this.parent.has(r)) r = this.parent.get(r)!;
    this.parent.set(k, r);
    return r;
  }
  private union(a: string, b: string): void {
    if (!this.parent.has(a)) this.parent.set(a, a);
    if (!this.parent.has(b)) this.parent.set(b, b);
    const ra = this.find(a);
    const rb = this.find(b);
    // The smaller key wins, so the grouping does not depend on input order.
    if (ra < rb) this.parent.set(rb, ra);
    else if (rb < ra) this.parent.set(ra, rb);
  }
  add(a: AuthorCount): void {
    this.union(`e:${a.email.toLowerCase()}`, `n:${normName(a.name)}`);
  }
  id(a: AuthorCount): string {
    return this.find(`e:${a.email.toLowerCase()}`);
  }
}

export const normName = (n: string): string =>
  n
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]/g, '');
export const isBot = (a: { name: string; email: string }): boolean => BOT.test(a.name) || BOT.test(a.email);

/**
 * Histogram intersection of the pre-fork authorship with each side's post-fork
 * authorship: Σ min(share before, share after). It is high on the side whose
 * commits come from the people who made the project, near zero on a side run
 * by newcomers, whatever the sizes of the two sides.
 */
export function continuity(preFork: readonly AuthorCount[], origin: readonly AuthorCount[], target: readonly AuthorCount[]): Continuity {
  const who = new Authors();
  const all = [preFork, origin, target].map((l) => l.filter((a) => !isBot(a) && normName(a.name) !== ''));
  for (const l of all) for (const a of l) who.add(a);
  const shares = (l: AuthorCount[]): { total: number; by: Map<string, number> } => {
    const by = new Map<string, number>();
    let total = 0;
    for (const a of l) {
      const k = who.id(a);
      by.set(k, (by.get(k) ?? 0) + a.commits);
      total += a.commits;
    }
    for (const [k, v] of by) by.set(k, total ? v / total : 0);
    return { total, by };
  };
  const [pre, o, t] = all.map(shares) as [ReturnType<typeof shares>, ReturnType<typeof shares>, ReturnType<typeof shares>];
  const overlap = (side: ReturnType<typeof shares>): number => {
    let s = 0;
    for (const [k, v] of pre.by) s += Math.min(v, side.by.get(k) ?? 0);
    return s;
  };
  // A display name per author: the name on most pre-fork commits.
  const display = new Map<string, { name: string; n: number }>();
  for (const a of all[0]!) {
    const k = who.id(a);
    const d = display.get(k);
    if (!d || a.commits > d.n || (a.commits === d.n && a.name < d.name)) display.set(k, { name: a.name, n: a.commits });
  }
  const core = [...pre.by.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 3)
    .map(([k, share]) => ({ name: display.get(k)?.name ?? '', share }));
  return { origin: overlap(o), target: overlap(t), core, counted: { preFork: pre.total, origin: o.total, target: t.total } };
}

/** Count commits per (name, email), sorted for determinism. */
export function countAuthors(records: Iterable<{ name: string; email: string }>): AuthorCount[] {
  const m = new Map<string, AuthorCount>();
  for (const r of records) {
    const k = `${r.name}\0${r.email}`;
    const c = m.get(k);
    if (c) c.commits++;
    else m.set(k, { name: r.name, email: r.email, commits: 1 });
  }
  return sortAuthors([...m.values()]);
}

/** Most commits first, then by name and e-mail: the order countAuthors gives (the list is sorted in place). */
export function sortAuthors(list: AuthorCount[]): AuthorCount[] {
  return list.sort(
    (a, b) => b.commits - a.commits || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.email < b.email ? -1 : a.email > b.email ? 1 : 0),
  );
}
