// Ancestry: one pinned commit in the other side's history makes that side the original, for certain. And the fork
// points themselves, the first facts of the chronology.
import type { Side, Topology } from '../../types';
import { type Findings, item, other } from './context';
import { WEIGHTS } from './weights';

export interface Ancestry extends Findings {
  /** the side whose pinned commit the other's history holds, or null */
  certain: Side | null;
}

export function ancestry(topo: Topology): Ancestry {
  const out: Ancestry = { votes: [], evidence: [], chronology: [], certain: null };
  for (const f of topo.forkPoints)
    out.chronology.push({
      kind: 'FORK_POINT',
      side: 'both',
      time: String(f.time),
      commit: f.commit,
      detail: `newest commit both histories hold (a merge base); origin made ${topo.originOnly} commits after it, target ${topo.targetOnly}${topo.truncated ? ' (counts stop at maxCommits)' : ''}`,
    });
  const shared = topo.forkPoints.length > 0;
  if (shared && topo.originIsAncestor !== topo.targetIsAncestor) {
    const certain: Side = topo.originIsAncestor ? 'origin' : 'target';
    const d = `the ${certain}'s pinned commit is in the ${other(certain)}'s history: the ${other(certain)} continues it (${topo.originIsAncestor ? topo.targetOnly : topo.originOnly} commits after it)`;
    out.certain = certain;
    out.votes.push({ kind: 'ANCESTRY', original: certain, weight: WEIGHTS.ANCESTRY, detail: d });
    out.evidence.push(item('PINNED_COMMIT_IN_OTHER_HISTORY', WEIGHTS.ANCESTRY_ITEM, d));
  } else if (shared && topo.originIsAncestor) {
    out.votes.push({ kind: 'ANCESTRY', original: 'none', weight: 0, detail: 'both sides pin the same commit' });
  }
  return out;
}
