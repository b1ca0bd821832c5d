// Signals read only when the histories share no commit id (docs/engine.md, "Without shared history"): a licence
// that kept the other side's author's notice, a library both embed, a notice one side added under one both keep,
// and a template both were generated from. This runner calls them in order and records what they return in that
// order; each is a module of its own. Pure: the same inputs give the same findings.
import type { ChronologyFact, EvidenceItem, Side } from '../../types';
import type { SideAuthors } from '../licence';
import { commonTemplate } from './common-template';
import type { ApartSide } from './context';
import { embeddedLibrary } from './embedded-library';
import { licenceKept } from './licence-kept';
import { noticeAdded } from './notice-added';

export type { ApartSide } from './context';

export interface ApartOutput {
  evidence: EvidenceItem[];
  chronology: ChronologyFact[];
  /** the side both copyright readings name as the copier (absent when they disagree) */
  attributedBy: Side | null;
  /** the holder of a library both embed */
  thirdParty: string | null;
  /** the template both were generated from */
  template: string | null;
}

/** `authors` is the topology's, absent when the histories share commits or the walk did not count them. */
export function apartSignals(sides: Record<Side, ApartSide>, shared: boolean, authors: Record<Side, SideAuthors> | undefined): ApartOutput {
  const out: ApartOutput = { evidence: [], chronology: [], attributedBy: null, thirdParty: null, template: null };
  if (shared) return out;
  const record = (f: { evidence: EvidenceItem[]; chronology: ChronologyFact[] }): void => {
    out.evidence.push(...f.evidence);
    out.chronology.push(...f.chronology);
  };
  const licence = authors ? licenceKept(sides, authors) : null;
  if (licence) record(licence);
  const library = embeddedLibrary(sides);
  record(library);
  // A notice added under one both keep is read only where the code is not a library both embed.
  const added = library.holder === null ? noticeAdded(sides) : null;
  if (added) record(added);
  // Both copyright readings name the copier; when they disagree, neither gives the direction.
  const a = licence?.by ?? null;
  const b = added?.by ?? null;
  out.attributedBy = a && b ? (a === b ? a : null) : (a ?? b);
  out.thirdParty = library.holder;
  const template = commonTemplate(sides);
  record(template);
  out.template = template.template;
  return out;
}
