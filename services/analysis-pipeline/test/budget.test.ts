// One time budget per analysis (src/budget.ts): what its stages spent, read back from their recorded times.
import { budgetExceeded, spentMs } from '../src/budget';

const stage = (state: string, startedAt: number | null, finishedAt: number | null) => ({
  state,
  startedAt: startedAt === null ? null : String(startedAt),
  finishedAt: finishedAt === null ? null : String(finishedAt),
});

describe('spentMs', () => {
  it('counts finished and failed stages from start to finish, and nothing for stages not started', () => {
    expect(spentMs([stage('done', 100, 103), stage('failed', 103, 104), stage('pending', null, null)], 0, 200)).toBe(4000);
  });

  it("counts a stage left running by a dead worker up to the row's last write, not up to now", () => {
    expect(spentMs([stage('done', 100, 102), stage('running', 102, null)], 0, 107)).toBe(7000);
    // A last write before the stage's start (clock skew between replicas) counts nothing, never less than nothing.
    expect(spentMs([stage('running', 110, null)], 0, 105)).toBe(0);
  });

  it('adds what the interrupted attempts of stages that ran again spent', () => {
    expect(spentMs([stage('done', 100, 101)], 2500, 300)).toBe(3500);
  });
});

describe('budgetExceeded', () => {
  it('is the limit error that names timeBudgetMs, the budget and the stage', () => {
    const e = budgetExceeded('history', 5000);
    expect(e.toJSON()).toEqual({
      code: 'REPOSITORY_TOO_LARGE',
      limit: 'timeBudgetMs',
      stage: 'history',
      message: "the analysis's time budget (timeBudgetMs, 5000 ms across all its stages) ran out in the history stage",
    });
  });
});
