// The accuracy benchmark's scoring rules (score.ts) and held-out records (records.ts) on hand-made inputs.
import {
  firstResultsToAppend,
  latestRows,
  parseRecords,
  RECORD_COLUMNS,
  splitRow,
  summarize,
  tableRow,
  type HeldOutRecord,
} from './records';
import { classTable, isFalseAccusation, judge, predictedClass, truthClass, type Outcome, type Scored } from './score';

const FORK = ['DECLARED_FORK', 'HEAVILY_DERIVED', 'LIKELY_DERIVED'];
const INDEP = ['INDEPENDENT', 'INSUFFICIENT_EVIDENCE'];
const PARTIAL = ['INDEPENDENT', 'INSUFFICIENT_EVIDENCE', 'LIKELY_DERIVED'];
const SIBLINGS = ['SHARED_UPSTREAM'];
const BOTH = ['ORIGIN_TO_TARGET', 'TARGET_TO_ORIGIN'];

const run = (verdict: string, direction = 'NONE'): Outcome => ({ verdict, direction });
const ERR: Outcome = { error: 'TIMEOUT 1800 s' };

describe('truth class', () => {
  it('is derived when the accept list has a derived verdict, whatever else it has', () => {
    expect(truthClass(FORK)).toBe('derived');
    expect(truthClass(PARTIAL)).toBe('derived');
    expect(truthClass(['SHARED_UPSTREAM', 'DECLARED_FORK'])).toBe('derived');
  });
  it('is shared-upstream with SHARED_UPSTREAM and no derived verdict', () => {
    expect(truthClass(SIBLINGS)).toBe('shared-upstream');
    expect(truthClass(['INDEPENDENT', 'SHARED_UPSTREAM', 'INSUFFICIENT_EVIDENCE'])).toBe('shared-upstream');
  });
  it('is not-derived otherwise', () => {
    expect(truthClass(INDEP)).toBe('not-derived');
    expect(truthClass(['INSUFFICIENT_EVIDENCE'])).toBe('not-derived');
  });
  it('a verdict predicts its class; an error predicts none', () => {
    expect(predictedClass('HEAVILY_DERIVED')).toBe('derived');
    expect(predictedClass('SHARED_UPSTREAM')).toBe('shared-upstream');
    expect(predictedClass('INSUFFICIENT_EVIDENCE')).toBe('not-derived');
    expect(predictedClass(undefined)).toBeUndefined();
  });
});

describe('strict scoring', () => {
  it('a known fork with the direction forbidden by the list is wrong both ways', () => {
    const j = judge({ accept: FORK, forbid: ['TARGET_TO_ORIGIN'] }, run('DECLARED_FORK', 'TARGET_TO_ORIGIN'));
    expect(j).toMatchObject({ lenient: false, strict: false, lenientWrong: 'direction', strictWrong: 'direction' });
  });
  it('(a) a known fork with no direction is wrong, though the lists allow it', () => {
    const j = judge({ accept: FORK, forbid: ['TARGET_TO_ORIGIN'] }, run('DECLARED_FORK', 'NONE'));
    expect(j).toMatchObject({ lenient: true, strict: false, strictWrong: 'strict: fork without a direction', falseAccusation: false });
    expect(judge({ accept: FORK, forbid: ['TARGET_TO_ORIGIN'] }, run('LIKELY_DERIVED', 'ORIGIN_TO_TARGET')).strict).toBe(true);
  });
  it('(a) does not apply when the accept list also holds a non-derived verdict', () => {
    const accept = ['DECLARED_FORK', 'LIKELY_DERIVED', 'INSUFFICIENT_EVIDENCE'];
    expect(judge({ accept, forbid: ['TARGET_TO_ORIGIN'] }, run('DECLARED_FORK', 'NONE')).strict).toBe(true);
  });
  it('(b) a documented partial copy called INDEPENDENT is wrong; a derived verdict or INSUFFICIENT_EVIDENCE it accepts is right', () => {
    const e = { accept: PARTIAL, forbid: ['TARGET_TO_ORIGIN'] };
    expect(judge(e, run('INDEPENDENT'))).toMatchObject({
      lenient: true,
      strict: false,
      strictWrong: 'strict: partial copy called INDEPENDENT',
    });
    expect(judge(e, run('LIKELY_DERIVED', 'ORIGIN_TO_TARGET')).strict).toBe(true);
    expect(judge(e, run('LIKELY_DERIVED', 'NONE')).strict).toBe(true);
    expect(judge(e, run('INSUFFICIENT_EVIDENCE')).strict).toBe(true);
  });
  it('(b) an INDEPENDENT verdict on a pair that accepts no derived verdict is right', () => {
    expect(judge({ accept: INDEP, forbid: BOTH }, run('INDEPENDENT'))).toMatchObject({ lenient: true, strict: true });
  });
  it('(c) a direction on an independent pair is a false accusation and wrong, even when its list forbids no direction', () => {
    const j = judge({ accept: INDEP, forbid: [] }, run('INDEPENDENT', 'TARGET_TO_ORIGIN'));
    expect(j).toMatchObject({ lenient: true, strict: false, strictWrong: 'false accusation', falseAccusation: true });
  });
  it('a verdict outside the accept list is wrong both ways', () => {
    expect(judge({ accept: INDEP, forbid: BOTH }, run('SHARED_UPSTREAM'))).toMatchObject({ lenient: false, strictWrong: 'verdict' });
  });
  it('an error is wrong and accuses nobody', () => {
    expect(judge({ accept: INDEP, forbid: BOTH }, ERR)).toMatchObject({
      lenient: false,
      strict: false,
      strictWrong: 'error',
      falseAccusation: false,
    });
  });
});

