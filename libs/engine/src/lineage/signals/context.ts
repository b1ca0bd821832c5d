// What every lineage signal reads and returns (docs/engine.md, "Signals on which side is the original"): the topology,
// both sides' inputs, and typed votes, evidence items and chronology facts that the runner (./index.ts) puts in order.
import { dec } from '../../compare/format';
import type { ChronologyFact, EvidenceItem, EvidenceKind, LineageSignal, Location, NameRef, Side, Topology } from '../../types';

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

export type Sides = { origin: SideLineageInput; target: SideLineageInput };

/** The evidence every signal may read: the topology of the two histories and both sides' inputs. */
export interface SignalContext {
  topo: Topology;
  sides: Sides;
  /** the histories share commits (there is a fork point) */
  shared: boolean;
}

/** One signal's say on which side is the original; the runner records its weight as a 4-place decimal. */
export interface Vote {
  kind: LineageSignal['kind'];
  original: Side | 'none';
  weight: number;
  detail: string;
}

/** What a signal returns for the runner to record, in this order within the signal. */
export interface Findings {
  votes: Vote[];
  evidence: EvidenceItem[];
  chronology: ChronologyFact[];
}

export const other = (s: Side): Side => (s === 'origin' ? 'target' : 'origin');
export const short = (c: string): string => c.slice(0, 12);
export const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** A HISTORY evidence item: its strength and score follow the weight (2 and up strong, 1 and up moderate). */
export function item(
  kind: EvidenceKind,
  weight: number,
  detail: string,
  locs: { origin?: Location | null; target?: Location | null } = {},
): EvidenceItem {
  return {
    id: '',
    layer: 'HISTORY',
    kind,
    strength: weight >= 2 ? 'STRONG' : weight >= 1 ? 'MODERATE' : 'WEAK',
    score: dec(Math.min(1, weight / 3)),
    origin: locs.origin ?? null,
    target: locs.target ?? null,
    detail,
  };
}

/** The line of a name as a location. */
export const loc = (n: { path: string; line: number; blobId: string }): Location => ({
  path: n.path,
  startLine: n.line,
  endLine: n.line,
  blobId: n.blobId,
});
