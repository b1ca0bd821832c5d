// A licence that kept the other side's principal author's copyright notice says who copied (licence.ts reads it).
import type { Side } from '../../types';
import { licenceAttribution, type SideAuthors } from '../licence';
import { copiedBy, none, otherSide, type ApartSide, type Finding } from './context';

export function licenceKept(sides: Record<Side, ApartSide>, authors: Record<Side, SideAuthors>): Finding & { by: Side | null } {
  const a = licenceAttribution({ origin: sides.origin.licences, target: sides.target.licences }, authors);
  if (!a) return { ...none(), by: null };
  const from = otherSide(a.by);
  return {
    ...copiedBy(
      a.by,
      a,
      `the ${a.by}'s ${a.path}:${a.line} names "${a.holder}" as a copyright holder: ` +
        `${a.founder ? `the author of the ${from}'s oldest commit, and ` : ''}of ${a.commits} of its ${a.of} commits, ` +
        `who made none of the ${a.by}'s: the ${a.by} kept the ${from}'s copyright notice`,
      "keeps the other side's author's copyright notice",
    ),
    by: a.by,
  };
}