describe('false accusations', () => {
  it('a derived verdict on a not-derived or shared-upstream pair', () => {
    expect(isFalseAccusation('not-derived', run('DECLARED_FORK', 'NONE'))).toBe(true);
    expect(isFalseAccusation('shared-upstream', run('LIKELY_DERIVED', 'ORIGIN_TO_TARGET'))).toBe(true);
    expect(judge({ accept: INDEP, forbid: BOTH }, run('HEAVILY_DERIVED', 'ORIGIN_TO_TARGET')).falseAccusation).toBe(true);
  });
  it('a direction on a shared-upstream pair', () => {
    expect(isFalseAccusation('shared-upstream', run('SHARED_UPSTREAM', 'TARGET_TO_ORIGIN'))).toBe(true);
    expect(judge({ accept: SIBLINGS, forbid: [] }, run('SHARED_UPSTREAM', 'TARGET_TO_ORIGIN'))).toMatchObject({
      lenient: true,
      strict: false,
      falseAccusation: true,
    });
  });
  it('never on a derived pair, on a verdict without a direction that accuses nobody, or on an error', () => {
    expect(isFalseAccusation('derived', run('DECLARED_FORK', 'TARGET_TO_ORIGIN'))).toBe(false);
    expect(isFalseAccusation('not-derived', run('INSUFFICIENT_EVIDENCE'))).toBe(false);
    expect(isFalseAccusation('shared-upstream', run('SHARED_UPSTREAM'))).toBe(false);
    expect(isFalseAccusation('not-derived', ERR)).toBe(false);
  });
});

describe('per class precision and recall', () => {
  const scored = (accept: string[], forbid: string[], o: Outcome): Scored => ({ outcome: o, judgement: judge({ accept, forbid }, o) });
  const runs: Scored[] = [
    scored(FORK, ['TARGET_TO_ORIGIN'], run('DECLARED_FORK', 'ORIGIN_TO_TARGET')), // derived, right
    scored(FORK, ['TARGET_TO_ORIGIN'], run('HEAVILY_DERIVED', 'ORIGIN_TO_TARGET')), // derived, right
    scored(FORK, ['TARGET_TO_ORIGIN'], run('DECLARED_FORK', 'NONE')), // derived predicted, wrong strictly (a)
    scored(FORK, ['TARGET_TO_ORIGIN'], run('SHARED_UPSTREAM')), // expected derived, predicted shared-upstream, wrong
    scored(INDEP, BOTH, run('INDEPENDENT')), // not-derived, right
    scored(INDEP, BOTH, run('LIKELY_DERIVED', 'ORIGIN_TO_TARGET')), // false accusation, predicted derived
    scored(INDEP, BOTH, ERR), // expected not-derived, predicted nothing
    scored(['SHARED_UPSTREAM', 'INDEPENDENT'], BOTH, run('INDEPENDENT')), // right, but another class than the truth
    scored(SIBLINGS, BOTH, run('SHARED_UPSTREAM')), // shared-upstream, right
  ];
  it('counts predicted, right predictions and expected per class, strictly', () => {
    const t = classTable(runs, 'strict');
    expect(t.rows).toEqual([
      { cls: 'derived', predicted: 4, right: 2, expected: 4, recall: 0.5, precision: 0.5 },
      { cls: 'shared-upstream', predicted: 2, right: 1, expected: 2, recall: 0.5, precision: 0.5 },
      { cls: 'not-derived', predicted: 2, right: 1, expected: 3, recall: 1 / 3, precision: 0.5 },
    ]);
    expect(t.errors).toBe(1);
    expect(t.rightOtherClass).toBe(1);
  });
  it('leniently the fork without a direction is a right prediction', () => {
    const derived = classTable(runs, 'lenient').rows[0]!;
    expect(derived).toMatchObject({ predicted: 4, right: 3, expected: 4, recall: 0.75, precision: 0.75 });
  });
  it('no runs: no ratios', () => {
    expect(classTable([], 'strict').rows.every((r) => r.recall === null && r.precision === null)).toBe(true);
  });
});

