// Post-fork chronology: matched material that first appears after the fork point. The side that had it first is its
// source. Material dated inside shared commits is a tie and is not counted here.
import type { Side, Topology } from '../../types';
import { type Findings, item } from './context';
import { WEIGHTS } from './weights';

/** The least fingerprints, and the least ratio to the other side's, for the signal to weigh anything. */
const MIN_FINGERPRINTS = 20;
const MIN_RATIO = 2;

/** `postFork`: the weights of matched material first dated after the fork point, per side that had it first. */
export function postForkChronology(topo: Topology, postFork: Record<Side, number>): Findings {
  const out: Findings = { votes: [], evidence: [], chronology: [] };
  if (topo.forkPoints.length === 0 || !(postFork.origin || postFork.target)) return out;
  const first: Side = postFork.origin >= postFork.target ? 'origin' : 'target';
  const hi = Math.max(postFork.origin, postFork.target);
  const lo = Math.min(postFork.origin, postFork.target);
  const w = hi >= MIN_FINGERPRINTS && hi >= MIN_RATIO * lo ? WEIGHTS.POST_FORK_CHRONOLOGY : 0;
  const d = `matched material first seen after the fork point appears earlier in the origin (${postFork.origin} fingerprints) and earlier in the target (${postFork.target})`;
  out.votes.push({ kind: 'POST_FORK_CHRONOLOGY', original: w ? first : 'none', weight: w, detail: d });
  out.evidence.push(item('POST_FORK_CHRONOLOGY', w, d));
  return out;
}
