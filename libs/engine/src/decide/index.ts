// The decision: a verdict, a direction and a confidence from a comparison. With shared history the lineage signals
// decide (shared.ts); without it every alternative of the table (table.ts) is scored on the facts (facts.ts) and the
// best supported wins, under the rules of docs/engine.md ("Evidence standards", "When they share nothing").
import { dec } from '../compare/format';
import { decidedOnCommonLine } from '../lineage/common-line';
import type { Alternative, Comparison, Confidence, Decision, Direction, Verdict } from '../types';
import { SUPPORT_THRESHOLDS, unsharedFacts, type UnsharedFacts } from './facts';
import { decideShared } from './shared';
import { NO_OVERLAP, UNSHARED_ORDER, UNSHARED_RULES } from './table';

export { DECLARATION_CODE_FLOOR, HEAVY_CONTAINMENT, MIN_CODE_TOKENS, MIN_EXCHANGED_WEIGHT, SUPPORT_THRESHOLDS } from './facts';

/** A relation verdict needs at least this many supporting layers, unless a rewritten history proves one. */
export const MIN_SUPPORTING_LAYERS = 2;
/** INDEPENDENT's confidence: HIGH with no overlap on this much material, MEDIUM under the CODE threshold on MEDIUM_MATERIAL. */
export const HIGH_MATERIAL = 5000;
export const MEDIUM_MATERIAL = 1000;
/** A relation's confidence: HIGH with this many supporting layers and this margin over the runner-up, MEDIUM with either below. */
export const HIGH_LAYERS = 4;
export const HIGH_MARGIN = 0.2;
export const MEDIUM_LAYERS = 3;
export const MEDIUM_MARGIN = 0.3;

const RELATIONS = new Set<Verdict>(['SHARED_UPSTREAM', 'LIKELY_DERIVED', 'HEAVILY_DERIVED']);
const FLIPPED: Record<Direction, Direction> = { ORIGIN_TO_TARGET: 'TARGET_TO_ORIGIN', TARGET_TO_ORIGIN: 'ORIGIN_TO_TARGET', NONE: 'NONE' };

export function decide(c: Comparison): Decision {
  // Shared ids, or a line both hold under other ids whose signals name the original (otherwise the dated material
  // decides it, as for commits held under other ids: `rewritten` in facts.ts).
  if (c.lineage && (c.metrics.sharedCommits > 0 || decidedOnCommonLine(c.lineage))) return decideShared(c, c.lineage);
  const f = unsharedFacts(c);
  const alternatives: Alternative[] = UNSHARED_RULES.map((r) => ({
    verdict: r.verdict,
    score: dec(Math.max(0, Math.min(1, r.score(f)))),
    reason: r.reason(f),
  }));
  const ranked = alternatives.sort(
    (a, b) => Number(b.score) - Number(a.score) || UNSHARED_ORDER.indexOf(a.verdict) - UNSHARED_ORDER.indexOf(b.verdict),
  );
  // A single supporting layer never carries a relation verdict; a rewritten history, like shared ids, proves one.
  let verdict = ranked[0]!.verdict;
  if (RELATIONS.has(verdict) && f.supporting.length < MIN_SUPPORTING_LAYERS && !f.rewritten) verdict = 'INSUFFICIENT_EVIDENCE';
  const direction = directionOf(verdict, f);
  const confidence = confidenceOf(verdict, f, Number(ranked[0]!.score) - Number(ranked[1]!.score));
  const { m } = f;
  const summary = `${verdict} (${confidence}), direction ${direction}: code containment target ${m.targetContainment} / origin ${m.originContainment}, ${m.sharedCommits} shared commits, supporting layers ${f.supporting.join(', ') || 'none'}`;
  return { verdict, confidence, direction, alternatives: ranked, summary };
}

/**
 * Derived verdicts take the dated material's direction, a declaration the declarer's, SHARED_UPSTREAM the side whose
 * head is shared. The dated material vetoes the opposite direction only when it decides the other way (twice the
 * weight), not merely leans: dating follows a path's own versions, so material a side moved to a new file dates from
 * the move (memcached's jenkins_hash.c, split out of hash.c in 2014, is "later" than twemcache's copy of 2012).
 */
function directionOf(verdict: Verdict, f: UnsharedFacts): Direction {
  const { m } = f;
  let d: Direction = 'NONE';
  if (verdict === 'LIKELY_DERIVED' || verdict === 'HEAVILY_DERIVED') d = f.chronoDir;
  else if (verdict === 'DECLARED_FORK') d = m.declaredBy === 'target' ? 'ORIGIN_TO_TARGET' : 'TARGET_TO_ORIGIN';
  else if (verdict === 'SHARED_UPSTREAM')
    d =
      m.originHeadIsShared && !m.targetHeadIsShared
        ? 'ORIGIN_TO_TARGET'
        : m.targetHeadIsShared && !m.originHeadIsShared
          ? 'TARGET_TO_ORIGIN'
          : 'NONE';
  return d !== 'NONE' && f.chronoDir === FLIPPED[d] ? 'NONE' : d;
}

function confidenceOf(verdict: Verdict, f: UnsharedFacts, margin: number): Confidence {
  if (verdict === 'INSUFFICIENT_EVIDENCE') return f.enoughMaterial ? 'LOW' : 'HIGH';
  if (verdict === 'INDEPENDENT')
    return f.code < NO_OVERLAP && f.material >= HIGH_MATERIAL
      ? 'HIGH'
      : f.code < SUPPORT_THRESHOLDS.CODE && f.material >= MEDIUM_MATERIAL
        ? 'MEDIUM'
        : 'LOW';
  const n = f.supporting.length;
  return n >= HIGH_LAYERS && margin >= HIGH_MARGIN ? 'HIGH' : n >= MEDIUM_LAYERS || margin >= MEDIUM_MARGIN ? 'MEDIUM' : 'LOW';
}
