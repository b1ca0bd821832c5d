// The weights of the lineage signals, named once (docs/engine.md, "Signals on which side is the original").
import type { NameRef } from '../../types';

/** Weights of the signals in the decision (docs/engine.md): a direction needs 2 and twice the other side's. */
export const WEIGHTS = {
  /** one pinned commit is in the other's history: certain, more than all other signals together */
  ANCESTRY: 10,
  /** its evidence item scores in full (an item's score is its weight / 3) */
  ANCESTRY_ITEM: 3,
  /** the declarer names the other side by a name it carries now and that was not the shared project's */
  DECLARED_SPECIFIC: 3,
  /** the declarer names a name of the shared project (the other side's former or inherited name) */
  DECLARED_FORMER: 2,
  /** a declaration that counts is a strong evidence item, whatever its weight */
  DECLARED_ITEM_COUNTED: 2,
  /** a declaration that does not count is still shown, as a weak item (a third project both descend from) */
  DECLARED_ITEM_UNCOUNTED: 1,
  /** a comment in matched code naming the other side: strong for that code, but a direction, no vote */
  DECLARED_IN_CODE: 2,
  /** the original points at the other side as where the project went on ("The new repository can be found at …") */
  SUCCESSOR: 3,
  /** a name of the fork point kept by one side: the names a package manager resolves weigh most, a README title least */
  IDENTITY: { package: 2, module: 2, project: 1.5, url: 1, title: 0.5 } as Record<NameRef['kind'], number>,
  /** identity is one signal however many names a side kept: below a rename or a declaration */
  IDENTITY_MAX: 2.5,
  /** the other side took a new name for the project within RENAME_WINDOW_S of the fork point */
  RENAMED_AT_FORK: 3,
  /** the shared history's authors made clearly more of one side's later commits (≥ 3× the other's share) */
  MAINTAINERS_CLEAR: 2,
  /** they lean to one side (≥ 1.5× the other's share): a hint, not enough for a direction alone */
  MAINTAINERS_LEANING: 1,
  /** one side keeps merging the other's line (≥ 3 merges and ≥ 3× the other side's): a fork keeping up */
  SYNC_MERGES: 1.5,
  /** it has done so 10 times or more */
  SYNC_MERGES_MANY: 2,
  /** matched material first seen after the fork point appeared first on one side: a hint only */
  POST_FORK_CHRONOLOGY: 1,
} as const;

/** The least total weight that gives a direction (and it must be twice the other side's). */
export const DIRECTION_MIN_WEIGHT = 2;
