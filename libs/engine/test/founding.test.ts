import { FOUNDING_STEPS, FOUNDING_WINDOW_S, foundingCommits } from '../src/compare/founding';
import type { CommitInfo } from '../src/types';

const HOUR = 3600;
/** A chain of commits, newest first as the walk lists them, each `gap` seconds after the one before. */
function chain(ids: string[], gaps: number[], t0 = 1_000_000): CommitInfo[] {
  let t = t0;
  const out: CommitInfo[] = ids.map((id, i) => {
    if (i > 0) t += gaps[i - 1]!;
    return { id, time: t, parents: i === 0 ? [] : [ids[i - 1]!] };
  });
  return out.reverse();
}

describe('foundingCommits', () => {
  it('takes the root and the commits right after it as the beginning', () => {
    // a hosting site's README commit, the import four minutes later, then the project's own work days later
    const commits = chain(['readme', 'import', 'fix', 'feature'], [4 * 60, 3 * 86400, 86400]);
    expect([...foundingCommits({ commits })].sort()).toEqual(['import', 'readme']);
  });

  it('stops after FOUNDING_STEPS commits even within the window', () => {
    const ids = Array.from({ length: FOUNDING_STEPS + 3 }, (_, i) => `c${i}`);
    const commits = chain(
      ids,
      ids.map(() => 60),
    );
    expect(foundingCommits({ commits }).size).toBe(FOUNDING_STEPS + 1);
  });

  it('stops at FOUNDING_WINDOW_S after the root', () => {
    const late = chain(['root', 'next'], [FOUNDING_WINDOW_S + 1]);
    expect([...foundingCommits({ commits: late })]).toEqual(['root']);
    const inTime = chain(['root', 'next'], [13 * HOUR]);
    expect(foundingCommits({ commits: inTime }).has('next')).toBe(true);
  });

  it('never counts a merge, nor a commit whose parent the walk did not reach', () => {
    const commits: CommitInfo[] = [
      { id: 'merge', time: 1_000_100, parents: ['a', 'b'] },
      { id: 'b', time: 1_000_050, parents: [] },
      { id: 'a', time: 1_000_000, parents: [] },
      { id: 'orphan', time: 1_000_010, parents: ['unwalked'] },
    ];
    expect([...foundingCommits({ commits })].sort()).toEqual(['a', 'b']);
  });

  it('does not depend on the order the walk lists commits in', () => {
    const commits = chain(['r', 'i', 'x'], [60, 60]);
    expect([...foundingCommits({ commits: [...commits].reverse() })].sort()).toEqual([...foundingCommits({ commits })].sort());
  });
});
