import { dec } from './compare/format';
import { decidedOnCommonLine, sharedHistoryPhrase } from './lineage/common-line';
import type { Alternative, Comparison, Confidence, Decision, Direction, Layer, LineageResult, Verdict } from './types';

/** A layer "supports" a relation when its score reaches this threshold. */
export const SUPPORT_THRESHOLDS: Record<Layer, number> = {
  CODE: 0.05,
  STRUCTURE: 0.2,
  HISTORY: 0.5,
  TEST: 0.1,
  LANGUAGE: 0.08,
  DEPENDENCY: 0.25,
};
/** Below this many code tokens on either side there is too little material to judge. */
export const MIN_CODE_TOKENS = 300;
export const HEAVY_CONTAINMENT = 0.5;
/** Dated fingerprints each side must have had first for matched material to count as exchanged (see `commonSource`). */
export const MIN_EXCHANGED_WEIGHT = 100;

/**
 * Score every alternative against the evidence and pick the best supported.
 * Rules (docs/engine.md): a single layer never carries a verdict; shared
 * commits explain overlap as fork or shared upstream; chronology of the
 * matched material decides the direction and vetoes the opposite one.
 */
export function decide(c: Comparison): Decision {
  // Shared ids, or a line both hold under other ids whose signals name the original (otherwise the dated material
  // decides it, as for commits held under other ids: `rewritten` below).
  if (c.lineage && (c.metrics.sharedCommits > 0 || decidedOnCommonLine(c.lineage))) return decideShared(c, c.lineage);
  const score = (l: Layer): number => Number(c.layers.find((x) => x.layer === l)?.score ?? '0');
  const supports = (l: Layer): boolean => score(l) >= SUPPORT_THRESHOLDS[l];
  const m = c.metrics;
  const tContain = Number(m.targetContainment);
  const oContain = Number(m.originContainment);
  const code = Math.max(tContain, oContain);
  const corroborating = (['STRUCTURE', 'TEST', 'LANGUAGE', 'DEPENDENCY'] as Layer[]).filter(supports);
  const supporting = (['CODE', 'HISTORY', ...corroborating] as Layer[]).filter((l, i, a) => a.indexOf(l) === i && supports(l));
  const material = Math.min(m.originCodeTokens, m.targetCodeTokens);
  const enoughMaterial = material >= MIN_CODE_TOKENS;

  // Direction from dated material; the later side can never be the source. A licence that kept the other side's
  // author's copyright notice outranks it: the copier said so before any later change, while two sides that each
  // modernised what they hold date the same code the wrong way round (chronos, Carbon's re-import, went to typed
  // PHP 8 two years before Carbon did).
  let chronoDir: Direction = 'NONE';
  if (m.originFirstWeight > 0 && m.originFirstWeight >= 2 * m.targetFirstWeight) chronoDir = 'ORIGIN_TO_TARGET';
  else if (m.targetFirstWeight > 0 && m.targetFirstWeight >= 2 * m.originFirstWeight) chronoDir = 'TARGET_TO_ORIGIN';
  // So does the original pointing at the other side as its successor ("… have been moved to their own repository at
  // github.com/go-kit/log"): an extracted package's rewritten history dates its material as old as the original's,
  // and the original's copy, since replaced, is younger. Two such statements that disagree leave no direction.
  const stated = [
    c.attributedBy && (c.attributedBy === 'target' ? 'ORIGIN_TO_TARGET' : 'TARGET_TO_ORIGIN'),
    c.successorNamedBy && (c.successorNamedBy === 'origin' ? 'ORIGIN_TO_TARGET' : 'TARGET_TO_ORIGIN'),
    // And a comment in matched code saying where that code came from ("Ported from `classnames`", clsx's tests), unless
    // a README declares the project's descent: that speaks for the whole, a comment for a file.
    !m.declaredUpstream && c.declaredInCodeBy && (c.declaredInCodeBy === 'target' ? 'ORIGIN_TO_TARGET' : 'TARGET_TO_ORIGIN'),
  ].filter((d): d is Direction => Boolean(d));
  if (stated.length) chronoDir = stated.every((d) => d === stated[0]) ? stated[0]! : 'NONE';
  // The veto needs the dated material to decide the other way (twice the weight), not merely lean: dating follows a
  // path's own versions, so material a side moved to a new file dates from the move (memcached's jenkins_hash.c,
  // split out of hash.c in 2014, is "later" than twemcache's copy of 2012, which declares memcached its origin).
  const vetoed = (d: Direction): boolean =>
    (d === 'ORIGIN_TO_TARGET' && chronoDir === 'TARGET_TO_ORIGIN') || (d === 'TARGET_TO_ORIGIN' && chronoDir === 'ORIGIN_TO_TARGET');

  const alternatives: Alternative[] = [];
  const add = (verdict: Verdict, s: number, reason: string): void => {
    alternatives.push({ verdict, score: dec(Math.max(0, Math.min(1, s))), reason });
  };
  const corr = corroborating.length;
  const shared = m.sharedCommits > 0;
  // No id in common, but commits both hold under other ids (compare's REWRITTEN_COMMITS): common ancestry is proven as
  // by shared ids; who came first is read from the dated material (a replay's commits are dated when it was made).
  const rewritten = !shared && (c.rewritten ?? 0) > 0;

  // DECLARED_FORK: a declaration plus shared history or shared code.
  add(
    'DECLARED_FORK',
    m.declaredUpstream && (shared || rewritten || supports('CODE')) ? 0.7 + 0.1 * Math.min(3, corr) : m.declaredUpstream ? 0.3 : 0,
    m.declaredUpstream
      ? `the ${m.declaredBy} declares the other as upstream${shared ? `; ${m.sharedCommits} shared commits` : ''}`
      : 'no repository declares the other as upstream',
  );
  // Derivation without shared history: CODE plus at least one other layer, or a rewritten history with a direction.
  const derivedSide = chronoDir === 'TARGET_TO_ORIGIN' ? oContain : chronoDir === 'ORIGIN_TO_TARGET' ? tContain : code;
  const derivable = !shared && enoughMaterial && ((supports('CODE') && corr >= 1) || (rewritten && chronoDir !== 'NONE'));
  // Matched material that appeared first on each side in comparable amounts flowed both ways or came from a common
  // source (zstd and lz4, one author's two projects: xxHash in both, and tools he wrote for both): neither side is
  // derived from the other.
  const exchanged =
    derivable &&
    chronoDir === 'NONE' &&
    m.originFirstWeight >= MIN_EXCHANGED_WEIGHT &&
    m.targetFirstWeight >= MIN_EXCHANGED_WEIGHT &&
    derivedSide < HEAVY_CONTAINMENT &&
    !m.declaredUpstream;
  // Two projects generated from one template (compare's COMMON_TEMPLATE): the matched material is the template's, and
  // who was generated first says nothing about one copying the other (two cookiecutter-django applications).
  const fromTemplate = derivable && !m.declaredUpstream && Boolean(c.template);
  // A library both sides embed (compare's THIRD_PARTY_CODE): the matched code is its holder's on both sides, and who
  // embedded it first says nothing about one copying the other (orjson and libmseed, both carrying yyjson).
  const fromThirdParty = derivable && !m.declaredUpstream && Boolean(c.thirdParty);
  // Both sides declare descent from one project that neither is (node-build and pyenv, both from ruby-build): the
  // matched material is that project's, and who holds it earlier says nothing about one copying the other.
  const fromDeclared = derivable && !m.declaredUpstream && Boolean(c.commonUpstream);
  const commonSource = exchanged || fromTemplate || fromThirdParty || fromDeclared;
  const derivedCap = fromTemplate || fromThirdParty || fromDeclared ? 0.2 : 0;
  // SHARED_UPSTREAM: shared commits without a declaration, corroborated by another layer; or material exchanged.
  add(
    'SHARED_UPSTREAM',
    shared && !m.declaredUpstream
      ? corr + (supports('CODE') ? 1 : 0) >= 1
        ? 0.65 + 0.1 * Math.min(3, corr)
        : 0.35
      : commonSource
        ? 0.7 + 0.1 * Math.min(3, corr)
        : rewritten && !m.declaredUpstream
          ? chronoDir === 'NONE'
            ? 0.75
            : 0.5
          : 0,
    shared
      ? `${m.sharedCommits} commits appear in both histories`
      : rewritten && !commonSource
        ? `${c.rewritten} commits are in both histories under other ids${chronoDir === 'NONE' ? ', and the dated material does not tell which side had it first' : ''}`
        : fromTemplate
          ? `both were generated from ${c.template}, and the matched material came with each side's first files: the template's, not one side's copy of the other`
          : fromThirdParty
            ? `the matched code is a library both embed: its files on both sides keep the copyright notice of "${c.thirdParty}", neither side's author`
            : fromDeclared
              ? `both declare descent from "${c.commonUpstream}", which neither is: two projects made from a third`
              : commonSource
                ? `matched material appeared first in the origin (${m.originFirstWeight} fingerprints) and first in the target (${m.targetFirstWeight}): exchanged or drawn from a common source, not one side derived from the other`
                : 'no commit appears in both histories',
  );
  add(
    'HEAVILY_DERIVED',
    (derivable && derivedSide >= HEAVY_CONTAINMENT
      ? 0.7 + 0.1 * Math.min(3, corr)
      : derivable
        ? 0.3 * (derivedSide / HEAVY_CONTAINMENT)
        : 0) - derivedCap,
    `${dec(derivedSide)} of the derived side's rare code material is shared (heavy from ${dec(HEAVY_CONTAINMENT)}); corroborating layers: ${corroborating.join(', ') || 'none'}`,
  );
  add(
    'LIKELY_DERIVED',
    (derivable && derivedSide < HEAVY_CONTAINMENT ? 0.6 + 0.1 * Math.min(3, corr) : derivable ? 0.5 : 0) - derivedCap,
    `code overlap ${dec(code)} with ${corr} corroborating layer(s)${shared ? '; shared commits explain the overlap instead' : ''}`,
  );
  // INDEPENDENT: enough material and no relation-level support.
  const indep =
    enoughMaterial && !shared && !rewritten && !m.declaredUpstream
      ? supports('CODE')
        ? corr === 0
          ? 0.4
          : 0.1
        : 0.75 + (code < 0.01 ? 0.15 : 0)
      : 0;
  add(
    'INDEPENDENT',
    indep,
    supports('CODE')
      ? `code overlap ${dec(code)} ${corr === 0 ? 'without corroboration from any other layer' : 'is corroborated'}`
      : `rare code overlap ${dec(code)} is below ${dec(SUPPORT_THRESHOLDS.CODE)}`,
  );
  // INSUFFICIENT_EVIDENCE: too little material, or one layer alone.
  const single = supporting.length === 1 && !m.declaredUpstream;
  add(
    'INSUFFICIENT_EVIDENCE',
    !enoughMaterial && !shared && !rewritten ? 0.9 : single && supports('CODE') ? 0.45 : single ? 0.5 : 0.05,
    !enoughMaterial
      ? `at most ${material} code tokens on one side (minimum ${MIN_CODE_TOKENS})`
      : single
        ? `only the ${supporting[0]} layer supports a relation`
        : 'enough material was analysed',
  );

  const order: Verdict[] = [
    'INSUFFICIENT_EVIDENCE',
    'DECLARED_FORK',
    'SHARED_UPSTREAM',
    'HEAVILY_DERIVED',
    'LIKELY_DERIVED',
    'INDEPENDENT',
  ];
  const ranked = [...alternatives].sort((a, b) => Number(b.score) - Number(a.score) || order.indexOf(a.verdict) - order.indexOf(b.verdict));
  const best = ranked[0]!;
  const runnerUp = ranked[1]!;
  let verdict = best.verdict;
  // A single supporting layer never carries a relation verdict; a rewritten history, like shared ids, proves one.
  if (
    (verdict === 'SHARED_UPSTREAM' || verdict === 'LIKELY_DERIVED' || verdict === 'HEAVILY_DERIVED') &&
    supporting.length < 2 &&
    !rewritten
  )
    verdict = 'INSUFFICIENT_EVIDENCE';

  let direction: Direction = 'NONE';
  if (verdict === 'LIKELY_DERIVED' || verdict === 'HEAVILY_DERIVED') direction = chronoDir;
  else if (verdict === 'DECLARED_FORK') direction = m.declaredBy === 'target' ? 'ORIGIN_TO_TARGET' : 'TARGET_TO_ORIGIN';
  else if (verdict === 'SHARED_UPSTREAM')
    direction =
      m.originHeadIsShared && !m.targetHeadIsShared
        ? 'ORIGIN_TO_TARGET'
        : m.targetHeadIsShared && !m.originHeadIsShared
          ? 'TARGET_TO_ORIGIN'
          : 'NONE';
  if (direction !== 'NONE' && vetoed(direction)) direction = 'NONE';

  const margin = Number(best.score) - Number(runnerUp.score);
  let confidence: Confidence = 'LOW';
  if (verdict === 'INSUFFICIENT_EVIDENCE') confidence = enoughMaterial ? 'LOW' : 'HIGH';
  else if (verdict === 'INDEPENDENT')
    confidence = code < 0.01 && material >= 5000 ? 'HIGH' : code < SUPPORT_THRESHOLDS.CODE && material >= 1000 ? 'MEDIUM' : 'LOW';
  else confidence = supporting.length >= 4 && margin >= 0.2 ? 'HIGH' : supporting.length >= 3 || margin >= 0.3 ? 'MEDIUM' : 'LOW';

  const summary = `${verdict} (${confidence}), direction ${direction}: code containment target ${m.targetContainment} / origin ${m.originContainment}, ${m.sharedCommits} shared commits, supporting layers ${supporting.join(', ') || 'none'}`;
  return { verdict, confidence, direction, alternatives: ranked, summary };
}

