// The public development set (../shared/real-repos: git bundles of real
// repositories and pairs.tsv with what is right for each), each pair as listed
// and with roles swapped. Where the set is: test/fixtures/real-repos-dir.ts
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realReposDir } from '../../../test/fixtures/real-repos-dir';
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
  const file = join(DIR, 'pairs.tsv');
  if (!existsSync(file))
    throw new Error(
      `the shared development set is missing: ${file} (set LINEAGE_REAL_REPOS to the folder holding pairs.tsv and the bundles)`,
    );
  const [, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  return lines.map((l) => {
    const [name, origin, originCommit, target, targetCommit, accept, forbid] = l.split('\t');
    return {
      name: name!,
      origin: origin!,
      originCommit: originCommit!,
      target: target!,
      targetCommit: targetCommit!,
      accept: accept!.split(',') as Verdict[],
      forbid: (forbid ?? '').split(',').filter(Boolean) as Direction[],
    };
  });
}

const clones = new Map<string, string>();
function repo(name: string): string {
  let dir = clones.get(name);
  if (!dir) {
    dir = join(base, `${name.replace('/', '+')}.git`);
    execFileSync('git', ['clone', '--bare', '--quiet', join(DIR, `${name.replace('/', '+')}.bundle`), dir], {
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
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
