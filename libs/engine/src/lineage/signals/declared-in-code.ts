// Declared in code, without shared history: a comment in matched code that names the other side by a name it carries
// now ("Ported from `classnames` for compatibility checks.", clsx's test/classnames.js). It speaks of that code, not of
// the project: an evidence item and a direction for the decision, no vote.
import type { Side } from '../../types';
import { findDeclarationInCode } from '../declarations';
import { type Findings, item, other } from './context';
import { type ReadingContext, ownNames } from './reading';
import { WEIGHTS } from './weights';

export function declaredInCode(r: ReadingContext, by: Side): Findings & { declared: boolean } {
  const comments = r.sides[by].codeComments ?? [];
  const them = r.view[other(by)];
  // A comment the other side's matched code carries word for word is the common source's, not this side's word
  // about the other: read as a declaration, it would have the other side descend from itself (suckless st's "when
  // something is copied from st", in two builds of st).
  const theirs = new Set((r.sides[other(by)].codeComments ?? []).map((x) => x.text));
  // Each comment is its own text (normalised to one line), so a sentence never runs from one into the next.
  const found = findDeclarationInCode(
    comments.map((x, i) => ({ path: String(i), text: theirs.has(x.text) ? '' : x.text })),
    them.current,
    ownNames(r, by),
    them.inherited,
  );
  if (!found) return { votes: [], evidence: [], chronology: [], declared: false };
  const c = comments[Number(found.path)]!;
  const d = `a comment in the ${by}'s ${c.path}:${c.line}, code matched with the ${other(by)}'s, declares descent from "${found.name}", a name the ${other(by)} carries: that code came from the ${other(by)}`;
  return {
    declared: true,
    votes: [],
    evidence: [
      item('DECLARED_IN_CODE', WEIGHTS.DECLARED_IN_CODE, d, {
        [by]: { path: c.path, startLine: c.line, endLine: c.line, blobId: c.blobId },
      }),
    ],
    chronology: [
      {
        kind: 'DECLARED_IN_CODE',
        side: by,
        time: null,
        commit: null,
        detail: `${c.path}:${c.line} names the other repository as where its code came from`,
      },
    ],
  };
}
