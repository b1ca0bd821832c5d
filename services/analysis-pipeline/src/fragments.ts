// `lineage.analysis.fragment`: a few lines of one file at one side's pinned commit of an analysis, read
// from this replica's repository cache, for the gateway's side-by-side view. Only the analysis's own
// pinned commits are read, only from the bare cache (git objects, never a work tree: a symlink is a blob
// git never follows, and one is refused here), with the network switched off (a blob left out of a
// partial fetch is never fetched lazily), and the answer is bounded in lines and bytes.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '@lineage/engine';
import { fragmentApi, type z } from '@lineage/schemas';
import { ApiError } from '@lineage/service-kit';

type Request = z.output<typeof fragmentApi.FragmentRequest>;
type Reply = z.input<typeof fragmentApi.FragmentResponse>;
type Pinned = { url: string; commit: string };

/** Every transport refused: reading a cache must never reach a remote. */
const OFFLINE = ['protocol.allow=never'];
const TIMEOUT_MS = 10_000;
/** A line longer than this ends the read (a minified file): what came before it is still answered. */
const MAX_LINE_BYTES = 1 << 20;

export const notCached = () =>
  new ApiError(
    'REPOSITORY_NOT_CACHED',
    "The repository is no longer in the analysis pipeline's cache; run the analysis again to read its files.",
  );
const noFile = () => new ApiError('NOT_FOUND', 'No regular file has that path at the pinned commit.');

export interface FragmentSource {
  /** The pinned pair of an analysis (ANALYSIS_NOT_FOUND when there is none). */
  pair(analysisId: string): Promise<{ origin: Pinned; target: Pinned }>;
  /** The bare cache repository of a canonical URL. */
  gitDirFor(url: string): string;
}

export class FragmentReader {
  constructor(private readonly source: FragmentSource) {}

  async read(q: Request): Promise<Reply> {
    const pinned = (await this.source.pair(q.analysisId))[q.side];
    const gitDir = this.source.gitDirFor(pinned.url);
    if (!existsSync(join(gitDir, 'HEAD')) || !existsSync(join(gitDir, 'objects'))) throw notCached();
    const run = (args: string[], maxOutputBytes = 1 << 16) =>
      git.runGit(args, { gitDir, config: OFFLINE, timeoutMs: TIMEOUT_MS, maxOutputBytes });
    try {
      await run(['cat-file', '-e', `${pinned.commit}^{commit}`]);
    } catch {
      throw notCached();
    }
    // The entry itself (mode, type, object id); literal pathspecs, so `*` or `:(...)` in a name mean nothing.
    let listing: Buffer;
    try {
      listing = await run(['--literal-pathspecs', 'ls-tree', '-z', '--full-tree', pinned.commit, '--', q.path]);
    } catch {
      throw notCached();
    }
    const entry = listing
      .toString('utf8')
      .split('\0')
      .map((e) => /^(\d{6}) (\w+) ([0-9a-f]{40,64})\t([\s\S]*)$/.exec(e))
      .find((m) => m && m[4] === q.path);
    if (!entry || entry[2] !== 'blob' || (entry[1] !== '100644' && entry[1] !== '100755')) throw noFile();
    const oid = entry[3]!;

    const lines: string[] = [];
    let bytes = 0;
    let lineNo = 0;
    let truncated = false;
    let binary = false;
    let reachedEnd = true;
    try {
      await git.streamGitLines(
        ['cat-file', 'blob', oid],
        { gitDir, config: OFFLINE, timeoutMs: TIMEOUT_MS, maxLineBytes: MAX_LINE_BYTES },
        (line) => {
          lineNo += 1;
          if (line.includes('\0')) {
            binary = true;
            reachedEnd = false;
            return false;
          }
          if (lineNo < q.startLine) return true;
          const text = line.endsWith('\r') ? line.slice(0, -1) : line;
          const size = Buffer.byteLength(text, 'utf8') + 1;
          if (bytes + size > fragmentApi.FRAGMENT_MAX_BYTES || lines.length >= fragmentApi.FRAGMENT_MAX_LINES) {
            truncated = true;
            reachedEnd = false;
            return false;
          }
          bytes += size;
          lines.push(text);
          if (lineNo >= q.endLine) {
            reachedEnd = false;
            return false;
          }
          return true;
        },
      );
    } catch (err) {
      if ((err as { code?: string }).code !== 'REPOSITORY_TOO_LARGE') throw notCached();
      truncated = true; // a line (or the read) over its bound: answer what came before it
      reachedEnd = false;
    }
    // `streamGitLines` hands over a last line without a newline too; the file ended inside or before the range
    // when the read ran to its end.
    return {
      side: q.side,
      url: pinned.url,
      commit: pinned.commit,
      path: q.path,
      startLine: q.startLine,
      lines: binary ? [] : lines,
      truncated,
      endOfFile: reachedEnd,
      binary,
    };
  }
}
