// What the decision reads of a comparison without shared history: every fact the table's rules test, computed once.
import type { Comparison, Direction, Layer } from '../types';

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
/** The derived side holding at least this share of the other's rare code material is heavily derived. */
export const HEAVY_CONTAINMENT = 0.5;
/** Dated fingerprints each side must have had first for matched material to count as exchanged (see `commonSource`). */
export const MIN_EXCHANGED_WEIGHT = 100;
/**
 * A declaration never convicts alone (docs/engine.md, "Evidence standards"): without shared history it needs at least
 * this share of one side's rare code material in common. A fifth of what code needs to support a relation by itself,
 * since the declaration is the other half of the evidence; below it the declaration is an unverified claim.
 */
export const DECLARATION_CODE_FLOOR = 0.01;
/** Dated material decides a direction when one side had it first with at least this many times the other's weight. */
export const CHRONOLOGY_RATIO = 2;

const CORROBORATING: Layer[] = ['STRUCTURE', 'TEST', 'LANGUAGE', 'DEPENDENCY'];

export interface UnsharedFacts {
  c: Comparison;
  m: Comparison['metrics'];
  supports(l: Layer): boolean;
  code: number;
  tContain: number;
  oContain: number;
  /** layers other than CODE and HISTORY that support a relation */
  corroborating: Layer[];
  corr: number;
  supporting: Layer[];
  /** exactly one layer supports a relation, and nothing is declared */
  single: boolean;
  material: number;
  enoughMaterial: boolean;
  chronoDir: Direction;
  shared: boolean;
  /** no id in common, but commits both hold under other ids (compare's REWRITTEN_COMMITS): common ancestry all the same */
  rewritten: boolean;
  /** rewritten, and each side's copies of those commits changed different content: two slices of one history (lineage/slices.ts) */
  slices: boolean;
  declared: boolean;
  corroborated: boolean;
  claimOnly: boolean;
  /**
   * nothing in common to derive by, nothing declared, and one side says it remade the other's project in code of its
   * own (`designClaimBy`): a claim of design descent the code cannot confirm; the pair is not called independent
   */
  claimed: boolean;
  derivedSide: number;
  derivable: boolean;
  exchanged: boolean;
  fromTemplate: boolean;
  fromThirdParty: boolean;
  fromDeclared: boolean;
  fromSlices: boolean;
  /** derivable, but nothing says who had the material first (see `unsharedFacts`) */
  undirected: boolean;
  commonSource: boolean;
}

/**
 * The direction the dated material and the sides' own statements give. The later side can never be the source. A
 * licence that kept the other side's author's copyright notice outranks the dated material: the copier said so
 * before any later change, while two sides that each modernised what they hold date the same code the wrong way round
 * (chronos, Carbon's re-import). So does the original pointing at the other as its successor (an extracted package's
 * rewritten history dates its material as old as the original's), and a comment in matched code saying where that
 * code came from, unless a README declares the project's descent: that speaks for the whole, a comment for a file.
 * Statements that disagree leave no direction.
 */
function chronology(c: Comparison): Direction {
  const m = c.metrics;
  let dir: Direction = 'NONE';
  if (m.originFirstWeight > 0 && m.originFirstWeight >= CHRONOLOGY_RATIO * m.targetFirstWeight) dir = 'ORIGIN_TO_TARGET';
  else if (m.targetFirstWeight > 0 && m.targetFirstWeight >= CHRONOLOGY_RATIO * m.originFirstWeight) dir = 'TARGET_TO_ORIGIN';
  const stated = [
    c.attributedBy && (c.attributedBy === 'target' ? 'ORIGIN_TO_TARGET' : 'TARGET_TO_ORIGIN'),
    c.successorNamedBy && (c.successorNamedBy === 'origin' ? 'ORIGIN_TO_TARGET' : 'TARGET_TO_ORIGIN'),
    !m.declaredUpstream && c.declaredInCodeBy && (c.declaredInCodeBy === 'target' ? 'ORIGIN_TO_TARGET' : 'TARGET_TO_ORIGIN'),
  ].filter((d): d is Direction => Boolean(d));
  if (stated.length) dir = stated.every((d) => d === stated[0]) ? stated[0]! : 'NONE';
  return dir;
}

