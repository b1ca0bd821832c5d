// Without a library both embed: one side's matched files adding its own people's notice under one both name says
// that side took the files and went on from them (added-notice.ts reads it).
import type { Side } from '../../types';
import { addedNotice } from '../added-notice';
import { copiedBy, none, otherSide, type ApartSide, type Finding } from './context';

export function noticeAdded(sides: Record<Side, ApartSide>): Finding & { by: Side | null } {
  const o = sides.origin.embedded;
  const t = sides.target.embedded;
  const added = o && t ? addedNotice({ origin: o, target: t }) : null;
  if (!added) return { ...none(), by: null };
  const by = added.by;
  return {
    ...copiedBy(
      by,
      added,
      `the ${by}'s ${added.path}:${added.line} adds "${added.added}", one of the ${by}'s own, under "${added.holder}", whom the ` +
        `${otherSide(by)}'s files name without it; the ${by}'s files that do so hold ${Math.round(added.share * 100)}% of its matched ` +
        `material: the ${by} took the files and went on from them`,
      `adds the ${by}'s own copyright notice under the one both sides' files keep`,
    ),
    by,
  };
}
