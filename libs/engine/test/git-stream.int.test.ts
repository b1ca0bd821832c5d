// streamGitLines decodes each chunk's whole lines at once. The lines must be exactly those of git's output split at
// newlines, whatever falls on a chunk boundary: multi-byte characters, a line longer than a chunk, no final newline.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamGitLines } from '../src/git/runner';
import { buildRepo } from '../../../test/fixtures/git-builder';

const base = mkdtempSync(join(tmpdir(), 'lineage-git-stream-'));
const dir = join(base, 'repo.git');
// 400 commits whose messages mix one-, two-, three- and four-byte characters, some far longer than a pipe chunk:
// git's output (over 400 KB) reaches this process in many chunks, cut wherever the pipe cuts it.
const words = ['ascii', 'ünïcödé', '日本語のテキスト', '😀🚀', 'ß', '—'];
const head = buildRepo(dir, {
  commits: Array.from({ length: 400 }, (_, i) => ({
    time: 1_600_000_000 + i * 60,
    message: Array.from({ length: i % 50 === 7 ? 9000 : 20 + (i % 13) }, (_, j) => words[(i + j) % words.length]).join(' '),
    files: { [`f${i % 7}.txt`]: `${i}\n` },
  })),
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const args = ['log', '--format=%H %s%n%b', '--end-of-options', head];
const expected = (): string[] => {
  const out = execFileSync('git', ['--git-dir', dir, ...args], { maxBuffer: 1 << 26 }).toString('utf8');
  return (out.endsWith('\n') ? out.slice(0, -1) : out).split('\n');
};

describe('streamGitLines', () => {
  it("gives git's output line by line, exactly, across chunk boundaries", async () => {
    const got: string[] = [];
    await streamGitLines(args, { gitDir: dir }, (l) => {
      got.push(l);
    });
    const want = expected();
    expect(Buffer.byteLength(want.join('\n'))).toBeGreaterThan(400_000); // several 64 KB pipe chunks
    expect(got).toEqual(want);
  });

  it('stops when the callback says so, and gives the last line without a newline after it', async () => {
    const got: string[] = [];
    await streamGitLines(args, { gitDir: dir }, (l) => {
      got.push(l);
      return got.length < 5;
    });
    expect(got).toEqual(expected().slice(0, 5));
    const last: string[] = [];
    await streamGitLines(['log', '-1', '--format=tformat:%H', '--end-of-options', head], { gitDir: dir }, (l) => {
      last.push(l);
    });
    await streamGitLines(['log', '-1', '--format=format:%H', '--end-of-options', head], { gitDir: dir }, (l) => {
      last.push(l);
    });
    expect(last).toEqual([head, head]);
  });
});
