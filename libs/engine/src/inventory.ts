import { BlobReader } from './git/catfile';
import { listTree } from './git/lstree';
import { resolveGitDir } from './git/runner';
import { classify, classifyPath, countLines, isMarkupInCodeFile, isSafePath, languageOf } from './classify';
import { EngineError } from './errors';
import { Deadline, stageBudget } from './limits';
import type { Inventory, InventoryFile, InventorySummary, Limits, ProgressFn, RepoRef, Side, SkippedItem } from './types';

export interface StageOptions {
  limits?: Partial<Limits>;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  deadline?: Deadline;
  /** which side this stage runs for, echoed in progress events */
  side?: Side;
  /**
   * A `cat-file` reader on this side's repository, shared by the stages of one
   * analysis (the caller closes it); without one a stage starts its own. Every
   * git process started costs a fork of this process, which dominates small pairs.
   */
  reader?: BlobReader;
}

const byPath = <T extends { path: string }>(a: T, b: T): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * Tracked files at the pinned commit, classified. Symlinks and submodules are
 * recorded as skipped, never followed; files over maxFileBytes are skipped
 * (recorded); more than maxFiles entries or more than maxTotalBytes of
 * accepted content stops with REPOSITORY_TOO_LARGE.
 */
export async function inventory(repo: RepoRef, opts: StageOptions = {}): Promise<Inventory> {
  const { limits, deadline } = stageBudget(opts);
  const gitDir = resolveGitDir(repo.dir);
  const reader = opts.reader ?? new BlobReader(gitDir);
  try {
    return await inventoryWith(reader, gitDir, repo, limits, deadline, opts);
  } finally {
    if (!opts.reader) reader.close();
  }
}

async function inventoryWith(
  reader: BlobReader,
  gitDir: string,
  repo: RepoRef,
  limits: Limits,
  deadline: Deadline,
  opts: StageOptions,
): Promise<Inventory> {
  const commit = await reader.resolveCommit(repo.commit);
  deadline.check();
  const entries = await listTree(gitDir, commit, limits.maxFiles, { timeoutMs: deadline.remainingMs(), signal: opts.signal });
  const skipped: SkippedItem[] = [];
  const candidates: { path: string; oid: string; size: number }[] = [];
  for (const e of entries) {
    if (!isSafePath(e.path)) {
      skipped.push({ path: sanitizePath(e.path), reason: 'UNSAFE_PATH' });
    } else if (e.mode === '120000') {
      skipped.push({ path: e.path, reason: 'SYMLINK' });
    } else if (e.mode === '160000' || e.type === 'commit') {
      skipped.push({ path: e.path, reason: 'SUBMODULE' });
    } else if (e.type !== 'blob') {
      continue;
    } else if (e.size === 'missing') {
      skipped.push({ path: e.path, reason: 'MISSING_OBJECT' });
    } else if ((e.size ?? 0) > limits.maxFileBytes) {
      skipped.push({ path: e.path, reason: 'FILE_TOO_LARGE', size: e.size ?? 0 });
    } else {
      candidates.push({ path: e.path, oid: e.oid, size: e.size ?? 0 });
    }
  }
  candidates.sort(byPath);
  let total = 0;
  for (const c of candidates) total += c.size;
  if (total > limits.maxTotalBytes)
    throw new EngineError('REPOSITORY_TOO_LARGE', 'tracked content exceeds the total byte limit', 'maxTotalBytes');

  const files: InventoryFile[] = [];
  // Binary files are classified from the path alone; everything else is read once to classify by content.
  const listed = candidates.map((c) => ({ oid: c.oid, size: classifyPath(c.path) === 'binary' ? Infinity : c.size }));
  let done = 0;
  for await (const content of reader.readListed(listed, limits.maxFileBytes)) {
    const c = candidates[done]!;
    const cls = classify(c.path, content);
    files.push({
      path: c.path,
      blobId: c.oid,
      size: c.size,
      class: cls,
      language: cls === 'binary' || (cls === 'config' && isMarkupInCodeFile(c.path, content)) ? null : languageOf(c.path),
      lines: content && cls !== 'binary' ? countLines(content) : 0,
    });
    done++;
    if (done % 200 === 0 || done === candidates.length) {
      deadline.check();
      opts.onProgress?.({ stage: 'inventory', done, total: candidates.length, unit: 'files', ...(opts.side ? { side: opts.side } : {}) });
    }
  }
  skipped.sort(byPath);
  return { commit, files, skipped, summary: summarize(files, skipped) };
}

function summarize(files: InventoryFile[], skipped: SkippedItem[]): InventorySummary {
  const byClass: Record<string, number> = {};
  const byLanguage: Record<string, number> = {};
  let bytes = 0;
  let lines = 0;
  for (const f of files) {
    byClass[f.class] = (byClass[f.class] ?? 0) + 1;
    if (f.language) byLanguage[f.language] = (byLanguage[f.language] ?? 0) + 1;
    bytes += f.size;
    lines += f.lines;
  }
  return { files: files.length, bytes, lines, byClass, byLanguage, skipped: skipped.length };
}

/** Replace control characters so an unsafe name can still be reported. */
export function sanitizePath(p: string): string {
  // eslint-disable-next-line no-control-regex
  return p.replace(/[\x00-\x1f\x7f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`).slice(0, 512);
}
