import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli';
import { manifestHash } from '@lineage/engine';
import { SCENARIOS } from '../../../test/fixtures/scenarios';

jest.setTimeout(120_000);
const base = mkdtempSync(join(tmpdir(), 'lineage-cli-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = jest.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  const e = jest.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  try {
    const code = await main(args);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('lineage CLI', () => {
  it('prints a report, JSON and the manifest file; exit 0', async () => {
    const p = await SCENARIOS.find((s) => s.name === 'renamed-copy')!.build(base);
    const text = await run(['analyze', p.origin.dir, p.target.dir]);
    expect(text.code).toBe(0);
    expect(text.out).toContain('Verdict:    HEAVILY_DERIVED');
    expect(text.out).toMatch(/origin src\/\S+:\d+-\d+ +target src\/\S+:\d+-\d+/);
    const mf = join(base, 'manifest.json');
    const json = await run(['analyze', p.origin.dir, p.target.dir, '--json', '--manifest', mf, '--origin-ref', p.origin.commit]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.out) as { verdict: string; manifestHash: string };
    expect(parsed.verdict).toBe('HEAVILY_DERIVED');
    expect(manifestHash(readFileSync(mf))).toBe(parsed.manifestHash);
  });

  it('exit 2 on usage errors, 4 on an unknown commit, 5 on a refused URL', async () => {
    expect((await run(['analyze', 'only-one'])).code).toBe(2);
    expect((await run(['analyze', 'a', 'b', '--bogus'])).code).toBe(2);
    const p = await SCENARIOS.find((s) => s.name === 'tiny')!.build(base);
    expect((await run(['analyze', p.origin.dir, p.target.dir, '--origin-ref', 'f'.repeat(40)])).code).toBe(4);
    expect((await run(['analyze', 'file:///etc', p.target.dir])).code).toBe(5);
    expect((await run(['analyze', 'https://user:pw@github.com/a/b', p.target.dir])).code).toBe(5);
    expect((await run(['analyze', 'https://127.0.0.1/a/b', p.target.dir])).code).toBe(5);
  });

  it('a local path that does not exist, or is not a repository, is REPOSITORY_NOT_FOUND naming the side (exit 4)', async () => {
    const p = await SCENARIOS.find((s) => s.name === 'tiny')!.build(base);
    const missing = await run(['analyze', join(base, 'no-such-dir'), p.target.dir]);
    expect(missing.code).toBe(4);
    expect(missing.err).toContain('REPOSITORY_NOT_FOUND (origin): the origin path does not exist');
    const notRepo = await run(['analyze', p.origin.dir, base, '--json']);
    expect(notRepo.code).toBe(4);
    expect(JSON.parse(notRepo.out)).toEqual({ error: { code: 'REPOSITORY_NOT_FOUND', message: 'the target path is not a git repository', side: 'target' } });
  });
});

describe('the `lineage` command (bin/lineage.js, what npm links)', () => {
  const BIN = join(__dirname, '..', 'bin', 'lineage.js');
  const npmBin = (args: string[], bin = BIN) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

  it('is what the package links, so it exists before any build', () => {
    expect(JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).bin).toEqual({ lineage: 'bin/lineage.js' });
  });

  it('--version and --help exit 0 and say what they should', () => {
    const v = npmBin(['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout).toMatch(/^lineage-engine\/\d+\.\d+\.\d+ \(manifest version \d+\)\n$/);
    const h = npmBin(['--help']);
    expect(h.status).toBe(0);
    expect(h.stdout).toContain('usage: lineage analyze');
    expect(h.stdout).toContain('exit codes:');
    const none = npmBin([]);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('usage: lineage analyze');
  });

  it('without a build it says to run make build, exit 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lineage-bin-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(BIN, join(dir, 'bin', 'lineage.js'));
      const r = npmBin(['--version'], join(dir, 'bin', 'lineage.js'));
      expect(r.status).toBe(1);
      expect(r.stderr).toContain('run `make build`');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
