// Declarations in prose, matched against every name the other side carried, and its URL. A name the shared project
// carried (at the fork point, or earlier) points at the other side only if that side continues the project (its
// maintainers, or its package name): two forks of a third project both declare the third one. Three rules say when a
// declaration names no side: siblings (both declare the shared project), a common upstream (without shared history,
// both declare a name the other carried), and a project's own names (they never declare anything).
import type { Side } from '../../types';
import { OWN_NAME_TRIGGER } from '../declaration-phrases';
import { type Declaration, declaresAnother, findDeclaration, findDenial, findDesignClaim } from '../declarations';
import { normName } from '../maintainers';
import { urlNames } from '../names';
import { type Findings, item, other } from './context';
import { type ReadingContext, at, ownNames } from './reading';
import { holdsHistoryOf, namesAnotherSite } from './third-project';
import { WEIGHTS } from './weights';

/** A declaration one side makes of a name the other side carries or carried. */
export interface Found {
  found: Declaration;
  /** it names the other side by a name it carries now and that was not the shared project's */
  specific: boolean;
  /** it names the other side's own repository (owner/repo at the URL the caller gave) */
  repository: boolean;
}

/** What the signals read before the declarations found, as the declarations weigh them. */
export interface Earlier {
  /** the weight of the fork point's names each side kept (IDENTITY) */
  identityWeight: Record<Side, number>;
  /** the side continues the shared project: its names, its maintainers, or the other side renamed itself at the fork */
  continues: (s: Side) => boolean;
}

/**
 * A repository named as owner/repo ("a permanent fork of ghodss/yaml") at the other side's own URL is that side, not a
 * third project both descend from. Only the URL says so: a README still naming the shared project's repository as its
 * own is as often a fork that never edited it (form3tech-oss/jwt-go's README is dgrijalva's).
 */
const isRepository = (r: ReadingContext, s: Side, name: string): boolean => name.includes('/') && urlNames(r.sides[s].url).includes(name);

/** A possessor shorter than this matches no person's name by containment ("a fork of ab's x" is not Abigail's). */
const MIN_POSSESSOR = 3;

/**
 * Whether `word`, the possessor of a declared name ("a fork of ioerror's version of sslscan"), is the side `s`: the
 * owner of an address it carries (its URL, a manifest's or README's repository), a name it carries, or one of its
 * people: the authors of its own later commits, and the shared history's when it continues the project (their
 * handles in GitHub's no-reply addresses and e-mail local parts, or part of their names: "Jeff Garzik's cpuminer").
 */
export function possessedBy(r: ReadingContext, s: Side, word: string, continues: boolean): boolean {
  const w = word.toLowerCase();
  if (r.view[s].current.has(w) || [...r.view[s].current].some((n) => n.split('/').length === 2 && n.split('/')[0] === w)) return true;
  const people = [...r.topo.authors[s], ...(continues ? r.topo.authors.preFork : [])];
  return people.some((a) => {
    const local = a.email
      .toLowerCase()
      .split('@')[0]!
      .replace(/^\d+\+/, '');
    return local === w || (w.length >= MIN_POSSESSOR && normName(a.name).includes(normName(w)));
  });
}

/**
 * Each side's denial (an evidence item: a denial is no declaration) and declaration, target first. A README that both
 * denies and declares descent from one name has declared nothing about it. Without history in common, a side that
 * declares nothing but says it remade the other's project in code of its own ("a Python implementation of Mustache")
 * makes a claim of design descent (`claimed`): an evidence item that weighs nothing.
 */
export function declarationsFound(
  r: ReadingContext,
): Findings & { found: Partial<Record<Side, Found>>; claimed: Partial<Record<Side, Declaration>> } {
  const out: Findings & { found: Partial<Record<Side, Found>>; claimed: Partial<Record<Side, Declaration>> } = {
    votes: [],
    evidence: [],
    chronology: [],
    found: {},
    claimed: {},
  };
  for (const by of ['target', 'origin'] as const) {
    const them = r.view[other(by)];
    const own = ownNames(r, by);
    const denial = findDenial(r.sides[by].docs, them.all, own);
    if (denial) {
      const d = `the ${by}'s ${denial.path} denies descent from "${denial.name}", a name the ${other(by)} carries or carried: a denial is no declaration`;
      out.evidence.push(item('DENIED_DESCENT', 0, d, at(r, by, denial)));
    }
    const found = findDeclaration(r.sides[by].docs, them.all, own, them.inherited, undefined, ownNames(r, other(by)));
    if (found && found.name !== denial?.name)
      out.found[by] = {
        found,
        specific: them.current.has(found.name) && !r.forkNames.has(found.name),
        repository: isRepository(r, other(by), found.name),
      };
    const claim = !found && !r.shared && !r.topo.rewritten ? findDesignClaim(r.sides[by].docs, them.all, own, them.inherited) : null;
    if (claim && claim.name !== denial?.name) {
      out.claimed[by] = claim;
      const d =
        `the ${by}'s ${claim.path} says it remade "${claim.name}", a name the ${other(by)} carries or carried, in code of its own: ` +
        'a claim of design descent, which never convicts; with nothing else in common the pair is not called independent';
      out.evidence.push(item('DECLARED_UPSTREAM', 0, d, at(r, by, claim)));
    }
  }
  return out;
}

