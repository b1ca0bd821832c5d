// lineage.analysis.fragment: lines of one file at a pinned commit, read from a bare cache repository.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fragmentApi } from '@lineage/schemas';
import { buildRepo } from '../../../test/fixtures/git-builder';
import { FragmentReader } from '../src/fragments';

const HOSTILE = '<img src=x onerror=alert(1)>.js';
const T = 1_600_000_000;

describe('FragmentReader', () => {
  let dir: string;
  let gitDir: string;
  let commit: string;
  let reader: FragmentReader;
  const url = 'https://example.org/a/b';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lineage-fragments-'));
    gitDir = join(dir, 'repo.git');
    commit = buildRepo(gitDir, {
      commits: [
        {
          time: T,
          message: 'files',
          files: {
            'src/a.js': Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
            [HOSTILE]: '</script><script>alert(1)</script>\r\nsecond\r\n',
            'link.js': { symlink: '/etc/passwd' },
            'bin.dat': Buffer.from([0x41, 0x00, 0x42, 0x0a]),
            'long.js': 'x'.repeat(70_000) + '\nafter\n',
            'wild*.js': 'star\n',
            'wildcard.js': 'not me\n',
          },
        },
      ],
    });
    reader = new FragmentReader({
      pair: async (id) => {
        if (id !== '1') throw Object.assign(new Error('no'), { code: 'ANALYSIS_NOT_FOUND' });
        return { origin: { url, commit }, target: { url: 'https://example.org/gone', commit } };
      },
      gitDirFor: (u) => (u === url ? gitDir : join(dir, 'missing.git')),
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const read = (q: Partial<{ side: 'origin' | 'target'; path: string; startLine: number; endLine: number }>) =>
    reader.read(fragmentApi.FragmentRequest.parse({ analysisId: '1', side: 'origin', path: 'src/a.js', startLine: 1, endLine: 3, ...q }));

  it('reads the lines asked for, 1-based and inclusive', async () => {
    const f = await read({ startLine: 10, endLine: 12 });
    expect(f).toMatchObject({
      side: 'origin',
      url,
      commit,
      path: 'src/a.js',
      startLine: 10,
      lines: ['line 10', 'line 11', 'line 12'],
      truncated: false,
      endOfFile: false,
      binary: false,
    });
    const end = await read({ startLine: 299, endLine: 310 });
    expect(end.lines).toEqual(['line 299', 'line 300']);
    expect(end.endOfFile).toBe(true);
  });

  it("reads a hostile file name and content as they are (escaping is the page's job), without CRs", async () => {
    const f = await read({ path: HOSTILE, startLine: 1, endLine: 5 });
    expect(f.lines).toEqual(['</script><script>alert(1)</script>', 'second']);
  });

  it('refuses symbolic links, directories, missing paths, and takes `*` literally', async () => {
    await expect(read({ path: 'link.js' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(read({ path: 'src' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(read({ path: 'nope.js' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await read({ path: 'wild*.js' })).lines).toEqual(['star']);
  });

  it('bounds the answer: binary files, over-long lines and the byte limit', async () => {
    expect(await read({ path: 'bin.dat' })).toMatchObject({ binary: true, lines: [] });
    const long = await read({ path: 'long.js', startLine: 1, endLine: 2 });
    expect(long.truncated).toBe(true);
    expect(long.lines).toEqual([]);
  });

  it('says REPOSITORY_NOT_CACHED when the repository or the commit is gone', async () => {
    await expect(read({ side: 'target' })).rejects.toMatchObject({ code: 'REPOSITORY_NOT_CACHED' });
    const other = new FragmentReader({
      pair: async () => ({ origin: { url, commit: 'f'.repeat(40) }, target: { url, commit } }),
      gitDirFor: () => gitDir,
    });
    await expect(
      other.read(fragmentApi.FragmentRequest.parse({ analysisId: '1', side: 'origin', path: 'src/a.js', startLine: 1, endLine: 1 })),
    ).rejects.toMatchObject({ code: 'REPOSITORY_NOT_CACHED' });
  });

  it('refuses paths that leave the tree and ranges over the bound before git sees them', () => {
    for (const path of ['../x', '/etc/passwd', 'a/../b', 'a//b', './a', 'a\0b', 'a\nb', '']) {
      expect(fragmentApi.FragmentRequest.safeParse({ analysisId: '1', side: 'origin', path, startLine: 1, endLine: 1 }).success).toBe(
        false,
      );
    }
    expect(fragmentApi.FragmentRequest.safeParse({ analysisId: '1', side: 'origin', path: 'a', startLine: 1, endLine: 200 }).success).toBe(
      true,
    );
    expect(fragmentApi.FragmentRequest.safeParse({ analysisId: '1', side: 'origin', path: 'a', startLine: 1, endLine: 201 }).success).toBe(
      false,
    );
    expect(fragmentApi.FragmentRequest.safeParse({ analysisId: '1', side: 'origin', path: 'a', startLine: 5, endLine: 4 }).success).toBe(
      false,
    );
  });
});
