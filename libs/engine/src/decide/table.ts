// The decision without shared history as a table: each alternative verdict, the score its evidence earns (0–1) and
// the reason shown with it. The best score wins (decide/index.ts); every constant is named and explained here once.
import { dec } from '../compare/format';
import type { Verdict } from '../types';
import { DECLARATION_CODE_FLOOR, HEAVY_CONTAINMENT, MIN_CODE_TOKENS, SUPPORT_THRESHOLDS, type UnsharedFacts } from './facts';

/** Scores of the alternatives. Their order, not their values, is what the decision rests on (docs/engine.md). */
export const SCORE = {
  /** a relation with its own kind of proof: a corroborated declaration, a common source, a heavy derivation */
  PROVEN: 0.7,
  /** added per corroborating layer (structure, tests, language, dependencies), up to MAX_LAYERS of them */
  PER_LAYER: 0.1,
  MAX_LAYERS: 3,
  /** a declaration corroborated by rare code below what code needs alone: above one layer alone (SINGLE_LAYER) */
  DECLARED_WITH_LITTLE_CODE: 0.55,
  /** shared commit ids with another layer in support (only reached when the lineage could not be read) */
  SHARED_SUPPORTED: 0.65,
  SHARED_ALONE: 0.35,
  /** a history rewritten apart with no direction from the dated material: common ancestry, nobody first */
  REWRITTEN_UNDIRECTED: 0.75,
  REWRITTEN_DIRECTED: 0.5,
  /** light derivation: code supports a relation with corroboration, but under HEAVY_CONTAINMENT */
  LIKELY: 0.6,
  /** heavy material is still likely derived, second to HEAVILY_DERIVED */
  LIKELY_WHEN_HEAVY: 0.5,
  /** the most HEAVILY_DERIVED earns below HEAVY_CONTAINMENT, in proportion to the share held */
  HEAVY_BELOW_THRESHOLD: 0.3,
  /** taken off the derived verdicts when the matched material is a common source's (template, library, third project), or undated */
  COMMON_SOURCE_CAP: 0.2,
  /** no layer supports a relation: independent, more so with (almost) no overlap at all */
  INDEPENDENT: 0.75,
  INDEPENDENT_NO_OVERLAP: 0.15,
  /** code overlap that nothing corroborates, and code overlap that something does */
  INDEPENDENT_UNCORROBORATED: 0.4,
  INDEPENDENT_CORROBORATED: 0.1,
  TOO_LITTLE_MATERIAL: 0.9,
  /** a declaration nothing corroborates: an unverified claim, never a verdict of descent */
  CLAIM_ONLY: 0.6,
  SINGLE_LAYER: 0.5,
  SINGLE_LAYER_CODE: 0.45,
  ENOUGH_MATERIAL: 0.05,
} as const;
/** Rare code overlap under this share is "no overlap" for INDEPENDENT's score and confidence. */
export const NO_OVERLAP = 0.01;

export interface Rule {
  verdict: Verdict;
  score(f: UnsharedFacts): number;
  reason(f: UnsharedFacts): string;
}

const proven = (f: UnsharedFacts): number => SCORE.PROVEN + SCORE.PER_LAYER * Math.min(SCORE.MAX_LAYERS, f.corr);
const commonSourceCap = (f: UnsharedFacts): number =>
  f.fromTemplate || f.fromThirdParty || f.fromDeclared || f.fromSlices || f.undirected ? SCORE.COMMON_SOURCE_CAP : 0;

