// The HISTORY layer's own items: commits both histories hold, by id (shared commits), as a common line under other
// ids (a history converted twice, a re-import: the same trees or the same author, time and message commit after
// commit), or as a history rewritten apart; and the layer's score from how much of the smaller history they are.
import type { ChronologyFact, EvidenceItem, EvidenceKind, SliceContent, Topology } from '../types';
import { commonLineHow } from '../lineage/common-line';
import { slicesApart } from '../lineage/slices';
import { dec, isoTime } from './format';

/** A side's history held in common scores from HISTORY_FLOOR up, reaching 1 when all of the smaller history is. */
const HISTORY_FLOOR = 0.5;
/** The HISTORY score of a declaration alone, with no history in common. */
const DECLARED_ONLY = 0.75;

export interface HistoryFacts {
  score: number;
  evidence: EvidenceItem[];
  chronology: ChronologyFact[];
  /** the fork point is a commit on each side (a common line): the lineage signals' single FORK_POINT fact gives way */
  forkPointPerSide: boolean;
}

const held = (commits: number, walked: { origin: number; target: number }): number =>
  Math.min(1, HISTORY_FLOOR + commits / (2 * Math.max(1, Math.min(walked.origin, walked.target))));

export function historyFacts(topo: Topology, walked: { origin: number; target: number }, declared: boolean): HistoryFacts {
  const out: HistoryFacts = { score: 0, evidence: [], chronology: [], forkPointPerSide: false };
  const line = topo.commonLine;
  if (line) {
    // No commit id in common, but a line both hold under other ids: shared history all the same, shown as such.
    out.score = held(line.commits, walked);
    const detail =
      `0 commit ids in common, but ${line.commits}${topo.truncated ? '+' : ''} commits are the same under other ids, commit after commit ` +
      `(${commonLineHow(line)}): common ancestry; the common line ends at the origin's ${line.origin.commit} and the target's ` +
      `${line.target.commit} (authored ${isoTime(line.authored)}); after it the origin made ${topo.originOnly} commits, the target ${topo.targetOnly}`;
    out.evidence.push(item('EQUIVALENT_COMMITS', out.score, detail));
    out.chronology.push({ kind: 'EQUIVALENT_COMMITS', side: 'both', time: String(line.authored), commit: null, detail });
    out.forkPointPerSide = true;
    for (const side of ['origin', 'target'] as const) {
      const other = side === 'origin' ? 'target' : 'origin';
      out.chronology.push({
        kind: 'FORK_POINT',
        side,
        time: String(line[side].time),
        commit: line[side].commit,
        detail: `newest commit of the line both histories hold under other ids (the ${other}'s ${line[other].commit}); the ${side} made ${side === 'origin' ? topo.originOnly : topo.targetOnly} commits after it${topo.truncated ? ' (counts stop at maxCommits)' : ''}`,
      });
    }
  } else if (topo.forkPoints.length > 0) {
    out.score = held(topo.sharedCommits, walked);
    const f = topo.forkPoints[0]!;
    out.evidence.push(
      item(
        'SHARED_COMMITS',
        out.score,
        `${topo.sharedCommits}${topo.truncated ? '+' : ''} commits in both histories: common ancestry; fork point ${f.commit} (${new Date(f.time * 1000).toISOString().slice(0, 10)})` +
          `${topo.forkPoints.length > 1 ? ` and ${topo.forkPoints.length - 1} more merge base(s)` : ''}; after it the origin made ${topo.originOnly} commits, the target ${topo.targetOnly}`,
      ),
    );
    out.chronology.push({
      kind: 'SHARED_COMMITS',
      side: 'both',
      time: String(f.time),
      commit: f.commit,
      detail: `${topo.sharedCommits} commits in both histories; newest shared commit given`,
    });
  } else if (declared) out.score = DECLARED_ONLY;
  // Commits both histories hold under other ids: a history rewritten apart is shared history all the same.
  const r = topo.rewritten;
  if (r) {
    const score = held(r.commits, r);
    out.score = Math.max(out.score, score);
    const detail = `${r.commits} commits are in both histories under other ids (the same author time, author e-mail and subject; the newest authored ${isoTime(r.newest)}): a history rewritten from the other's, or from a common one: common ancestry; the origin's walk has ${r.origin} commits, the target's ${r.target}${r.content ? sliceWords(r.content) : ''}`;
    out.evidence.push(item('REWRITTEN_COMMITS', score, detail));
    out.chronology.push({ kind: 'REWRITTEN_COMMITS', side: 'both', time: String(r.newest), commit: null, detail });
  }
  return out;
}

function item(kind: EvidenceKind, score: number, detail: string): EvidenceItem {
  return { id: '', layer: 'HISTORY', kind, strength: 'STRONG', score: dec(score), origin: null, target: null, detail };
}

/** What the two sides' copies of the commits held under other ids changed, in words (lineage/slices.ts). */
function sliceWords(s: SliceContent): string {
  if (!s.compared) return '';
  const share = `of the newest ${s.compared} that changed content on both sides, ${s.shared} of ${s.changed} blobs written (the smaller side's) are the same`;
  return slicesApart(s) ? `; ${share}: each side kept its own part of the same commits, two slices of one history` : `; ${share}`;
}
