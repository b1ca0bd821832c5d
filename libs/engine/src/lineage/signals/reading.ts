// What one side's prose is read against: the names the other side carries now, every name it carried, and the
// sentences it (or the shared project) has word for word. Shared by the declaration, successor and in-code signals.
import type { Location, NameRef, Side } from '../../types';
import { declarationSentences } from '../declarations';
import { spellings, urlNames } from '../names';
import { type SignalContext, other } from './context';

/** What one side reads of the other: the names it carries now, every name it carried, its prose sentences. */
export interface View {
  current: Set<string>;
  all: Set<string>;
  /** text the other side (or the shared project) has word for word was inherited, not written by the declarer */
  inherited: Set<string>;
}

/** The signal context with both sides' views and the names of the fork point, for the signals that read prose. */
export interface ReadingContext extends SignalContext {
  view: Record<Side, View>;
  /** every spelling of the names the shared project carried at the fork point */
  forkNames: Set<string>;
}

const citable = (n: NameRef): boolean => n.kind !== 'title' || !/\s/.test(n.name);

export function spellingSet(names: readonly NameRef[], extra: readonly string[] = []): Set<string> {
  const out = new Set<string>();
  for (const n of names) if (citable(n)) for (const s of spellings(n.name)) out.add(s);
  for (const e of extra) for (const s of spellings(e)) out.add(s);
  return out;
}

export function reading(ctx: SignalContext): ReadingContext {
  const { topo, sides } = ctx;
  const seen = (s: Side): View => ({
    current: spellingSet(sides[s].names.pinned, urlNames(sides[s].url)),
    all: spellingSet([...sides[s].names.pinned, ...sides[s].names.past, ...topo.forkPointNames], urlNames(sides[s].url)),
    inherited: new Set([...topo.forkPointSentences, ...declarationSentences(sides[s].docs.map((d) => d.text))]),
  });
  return { ...ctx, forkNames: spellingSet(topo.forkPointNames), view: { origin: seen('origin'), target: seen('target') } };
}

/**
 * The declarer's own names, except those the other side carries too: "a fork of `request`" by a fork whose README still
 * has the title "Request" names the other side.
 */
export const ownNames = (r: ReadingContext, by: Side): Set<string> =>
  new Set([...r.view[by].current].filter((n) => !r.view[other(by)].current.has(n)));

/** Where a sentence found in one side's prose (root or nested) stands, as that side's location. */
export function at(r: SignalContext, by: Side, f: { path: string; line: number }): { origin?: Location; target?: Location } {
  const doc = [...r.sides[by].docs, ...(r.sides[by].nestedDocs ?? [])].find((d) => d.path === f.path);
  const l = { path: f.path, startLine: f.line, endLine: f.line, blobId: doc?.blobId ?? '' };
  return by === 'origin' ? { origin: l } : { target: l };
}
