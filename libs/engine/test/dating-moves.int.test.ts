// Dating follows a path's own versions. When the commit that made a file also changed another file that already
// held the material (a move, or a split: memcached's jenkins_hash.c came out of hash.c), the material is dated
// from that other file's versions, not from the new file's creation.
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
