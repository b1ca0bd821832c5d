// Maintainers: the side the people who made the shared history went on committing to (continuity, ../maintainers.ts).
// Maintainers who leave with a fork that renamed itself at the fork point do not make it the original.
import { dec } from '../../compare/format';

const isoDay = (t: number): string => new Date(t * 1000).toISOString().slice(0, 10);
import type { Side, Topology } from '../../types';
import { continuity } from '../maintainers';
import { type Findings, item, pct } from './context';
import { WEIGHTS } from './weights';

/** The least continuity that says a side keeps the shared history's authors (it also makes a side continue the project). */
export const KEPT_SHARE = 0.1;
/** Ratios of the higher continuity to the lower for MAINTAINERS_CLEAR and MAINTAINERS_LEANING. */
const CLEAR_RATIO = 3;
const LEANING_RATIO = 1.5;
/** A third line: enough shared authors and later commits on both sides, and neither side keeps 5 % of them. */
const THIRD_LINE = { preForkAuthors: 5, ownCommits: 3, share: 0.05 };

/** Neither side continues the people who made the shared history (THIRD_LINE): both may continue a third line. */
export function isThirdLine(topo: Topology, c = continuity(topo.authors.preFork, topo.authors.origin, topo.authors.target)): boolean {
  return (
    c.counted.origin > 0 &&
    c.counted.target > 0 &&
    c.counted.preFork >= THIRD_LINE.preForkAuthors &&
    topo.originOnly >= THIRD_LINE.ownCommits &&
    topo.targetOnly >= THIRD_LINE.ownCommits &&
    Math.max(c.origin, c.target) < THIRD_LINE.share
  );
}

export interface Maintainers extends Findings {
  /** continuity of the shared history's authors on each side (0 to 1) */
  continuity: Record<Side, number>;
  /** both sides have later commits by counted authors: the signal was read */
  bothWent: boolean;
  /** neither side continues the people who made the shared history: both may continue a third line */
  thirdLine: boolean;
}

/**
 * `forkOfShared`: a side whose own text calls it a fork of the shared project (declaration.ts): the shared history's
 * authors' commits it holds came from that project (merged from it, or picked from it), so they do not make it the
 * original (friendsofgo/errors merged 20 of pkg/errors' later commits by Dave Cheney, and says it is a fork of it).
 */
export function maintainers(topo: Topology, renamed: Side | null, forkOfShared: Side | null = null): Maintainers {
  const c = continuity(topo.authors.preFork, topo.authors.origin, topo.authors.target);
  const bothWent = c.counted.origin > 0 && c.counted.target > 0;
  const thirdLine = isThirdLine(topo, c);
  const out: Maintainers = {
    votes: [],
    evidence: [],
    chronology: [],
    continuity: { origin: c.origin, target: c.target },
    bothWent,
    thirdLine,
  };
  if (!bothWent) return out;
  const hi: Side = c.origin >= c.target ? 'origin' : 'target';
  const h = Math.max(c.origin, c.target);
  const l = Math.min(c.origin, c.target);
  const kept =
    h >= KEPT_SHARE && h >= CLEAR_RATIO * l
      ? WEIGHTS.MAINTAINERS_CLEAR
      : h >= KEPT_SHARE && h >= LEANING_RATIO * l
        ? WEIGHTS.MAINTAINERS_LEANING
        : 0;
  const w = renamed === hi || forkOfShared === hi ? 0 : kept;
  const core = c.core.map((a) => `${a.name} ${pct(a.share)}`).join(', ');
  const eq = topo.equivalentCommits ?? 0;
  const since = (['origin', 'target'] as const)
    .filter((s) => topo.departed?.[s])
    .map((s) => {
      const d = topo.departed![s]!;
      return `the ${s}'s counted from its own departure from the shared line, when "${d.former}" became "${d.current}" (${isoDay(d.at)})`;
    });
  const d =
    `authors of the shared history${eq ? ` and of the ${eq} commits both sides hold under other ids (the same author time and subject; ` : ' ('}most commits: ${core}) made ${dec(c.origin)} of the origin's ${c.counted.origin} later commits (by share) and ${dec(c.target)} of the target's ${c.counted.target}${since.length ? ` (${since.join('; ')})` : ''}` +
    (w
      ? `: the ${hi} keeps its maintainers`
      : kept && forkOfShared === hi
        ? `: their later commits are on the ${hi}, whose own text calls it a fork of the shared project: commits it took from that project do not make it the original`
        : kept
          ? `: they went on with the ${hi}, which took a new name at the fork point: maintainers leaving with a renamed fork do not make it the original`
          : thirdLine
            ? ': neither side keeps them'
            : ': no clear difference');
  out.votes.push({ kind: 'MAINTAINERS', original: w ? hi : 'none', weight: w, detail: d });
  out.evidence.push(item('MAINTAINERS_CONTINUED', w, d));
  return out;
}
