// Which side of a pair that shares history is the original (docs/engine.md, "When the histories share commits"; "Shared
// history is proof"). Each signal holds for forks in general, not for one project, and lives in a module of its own:
// ancestry, identity kept, a rename at the fork point, maintainers kept, declarations, successor statements,
// declarations in matched code, merges of the common line, and the chronology of material that appeared after the
// fork point. This runner calls them in order and records what they return in that order; then it adds up the votes.
// Pure: the same inputs give the same signals, items and weights.
import type { ChronologyFact, EvidenceItem, LineageResult, LineageSignal, Side, Topology } from '../../types';
import { ancestry } from './ancestry';
import { type Findings, type Sides, other } from './context';
import { declaration, declarationsFound, historyAgrees, siblings as bothSiblings, strongerDeclaration } from './declaration';
import { declaredInCode } from './declared-in-code';
import { identity, namesKept } from './identity';
import { KEPT_SHARE, isThirdLine, maintainers } from './maintainers';
import { postForkChronology } from './post-fork-chronology';
import { reading } from './reading';
import { renamedAtFork } from './renamed-at-fork';
import { successor } from './successor';
import { syncMerges } from './sync-merges';
import { DIRECTION_MIN_WEIGHT } from './weights';

export type { SideLineageInput } from './context';
export { DIRECTION_MIN_WEIGHT, WEIGHTS } from './weights';

export interface LineageOutput {
  result: LineageResult;
  evidence: EvidenceItem[];
  chronology: ChronologyFact[];
  declaration: { by: Side; specific: boolean } | null;
  /** the side the signals make the original, or null */
  original: Side | null;
  /** the side that points at the other as its successor (SUCCESSOR_NAMED), when only one does */
  successorNamedBy: Side | null;
  /** without shared history: the side whose matched code declares descent from the other (DECLARED_IN_CODE), when only one does */
  declaredInCodeBy: Side | null;
  /** with no history in common: a project one side declares descent from under a name the other carried, and the other does too */
  commonUpstream: string | null;
  /** with no history in common: the side that says it remade the other's project in code of its own, when only one does */
  designClaimBy: Side | null;
  certain: boolean;
}

/**
 * Signals on which side is the original, with their evidence items. `postFork`
 * holds the weights of matched material first dated after the fork point
 * (material dated inside shared commits is a tie and not counted there).
 */
export function lineageSignals(topo: Topology, sides: Sides, postFork: { origin: number; target: number }): LineageOutput {
  const signals: LineageSignal[] = [];
  const evidence: EvidenceItem[] = [];
  const chronology: ChronologyFact[] = [];
  const record = (f: Findings): void => {
    for (const v of f.votes) signals.push({ kind: v.kind, original: v.original, weight: v.weight.toFixed(4), detail: v.detail });
    evidence.push(...f.evidence);
    chronology.push(...f.chronology);
  };
  const ctx = { topo, sides, shared: topo.forkPoints.length > 0 };

  // A rename at the fork point overrules the maintainers, so it is read first; the identity kept is read for both.
  // Names kept without the people make no original (a third line), whether the other side renamed itself or not.
  const anc = ancestry(topo);
  const kept = namesKept(topo, sides);
  const third = isThirdLine(topo);
  const renamed = renamedAtFork(topo, kept, third);
  const read = maintainers(topo, renamed.renamed);
  const id = identity(kept, third);

  // A side continues the shared project when it kept its names, kept its authors, or the other side renamed itself.
  const continues = (s: Side): boolean =>
    id.keptStrong[s] || (read.bothWent && read.continuity[s] >= KEPT_SHARE) || renamed.renamed === other(s);
  const r = reading(ctx);
  const found = declarationsFound(r);
  const siblings = bothSiblings(r, found.found) && !historyAgrees([read, id, renamed]);
  const ds: Partial<Record<Side, ReturnType<typeof declaration>>> = {};
  for (const by of ['target', 'origin'] as const) {
    const f = found.found[by];
    if (f) ds[by] = declaration(r, by, f, { identityWeight: id.weight, continues }, siblings);
  }
  // A side that calls itself a fork of the shared project is not its continuation, whoever's commits it took in.
  const forkOfShared = (['target', 'origin'] as const).filter((s) => ds[s]?.forkOfShared);
  const mnt = forkOfShared.length === 1 ? maintainers(topo, renamed.renamed, forkOfShared[0]!) : read;
  for (const f of [anc, mnt, id, renamed]) record(f);
  record(found);
  const declared: Partial<Record<Side, { specific: boolean; weight: number }>> = {};
  const named: Side[] = [];
  let commonUpstream: string | null = null;
  for (const by of ['target', 'origin'] as const) {
    const d = ds[by];
    if (d) {
      declared[by] = { specific: d.specific, weight: d.weight };
      commonUpstream ??= d.commonUpstream;
      record(d);
    }
    const s = successor(r, by);
    if (s.named) named.push(by);
    record(s);
  }
  const claimedBy = (['target', 'origin'] as const).filter((s) => found.claimed[s] !== undefined);
  const inCode: Side[] = [];
  for (const by of r.shared ? [] : (['target', 'origin'] as const)) {
    const c = declaredInCode(r, by);
    if (c.declared) inCode.push(by);
    record(c);
  }
  record(syncMerges(topo));
  record(postForkChronology(topo, postFork));

  // The decision's direction: ancestry when it applies; else the side the votes make clearly heavier.
  const certain = anc.certain;
  let original: Side | null = certain;
  if (!certain && !siblings) {
    const sum = { origin: 0, target: 0 };
    for (const s of signals) if (s.original !== 'none') sum[s.original] += Number(s.weight);
    const hi: Side = sum.origin >= sum.target ? 'origin' : 'target';
    if (sum[hi] >= DIRECTION_MIN_WEIGHT && sum[hi] >= 2 * sum[other(hi)] && sum.origin !== sum.target) original = hi;
  }
  return {
    result: {
      forkPoints: topo.forkPoints.map((f) => ({ commit: f.commit, time: String(f.time) })),
      originOnlyCommits: topo.originOnly,
      targetOnlyCommits: topo.targetOnly,
      truncated: topo.truncated,
      signals,
      thirdLine: mnt.thirdLine,
      original: original ?? 'none',
      certain: certain !== null,
    },
    evidence,
    chronology,
    declaration: strongerDeclaration(declared),
    original,
    certain: certain !== null,
    successorNamedBy: named.length === 1 ? named[0]! : null,
    declaredInCodeBy: inCode.length === 1 ? inCode[0]! : null,
    commonUpstream,
    designClaimBy: claimedBy.length === 1 ? claimedBy[0]! : null,
  };
}
