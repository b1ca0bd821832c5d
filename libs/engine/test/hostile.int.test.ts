import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, EngineError, git, inventory } from '@lineage/engine';
import { buildRepo, fastImportStream } from '../../../test/fixtures/git-builder';
import { makeModules, renderProject } from '../../../test/fixtures/project';

jest.setTimeout(300_000);

const base = mkdtempSync(join(tmpdir(), 'lineage-hostile-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
const T = 1_600_000_000;
const SECRET = 'TOP-SECRET-MARKER-7f3a9c';
const marker = join(base, 'executed.marker');

function hostileRepo(): string {
  writeFileSync(join(base, 'secret.txt'), `${SECRET}\n`);
  const code = renderProject(makeModules(31, 3, 8), { name: 'hostile' });
  const dir = join(base, 'hostile.git');
  buildRepo(dir, {
    commits: [
      {
        time: T,
        message: 'hostile',
        files: {
          ...code,
          'link-outside': { symlink: join(base, 'secret.txt') },
          'link-relative': { symlink: '../../../../../../etc/passwd' },
          'huge.bin': Buffer.alloc(200 * 1024 * 1024, 0x41),
          '.gitmodules': '[submodule "evil"]\n\tpath = evil\n\turl = https://example.invalid/evil.git\n',
          evil: { gitlink: '1111111111111111111111111111111111111111' },
          'a/../escape.js': 'module.exports = 1;\n',
          'ctl\x01name.js': 'module.exports = 2;\n',
          '.gitattributes': '*.js filter=evil diff=evil\n',
        },
      },
    ],
  });
  // Hooks and config that would run a command if git honoured them.
  const cmd = `touch ${marker}`;
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  for (const h of ['post-checkout', 'pre-commit', 'post-merge', 'reference-transaction', 'pre-auto-gc', 'post-index-change']) {
    writeFileSync(join(dir, 'hooks', h), `#!/bin/sh\n${cmd}\n`);
    chmodSync(join(dir, 'hooks', h), 0o755);
  }
  const cfg = (k: string, v: string): void => void execFileSync('git', ['--git-dir', dir, 'config', k, v]);
  cfg('core.fsmonitor', cmd);
  cfg('core.pager', cmd);
  cfg('core.sshCommand', cmd);
  cfg('diff.external', cmd);
  cfg('filter.evil.clean', cmd);
  cfg('filter.evil.smudge', cmd);
  cfg('diff.evil.textconv', cmd);
  cfg('core.hooksPath', join(dir, 'hooks'));
  return dir;
}

describe('hostile repository', () => {
  it('is analysed within its limits, records skips, runs nothing and reads nothing outside it', async () => {
    const dir = hostileRepo();
    const normal = join(base, 'normal.git');
    const nc = buildRepo(normal, {
      commits: [{ time: T + 1000, message: 'n', files: renderProject(makeModules(32, 3, 8), { name: 'normal' }) }],
    });
    const r = await analyze({ origin: { dir, commit: 'main' }, target: { dir: normal, commit: nc }, workers: 2, forceWorkers: true });
    const skipped = r.manifest.skipped.filter((s) => s.side === 'origin');
    const reasons = Object.fromEntries(skipped.map((s) => [s.path, s.reason]));
    expect(reasons['link-outside']).toBe('SYMLINK');
    expect(reasons['link-relative']).toBe('SYMLINK');
    expect(reasons['huge.bin']).toBe('FILE_TOO_LARGE');
    expect(reasons['evil']).toBe('SUBMODULE');
    expect(reasons['a/../escape.js']).toBe('UNSAFE_PATH');
    expect(reasons['ctl\\x01name.js']).toBe('UNSAFE_PATH');
    expect(skipped.find((s) => s.path === 'huge.bin')!.size).toBe(200 * 1024 * 1024);
    const text = r.bytes.toString('utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('root:x:0');
    expect(text).not.toContain(base);
    expect(existsSync(marker)).toBe(false);
    // no work tree was created next to the bare repository
    expect(existsSync(join(dir, 'link-outside'))).toBe(false);
  });

  it('stops with REPOSITORY_TOO_LARGE (maxFiles) on a tree of 200k files', async () => {
    const dir = join(base, 'many.git');
    execFileSync('git', ['init', '--bare', '--quiet', '--initial-branch=main', dir]);
    // One blob, 200k tree entries in 200 directories, streamed through fast-import.
    const lines: string[] = ['blob', 'mark :1', 'data 2', 'x', '', 'commit refs/heads/main', `committer a <a@b> ${T} +0000`, 'data 1', 'm'];
    for (let d = 0; d < 200; d++) for (let f = 0; f < 1000; f++) lines.push(`M 100644 :1 d${d}/f${f}.js`);
    lines.push('', '');
    execFileSync('git', ['--git-dir', dir, 'fast-import', '--quiet'], { input: lines.join('\n'), maxBuffer: 1 << 28 });
    void fastImportStream;
    await expect(inventory({ dir, commit: 'main' })).rejects.toMatchObject({ code: 'REPOSITORY_TOO_LARGE', limit: 'maxFiles' });
    await expect(inventory({ dir, commit: 'main' }, { limits: { maxFiles: 250_000, maxTotalBytes: 100_000 } })).rejects.toMatchObject({
      code: 'REPOSITORY_TOO_LARGE',
      limit: 'maxTotalBytes',
    });
  });

  it('reports an unknown commit as COMMIT_NOT_FOUND and refuses option-like revisions', async () => {
    const dir = join(base, 'small.git');
    buildRepo(dir, { commits: [{ time: T, message: 'x', files: { 'a.js': 'let a = 1;\n' } }] });
    await expect(inventory({ dir, commit: 'deadbeef'.repeat(5) })).rejects.toMatchObject({ code: 'COMMIT_NOT_FOUND' });
    await expect(inventory({ dir, commit: '--output=/tmp/x' })).rejects.toBeInstanceOf(EngineError);
    await expect(inventory({ dir, commit: 'main\ninfo HEAD' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    // a tree is not a commit; a branch name and an abbreviated id resolve to the full commit id
    const tree = execFileSync('git', ['--git-dir', dir, 'rev-parse', 'main^{tree}'], { encoding: 'utf8' }).trim();
    await expect(inventory({ dir, commit: tree })).rejects.toMatchObject({ code: 'COMMIT_NOT_FOUND' });
    const full = execFileSync('git', ['--git-dir', dir, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
    expect((await inventory({ dir, commit: 'main' })).commit).toBe(full);
    expect((await inventory({ dir, commit: full.slice(0, 10) })).commit).toBe(full);
  });

  it('analyses shell scripts that stopped a grammar scanner: `case … in` with CRLF line ends, 150 files per side', async () => {
    // bash's scanner calls a C function the WASM runtime lacks on this input; each such call used to abort
    // the analysis, and each aborted parse lowered the runtime's stack until it overflowed.
    const script = (i: number) =>
      `#!/bin/sh\r\n# job ${i}\r\nrun_${i}() {\r\n  case "$1" in\r\n    start) echo "start ${i}" ;;\r\n    *) exit ${i % 7} ;;\r\n  esac\r\n}\r\n`;
    const files = (side: string) => Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`scripts/${side}-${i}.sh`, script(i)]));
    const o = join(base, 'crlf-origin.git');
    const t = join(base, 'crlf-target.git');
    const oc = buildRepo(o, { commits: [{ time: T, message: 'o', files: files('o') }] });
    const tc = buildRepo(t, { commits: [{ time: T + 86_400, message: 't', files: files('t') }] });
    const r = await analyze({ origin: { dir: o, commit: oc }, target: { dir: t, commit: tc }, workers: 1 });
    expect(r.inventories.origin.files.filter((f) => f.language === 'bash')).toHaveLength(150);
    expect(r.hash).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('bounds git output', async () => {
    const dir = join(base, 'small2.git');
    buildRepo(dir, { commits: [{ time: T, message: 'x', files: { 'a.js': 'let a = 1;\n'.repeat(1000) } }] });
    await expect(git.runGit(['cat-file', 'blob', 'main:a.js'], { gitDir: dir, maxOutputBytes: 100 })).rejects.toMatchObject({
      code: 'REPOSITORY_TOO_LARGE',
      limit: 'gitOutputBytes',
    });
  });
});

describe('a repository with objects missing (a partial clone)', () => {
  it('records the unreadable files as MISSING_OBJECT and analyses the rest', async () => {
    const files = renderProject(makeModules(41, 3, 8), { name: 'partial' });
    const dir = join(base, 'partial.git');
    const commit = buildRepo(dir, { commits: [{ time: T, message: 'partial', files: { ...files, 'big.dat': 'x'.repeat(5000) } }] });
    // fast-import writes a pack; unpack it so one blob can be removed as a partial clone would lack it.
    const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    const blob = execFileSync('git', ['--git-dir', dir, 'rev-parse', `${commit}:big.dat`], { env })
      .toString()
      .trim();
    const packs = execFileSync('git', ['--git-dir', dir, 'rev-parse', '--git-path', 'objects/pack'], { env }).toString().trim();
    for (const f of readdirSync(packs)) {
      if (f.endsWith('.pack'))
        execFileSync('git', ['--git-dir', dir, 'unpack-objects', '-q'], { env, input: readFileSync(join(packs, f)) });
    }
    rmSync(packs, { recursive: true, force: true });
    rmSync(join(dir, 'objects', blob.slice(0, 2), blob.slice(2)));
    const inv = await inventory({ dir, commit });
    expect(inv.skipped).toContainEqual({ path: 'big.dat', reason: 'MISSING_OBJECT' });
    expect(inv.files.every((f) => Number.isFinite(f.size))).toBe(true);
    const r = await analyze({ origin: { dir, commit }, target: { dir, commit }, workers: 1 });
    expect(r.manifest.skipped.filter((x) => x.reason === 'MISSING_OBJECT')).toHaveLength(2);
    expect(Number.isFinite(r.manifest.inventory.origin.bytes)).toBe(true);
  });
});
