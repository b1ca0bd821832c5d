// Sync merges: merges of the common line made after the fork point. The side that keeps pulling the other's line in is
// downstream (a fork keeping up with its upstream).
import type { Side, Topology } from '../../types';
import { type Findings, item, other } from './context';
import { WEIGHTS } from './weights';

/** The least merges, and the least ratio to the other side's, that make a puller; from MANY on it weighs more. */
const MIN_MERGES = 3;
const MIN_RATIO = 3;
const MANY = 10;

export function syncMerges(topo: Topology): Findings {
  const out: Findings = { votes: [], evidence: [], chronology: [] };
  const mO = topo.syncMerges.origin;
  const mT = topo.syncMerges.target;
  if (topo.forkPoints.length === 0 || !(mO || mT)) return out;
  const puller: Side = mT >= mO ? 'target' : 'origin';
  const hi = Math.max(mO, mT);
  const lo = Math.min(mO, mT);
  const w = hi >= MIN_MERGES && hi >= MIN_RATIO * lo ? (hi >= MANY ? WEIGHTS.SYNC_MERGES_MANY : WEIGHTS.SYNC_MERGES) : 0;
  const d = `after the fork point the origin merged shared history ${mO} times, the target ${mT} times${w ? `: the ${puller} pulls from the ${other(puller)}` : ''}`;
  out.votes.push({ kind: 'SYNC_MERGES', original: w ? other(puller) : 'none', weight: w, detail: d });
  out.evidence.push(item('SYNC_MERGES', w, d));
  return out;
}
