// When a declaration without history in common names a third project rather than the other side (docs/engine.md,
// evidence standard 3): the side's own history went by that name and is someone else's, or the name links to a site the
// other side never gives as its own. Then both sides carry the name of a project both may descend from.
import type { Side } from '../../types';
import { normName } from '../maintainers';
import { other } from './context';
import type { ReadingContext } from './reading';

/**
 * Without history in common: the declarer's own history went by `name` (a past name, not one it carries now), that
 * history is someone else's (its founder, the oldest commit's author, is not who made the side's newest commit: a
 * fork that began as a copy of the other side under its name, as lowdown began from hoedown's files, holds its own),
 * and the founder made none of the other side's commits.
 */
export function holdsHistoryOf(r: ReadingContext, by: Side, name: string): boolean {
  const past = r.view[by].all.has(name) && !r.view[by].current.has(name);
  const mine = r.topo.sideAuthors?.[by];
  const them = r.topo.sideAuthors?.[other(by)]?.authors;
  if (!past || !mine?.founder || !mine.latest || !them) return false;
  const same = (a: { name: string; email: string }, b: { name: string; email: string }): boolean =>
    (normName(a.name) !== '' && normName(a.name) === normName(b.name)) ||
    (a.email !== '' && a.email.toLowerCase() === b.email.toLowerCase());
  return !same(mine.founder, mine.latest) && !them.some((a) => same(a, mine.founder!));
}

/**
 * Without history in common: the declared name links to a site named after it (`linkedSite`: "My fork of
 * [st](https://st.suckless.org/)") that the other side never gives: not its repository's host, not in its README or
 * notices, which it has. An address names its project: the other side carrying the name (another build of st) is a
 * second project made from the one at that address, not that project. The project itself names its site, or is
 * hosted there.
 */
export function namesAnotherSite(r: ReadingContext, by: Side, site: string | undefined): boolean {
  const s = r.sides[other(by)];
  // A side with no README or notice of its own says nothing of the addresses it gives (QuakeSpasm's manual is
  // Quakespasm.txt): only prose that is there can be said never to give one.
  if (!site || !s.docs.length) return false;
  const host =
    (s.url ?? '')
      .toLowerCase()
      .replace(/^[a-z+]+:\/\/(?:[^@/]*@)?/, '')
      .split(/[/:]/)[0] ?? '';
  return host !== site && !host.endsWith(`.${site}`) && !s.docs.some((d) => d.text.toLowerCase().includes(site));
}
