// Scoring of the accuracy benchmark (bench/accuracy/README.md, "Scoring"): pure functions, no I/O.
// run.ts runs the engine and hands each run's verdict and direction here; score.test.ts pins the rules.

/** The verdicts that say one side comes from the other. */
export const DERIVED_VERDICTS: readonly string[] = ['DECLARED_FORK', 'HEAVILY_DERIVED', 'LIKELY_DERIVED'];
/** The verdicts that accuse nobody: predicted class `not-derived`. */
export const NOT_DERIVED_VERDICTS: readonly string[] = ['INDEPENDENT', 'INSUFFICIENT_EVIDENCE'];

/** What a pair really is, named from its accept list (truthClass). */
export type TruthClass = 'derived' | 'shared-upstream' | 'not-derived';
export const CLASSES: readonly TruthClass[] = ['derived', 'shared-upstream', 'not-derived'];

export type Scoring = 'strict' | 'lenient';

/** A pair's expectation in one orientation: `forbid` is already flipped for the swapped run. */
export interface Expectation {
  accept: readonly string[];
  forbid: readonly string[];
}
/** What one run gave: a verdict and a direction, or an error. */
export interface Outcome {
  verdict?: string;
  direction?: string;
  error?: string;
}
/** Why a run is wrong (undefined: right). */
export type Wrong =
  'error' | 'verdict' | 'direction' | 'false accusation' | 'strict: fork without a direction' | 'strict: partial copy called INDEPENDENT';
export interface Judgement {
  truth: TruthClass;
  /** Right by the pair's lists alone (accept, forbid_direction): the old score. */
  lenient: boolean;
  lenientWrong?: Wrong;
  /** Right by the lists and the strict rules. */
  strict: boolean;
  strictWrong?: Wrong;
  falseAccusation: boolean;
}

export const isDerived = (verdict: string | undefined): boolean => verdict !== undefined && DERIVED_VERDICTS.includes(verdict);

/**
 * The pair's truth class from its accept list: `derived` when it accepts a derived verdict,
 * `shared-upstream` when it accepts SHARED_UPSTREAM and no derived verdict, `not-derived` otherwise.
 */
export function truthClass(accept: readonly string[]): TruthClass {
  if (accept.some(isDerived)) return 'derived';
  if (accept.includes('SHARED_UPSTREAM')) return 'shared-upstream';
  return 'not-derived';
}

/** The class a verdict claims; undefined for an error (no verdict) or a name outside the three classes. */
export function predictedClass(verdict: string | undefined): TruthClass | undefined {
  if (verdict === undefined) return undefined;
  if (isDerived(verdict)) return 'derived';
  if (verdict === 'SHARED_UPSTREAM') return 'shared-upstream';
  if (NOT_DERIVED_VERDICTS.includes(verdict)) return 'not-derived';
  return undefined;
}

/**
 * A false accusation: the pair's truth is `not-derived` or `shared-upstream`, and the run gave a
 * derived verdict or a direction other than NONE. An error accuses nobody.
 */
export function isFalseAccusation(truth: TruthClass, o: Outcome): boolean {
  if (o.error || o.verdict === undefined || truth === 'derived') return false;
  return isDerived(o.verdict) || (o.direction !== undefined && o.direction !== 'NONE');
}

/** Why the run is wrong by the pair's lists alone, or undefined when it is right. */
function lenientWrong(e: Expectation, o: Outcome): Wrong | undefined {
  if (o.error || o.verdict === undefined) return 'error';
  if (!e.accept.includes(o.verdict)) return 'verdict';
  if (e.forbid.includes(o.direction ?? '')) return 'direction';
  return undefined;
}

/**
 * Scores one run both ways. Strict adds to the lists:
 * (a) accept holds only derived verdicts (a known fork): direction NONE is wrong;
 * (b) accept holds a derived verdict and INDEPENDENT (a documented partial copy or vendored library): INDEPENDENT is wrong;
 * (c) a false accusation is wrong, whatever the lists allow.
 */
export function judge(e: Expectation, o: Outcome): Judgement {
  const truth = truthClass(e.accept);
  const falseAccusation = isFalseAccusation(truth, o);
  const lw = lenientWrong(e, o);
  let sw: Wrong | undefined = lw;
  if (!sw) {
    const onlyDerived = e.accept.length > 0 && e.accept.every(isDerived);
    const partialCopy = e.accept.some(isDerived) && e.accept.includes('INDEPENDENT');
    if (falseAccusation) sw = 'false accusation';
    else if (onlyDerived && (o.direction ?? 'NONE') === 'NONE') sw = 'strict: fork without a direction';
    else if (partialCopy && o.verdict === 'INDEPENDENT') sw = 'strict: partial copy called INDEPENDENT';
  }
  return { truth, lenient: !lw, lenientWrong: lw, strict: !sw, strictWrong: sw, falseAccusation };
}

/** One scored run as the tables need it. */
export interface Scored {
  outcome: Outcome;
  judgement: Judgement;
}

export const isRight = (s: Scored, scoring: Scoring): boolean => (scoring === 'strict' ? s.judgement.strict : s.judgement.lenient);

export interface ClassRow {
  cls: TruthClass;
  /** Runs whose verdict is of this class (errors predict nothing). */
  predicted: number;
  /** Runs whose verdict is of this class, whose pair's truth is this class, and that are right. */
  right: number;
  /** Runs of pairs whose truth is this class (errors included). */
  expected: number;
  /** right / expected; null when nothing was expected. */
  recall: number | null;
  /** right / predicted; null when nothing was predicted. */
  precision: number | null;
}
export interface ClassTable {
  rows: ClassRow[];
  /** Right runs whose verdict is an accepted alternative of another class (counted in no row's right predictions). */
  rightOtherClass: number;
  /** Runs that ended in an error (counted in `expected`, in no row's `predicted`). */
  errors: number;
}

/** Per class precision and recall over a list of scored runs (README, "Per class precision and recall"). */
export function classTable(runs: readonly Scored[], scoring: Scoring): ClassTable {
  const rows: ClassRow[] = CLASSES.map((cls) => {
    const predicted = runs.filter((r) => predictedClass(r.outcome.verdict) === cls && !r.outcome.error);
    const expected = runs.filter((r) => r.judgement.truth === cls);
    const right = predicted.filter((r) => r.judgement.truth === cls && isRight(r, scoring)).length;
    return {
      cls,
      predicted: predicted.length,
      right,
      expected: expected.length,
      recall: expected.length ? right / expected.length : null,
      precision: predicted.length ? right / predicted.length : null,
    };
  });
  const rightOtherClass = runs.filter(
    (r) => isRight(r, scoring) && !r.outcome.error && predictedClass(r.outcome.verdict) !== r.judgement.truth,
  ).length;
  return { rows, rightOtherClass, errors: runs.filter((r) => r.outcome.error).length };
}

/** A ratio as a percentage with one decimal, '–' when undefined. */
export const pct = (x: number | null): string => (x === null ? '–' : `${(100 * x).toFixed(1)} %`);

/** `right / run` under a scoring. */
export function rightOfRun(runs: readonly Scored[], scoring: Scoring): string {
  return `${runs.filter((r) => isRight(r, scoring)).length} / ${runs.length}`;
}
