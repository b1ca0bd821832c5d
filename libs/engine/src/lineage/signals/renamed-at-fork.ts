// Renamed at the fork point: a side that took another name for the project right at the fork point is the new project,
// whoever went with it (a community fork often takes the maintainers along). Package, module, C project names and the
// repository a README names count; a README title changes for too many other reasons. Read before the maintainers,
// which it overrules.
import type { Rename, Side, Topology } from '../../types';
import { sameName } from '../names';
import { type Findings, item, other, short } from './context';
import type { KeptName } from './identity';
import { WEIGHTS } from './weights';

const repoPart = (x: string): string => x.slice(x.lastIndexOf('/') + 1);

/**
 * The rename a side made of a name the other side kept, to a name that is new. A README that comes to cite the shared
 * project's repository most (postman-request's list of request/request issues it fixes outgrew its links to
 * form-data/form-data) has not renamed anything. A README's repository keeps the project's name when only its owner
 * differs (request/request, cypress-io/request).
 */
export function renameAt(topo: Topology, kept: readonly KeptName[], s: Side): Rename | undefined {
  const isNew = (r: Rename): boolean =>
    !topo.forkPointNames.some(
      (n) => sameName(n.name, r.to) || (r.kind === 'url' && sameName(repoPart(r.to), n.kind === 'url' ? repoPart(n.name) : n.name)),
    );
  return (topo.renames?.[s] ?? []).find((r) => r.kind !== 'title' && isNew(r) && kept.some((i) => i.f.key === r.key && i.keeper !== s));
}

export interface RenamedAtFork extends Findings {
  /** the one side that renamed itself at the fork point (when both did, neither counts), or null */
  renamed: Side | null;
}

/**
 * A rename says the side that made it is a new project; that the other side is the old one takes its people. When
 * neither side keeps the shared history's authors (`thirdLine`), the side that kept the name is a fork that kept it,
 * as for IDENTITY (identity.ts), and the vote weighs 0 (engine 0.7.13): two forks of Jeff Garzik's cpuminer, one
 * that renamed itself cgminer and one that kept the name under a new maintainer, are siblings.
 */
export function renamedAtFork(topo: Topology, kept: readonly KeptName[], thirdLine = false): RenamedAtFork {
  const o = renameAt(topo, kept, 'origin');
  const t = renameAt(topo, kept, 'target');
  const renamed: Side | null = o && !t ? 'origin' : t && !o ? 'target' : null;
  const out: RenamedAtFork = { votes: [], evidence: [], chronology: [], renamed };
  const r = renamed === 'origin' ? o : renamed === 'target' ? t : undefined;
  if (renamed && r) {
    const days = Math.max(0, Math.round((r.time - topo.forkPoints[0]!.time) / 86_400));
    const w = thirdLine ? 0 : WEIGHTS.RENAMED_AT_FORK;
    const d =
      `the ${renamed} took the name "${r.to}" in place of "${r.from}" (${r.path}) in ${short(r.commit)}, ${days} day${days === 1 ? '' : 's'} after the fork point, while the ${other(renamed)} kept it: the ${renamed} is the new project` +
      (thirdLine
        ? `, but neither side keeps the shared history's authors: the ${other(renamed)} kept the name without the people, and is not made the original by it`
        : '');
    out.votes.push({ kind: 'RENAMED_AT_FORK', original: other(renamed), weight: w, detail: d });
    out.evidence.push(item('RENAMED_AT_FORK', w, d));
  }
  return out;
}