describe('held-out records', () => {
  const rec = (pair: string, orientation: string, strict = 'yes', mode = 'plain'): HeldOutRecord => {
    const r = Object.fromEntries(RECORD_COLUMNS.map((c) => [c, '–'])) as HeldOutRecord;
    return {
      ...r,
      pair,
      orientation,
      'right? (strict)': strict,
      lenient: 'yes',
      'false accusation?': strict === 'yes' ? 'no' : 'YES',
      mode,
      'expected (accept / forbidden)': 'INDEPENDENT / –',
    };
  };
  it('a new file holds the intro, the header and the rows', () => {
    const { text, added } = firstResultsToAppend(undefined, [rec('a', 'listed'), rec('a', 'swapped')], ['# First']);
    expect(added).toHaveLength(2);
    expect(text.startsWith('# First\n\n| pair | orientation |')).toBe(true);
    expect(parseRecords(text).map((r) => r.key)).toEqual(['a\tlisted\tplain', 'a\tswapped\tplain']);
  });
  it('appends only the pair/orientation/mode not yet recorded, and leaves the existing text as it is', () => {
    const first = firstResultsToAppend(undefined, [rec('a', 'listed', 'no (verdict)')], ['# First']).text;
    const { text, added } = firstResultsToAppend(
      first,
      [rec('a', 'listed', 'yes'), rec('a', 'swapped'), rec('a', 'listed', 'yes', 'urls'), rec('b', 'listed'), rec('b', 'listed')],
      ['# First'],
    );
    expect(added.map((r) => `${r.pair} ${r.orientation} ${r.mode}`)).toEqual(['a swapped plain', 'a listed urls', 'b listed plain']);
    const after = first + text;
    expect(after.startsWith(first)).toBe(true);
    const rows = parseRecords(after);
    expect(rows).toHaveLength(4);
    expect(rows[0]!.cells.get('right? (strict)')).toBe('no (verdict)'); // the first result stays as it came out
    expect(firstResultsToAppend(after, [rec('a', 'listed'), rec('b', 'listed')], []).text).toBe('');
  });
  it('a pipe in a cell survives the round trip', () => {
    expect(splitRow(tableRow(['x|y', 'z']))).toEqual(['x|y', 'z']);
  });
  it('latest rows: replaced by key, new keys last, pairs no longer held out dropped', () => {
    const prev = firstResultsToAppend(undefined, [rec('a', 'listed', 'no (verdict)'), rec('gone', 'listed'), rec('b', 'listed')], []).text;
    const rows = latestRows(prev, [rec('b', 'listed', 'no (direction)'), rec('a', 'listed'), rec('c', 'listed')], (p) => p !== 'gone');
    expect(rows.map((l) => splitRow(l).slice(0, 1)[0])).toEqual(['a', 'b', 'c']);
    expect(splitRow(rows[0]!)[8]).toBe('yes');
    expect(splitRow(rows[1]!)[8]).toBe('no (direction)');
  });
  it('summarizes recorded rows per mode', () => {
    const text = firstResultsToAppend(
      undefined,
      [rec('a', 'listed'), rec('a', 'swapped', 'no (false accusation)'), rec('a', 'listed', 'yes', 'urls')],
      [],
    ).text;
    expect(summarize(parseRecords(text))).toEqual([
      { mode: 'plain', runs: 2, strictRight: 1, lenientRight: 2, falseAccusations: 1 },
      { mode: 'urls', runs: 1, strictRight: 1, lenientRight: 1, falseAccusations: 0 },
    ]);
  });
});
