// Which side of a pair that shares history is the original (docs/engine.md, "When the histories share commits"; "Shared
// history is proof"). Each signal holds for forks in general, not for one
// project: ancestry, declarations, identity kept, maintainers kept, merges of
// the common line, and the chronology of material that appeared after the fork
// point. Pure: the same inputs give the same signals, items and weights.
import { dec } from '../compare/format';
import type { ChronologyFact, EvidenceItem, LineageResult, LineageSignal, Location, NameRef, Rename, Side, Topology } from '../types';
import { continuity } from './maintainers';
import { declarationSentences, declaresAnother, findDeclaration, findDeclarationInCode, findDenial, findSuccessor } from './declarations';
import { sameName, spellings, urlNames } from './names';

/** Weights of the signals in the decision (docs/engine.md): a direction needs 2 and twice the other side's. */
export const WEIGHTS = {
  /** the declarer names the other side by a name it carries now and that was not the shared project's */
  DECLARED_SPECIFIC: 3,
  /** the declarer names a name of the shared project (the other side's former or inherited name) */
  DECLARED_FORMER: 2,
  /** the original points at the other side as where the project went on ("The new repository can be found at …") */
  SUCCESSOR: 3,
  IDENTITY: { package: 2, module: 2, project: 1.5, url: 1, title: 0.5 } as Record<NameRef['kind'], number>,
  IDENTITY_MAX: 2.5,
  /** the other side took a new name for the project within RENAME_WINDOW_S of the fork point */
  RENAMED_AT_FORK: 3,
  MAINTAINERS_CLEAR: 2,
  MAINTAINERS_LEANING: 1,
  SYNC_MERGES: 1.5,
  SYNC_MERGES_MANY: 2,
  POST_FORK_CHRONOLOGY: 1,
} as const;
export const DIRECTION_MIN_WEIGHT = 2;

export interface SideLineageInput {
  url?: string;
  names: { pinned: NameRef[]; past: NameRef[] };
  /** prose files at the pinned commit (README, NOTICE, …) */
  docs: { path: string; blobId: string; text: string }[];
  /**
   * READMEs below the root, in directories that hold code matched with the other side: read for successor statements
   * only ("The core Go kit log packages … have been moved to their own repository at github.com/go-kit/log", go-kit/kit's
   * log/README.md). A package moved out of a larger repository is announced where it used to be, not at the top.
   */
  nestedDocs?: { path: string; blobId: string; text: string }[];
  /**
   * Comments of the files that hold code matched with the other side (Fingerprints' COMMENT items, normalised): read
   * without shared history for a declaration naming the other side ("Ported from `classnames` for compatibility
   * checks.", at the top of clsx's test/classnames.js). It speaks of that file, not the project: a direction, no verdict.
   */
  codeComments?: { path: string; blobId: string; line: number; text: string }[];
}

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
  certain: boolean;
}

const other = (s: Side): Side => (s === 'origin' ? 'target' : 'origin');
const short = (c: string): string => c.slice(0, 12);
const pct = (x: number): string => `${Math.round(x * 100)}%`;
const loc = (n: { path: string; line: number; blobId: string }): Location => ({
  path: n.path,
  startLine: n.line,
  endLine: n.line,
  blobId: n.blobId,
});
const citable = (n: NameRef): boolean => n.kind !== 'title' || !/\s/.test(n.name);

function spellingSet(names: readonly NameRef[], extra: readonly string[] = []): Set<string> {
  const out = new Set<string>();
  for (const n of names) if (citable(n)) for (const s of spellings(n.name)) out.add(s);
  for (const e of extra) for (const s of spellings(e)) out.add(s);
  return out;
}

/**
 * Signals on which side is the original, with their evidence items. `postFork`
 * holds the weights of matched material first dated after the fork point
 * (material dated inside shared commits is a tie and not counted there).
 */