/**
 * Both sides declaring descent from the shared project by one of its names (Valkey's "forked from the open source Redis
 * project", KeyDB's "a fork of Redis"): each says it is a fork of that project, so neither is it, whoever kept its
 * maintainers. A phrase rule: it gives way where the history signals agree (see `historyAgrees`).
 */
export function siblings(r: ReadingContext, found: Partial<Record<Side, Found>>): boolean {
  const third = (by: Side): boolean => {
    const f = found[by];
    return f !== undefined && !f.specific && !f.repository && r.forkNames.has(f.found.name);
  };
  return r.shared && third('origin') && third('target');
}

/** Distinct history signals that must point at one side, with none at the other, to outweigh a phrase rule. */
export const AGREEING_KINDS = 2;

/**
 * Independent signals that agree are not overruled by one weaker signal: when at least AGREEING_KINDS of the history
 * signals read before the declarations (maintainers, identity, a rename at the fork point) point at one side and none
 * at the other, the siblings rule cannot take that direction away; the declarations then weigh as usual. An original
 * deprecated in favour of a fork keeps its maintainers and names while the fork renames itself, though both READMEs
 * name the shared project (the original's own name); two forks of request that each kept one of its names do not agree.
 */
export function historyAgrees(history: readonly Findings[]): boolean {
  const kinds = { origin: new Set<string>(), target: new Set<string>() };
  for (const f of history) for (const v of f.votes) if (v.original !== 'none' && v.weight > 0) kinds[v.original].add(v.kind);
  return (
    (kinds.origin.size >= AGREEING_KINDS && kinds.target.size === 0) || (kinds.target.size >= AGREEING_KINDS && kinds.origin.size === 0)
  );
}

/**
 * Without history in common, a name the other side carried but carries no more: if that side's own text declares
 * descent from it too (node-build's "Forked from Sam Stephenson's ruby-build" against pyenv's "forked from rbenv and
 * ruby-build"), it is a second project made from it, not that project. A rename ("formerly known as X") says the
 * opposite and does not count.
 */
function alsoDeclares(r: ReadingContext, s: Side, name: string): Declaration | null {
  const own = new Set([...r.view[s].current].filter((n) => n !== name));
  // A name the side carries now counts only as where it came from, not as a project that went on from it.
  const triggers = r.view[s].current.has(name) ? OWN_NAME_TRIGGER : undefined;
  // "[RE2J](…) is a port of the RE2 C++ code", in RE2's list of ports, is about the declarer: not RE2's own descent.
  const d = findDeclaration(r.sides[s].docs, new Set([name]), own, r.view[other(s)].inherited, triggers, ownNames(r, other(s)));
  return d && declaresAnother(d) ? d : null;
}

export interface Declared extends Findings {
  specific: boolean;
  weight: number;
  /** the name both sides declare descent from, without history in common */
  commonUpstream: string | null;
  /**
   * With history in common: the declared name is the shared project's and the other side does not continue it, so
   * the side that wrote it calls itself a fork of the project both hold (friendsofgo/errors: "a fork from
   * github.com/pkg/errors", against pingcap/errors): it is not that project's continuation (maintainers.ts). Never
   * for a name the side carries itself: a deprecation notice pointing at "a fork of <own name>" is about the fork.
   */
  forkOfShared: boolean;
}

