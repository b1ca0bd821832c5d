// Successor: the original pointing at the other side as where the project went on ("The new repository can be found
// at …", "now maintained by … at …"). Only the other side's own current name counts, not the shared project's. Read in
// the root prose and in the READMEs below the root where the side's matched code lives.
import type { Side } from '../../types';
import { declarationSentences, findSuccessor } from '../declarations';
import { type Findings, item, other } from './context';
import { type ReadingContext, at, spellingSet } from './reading';
import { WEIGHTS } from './weights';

/**
 * The addresses (owner/repo) a side gave as its own in its past and that the other side never gave (engine 0.7.19):
 * repositories move, and a notice names the successor where it was then. zip-rs/zip-old's "that has moved to
 * https://github.com/Pr0methean/zip" names zip-rs/zip2, whose Cargo.toml and README gave Pr0methean/zip for a year.
 */
function formerAddresses(r: ReadingContext, s: Side): Set<string> {
  const past = r.sides[s].names.past.filter((n) => n.kind === 'url');
  return new Set([...spellingSet(past)].filter((n) => n.includes('/') && !r.view[other(s)].all.has(n)));
}

/** The SUCCESSOR vote of the side `by` when its prose names the other side as its successor. */
export function successor(r: ReadingContext, by: Side): Findings & { named: boolean } {
  const them = r.view[other(by)];
  const nestedOf = (s: Side) => r.sides[s].nestedDocs ?? [];
  const found = findSuccessor(
    [...r.sides[by].docs, ...nestedOf(by)],
    new Set([...them.current, ...formerAddresses(r, other(by))].filter((n) => !r.forkNames.has(n))),
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