export function lineageSignals(
  topo: Topology,
  sides: { origin: SideLineageInput; target: SideLineageInput },
  postFork: { origin: number; target: number },
): LineageOutput {
  const signals: LineageSignal[] = [];
  const evidence: EvidenceItem[] = [];
  const chronology: ChronologyFact[] = [];
  const item = (
    kind: string,
    weight: number,
    original: Side | 'none',
    detail: string,
    locs: { origin?: Location | null; target?: Location | null } = {},
  ): void => {
    evidence.push({
      id: '',
      layer: 'HISTORY',
      kind,
      strength: weight >= 2 ? 'STRONG' : weight >= 1 ? 'MODERATE' : 'WEAK',
      score: dec(Math.min(1, weight / 3)),
      origin: locs.origin ?? null,
      target: locs.target ?? null,
      detail,
    });
  };
  const vote = (kind: LineageSignal['kind'], original: Side | 'none', weight: number, detail: string): void => {
    signals.push({ kind, original, weight: weight.toFixed(4), detail });
  };

  const shared = topo.forkPoints.length > 0;
  for (const f of topo.forkPoints)
    chronology.push({
      kind: 'FORK_POINT',
      side: 'both',
      time: String(f.time),
      commit: f.commit,
      detail: `newest commit both histories hold (a merge base); origin made ${topo.originOnly} commits after it, target ${topo.targetOnly}${topo.truncated ? ' (counts stop at maxCommits)' : ''}`,
    });

  // Ancestry: certain when it applies.
  let certain: Side | null = null;
  if (shared && topo.originIsAncestor !== topo.targetIsAncestor) {
    certain = topo.originIsAncestor ? 'origin' : 'target';
    const d = `the ${certain}'s pinned commit is in the ${other(certain)}'s history: the ${other(certain)} continues it (${topo.originIsAncestor ? topo.targetOnly : topo.originOnly} commits after it)`;
    vote('ANCESTRY', certain, 10, d);
    item('PINNED_COMMIT_IN_OTHER_HISTORY', 3, certain, d);
  } else if (shared && topo.originIsAncestor) {
    vote('ANCESTRY', 'none', 0, 'both sides pin the same commit');
  }

  // A side that took another name for the project right at the fork point is the new project, whoever went with it
  // (a community fork often takes the maintainers along). Package, module, C project names and the repository a
  // README names count; a README title changes for too many other reasons. Read before the maintainers, which it overrules.
  // Per name key held at the fork point that one side kept and the other changed: both sides' names now, and the keeper.
  const identity = topo.forkPointNames.flatMap((f) => {
    const o = sides.origin.names.pinned.find((n) => n.key === f.key);
    const t = sides.target.names.pinned.find((n) => n.key === f.key);
    if (!o || !t || sameName(o.name, f.name) === sameName(t.name, f.name)) return [];
    return [{ f, o, t, keeper: (sameName(o.name, f.name) ? 'origin' : 'target') as Side }];
  });
  // The new name must be new: a README that comes to cite the shared project's repository most (postman-request's
  // list of request/request issues it fixes outgrew its links to form-data/form-data) has not renamed anything.
  // A README's repository keeps the project's name when only its owner differs (request/request, cypress-io/request).
  const repoPart = (x: string): string => x.slice(x.lastIndexOf('/') + 1);
  const isNew = (r: Rename): boolean =>
    !topo.forkPointNames.some(
      (n) => sameName(n.name, r.to) || (r.kind === 'url' && sameName(repoPart(r.to), n.kind === 'url' ? repoPart(n.name) : n.name)),
    );
  const renameAt = (s: Side): Rename | undefined =>
    (topo.renames?.[s] ?? []).find((r) => r.kind !== 'title' && isNew(r) && identity.some((i) => i.f.key === r.key && i.keeper !== s));
  const renamed: Side | null =
    renameAt('origin') && !renameAt('target') ? 'origin' : renameAt('target') && !renameAt('origin') ? 'target' : null;

  // Maintainers: the side the people who made the shared history went on committing to.
  const c = continuity(topo.authors.preFork, topo.authors.origin, topo.authors.target);
  const bothWent = c.counted.origin > 0 && c.counted.target > 0;
  const thirdLine =
    bothWent && c.counted.preFork >= 5 && topo.originOnly >= 3 && topo.targetOnly >= 3 && Math.max(c.origin, c.target) < 0.05;
  if (bothWent) {
    const hi: Side = c.origin >= c.target ? 'origin' : 'target';
    const h = Math.max(c.origin, c.target);
    const l = Math.min(c.origin, c.target);
    const kept = h >= 0.1 && h >= 3 * l ? WEIGHTS.MAINTAINERS_CLEAR : h >= 0.1 && h >= 1.5 * l ? WEIGHTS.MAINTAINERS_LEANING : 0;
    const w = renamed === hi ? 0 : kept;
    const core = c.core.map((a) => `${a.name} ${pct(a.share)}`).join(', ');
    const eq = topo.equivalentCommits ?? 0;
    const d =
      `authors of the shared history${eq ? ` and of the ${eq} commits both sides hold under other ids (the same author time and subject; ` : ' ('}most commits: ${core}) made ${dec(c.origin)} of the origin's ${c.counted.origin} later commits (by share) and ${dec(c.target)} of the target's ${c.counted.target}` +
      (w
        ? `: the ${hi} keeps its maintainers`
        : kept
          ? `: they went on with the ${hi}, which took a new name at the fork point: maintainers leaving with a renamed fork do not make it the original`
          : thirdLine
            ? ': neither side keeps them'
            : ': no clear difference');
    vote('MAINTAINERS', w ? hi : 'none', w, d);
    item('MAINTAINERS_CONTINUED', w, w ? hi : 'none', d);
  }

  // Identity: per name key held at the fork point, the side that kept it and the side that changed it.
  const idWeight = { origin: 0, target: 0 };
  const keptStrong = { origin: false, target: false };
  for (const { f, o, t, keeper } of identity) {
    const w = WEIGHTS.IDENTITY[f.kind];
    idWeight[keeper] += w;
    if (w >= WEIGHTS.IDENTITY.project) keptStrong[keeper] = true;
    const d = `${f.path} ${f.kind === 'title' ? 'title' : f.kind === 'url' ? 'repository' : 'name'} at the fork point ${short(f.commit)} was "${f.name}"; the origin has "${o.name}", the target "${t.name}": the ${keeper} kept the project's identity, the ${other(keeper)} changed it`;
    item('IDENTITY_KEPT', w, keeper, d, { origin: loc(o), target: loc(t) });
  }
  for (const s of ['origin', 'target'] as const) {
    if (idWeight[s] > 0)
      vote(
        'IDENTITY',
        s,
        Math.min(WEIGHTS.IDENTITY_MAX, idWeight[s]),
        `the ${s} kept names of the shared project that the ${other(s)} changed`,
      );
  }
  if (renamed) {
    const r = renameAt(renamed)!;
    const days = Math.max(0, Math.round((r.time - topo.forkPoints[0]!.time) / 86_400));
    const d = `the ${renamed} took the name "${r.to}" in place of "${r.from}" (${r.path}) in ${short(r.commit)}, ${days} day${days === 1 ? '' : 's'} after the fork point, while the ${other(renamed)} kept it: the ${renamed} is the new project`;
    vote('RENAMED_AT_FORK', other(renamed), WEIGHTS.RENAMED_AT_FORK, d);
    item('RENAMED_AT_FORK', WEIGHTS.RENAMED_AT_FORK, other(renamed), d);
  }

  // Declarations in prose, matched against every name the other side carried, and its URL. A name the
  // shared project carried (at the fork point, or earlier) points at the other side only if that side
  // continues the project (its maintainers, or its package name): two forks of a third project both
  // declare the third one. And the original pointing at its successor.
  const forkNames = spellingSet(topo.forkPointNames);
  const continues = (s: Side): boolean => keptStrong[s] || (bothWent && c[s] >= 0.1) || renamed === other(s);
  // A repository named as owner/repo ("a permanent fork of ghodss/yaml") at the other side's own URL is that side,
  // not a third project both descend from. Only the URL says so: a README still naming the shared project's
  // repository as its own is as often a fork that never edited it (form3tech-oss/jwt-go's README is dgrijalva's).
  const isRepository = (s: Side, name: string): boolean => name.includes('/') && urlNames(sides[s].url).includes(name);
  /** What one side reads of the other: the names it carries now, every name it carried, its prose sentences. */
  const seen = (s: Side) => ({
    current: spellingSet(sides[s].names.pinned, urlNames(sides[s].url)),
    all: spellingSet([...sides[s].names.pinned, ...sides[s].names.past, ...topo.forkPointNames], urlNames(sides[s].url)),
    // Text the other side (or the shared project) has word for word was inherited, not written by the declarer.
    inherited: new Set([...topo.forkPointSentences, ...declarationSentences(sides[s].docs.map((d) => d.text))]),
  });
  const view = { origin: seen('origin'), target: seen('target') };
  const at = (by: Side, f: { path: string; line: number }): { origin?: Location; target?: Location } => {
    const doc = [...sides[by].docs, ...(sides[by].nestedDocs ?? [])].find((d) => d.path === f.path);
    const l = { path: f.path, startLine: f.line, endLine: f.line, blobId: doc?.blobId ?? '' };
    return by === 'origin' ? { origin: l } : { target: l };
  };
  let declaration: LineageOutput['declaration'] = null;
  const declared: Partial<Record<Side, { specific: boolean; weight: number }>> = {};
  const named: Side[] = [];
  const finds: Partial<Record<Side, { found: NonNullable<ReturnType<typeof findDeclaration>>; specific: boolean; repository: boolean }>> =
    {};
  for (const by of ['target', 'origin'] as const) {
    const them = view[other(by)];
    // The declarer's own names, except those the other side carries too: "a fork of `request`" by a fork
    // whose README still has the title "Request" names the other side.
    const own = new Set([...view[by].current].filter((n) => !them.current.has(n)));
    // A denial ("this is not a clone of X") is evidence against descent from X, never for it; a README that both
    // denies and declares descent from one name has declared nothing about it.
    const denial = findDenial(sides[by].docs, them.all, own);
    if (denial) {
      const d = `the ${by}'s ${denial.path} denies descent from "${denial.name}", a name the ${other(by)} carries or carried: a denial is no declaration`;
      item('DENIED_DESCENT', 0, 'none', d, at(by, denial));
    }
    const found = findDeclaration(sides[by].docs, them.all, own, them.inherited);
    if (found && found.name !== denial?.name)
      finds[by] = {
        found,
        specific: them.current.has(found.name) && !forkNames.has(found.name),
        repository: isRepository(other(by), found.name),
      };
  }
  // Both sides declaring descent from the shared project by one of its names (Valkey's "forked from the open source
  // Redis project", KeyDB's "a fork of Redis"): each says it is a fork of that project, so neither is it, whoever
  // kept its maintainers. Two forks of a third project, and the declarations point at neither side.
  // A project's own names never declare anything: a name the declarer carries now is its own, never a third project
  // it descends from (an original deprecated in favour of a fork still carries the shared project's name in its title).
  const third = (by: Side): boolean => {
    const f = finds[by];
    return f !== undefined && !f.specific && !f.repository && forkNames.has(f.found.name) && !view[by].current.has(f.found.name);
  };
  const siblings = shared && third('origin') && third('target');
  // Without history in common, the same for a name the other side carried but carries no more: if that side's own text
  // declares descent from it too (node-build's "Forked from Sam Stephenson's ruby-build" against pyenv's "forked from
  // rbenv and ruby-build"), it is a second project made from it, not that project. A rename ("formerly known as X")
  // says the opposite and does not count. Commits held under other ids are history in common, and tell more than the
  // prose: saphyr, "based on a fork of chyh1990's yaml-rust", holds yaml-rust2's own commits rewritten.
  const alsoDeclares = (s: Side, name: string) => {
    const d = findDeclaration(
      sides[s].docs,
      new Set([name]),
      new Set([...view[s].current].filter((n) => n !== name)),
      view[other(s)].inherited,
    );
    return d && declaresAnother(d) ? d : null;
  };
  let commonUpstream: string | null = null;
  for (const by of ['target', 'origin'] as const) {
    const them = view[other(by)];
    const f = finds[by];
    if (f) {
      const { found, specific, repository } = f;
      const also = !shared && !topo.rewritten && !specific && !repository ? alsoDeclares(other(by), found.name) : null;
      if (also) commonUpstream ??= found.name;
      // The side that kept more of the shared project's names (IDENTITY) and cites one of them speaks of itself
      // (postman-request, which kept only the README title "Request", still declares descent from request's package).
      const self = idWeight[by] > idWeight[other(by)] && view[by].current.has(found.name) && !specific;
      const w =
        siblings || also || self
          ? 0
          : specific
            ? WEIGHTS.DECLARED_SPECIFIC
            : !shared || continues(other(by)) || repository
              ? WEIGHTS.DECLARED_FORMER
              : 0;
      declared[by] = { specific, weight: w };
      const whose = specific
        ? `a name the ${other(by)} carries`
        : repository
          ? `the ${other(by)}'s own repository`
          : `a name the ${other(by)} carried${shared ? ' or the shared project carried' : ''}`;
      const d =
        `the ${by}'s ${found.path} declares descent from "${found.name}", ${whose}` +
        (w
          ? ''
          : self
            ? `; the ${by} kept the shared project's names and carries this one itself: a project's own name declares nothing`
            : siblings
              ? `; the ${other(by)} declares descent from the shared project too, so both descend from it`
              : also
                ? `; the ${other(by)}'s ${also.path} declares descent from it too, so both descend from it`
                : `; the ${other(by)} does not continue that project (maintainers, package name or repository), so both may descend from it`);
      vote('DECLARATION', w ? other(by) : 'none', w, d);
      item('DECLARED_UPSTREAM', w ? Math.max(2, w) : 1, w ? other(by) : 'none', d, {
        ...at(by, found),
        ...(also ? at(other(by), also) : {}),
      });
      chronology.push({
        kind: 'DECLARED_UPSTREAM',
        side: by,
        time: null,
        commit: null,
        detail: `${found.path}:${found.line} names ${w ? 'the other repository' : 'a project both descend from'} as its origin`,
      });
    }
    // The original pointing at its successor: only the other side's own current name counts, not the shared project's.
    const nestedOf = (s: Side) => sides[s].nestedDocs ?? [];
    const successor = findSuccessor(
      [...sides[by].docs, ...nestedOf(by)],
      new Set([...them.current].filter((n) => !forkNames.has(n))),
      view[by].current,
      nestedOf(other(by)).length
        ? new Set([...them.inherited, ...declarationSentences(nestedOf(other(by)).map((d) => d.text))])
        : them.inherited,
    );
    if (successor) {
      named.push(by);
      const d = `the ${by}'s ${successor.path} points at "${successor.name}", a name the ${other(by)} carries, as where the project went on: the ${other(by)} is its successor`;
      vote('SUCCESSOR', by, WEIGHTS.SUCCESSOR, d);
      item('SUCCESSOR_NAMED', WEIGHTS.SUCCESSOR, by, d, at(by, successor));
      chronology.push({
        kind: 'SUCCESSOR_NAMED',
        side: by,
        time: null,
        commit: null,
        detail: `${successor.path}:${successor.line} names the other repository as where the project went on`,
      });
    }
  }

  // Without shared history: a comment in matched code that names the other side by a name it carries now.
  const inCode: Side[] = [];
  for (const by of shared ? [] : (['target', 'origin'] as const)) {
    const comments = sides[by].codeComments ?? [];
    const them = view[other(by)];
    const own = new Set([...view[by].current].filter((n) => !them.current.has(n)));
    // Each comment is its own text (normalised to one line), so a sentence never runs from one into the next.
    const found = findDeclarationInCode(
      comments.map((x, i) => ({ path: String(i), text: x.text })),
      them.current,
      own,
      them.inherited,
    );
    if (!found) continue;
    inCode.push(by);
    const at = comments[Number(found.path)]!;
    const d = `a comment in the ${by}'s ${at.path}:${at.line}, code matched with the ${other(by)}'s, declares descent from "${found.name}", a name the ${other(by)} carries: that code came from the ${other(by)}`;
    item('DECLARED_IN_CODE', 2, other(by), d, { [by]: { path: at.path, startLine: at.line, endLine: at.line, blobId: at.blobId } });
    chronology.push({
      kind: 'DECLARED_IN_CODE',
      side: by,
      time: null,
      commit: null,
      detail: `${at.path}:${at.line} names the other repository as where its code came from`,
    });
  }

  const dT = declared.target?.weight ?? 0;
  const dO = declared.origin?.weight ?? 0;
  if (dT > dO) declaration = { by: 'target', specific: declared.target!.specific };
  else if (dO > dT) declaration = { by: 'origin', specific: declared.origin!.specific };

  // Merges of the common line made after the fork point: the side that keeps pulling it in is downstream.
  const mO = topo.syncMerges.origin;
  const mT = topo.syncMerges.target;
  if (shared && (mO || mT)) {
    const puller: Side = mT >= mO ? 'target' : 'origin';
    const hi = Math.max(mO, mT);
    const lo = Math.min(mO, mT);
    const w = hi >= 3 && hi >= 3 * lo ? (hi >= 10 ? WEIGHTS.SYNC_MERGES_MANY : WEIGHTS.SYNC_MERGES) : 0;
    const d = `after the fork point the origin merged shared history ${mO} times, the target ${mT} times${w ? `: the ${puller} pulls from the ${other(puller)}` : ''}`;
    vote('SYNC_MERGES', w ? other(puller) : 'none', w, d);
    item('SYNC_MERGES', w, w ? other(puller) : 'none', d);
  }

  // Material that first appears after the fork point: the side that had it first is its source.
  if (shared && (postFork.origin || postFork.target)) {
    const first: Side = postFork.origin >= postFork.target ? 'origin' : 'target';
    const hi = Math.max(postFork.origin, postFork.target);
    const lo = Math.min(postFork.origin, postFork.target);
    const w = hi >= 20 && hi >= 2 * lo ? WEIGHTS.POST_FORK_CHRONOLOGY : 0;
    const d = `matched material first seen after the fork point appears earlier in the origin (${postFork.origin} fingerprints) and earlier in the target (${postFork.target})`;
    vote('POST_FORK_CHRONOLOGY', w ? first : 'none', w, d);
    item('POST_FORK_CHRONOLOGY', w, w ? first : 'none', d);
  }

  // The decision's direction.
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
      thirdLine,
      original: original ?? 'none',
      certain: certain !== null,
    },
    evidence,
    chronology,
    declaration,
    original,
    certain: certain !== null,
    successorNamedBy: named.length === 1 ? named[0]! : null,
    declaredInCodeBy: inCode.length === 1 ? inCode[0]! : null,
    commonUpstream,
  };
}
