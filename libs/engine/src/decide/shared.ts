// The decision when the histories share commits (docs/engine.md, "When the histories share commits"): shared history
// is proof of common ancestry, and the lineage signals (lineage/signals.ts) name the original or cannot. The verdict
// follows from them; the table gives every alternative its score and reason beside it.
import { dec } from '../compare/format';
import { sharedHistoryPhrase } from '../lineage/common-line';
import type { Alternative, Comparison, Confidence, Decision, Direction, LineageResult, Verdict } from '../types';
import { HEAVY_CONTAINMENT } from './facts';

/** The chosen verdict's score by confidence; every other alternative stays at least SHARED_GAP below it. */
export const SHARED_TOP: Record<Confidence, number> = { HIGH: 0.95, MEDIUM: 0.85, LOW: 0.75 };
export const SHARED_GAP = 0.1;
/** Agreeing signals (a declaration counts twice) for HIGH and MEDIUM confidence in the original. */
export const AGREEING_FOR_HIGH = 3;
export const AGREEING_FOR_MEDIUM = 2;
/** A signal under this weight (a README title) is noted but does not lower confidence. */
export const AGAINST_MIN_WEIGHT = 1;

/**
 * What each alternative earns beside the chosen verdict (capped at the chosen one's score less SHARED_GAP): how well
 * it would also describe the pair. A declaration by the side the signals make the original still describes a fork.
 */
export const SHARED_SCORE = {
  DECLARED_BY_DERIVED: 0.9,
  DECLARED_BY_ORIGINAL: 0.5,
  NO_ORIGINAL: 0.8,
  UPSTREAM_BESIDE_ORIGINAL: 0.45,
  DERIVED_WITHOUT_ORIGINAL: 0.1,
  MATCHING_SHARE: 0.85,
  HEAVY_BELOW_THRESHOLD: 0.3,
  LIKELY_WHEN_HEAVY: 0.6,
  /** shared history is proof of common ancestry: never independent, never too little to decide */
  INDEPENDENT: 0,
  INSUFFICIENT: 0.05,
} as const;

interface SharedFacts {
  m: Comparison['metrics'];
  l: LineageResult;
  held: number;
  declaredByDerived: boolean;
  agree: Set<string>;
  shared: string;
  signalsFor(side: string): string;
}

const none = (f: SharedFacts): boolean => f.l.original === 'none';

const SHARED_RULES: { verdict: Verdict; score(f: SharedFacts): number; reason(f: SharedFacts): string }[] = [
  {
    verdict: 'DECLARED_FORK',
    score: (f) => (f.declaredByDerived ? SHARED_SCORE.DECLARED_BY_DERIVED : f.m.declaredUpstream ? SHARED_SCORE.DECLARED_BY_ORIGINAL : 0),
    reason: (f) =>
      f.m.declaredUpstream
        ? `the ${f.m.declaredBy} declares descent from the other${f.declaredByDerived ? '' : ', but the signals make it the original'}`
        : 'neither repository declares descent from the other',
  },
  {
    verdict: 'SHARED_UPSTREAM',
    score: (f) => (none(f) ? SHARED_SCORE.NO_ORIGINAL : SHARED_SCORE.UPSTREAM_BESIDE_ORIGINAL),
    reason: (f) =>
      none(f)
        ? `${f.shared}, and the signals do not tell which side is the original (origin: ${f.signalsFor('origin')}; target: ${f.signalsFor('target')})${f.l.thirdLine ? '; neither side continues the authors of the shared history' : ''}`
        : `${f.shared}; the signals make the ${f.l.original} the original (${[...f.agree].join(', ')})`,
  },
  {
    verdict: 'HEAVILY_DERIVED',
    score: (f) =>
      none(f)
        ? SHARED_SCORE.DERIVED_WITHOUT_ORIGINAL
        : f.held >= HEAVY_CONTAINMENT
          ? SHARED_SCORE.MATCHING_SHARE
          : SHARED_SCORE.HEAVY_BELOW_THRESHOLD,
    reason: (f) => `the derived side holds ${dec(f.held)} of the original's rare code material (heavy from ${dec(HEAVY_CONTAINMENT)})`,
  },
  {
    verdict: 'LIKELY_DERIVED',
    score: (f) =>
      none(f)
        ? SHARED_SCORE.DERIVED_WITHOUT_ORIGINAL
        : f.held < HEAVY_CONTAINMENT
          ? SHARED_SCORE.MATCHING_SHARE
          : SHARED_SCORE.LIKELY_WHEN_HEAVY,
    reason: (f) =>
      `${f.shared}: derived${none(f) ? ', but no side is shown to be the original' : ` from the ${f.l.original}`}, whatever share of the code still matches`,
  },
  { verdict: 'INDEPENDENT', score: () => SHARED_SCORE.INDEPENDENT, reason: (f) => `${f.shared}: common ancestry is proven` },
  {
    verdict: 'INSUFFICIENT_EVIDENCE',
    score: () => SHARED_SCORE.INSUFFICIENT,
    reason: (f) => `${f.shared}: shared history is enough to decide`,
  },
];
const SHARED_ORDER: Verdict[] = [
  'DECLARED_FORK',
  'HEAVILY_DERIVED',
  'LIKELY_DERIVED',
  'SHARED_UPSTREAM',
  'INSUFFICIENT_EVIDENCE',
  'INDEPENDENT',
];

