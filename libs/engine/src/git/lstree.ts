import { EngineError } from '../errors';
import { streamGitLines } from './runner';

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
export async function listTree(
  gitDir: string,
  commit: string,
  maxEntries: number,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = [];
  const args = ['ls-tree', '-r', '-l', '-z', '--full-tree', commit];
  await streamGitLines(args, { gitDir, timeoutMs: opts.timeoutMs, signal: opts.signal, terminator: '\0' }, (rec) => {
    const tab = rec.indexOf('\t');
    if (tab < 0) return;
    const [mode = '', type = '', oid = '', sizeStr = ''] = rec.slice(0, tab).trim().split(/ +/);
    // ls-tree prints BAD as the size of an object it cannot find.
    const size = sizeStr === '-' ? null : /^[0-9]+$/.test(sizeStr) ? Number(sizeStr) : 'missing';
    entries.push({ mode, type, oid, size, path: rec.slice(tab + 1) });
    if (entries.length > maxEntries) throw new EngineError('REPOSITORY_TOO_LARGE', `more than ${maxEntries} tracked entries`, 'maxFiles');
  });
  return entries;
}