/**
 * Shared history is proof of common ancestry (docs/engine.md, "When the histories share commits"): the verdict says who
 * forked from whom. The lineage signals (compare/lineage) name the original, or
 * cannot; a declaration by the derived side makes it DECLARED_FORK, otherwise
 * how much of the original's rare code the fork still holds makes it heavily or
 * likely derived. SHARED_UPSTREAM (direction NONE) when no side is the original.
 */
function decideShared(c: Comparison, l: LineageResult): Decision {
  const m = c.metrics;
  const weight = (s: { weight: string }): number => Number(s.weight);
  const agree = new Set(l.signals.filter((s) => l.original !== 'none' && s.original === l.original && weight(s) > 0).map((s) => s.kind));
  // A signal under weight 1 (a README title) is noted but does not lower confidence.
  const against = new Set(l.signals.filter((s) => s.original !== 'none' && s.original !== l.original && weight(s) >= 1).map((s) => s.kind));
  const sameCommit = l.signals.some((s) => s.kind === 'ANCESTRY' && s.original === 'none');
  let verdict: Verdict;
  let direction: Direction = 'NONE';
  let confidence: Confidence;
  let held = 0;
  let declaredByDerived = false;
  if (l.original === 'none') {
    verdict = 'SHARED_UPSTREAM';
    confidence = sameCommit || (l.thirdLine && against.size === 0) ? 'HIGH' : l.signals.some((s) => weight(s) > 0) ? 'LOW' : 'MEDIUM';
  } else {
    direction = l.original === 'origin' ? 'ORIGIN_TO_TARGET' : 'TARGET_TO_ORIGIN';
    const derived = l.original === 'origin' ? 'target' : 'origin';
    held = Number(l.original === 'origin' ? m.originContainment : m.targetContainment);
    declaredByDerived = m.declaredUpstream && m.declaredBy === derived;
    verdict = declaredByDerived ? 'DECLARED_FORK' : held >= HEAVY_CONTAINMENT ? 'HEAVILY_DERIVED' : 'LIKELY_DERIVED';
    const n = agree.size + (agree.has('DECLARATION') ? 1 : 0);
    confidence = l.certain ? 'HIGH' : n >= 3 && against.size === 0 ? 'HIGH' : n >= 2 ? 'MEDIUM' : 'LOW';
  }
  const top = confidence === 'HIGH' ? 0.95 : confidence === 'MEDIUM' ? 0.85 : 0.75;
  const signalsFor = (side: string): string =>
    l.signals
      .filter((s) => s.original === side && weight(s) > 0)
      .map((s) => s.kind)
      .join(', ') || 'none';
  const shared = sharedHistoryPhrase(c);
  const fits: [Verdict, number, string][] = [
    [
      'DECLARED_FORK',
      declaredByDerived ? 0.9 : m.declaredUpstream ? 0.5 : 0,
      m.declaredUpstream
        ? `the ${m.declaredBy} declares descent from the other${declaredByDerived ? '' : ', but the signals make it the original'}`
        : 'neither repository declares descent from the other',
    ],
    [
      'SHARED_UPSTREAM',
      l.original === 'none' ? 0.8 : 0.45,
      l.original === 'none'
        ? `${shared}, and the signals do not tell which side is the original (origin: ${signalsFor('origin')}; target: ${signalsFor('target')})${l.thirdLine ? '; neither side continues the authors of the shared history' : ''}`
        : `${shared}; the signals make the ${l.original} the original (${[...agree].join(', ')})`,
    ],
    [
      'HEAVILY_DERIVED',
      l.original === 'none' ? 0.1 : held >= HEAVY_CONTAINMENT ? 0.85 : 0.3,
      `the derived side holds ${dec(held)} of the original's rare code material (heavy from ${dec(HEAVY_CONTAINMENT)})`,
    ],
    [
      'LIKELY_DERIVED',
      l.original === 'none' ? 0.1 : held < HEAVY_CONTAINMENT ? 0.85 : 0.6,
      `${shared}: derived${l.original === 'none' ? ', but no side is shown to be the original' : ` from the ${l.original}`}, whatever share of the code still matches`,
    ],
    ['INDEPENDENT', 0, `${shared}: common ancestry is proven`],
    ['INSUFFICIENT_EVIDENCE', 0.05, `${shared}: shared history is enough to decide`],
  ];
  const alternatives: Alternative[] = fits.map(([v, s, reason]) => ({
    verdict: v,
    score: dec(v === verdict ? top : Math.min(s, top - 0.1)),
    reason,
  }));
  const order: Verdict[] = [
    'DECLARED_FORK',
    'HEAVILY_DERIVED',
    'LIKELY_DERIVED',
    'SHARED_UPSTREAM',
    'INSUFFICIENT_EVIDENCE',
    'INDEPENDENT',
  ];
  alternatives.sort((a, b) => Number(b.score) - Number(a.score) || order.indexOf(a.verdict) - order.indexOf(b.verdict));
  const summary =
    `${verdict} (${confidence}), direction ${direction}: ${shared}` +
    `${l.forkPoints[0] ? `, fork point ${l.forkPoints[0].commit.slice(0, 12)}` : ''}; after it the origin made ${l.originOnlyCommits} commits and the target ${l.targetOnlyCommits}; ` +
    `${l.certain ? `the ${l.original}'s pinned commit is in the other's history` : `signals for the origin as original: ${signalsFor('origin')}; for the target: ${signalsFor('target')}`}; ` +
    `code containment target ${m.targetContainment} / origin ${m.originContainment}`;
  return { verdict, confidence, direction, alternatives, summary };
}