/** The DECLARATION vote of the side `by` for what it declared (`f`), with its evidence item and chronology fact. */
export function declaration(r: ReadingContext, by: Side, f: Found, earlier: Earlier, bothSiblings: boolean): Declared {
  const { found, specific, repository } = f;
  const shared = r.shared;
  // Commits held under other ids are history in common, and tell more than the prose: saphyr, "based on a fork of
  // chyh1990's yaml-rust", holds yaml-rust2's own commits rewritten.
  // A name the other side still carries counts too: a side that says it descends from a project of its own name ("a
  // portable version of the OpenBSD signify command", in signify) is a second project made from it.
  const also = !shared && !r.topo.rewritten && !repository ? alsoDeclares(r, other(by), found.name) : null;
  // A name the declarer's own history went by names the project whose history it holds: "My fork of `slstatus`", in a
  // build that carries slstatus's history, against a fresh copy of slstatus that carries the name. That project is the
  // other side only when the other side's people include the founder of that history.
  const held = !shared && !r.topo.rewritten && !repository && !also && holdsHistoryOf(r, by, found.name);
  // A name linked to a site the other side never gives names the project at that site (third-project.ts).
  const site = !shared && !r.topo.rewritten && !repository && !also && !held && namesAnotherSite(r, by, found.site);
  // The side that kept more of the shared project's names (IDENTITY) and cites one of them speaks of itself
  // (postman-request, which kept only the README title "Request", still declares descent from request's package).
  const self = earlier.identityWeight[by] > earlier.identityWeight[other(by)] && r.view[by].current.has(found.name) && !specific;
  // Someone's version of a name is that someone's project: with shared history, where each side's people are known, a
  // declaration citing the shared name through a possessor who is not the other side names a third project both may
  // descend from (rbsec/sslscan: "a fork of ioerror's version of sslscan", against DinoTools/sslscan).
  const elsewhere =
    shared && !repository && found.owner !== undefined && !possessedBy(r, other(by), found.owner, earlier.continues(other(by)));
  const w =
    bothSiblings || also || held || site || self || elsewhere
      ? 0
      : specific
        ? WEIGHTS.DECLARED_SPECIFIC
        : !shared || earlier.continues(other(by)) || repository
          ? WEIGHTS.DECLARED_FORMER
          : 0;
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
        : elsewhere
          ? `; it names ${found.owner}'s ${found.name}, and ${found.owner} is none of the ${other(by)}'s owners, names or people: both may descend from that project`
          : held
            ? `; the ${by}'s own history went by that name, and its founder made none of the ${other(by)}'s commits: it names the project whose history the ${by} holds, which both descend from`
            : site
              ? `; it names the project at ${found.site}, an address the ${other(by)} never gives as its own: both may descend from that project`
              : bothSiblings
                ? `; the ${other(by)} declares descent from the shared project too, so both descend from it`
                : also
                  ? `; the ${other(by)}'s ${also.path} declares descent from it too, so both descend from it`
                  : `; the ${other(by)} does not continue that project (maintainers, package name or repository), so both may descend from it`);
  const itemWeight = w ? Math.max(WEIGHTS.DECLARED_ITEM_COUNTED, w) : WEIGHTS.DECLARED_ITEM_UNCOUNTED;
  return {
    specific,
    weight: w,
    commonUpstream: also || held || site ? found.name : null,
    // The last branch of the detail above (a weight of 0 otherwise comes only with shared history, a name that is
    // not the other side's own, and no repository), and not for a name the declarer carries too: "platformdirs, a more
    // active fork of appdirs", in appdirs' deprecation notice, speaks of the other side.
    forkOfShared: !w && !bothSiblings && !also && !held && !site && !r.view[by].current.has(found.name),
    votes: [{ kind: 'DECLARATION', original: w ? other(by) : 'none', weight: w, detail: d }],
    evidence: [item('DECLARED_UPSTREAM', itemWeight, d, { ...at(r, by, found), ...(also ? at(r, other(by), also) : {}) })],
    chronology: [
      {
        kind: 'DECLARED_UPSTREAM',
        side: by,
        time: null,
        commit: null,
        detail: `${found.path}:${found.line} names ${w ? 'the other repository' : 'a project both descend from'} as its origin`,
      },
    ],
  };
}

/** The side whose declaration weighs more, or null when they weigh the same (none included). */
export function strongerDeclaration(
  declared: Partial<Record<Side, { specific: boolean; weight: number }>>,
): { by: Side; specific: boolean } | null {
  const dT = declared.target?.weight ?? 0;
  const dO = declared.origin?.weight ?? 0;
  if (dT > dO) return { by: 'target', specific: declared.target!.specific };
  if (dO > dT) return { by: 'origin', specific: declared.origin!.specific };
  return null;
}
