// The one git process primitive: output, exit codes, and the kills (timeout, abort, early stop, a failure of the reader).
// Commands that need no repository: `hash-object --stdin` waits on an open stdin, `config --list` prints the -c config.
import { EngineError } from '../../src/errors';
import { startGit } from '../../src/git/process';
import { runGit, streamGitLines } from '../../src/git/runner';

const HELLO_BLOB = 'ce013625030ba8dba906f756967f9e9ca394464a'; // git hash-object of "hello\n"

/** How long a promise took to settle, and its error (null when it resolved). */
async function timed(p: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const start = Date.now();
  let error: unknown = null;
  await p.catch((e: unknown) => (error = e));
  return { ms: Date.now() - start, error };
}

describe('startGit', () => {
  it('hands git its input and returns its output', async () => {
    expect((await runGit(['hash-object', '--stdin'], { input: 'hello\n' })).toString('utf8')).toBe(`${HELLO_BLOB}\n`);
  });

  it('runs every git with the hardened config (no hooks, no symlinks, no submodule recursion)', async () => {
    const config = (await runGit(['config', '--list'])).toString('utf8').split('\n');
    expect(config).toEqual(expect.arrayContaining(['core.hookspath=/dev/null', 'core.symlinks=false', 'submodule.recurse=false']));
  });

  it('kills a git that outlives its time and rejects with the time budget', async () => {
    // stdin left open: hash-object waits for it for ever unless killed
    const git = startGit(['hash-object', '--stdin'], { input: null, timeoutMs: 200 }, () => undefined);
    const { ms, error } = await timed(git.exited); // settles only once git has exited
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'REPOSITORY_TOO_LARGE', limit: 'timeBudgetMs' });
    expect(ms).toBeGreaterThanOrEqual(150);
    expect(ms).toBeLessThan(10_000);
  });

  it('kills a git when its signal aborts, and at once when it was aborted before', async () => {
    const ac = new AbortController();
    const git = startGit(['hash-object', '--stdin'], { input: null, signal: ac.signal }, () => undefined);
    setTimeout(() => ac.abort(), 100);
    const { error } = await timed(git.exited);
    expect(error).toMatchObject({ code: 'CANCELLED' });
    const before = await timed(startGit(['hash-object', '--stdin'], { input: null, signal: ac.signal }, () => undefined).exited);
    expect(before.error).toMatchObject({ code: 'CANCELLED' });
  });

  it('kills a git its owner is done with: exited resolves', async () => {
    const git = startGit(['hash-object', '--stdin'], { input: null }, () => undefined);
    setTimeout(() => git.kill(), 50);
    await expect(git.exited).resolves.toBeUndefined();
  });

  it('maps a non-zero exit to GIT_FAILED with the exit code (stderr beside the message, not in it), unless accepted', async () => {
    const { error } = await timed(runGit(['hash-object', '-t', 'no-such-type', '--stdin'], { input: 'x' }));
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ code: 'GIT_FAILED', message: 'git hash-object exited with code 128' });
    expect((error as { stderr?: string }).stderr).toMatch(/fatal/);
    await expect(runGit(['hash-object', '-t', 'no-such-type', '--stdin'], { input: 'x', okExitCodes: [128] })).resolves.toBeInstanceOf(
      Buffer,
    );
  });

  it('bounds the output: more than maxOutputBytes kills git with gitOutputBytes', async () => {
    await expect(runGit(['config', '--list'], { maxOutputBytes: 10 })).rejects.toMatchObject({
      code: 'REPOSITORY_TOO_LARGE',
      limit: 'gitOutputBytes',
    });
  });
});

describe('streamGitLines', () => {
  it('hands over each line, stops early when told, and rejects with what its reader throws', async () => {
    const all: string[] = [];
    await streamGitLines(['config', '--list'], {}, (l) => void all.push(l));
    expect(all).toContain('core.hookspath=/dev/null');
    const first: string[] = [];
    await streamGitLines(['config', '--list'], {}, (l) => (first.push(l), false));
    expect(first).toEqual([all[0]]);
    const boom = new EngineError('REPOSITORY_TOO_LARGE', 'too many', 'maxFiles');
    await expect(
      streamGitLines(['config', '--list'], {}, () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
  });

  it('splits NUL-terminated records (-z) at NUL only', async () => {
    const records: string[] = [];
    await streamGitLines(['config', '--list', '-z'], { terminator: '\0' }, (r) => void records.push(r));
    expect(records).toContain('core.hookspath\n/dev/null'); // -z puts a newline between key and value
  });
});