export function unsharedFacts(c: Comparison): UnsharedFacts {
  const m = c.metrics;
  const score = (l: Layer): number => Number(c.layers.find((x) => x.layer === l)?.score ?? '0');
  const supports = (l: Layer): boolean => score(l) >= SUPPORT_THRESHOLDS[l];
  const tContain = Number(m.targetContainment);
  const oContain = Number(m.originContainment);
  const code = Math.max(tContain, oContain);
  const corroborating = CORROBORATING.filter(supports);
  const supporting = (['CODE', 'HISTORY', ...corroborating] as Layer[]).filter((l, i, a) => a.indexOf(l) === i && supports(l));
  const material = Math.min(m.originCodeTokens, m.targetCodeTokens);
  const enoughMaterial = material >= MIN_CODE_TOKENS;
  const chronoDir = chronology(c);
  const shared = m.sharedCommits > 0;
  const rewritten = !shared && (c.rewritten ?? 0) > 0;
  const slices = rewritten && c.rewrittenSlices === true;
  const declared = m.declaredUpstream;
  const corroborated = shared || rewritten || code >= DECLARATION_CODE_FLOOR;
  const derivedSide = chronoDir === 'TARGET_TO_ORIGIN' ? oContain : chronoDir === 'ORIGIN_TO_TARGET' ? tContain : code;
  // Derivation without shared history: CODE plus at least one other layer, or a rewritten history with a direction.
  const derivable = !shared && enoughMaterial && ((supports('CODE') && corroborating.length >= 1) || (rewritten && chronoDir !== 'NONE'));
  // Matched material each side had first in comparable amounts flowed both ways or came from a common source (zstd
  // and lz4, one author's two projects: xxHash in both): neither side is derived from the other.
  const exchanged =
    derivable &&
    chronoDir === 'NONE' &&
    m.originFirstWeight >= MIN_EXCHANGED_WEIGHT &&
    m.targetFirstWeight >= MIN_EXCHANGED_WEIGHT &&
    derivedSide < HEAVY_CONTAINMENT &&
    !declared;
  // A template both were generated from (COMMON_TEMPLATE), a library both embed (THIRD_PARTY_CODE), a project both
  // declare descent from that neither is: the matched material is that source's, and who holds it first says nothing
  // about one side copying the other.
  const fromTemplate = derivable && !declared && Boolean(c.template);
  const fromThirdParty = derivable && !declared && Boolean(c.thirdParty);
  const fromDeclared = derivable && !declared && Boolean(c.commonUpstream);
  // Two slices of one history (lineage/slices.ts): each side kept its own part of a third project's commits, so the
  // code both hold is that project's, and who had it first names no copier.
  const fromSlices = derivable && !declared && slices;
  // A derivation says who took from whom. Code in common that nothing dates one way (neither side had the material
  // first by CHRONOLOGY_RATIO, or every first appearance was left uncounted) and that neither side declares is common
  // material whose source the two repositories do not show: two portable mg's, each an import of OpenBSD's, hold the
  // same files, and neither history says one took them from the other (docs/engine.md, "Evidence standards").
  const undirected = derivable && !declared && chronoDir === 'NONE';
  return {
    c,
    m,
    supports,
    code,
    tContain,
    oContain,
    corroborating,
    corr: corroborating.length,
    supporting,
    single: supporting.length === 1 && !declared,
    material,
    enoughMaterial,
    chronoDir,
    shared,
    rewritten,
    slices,
    declared,
    corroborated,
    claimOnly: declared && !corroborated,
    claimed: !shared && !rewritten && !declared && !derivable && c.designClaimBy !== undefined,
    derivedSide,
    derivable,
    exchanged,
    fromTemplate,
    fromThirdParty,
    fromDeclared,
    fromSlices,
    undirected,
    commonSource: exchanged || fromTemplate || fromThirdParty || fromDeclared || fromSlices || undirected,
  };
}
