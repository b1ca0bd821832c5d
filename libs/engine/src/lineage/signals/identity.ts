// Identity: per name the project carried at the fork point, the side that kept it and the side that changed it. The
// keeper continues the project's identity (its package, module, C project name, repository, README title).
import type { NameRef, Side, Topology } from '../../types';
import { sameName } from '../names';
import { type Findings, type Sides, item, loc, other, short } from './context';
import { WEIGHTS } from './weights';

/** A name key held at the fork point that one side kept and the other changed: both sides' names now, and the keeper. */
export interface KeptName {
  f: NameRef;
  o: NameRef;
  t: NameRef;
  keeper: Side;
}

/** The names of the fork point that one side kept and the other changed, in the fork point's order. */
export function namesKept(topo: Topology, sides: Sides): KeptName[] {
  return topo.forkPointNames.flatMap((f) => {
    const o = sides.origin.names.pinned.find((n) => n.key === f.key);
    const t = sides.target.names.pinned.find((n) => n.key === f.key);
    if (!o || !t || sameName(o.name, f.name) === sameName(t.name, f.name)) return [];
    return [{ f, o, t, keeper: (sameName(o.name, f.name) ? 'origin' : 'target') as Side }];
  });
}

export interface Identity extends Findings {
  /** the weight of the names each side kept (before IDENTITY_MAX) */
  weight: Record<Side, number>;
  /** a side kept a name that weighs at least a C project's name (not only a repository or a title) */
  keptStrong: Record<Side, boolean>;
}

/**
 * An evidence item per name kept, then one IDENTITY vote per side that kept any (at most IDENTITY_MAX). A name is kept
 * by people: when neither side keeps the shared history's authors (`thirdLine`: they went on elsewhere, or stopped), a
 * side that kept the names is a fork that kept them, not the project itself (Lamdera keeps Elm's package name `elm`
 * and none of Elm's authors, as gren does), and its vote weighs 0 (engine 0.7.7).
 */
export function identity(kept: readonly KeptName[], thirdLine = false): Identity {
  const out: Identity = {
    votes: [],
    evidence: [],
    chronology: [],
    weight: { origin: 0, target: 0 },
    keptStrong: { origin: false, target: false },
  };
  for (const { f, o, t, keeper } of kept) {
    const w = WEIGHTS.IDENTITY[f.kind];
    out.weight[keeper] += w;
    if (w >= WEIGHTS.IDENTITY.project) out.keptStrong[keeper] = true;
    const d = `${f.path} ${f.kind === 'title' ? 'title' : f.kind === 'url' ? 'repository' : 'name'} at the fork point ${short(f.commit)} was "${f.name}"; the origin has "${o.name}", the target "${t.name}": the ${keeper} kept the project's identity, the ${other(keeper)} changed it`;
    out.evidence.push(item('IDENTITY_KEPT', w, d, { origin: loc(o), target: loc(t) }));
  }
  for (const s of ['origin', 'target'] as const) {
    if (out.weight[s] > 0)
      out.votes.push({
        kind: 'IDENTITY',
        original: s,
        weight: thirdLine ? 0 : Math.min(WEIGHTS.IDENTITY_MAX, out.weight[s]),
        detail: `the ${s} kept names of the shared project that the ${other(s)} changed${thirdLine ? ", but neither side keeps the shared history's authors: names kept without the people do not make the original" : ''}`,
      });
  }
  return out;
}
