// Successor: the original pointing at the other side as where the project went on ("The new repository can be found
// at …", "now maintained by … at …"). Only the other side's own current name counts, not the shared project's. Read in
// the root prose and in the READMEs below the root where the side's matched code lives.
import type { Side } from '../../types';
import { declarationSentences, findSuccessor } from '../declarations';
import { type Findings, item, other } from './context';
import { type ReadingContext, at } from './reading';
import { WEIGHTS } from './weights';

/** The SUCCESSOR vote of the side `by` when its prose names the other side as its successor. */
export function successor(r: ReadingContext, by: Side): Findings & { named: boolean } {
  const them = r.view[other(by)];
  const nestedOf = (s: Side) => r.sides[s].nestedDocs ?? [];
  const found = findSuccessor(
    [...r.sides[by].docs, ...nestedOf(by)],
    new Set([...them.current].filter((n) => !r.forkNames.has(n))),
    r.view[by].current,
    nestedOf(other(by)).length
      ? new Set([...them.inherited, ...declarationSentences(nestedOf(other(by)).map((d) => d.text))])
      : them.inherited,
  );
  if (!found) return { votes: [], evidence: [], chronology: [], named: false };
  const d = `the ${by}'s ${found.path} points at "${found.name}", a name the ${other(by)} carries, as where the project went on: the ${other(by)} is its successor`;
  return {
    named: true,
    votes: [{ kind: 'SUCCESSOR', original: by, weight: WEIGHTS.SUCCESSOR, detail: d }],
    evidence: [item('SUCCESSOR_NAMED', WEIGHTS.SUCCESSOR, d, at(r, by, found))],
    chronology: [
      {
        kind: 'SUCCESSOR_NAMED',
        side: by,
        time: null,
        commit: null,
        detail: `${found.path}:${found.line} names the other repository as where the project went on`,
      },
    ],
  };
}