/**
 * The original makes the other side derived: DECLARED_FORK when the derived side declares it, else HEAVILY_DERIVED
 * when it still holds at least HEAVY_CONTAINMENT of the original's rare code material, else LIKELY_DERIVED. No
 * original: SHARED_UPSTREAM, direction NONE.
 */
export function decideShared(c: Comparison, l: LineageResult): Decision {
  const m = c.metrics;
  const weight = (s: { weight: string }): number => Number(s.weight);
  const agree = new Set(l.signals.filter((s) => l.original !== 'none' && s.original === l.original && weight(s) > 0).map((s) => s.kind));
  const against = new Set(
    l.signals.filter((s) => s.original !== 'none' && s.original !== l.original && weight(s) >= AGAINST_MIN_WEIGHT).map((s) => s.kind),
  );
  const sameCommit = l.signals.some((s) => s.kind === 'ANCESTRY' && s.original === 'none');
  let verdict: Verdict = 'SHARED_UPSTREAM';
  let direction: Direction = 'NONE';
  let confidence: Confidence;
  let held = 0;
  let declaredByDerived = false;
  if (l.original === 'none') {
    confidence = sameCommit || (l.thirdLine && against.size === 0) ? 'HIGH' : l.signals.some((s) => weight(s) > 0) ? 'LOW' : 'MEDIUM';
  } else {
    direction = l.original === 'origin' ? 'ORIGIN_TO_TARGET' : 'TARGET_TO_ORIGIN';
    held = Number(l.original === 'origin' ? m.originContainment : m.targetContainment);
    declaredByDerived = m.declaredUpstream && m.declaredBy === (l.original === 'origin' ? 'target' : 'origin');
    verdict = declaredByDerived ? 'DECLARED_FORK' : held >= HEAVY_CONTAINMENT ? 'HEAVILY_DERIVED' : 'LIKELY_DERIVED';
    const n = agree.size + (agree.has('DECLARATION') ? 1 : 0);
    confidence = l.certain || (n >= AGREEING_FOR_HIGH && against.size === 0) ? 'HIGH' : n >= AGREEING_FOR_MEDIUM ? 'MEDIUM' : 'LOW';
  }
  const top = SHARED_TOP[confidence];
  const signalsFor = (side: string): string =>
    l.signals
      .filter((s) => s.original === side && weight(s) > 0)
      .map((s) => s.kind)
      .join(', ') || 'none';
  const shared = sharedHistoryPhrase(c);
  const f: SharedFacts = { m, l, held, declaredByDerived, agree, shared, signalsFor };
  const alternatives: Alternative[] = SHARED_RULES.map((r) => ({
    verdict: r.verdict,
    score: dec(r.verdict === verdict ? top : Math.min(r.score(f), top - SHARED_GAP)),
    reason: r.reason(f),
  }));
  alternatives.sort((a, b) => Number(b.score) - Number(a.score) || SHARED_ORDER.indexOf(a.verdict) - SHARED_ORDER.indexOf(b.verdict));
  const summary =
    `${verdict} (${confidence}), direction ${direction}: ${shared}` +
    `${l.forkPoints[0] ? `, fork point ${l.forkPoints[0].commit.slice(0, 12)}` : ''}; after it the origin made ${l.originOnlyCommits} commits and the target ${l.targetOnlyCommits}; ` +
    `${l.certain ? `the ${l.original}'s pinned commit is in the other's history` : `signals for the origin as original: ${signalsFor('origin')}; for the target: ${signalsFor('target')}`}; ` +
    `code containment target ${m.targetContainment} / origin ${m.originContainment}`;
  return { verdict, confidence, direction, alternatives, summary };
}
