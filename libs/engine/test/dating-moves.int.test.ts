// Dating follows a path's own versions. When the commit that made a file also changed another file that already
// held the material (a move, or a split: memcached's jenkins_hash.c came out of hash.c), the material is dated
// from that other file's versions, not from the new file's creation. A file renamed or moved (the old path deleted
// in the same commit) keeps its versions from before the move.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@lineage/engine';
import { buildRepo } from '../../../test/fixtures/git-builder';
import { makeModules, renderProject } from '../../../test/fixtures/project';

jest.setTimeout(120_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-dating-moves-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const DAY = 86_400;
const T0 = 1_500_000_000;
const code = (seed: number): string => {
  const [m] = makeModules(seed, 1, 10);
  return renderProject([m!], { name: 'unused', tests: false })[m!.file]!;
};
const kept = code(301);
const moved = code(302);
const other = code(303);

// The origin has both pieces in src/core.js from the start and splits one out into src/split.js 100 days later.
const origin = buildRepo(join(base, 'origin.git'), {
  commits: [
    { time: T0, message: 'core', files: { 'src/core.js': kept + '\n' + moved, 'README.md': '# alpha\n' } },
    { time: T0 + 100 * DAY, message: 'split the second half out', files: { 'src/core.js': kept, 'src/split.js': moved } },
  ],
});
// The target copied that piece on day 50, before the split.
const target = buildRepo(join(base, 'target.git'), {
  commits: [{ time: T0 + 50 * DAY, message: 'import', files: { 'lib/piece.js': moved, 'README.md': '# beta\n' } }],
});

describe('dating across a move', () => {
  it('material a file was made with is dated from the file the same commit took it out of', async () => {
    const r = await analyze({
      origin: { dir: join(base, 'origin.git'), commit: origin },
      target: { dir: join(base, 'target.git'), commit: target },
      workers: 1,
    });
    const frags = r.manifest.evidence.filter((e) => e.layer === 'CODE' && e.origin?.path === 'src/split.js');
    expect(frags.length).toBeGreaterThan(0);
    for (const e of frags)
      expect(e.detail).toContain('first appearance origin 2017-07-14T02:40:00Z (in src/core.js), target 2017-09-02T02:40:00Z');
    expect(r.manifest.metrics.originFirstWeight).toBeGreaterThan(0);
    expect(r.manifest.metrics.targetFirstWeight).toBe(0);
  });
});

// Spree moved every gem into spree/ years after Solidus forked: its material looked made by the move.
describe('dating across a rename', () => {
  it('material of a file moved (or moved and edited) in one commit is dated from its versions at the old path', async () => {
    const o = buildRepo(join(base, 'moved-origin.git'), {
      commits: [
        { time: T0, message: 'start', files: { 'core/a.js': kept, 'core/b.js': other, 'README.md': '# gamma\n' } },
        {
          time: T0 + 100 * DAY,
          message: 'move everything under pkg/',
          files: { 'pkg/core/a.js': kept, 'pkg/core/b.js': other + '\n// moved\n' },
          remove: ['core/a.js', 'core/b.js'],
        },
      ],
    });
    const t = buildRepo(join(base, 'moved-target.git'), {
      commits: [{ time: T0 + 50 * DAY, message: 'import', files: { 'lib/a.js': kept, 'lib/b.js': other, 'README.md': '# delta\n' } }],
    });
    const r = await analyze({
      origin: { dir: join(base, 'moved-origin.git'), commit: o },
      target: { dir: join(base, 'moved-target.git'), commit: t },
      workers: 1,
    });
    for (const file of ['a.js', 'b.js']) {
      const frags = r.manifest.evidence.filter((e) => e.layer === 'CODE' && e.origin?.path === `pkg/core/${file}`);
      expect(frags.length).toBeGreaterThan(0);
      for (const e of frags)
        expect(e.detail).toContain(`first appearance origin 2017-07-14T02:40:00Z (in core/${file}), target 2017-09-02T02:40:00Z`);
    }
    expect(r.manifest.metrics.targetFirstWeight).toBe(0);
  });
});

// Ravi imported Lua 5.3's tests as lua-5.3.0-tests/ in 2015; lua/lua's repository got its tests only in 2018.
describe('material kept in a directory named after the other project', () => {
  const run = async (label: string, targetTitle: string) => {
    const o = buildRepo(join(base, `${label}-origin.git`), {
      commits: [
        { time: T0, message: 'engine', files: { 'src/core.js': kept, 'README.md': '# alpha\n' } },
        { time: T0 + 300 * DAY, message: 'add the test suite', files: { 'tests/suite.js': other } },
      ],
    });
    const t = buildRepo(join(base, `${label}-target.git`), {
      commits: [
        {
          time: T0 + 100 * DAY,
          message: 'import the tests of alpha 1.0',
          files: { 'alpha-1.0-tests/suite.js': other, 'README.md': `# ${targetTitle}\n` },
        },
        { time: T0 + 120 * DAY, message: 'move them', files: { 'tests/alpha/suite.js': other }, remove: ['alpha-1.0-tests/suite.js'] },
      ],
    });
    const r = await analyze({
      origin: { dir: join(base, `${label}-origin.git`), commit: o },
      target: { dir: join(base, `${label}-target.git`), commit: t },
      workers: 1,
    });
    const frags = r.manifest.evidence.filter(
      (e) => e.layer === 'CODE' && e.origin?.path === 'tests/suite.js' && e.target?.path === 'tests/alpha/suite.js',
    );
    expect(frags.length).toBeGreaterThan(0);
    for (const e of frags) expect(e.detail).toContain('(in alpha-1.0-tests/suite.js)');
    return { frags, metrics: r.manifest.metrics };
  };

  it('is not counted for the side that had it first: it was taken from the other project', async () => {
    const { frags, metrics } = await run('named', 'omega');
    for (const e of frags)
      expect(e.detail).toContain('the earlier side keeps it in a directory named after the other project: not counted');
    expect(metrics.targetFirstWeight).toBe(0);
  });

  it("counts when both sides carry that name (the shared project's)", async () => {
    const { frags, metrics } = await run('both-named', 'alpha');
    for (const e of frags) expect(e.detail).not.toContain('not counted');
    expect(metrics.targetFirstWeight).toBeGreaterThan(0);
  });
});
