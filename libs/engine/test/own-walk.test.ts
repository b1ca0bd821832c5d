// OwnWalkBuilder: what the topology reads of a side's own commits when the history stage's walk feeds it (a history
// without a commit in common with the other side), which must be what its own `git log --max-count` walk gives.
import { countAuthors } from '../src/lineage/maintainers';
import { OwnWalkBuilder } from '../src/lineage/topology';

/** Commits newest first, as git log lists them: [author time, e-mail, subject, name]. */
const LOG: [string, string, string, string][] = [
  ['1700000300', 'bo@example.invalid', 'fix: «tabs»\tand 100%', 'Bo'],
  ['1700000200', 'ada@example.invalid', 'feat: parser', 'Ada'],
  ['1700000100', 'bo@example.invalid', 'docs', 'Bo'],
  ['1700000050', 'bo@example.invalid', 'docs', 'Robert'],
  ['1700000000', 'cy@example.invalid', '', 'Cy'],
];

const fed = (rows = LOG): OwnWalkBuilder => {
  const b = new OwnWalkBuilder();
  for (const [at, email, subject, name] of rows) b.add(at, email, subject, name);
  return b;
};

describe('OwnWalkBuilder', () => {
  it('keys each commit by author time, e-mail and subject, and tallies authors as countAuthors does', () => {
    const w = fed().finish(20_000);
    expect([...w.keys]).toEqual(LOG.map(([at, email, subject]) => `${at}\0${email}\0${subject}`));
    expect(w.authors.authors).toEqual(countAuthors(LOG.map(([, email, , name]) => ({ name, email }))));
    expect(w.authors.authors.map((a) => [a.name, a.commits])).toEqual([
      ['Bo', 2],
      ['Ada', 1],
      ['Cy', 1],
      ['Robert', 1],
    ]);
  });

  it("names the last commit's author as founder only when the walk held fewer commits than its limit", () => {
    expect(fed().finish(6).authors.founder).toEqual({ name: 'Cy', email: 'cy@example.invalid' });
    // git log --max-count=5 of a longer history also lists 5: the walk may have stopped short of the first commit.
    expect(fed().finish(5).authors.founder).toBeNull();
    // The newest commit's author is known however far the walk went.
    expect(fed().finish(5).authors.latest).toEqual({ name: LOG[0]![3], email: LOG[0]![1] });
    expect(new OwnWalkBuilder().finish(5)).toEqual({
      keys: new Set(),
      authors: { authors: [], founder: null, latest: null },
      commits: { records: [], times: [] },
    });
  });

  it('keeps nothing once dropped, and ignores what comes after', () => {
    const b = fed(LOG.slice(0, 2));
    b.drop();
    for (const [at, email, subject, name] of LOG.slice(2)) b.add(at, email, subject, name);
    expect(b.finish(20_000)).toEqual({
      keys: new Set(),
      authors: { authors: [], founder: null, latest: null },
      commits: { records: [], times: [] },
    });
  });

  it('keeps the commits it is given with their ids, parents and trees, for a common line under other ids', () => {
    const b = new OwnWalkBuilder();
    b.add('1700000300', 'bo@example.invalid', 'fix', 'Bo', { id: 'c2', parents: ['c1'], tree: 't2', time: 1700000400 });
    b.add('1700000200', 'ada@example.invalid', 'feat', 'Ada');
    expect(b.finish(20_000).commits).toEqual({ records: ['c2 t2 c1\0bo@example.invalid\0Bo\0fix'], times: [1700000400, 1700000300] });
    b.drop();
    expect(b.finish(20_000).commits).toEqual({ records: [], times: [] });
  });
});