export const UNSHARED_RULES: Rule[] = [
  {
    // A declaration plus shared history or shared code; a declaration alone is an unverified claim.
    verdict: 'DECLARED_FORK',
    score: (f) =>
      f.declared && f.corroborated ? (f.supports('CODE') || f.shared || f.rewritten ? proven(f) : SCORE.DECLARED_WITH_LITTLE_CODE) : 0,
    reason: ({ m, shared, corroborated, code }) =>
      m.declaredUpstream
        ? `the ${m.declaredBy} declares the other as upstream${shared ? `; ${m.sharedCommits} shared commits` : corroborated ? '' : `, but no commit and only ${dec(code)} of the rare code material are shared (at least ${dec(DECLARATION_CODE_FLOOR)} needed): an unverified claim`}`
        : 'no repository declares the other as upstream',
  },
  {
    // Shared commits without a declaration, corroborated by another layer; a common source; a history rewritten apart.
    verdict: 'SHARED_UPSTREAM',
    score: (f) =>
      f.shared && !f.declared
        ? f.corr + (f.supports('CODE') ? 1 : 0) >= 1
          ? SCORE.SHARED_SUPPORTED + SCORE.PER_LAYER * Math.min(SCORE.MAX_LAYERS, f.corr)
          : SCORE.SHARED_ALONE
        : f.commonSource
          ? proven(f)
          : f.rewritten && !f.declared
            ? f.chronoDir === 'NONE' || f.slices
              ? SCORE.REWRITTEN_UNDIRECTED
              : SCORE.REWRITTEN_DIRECTED
            : 0,
    reason: ({ c, m, shared, rewritten, slices, commonSource, chronoDir, fromTemplate, fromThirdParty, fromDeclared, exchanged }) =>
      shared
        ? `${m.sharedCommits} commits appear in both histories`
        : slices && !fromTemplate && !fromThirdParty && !fromDeclared
          ? `${c.rewritten} commits are in both histories under other ids, and each side's copies of them changed different content: two slices of one history, neither taken from the other`
          : rewritten && !fromTemplate && !fromThirdParty && !fromDeclared && !exchanged
            ? `${c.rewritten} commits are in both histories under other ids${chronoDir === 'NONE' ? ', and the dated material does not tell which side had it first' : ''}`
            : fromTemplate
              ? `both were generated from ${c.template}, and the matched material came with each side's first files: the template's, not one side's copy of the other`
              : fromThirdParty
                ? `the matched code is a library both embed: its files on both sides keep the copyright notice of "${c.thirdParty}", neither side's author`
                : fromDeclared
                  ? `both descend from "${c.commonUpstream}" by their own statements, and neither is it: two projects made from a third`
                  : exchanged
                    ? `matched material appeared first in the origin (${m.originFirstWeight} fingerprints) and first in the target (${m.targetFirstWeight}): exchanged or drawn from a common source, not one side derived from the other`
                    : commonSource
                      ? `no commit appears in both histories, and the dated material does not say which side had the shared code first (origin first: ${m.originFirstWeight} fingerprints, target first: ${m.targetFirstWeight}), nor does either side declare the other: common material from a source neither repository shows, not a derivation`
                      : 'no commit appears in both histories',
  },
  {
    verdict: 'HEAVILY_DERIVED',
    score: (f) =>
      (f.derivable && f.derivedSide >= HEAVY_CONTAINMENT
        ? proven(f)
        : f.derivable
          ? SCORE.HEAVY_BELOW_THRESHOLD * (f.derivedSide / HEAVY_CONTAINMENT)
          : 0) - commonSourceCap(f),
    reason: ({ derivedSide, corroborating }) =>
      `${dec(derivedSide)} of the derived side's rare code material is shared (heavy from ${dec(HEAVY_CONTAINMENT)}); corroborating layers: ${corroborating.join(', ') || 'none'}`,
  },
  {
    verdict: 'LIKELY_DERIVED',
    score: (f) =>
      (f.derivable && f.derivedSide < HEAVY_CONTAINMENT
        ? SCORE.LIKELY + SCORE.PER_LAYER * Math.min(SCORE.MAX_LAYERS, f.corr)
        : f.derivable
          ? SCORE.LIKELY_WHEN_HEAVY
          : 0) - commonSourceCap(f),
    reason: ({ code, corr, shared }) =>
      `code overlap ${dec(code)} with ${corr} corroborating layer(s)${shared ? '; shared commits explain the overlap instead' : ''}`,
  },
  {
    // Enough material and no relation-level support.
    verdict: 'INDEPENDENT',
    score: (f) =>
      f.enoughMaterial && !f.shared && !f.rewritten && !f.declared && !f.claimed
        ? f.supports('CODE')
          ? f.corr === 0
            ? SCORE.INDEPENDENT_UNCORROBORATED
            : SCORE.INDEPENDENT_CORROBORATED
          : SCORE.INDEPENDENT + (f.code < NO_OVERLAP ? SCORE.INDEPENDENT_NO_OVERLAP : 0)
        : 0,
    reason: (f) =>
      f.supports('CODE')
        ? `code overlap ${dec(f.code)} ${f.corr === 0 ? 'without corroboration from any other layer' : 'is corroborated'}`
        : `rare code overlap ${dec(f.code)} is below ${dec(SUPPORT_THRESHOLDS.CODE)}`,
  },
  {
    // Too little material, a claim nothing corroborates, or one layer alone.
    verdict: 'INSUFFICIENT_EVIDENCE',
    score: (f) =>
      !f.enoughMaterial && !f.shared && !f.rewritten
        ? SCORE.TOO_LITTLE_MATERIAL
        : f.claimOnly || f.claimed
          ? SCORE.CLAIM_ONLY
          : f.single && f.supports('CODE')
            ? SCORE.SINGLE_LAYER_CODE
            : f.single
              ? SCORE.SINGLE_LAYER
              : SCORE.ENOUGH_MATERIAL,
    reason: (f) =>
      !f.enoughMaterial
        ? `at most ${f.material} code tokens on one side (minimum ${MIN_CODE_TOKENS})`
        : f.claimOnly
          ? `the ${f.m.declaredBy} claims descent from the other, and neither history nor code corroborates it`
          : f.claimed
            ? `the ${f.c.designClaimBy} says it remade the other's project in code of its own, and neither history nor code shows it: a claim of design descent, unverified`
            : f.single
              ? `only the ${f.supporting[0]} layer supports a relation`
              : 'enough material was analysed',
  },
];

/** Ties between equal scores go to the verdict earlier here: the more cautious reading first. */
export const UNSHARED_ORDER: Verdict[] = [
  'INSUFFICIENT_EVIDENCE',
  'DECLARED_FORK',
  'SHARED_UPSTREAM',
  'HEAVILY_DERIVED',
  'LIKELY_DERIVED',
  'INDEPENDENT',
];
