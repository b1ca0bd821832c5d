import { EngineError } from '../errors';
import { spawnGit } from './runner';

export interface TreeEntry {
  mode: string;
  type: string;
  oid: string;
  /** null for trees and submodules; `missing` when the object is not in the repository (a partial clone) */
  size: number | null | 'missing';
  path: string;
}

/**
 * Stream `git ls-tree -r -l -z --full-tree <commit>`; stops (and kills git) as
 * soon as more than maxEntries entries have been seen.
 */
export function listTree(gitDir: string, commit: string, maxEntries: number, timeoutMs: number): Promise<TreeEntry[]> {
  return new Promise((resolve, reject) => {
    const child = spawnGit({ gitDir }, ['ls-tree', '-r', '-l', '-z', '--full-tree', commit]);
    const entries: TreeEntry[] = [];
    let rest = Buffer.alloc(0);
    let failure: EngineError | null = null;
    const kill = (e: EngineError): void => {
      if (!failure) failure = e;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => kill(new EngineError('REPOSITORY_TOO_LARGE', 'listing the tree exceeded the time budget', 'timeBudgetMs')),
      timeoutMs,
    );
    child.stdout!.on('data', (c: Buffer) => {
      if (failure) return;
      let buf = rest.length ? Buffer.concat([rest, c]) : c;
      let start = 0;
      for (;;) {
        const z = buf.indexOf(0, start);
        if (z < 0) break;
        const rec = buf.subarray(start, z);
        start = z + 1;
        const tab = rec.indexOf(9);
        if (tab < 0) continue;
        const [mode = '', type = '', oid = '', sizeStr = ''] = rec.subarray(0, tab).toString('utf8').trim().split(/ +/);
        // ls-tree prints BAD as the size of an object it cannot find.
        const size = sizeStr === '-' ? null : /^[0-9]+$/.test(sizeStr) ? Number(sizeStr) : 'missing';
        entries.push({ mode, type, oid, size, path: rec.subarray(tab + 1).toString('utf8') });
        if (entries.length > maxEntries) {
          kill(new EngineError('REPOSITORY_TOO_LARGE', `more than ${maxEntries} tracked entries`, 'maxFiles'));
          return;
        }
      }
      buf = buf.subarray(start);
      rest = Buffer.from(buf);
      if (rest.length > 1 << 20) kill(new EngineError('REPOSITORY_TOO_LARGE', 'tree entry too long', 'gitOutputBytes'));
    });
    child.stderr!.resume();
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      if (code !== 0) return reject(new EngineError('GIT_FAILED', `git ls-tree exited with code ${code ?? 'null'}`));
      resolve(entries);
    });
  });
}
