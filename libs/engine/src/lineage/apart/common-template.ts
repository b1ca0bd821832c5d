// Two projects generated from one template: both READMEs cite it, and on each side the matched material first
// appeared in one commit that made the project's files (its bootstrap). The template is their common source.
import type { Side } from '../../types';
import { commonTemplate as citedByBoth, templatesCited } from '../templates';
import { none, type ApartSide, type Finding } from './context';

/** A side's matched material came with its bootstrap when this share of it first appeared in one commit … */
const BOOTSTRAP_SHARE = 0.8;
/** … that made at least this many of the files it still has. */
const BOOTSTRAP_FILES = 20;

type Bulk = NonNullable<ApartSide['bulk']>;
const bootstrap = (b: ApartSide['bulk']): b is Bulk => b !== null && b.share >= BOOTSTRAP_SHARE && b.filesMade >= BOOTSTRAP_FILES;
const pct = (b: Bulk): string => `${Math.round(b.share * 100)}%`;

export function commonTemplate(sides: Record<Side, ApartSide>): Finding & { template: string | null } {
  const own = new Set([...sides.origin.ownNames, ...sides.target.ownNames]);
  const cited = citedByBoth(templatesCited(sides.origin.docs), templatesCited(sides.target.docs), own);
  const o = sides.origin.bulk;
  const t = sides.target.bulk;
  if (!cited || !bootstrap(o) || !bootstrap(t)) return { ...none(), template: null };
  const detail =
    `both READMEs say the project was generated from ${cited}; the matched material first appeared in one commit on each side ` +
    `(origin ${o.commit.slice(0, 12)}: ${pct(o)} of its dated material, ${o.filesMade} files made; ` +
    `target ${t.commit.slice(0, 12)}: ${pct(t)}, ${t.filesMade} files made): the template's material`;
  return { evidence: [], chronology: [{ kind: 'COMMON_TEMPLATE', side: 'both', time: null, commit: null, detail }], template: cited };
}
