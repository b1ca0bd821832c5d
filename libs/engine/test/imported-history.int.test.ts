// A history imported in one go (gitpan's CPAN releases: every commit made within seconds in 2014, authored on the
// releases' dates since 2007) dates its material at the import. Its dates still count where they are the earlier;
// a later one says nothing of who had the material first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '@lineage/engine';
import { importedHistory } from '../src/compare';
import type { History } from '../src/types';
import { buildRepo } from '../../../test/fixtures/git-builder';
import { makeModules, renderProject } from '../../../test/fixtures/project';

jest.setTimeout(120_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-imported-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const DAY = 86_400;
const T0 = 1_200_000_000; // 2008
const IMPORT = T0 + 2_000 * DAY; // 2013
const code = (seed: number): string => {
  const [m] = makeModules(seed, 1, 12);
  return renderProject([m!], { name: 'unused', tests: false })[m!.file]!;
};
const lib = code(401);

/** Twelve releases, authored a month apart from T0; committed at `committed(i)`. */
const releases = (committed: (i: number) => number) =>
  Array.from({ length: 12 }, (_, i) => ({
    time: T0 + i * 30 * DAY,
    committerTime: committed(i),
    message: `Import of release 0.${i}`,
    files: { 'lib/Thing.js': lib + `\n// release 0.${i}\n`, 'README.md': '# thing\n' },
  }));

describe('a history imported in one go', () => {
  const imported = buildRepo(join(base, 'imported.git'), { commits: releases((i) => IMPORT + i) });
  // The other side took the library in 2010, with its own dates.
  const other = buildRepo(join(base, 'other.git'), {
    commits: [
      { time: T0 + 600 * DAY, message: 'start', files: { 'src/main.js': code(402), 'README.md': '# other\n' } },
      { time: T0 + 700 * DAY, message: 'take the library', files: { 'src/thing.js': lib } },
    ],
  });

  it('is recognised from its commit and author times', () => {
    const h = (times: number[], authored: [number, number]): History =>
      ({
        commit: 'c',
        headTime: 0,
        commitsWalked: times.length,
        truncated: false,
        commits: times.map((time, i) => ({ id: String(i), time, parents: [] })),
        pathVersions: {},
        names: { pinned: [], past: [] },
        authored: { oldest: authored[0], newest: authored[1] },
      }) as History;
    const twelve = (step: number) => Array.from({ length: 12 }, (_, i) => IMPORT + i * step);
    expect(importedHistory(h(twelve(1), [T0, T0 + 400 * DAY]))).toEqual({
      commits: 12,
      seconds: 11,
      authored: { oldest: T0, newest: T0 + 400 * DAY },
    });
    expect(importedHistory(h(twelve(3600), [T0, T0 + 400 * DAY]))).toBeNull(); // committed over 11 hours
    expect(importedHistory(h(twelve(1), [T0, T0 + 10 * DAY]))).toBeNull(); // written within days: a quick start
    expect(importedHistory(h(twelve(1).slice(0, 9), [T0, T0 + 400 * DAY]))).toBeNull(); // too few to tell
  });

  it("its later dates are not counted: the import's time is no date of writing", async () => {
    const r = await analyze({
      origin: { dir: join(base, 'imported.git'), commit: imported },
      target: { dir: join(base, 'other.git'), commit: other },
      workers: 1,
    });
    const frags = r.manifest.evidence.filter((e) => e.layer === 'CODE' && e.target?.path === 'src/thing.js');
    expect(frags.length).toBeGreaterThan(0);
    for (const e of frags)
      expect(e.detail).toContain("(the origin's history was committed in one go: its date is the import's, not counted)");
    expect(r.manifest.metrics.originFirstWeight).toBe(0);
    expect(r.manifest.metrics.targetFirstWeight).toBe(0);
    const fact = r.manifest.chronology.find((c) => c.kind === 'IMPORTED_HISTORY');
    expect(fact).toMatchObject({ side: 'origin' });
    expect(fact!.detail).toContain("all 12 commits of the origin's history were committed within 11 s");
  });

  it('its earlier dates still count', async () => {
    // The same import, made in 2009: before the other side had the library.
    const early = buildRepo(join(base, 'early.git'), { commits: releases((i) => T0 + 400 * DAY + i) });
    const r = await analyze({
      origin: { dir: join(base, 'early.git'), commit: early },
      target: { dir: join(base, 'other.git'), commit: other },
      workers: 1,
    });
    expect(r.manifest.metrics.originFirstWeight).toBeGreaterThan(0);
    expect(r.manifest.metrics.targetFirstWeight).toBe(0);
  });
});
