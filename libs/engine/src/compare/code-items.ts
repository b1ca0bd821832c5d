// The CODE layer's items (one per matched fragment, with its dating in words) and the chronology of each walk.
import type { ChronologyFact, EvidenceItem, Fingerprints, History } from '../types';
import type { Fragment } from './code';
import type { Dating } from './dating';
import { dec, isoTime, strengthOf } from './format';

/** Fragments listed as evidence, the largest first. */
const MAX_CODE_ITEMS = 2000;

export function codeItems(frags: readonly Fragment[], o: Fingerprints, t: Fingerprints, dates: Dating['dates']): EvidenceItem[] {
  const out: EvidenceItem[] = [];
  for (const f of frags.slice(0, MAX_CODE_ITEMS)) {
    const of = o.files[f.originFile]!;
    const tf = t.files[f.targetFile]!;
    const n = f.originFps.length;
    const d = dates.get(f);
    const when = d
      ? `; first appearance origin ${isoTime(d.o)}${d.oPath ? ` (in ${d.oPath})` : ''}, target ${isoTime(d.t)}${d.tPath ? ` (in ${d.tPath})` : ''}${d.shared ? ' (inherited from shared history)' : ''}${d.roots ? ' (both histories begin with it: not counted)' : ''}${d.borrowed ? ' (the earlier side keeps it in a directory named after the other project: not counted)' : ''}${d.former ? ` (the ${d.former.side} had it as "${d.former.identity.former}", before it became "${d.former.identity.current}", from an author who made none of its mainline commits since: the former project's, not counted)` : ''}${d.followed ? ` (the ${d.followed.side} had it first only in a line it carries from another repository (${d.followed.from}): that repository's, not counted)` : ''}${d.imported ? ` (the ${d.imported}'s history was committed in one go: its date is the import's, not counted)` : ''}`
      : '';
    out.push({
      id: '',
      layer: 'CODE',
      kind: 'CODE_FRAGMENT',
      strength: strengthOf(n, 8, 20),
      score: dec(Math.min(1, n / 40)),
      language: of.language,
      origin: { path: of.path, startLine: f.origin.startLine, endLine: f.origin.endLine, blobId: of.blobId },
      target: { path: tf.path, startLine: f.target.startLine, endLine: f.target.endLine, blobId: tf.blobId },
      detail: `${n} rare shared fingerprints${when}`,
    });
  }
  return out;
}

/** Each side's pinned commit and the oldest commit its walk reached. */
export function walkFacts(histories: { origin: History; target: History }): ChronologyFact[] {
  const out: ChronologyFact[] = [];
  for (const side of ['origin', 'target'] as const) {
    const h = histories[side];
    const head = h.commits[0];
    const oldest = h.commits.reduce<(typeof h.commits)[number] | undefined>(
      (m, c) => (!m || c.time < m.time || (c.time === m.time && c.id < m.id) ? c : m),
      undefined,
    );
    out.push({
      kind: 'PINNED_COMMIT',
      side,
      time: head ? String(head.time) : null,
      commit: head?.id ?? null,
      detail: `${h.commitsWalked} commits walked${h.truncated ? ' (history truncated at maxCommits)' : ''}`,
    });
    out.push({
      kind: 'OLDEST_COMMIT_WALKED',
      side,
      time: oldest ? String(oldest.time) : null,
      commit: oldest?.id ?? null,
      detail: 'oldest commit reachable within the limits',
    });
  }
  return out;
}
