// What the signals read when the histories share no commit id: each side's matched files (their heads and how much
// matched material each holds), root licences, READMEs, authors and the commit most of its dated material came in.
import type { ChronologyFact, EvidenceItem, Location, Side } from '../../types';
import { dec } from '../../compare/format';
import type { SideThirdPartyInput } from '../third-party';

/** One side's inputs; `embedded` is null when the histories share commits (the signals then do not apply). */
export interface ApartSide {
  licences: { path: string; blobId: string; text: string }[];
  docs: readonly { path: string; blobId: string; text: string }[];
  /** names the side calls its own: its URL's and the repositories its README cites as itself */
  ownNames: readonly string[];
  /** the matched files' heads, matched material per file, code files and authors (thirdPartyCode's input) */
  embedded: SideThirdPartyInput | null;
  /** the side's history is a snapshot (a few commits, not truncated: `isSnapshot` in compare/dating.ts) */
  snapshot: boolean;
  /** the commit most of the side's dated matched material first appeared in */
  bulk: { commit: string; share: number; filesMade: number } | null;
}

export interface Finding {
  evidence: EvidenceItem[];
  chronology: ChronologyFact[];
}

export const none = (): Finding => ({ evidence: [], chronology: [] });

/** A copyright notice that says which side copied: an evidence item at the copier's file, and a chronology fact. */
export function copiedBy(by: Side, f: { path: string; line: number; blobId: string }, detail: string, fact: string): Finding {
  const at: Location = { path: f.path, startLine: f.line, endLine: f.line, blobId: f.blobId };
  return {
    evidence: [
      {
        id: '',
        layer: 'HISTORY',
        kind: 'COPYRIGHT_ATTRIBUTION',
        strength: 'STRONG',
        score: dec(2 / 3),
        origin: by === 'origin' ? at : null,
        target: by === 'target' ? at : null,
        detail,
      },
    ],
    chronology: [{ kind: 'COPYRIGHT_ATTRIBUTION', side: by, time: null, commit: null, detail: `${f.path}:${f.line} ${fact}` }],
  };
}

export const otherSide = (s: Side): Side => (s === 'origin' ? 'target' : 'origin');
