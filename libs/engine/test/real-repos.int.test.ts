// The public development set (../shared/real-repos: git bundles of real
// repositories and pairs.tsv with what is right for each), each pair as listed
// and with roles swapped. Where the set is: test/fixtures/real-repos-dir.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realReposDir } from '../../../test/fixtures/real-repos-dir';
import { cloneBundle, sharedPairs } from '../../../test/support/pairs';
import { analyze, type Direction, type Verdict } from '@lineage/engine';

jest.setTimeout(300_000);

const DIR = realReposDir();
const base = mkdtempSync(join(tmpdir(), 'lineage-real-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

interface Row {
  name: string;
  origin: string;
  originCommit: string;
  target: string;
  targetCommit: string;
  accept: Verdict[];
  forbid: Direction[];
}

function rows(): Row[] {
  return sharedPairs(DIR).map((r) => ({ ...r, accept: r.accept as Verdict[], forbid: r.forbid as Direction[] }));
}

const clones = new Map<string, string>();
function repo(name: string): string {
  let dir = clones.get(name);
  if (!dir) {
    dir = join(base, `${name.replace('/', '+')}.git`);
    cloneBundle(join(DIR, `${name.replace('/', '+')}.bundle`), dir);
    clones.set(name, dir);
  }
  return dir;
}

const flip = (d: Direction): Direction =>
  d === 'ORIGIN_TO_TARGET' ? 'TARGET_TO_ORIGIN' : d === 'TARGET_TO_ORIGIN' ? 'ORIGIN_TO_TARGET' : 'NONE';
const table = rows();

describe.each(table.map((r) => [r.name, r] as [string, Row]))('%s', (_name, r) => {
  it(`is one of ${r.accept.join(', ')}, never ${r.forbid.join(' or ') || '-'}`, async () => {
    const res = await analyze({
      origin: { dir: repo(r.origin), commit: r.originCommit },
      target: { dir: repo(r.target), commit: r.targetCommit },
    });
    expect(r.accept).toContain(res.manifest.verdict);
    expect(r.forbid).not.toContain(res.manifest.direction);
  });

  it('with roles swapped: still right, the direction flipped', async () => {
    const res = await analyze({
      origin: { dir: repo(r.target), commit: r.targetCommit },
      target: { dir: repo(r.origin), commit: r.originCommit },
    });
    expect(r.accept).toContain(res.manifest.verdict);
    expect(r.forbid.map(flip)).not.toContain(res.manifest.direction);
  });
});

describe('the development set', () => {
  it('has forks and independent pairs to score', () => {
    expect(table.filter((r) => r.forbid.length === 1).length).toBeGreaterThanOrEqual(4);
    expect(table.filter((r) => r.accept.includes('INDEPENDENT')).length).toBeGreaterThanOrEqual(2);
  });
});
