import { z } from '../zod';
import { Commit, DecimalId } from '../common';

/** Bounds of one side of a fragment: at most this many lines and this many bytes of text (UTF-8). */
export const FRAGMENT_MAX_LINES = 200;
export const FRAGMENT_MAX_BYTES = 64 * 1024;

/**
 * A path inside a repository as the engine records it: relative, `/`-separated, no empty, `.` or `..`
 * segment, no control characters. Anything else is refused before git sees it (issue `invalid_repo_path`).
 */
export const RepoPath = z
  .string()
  .min(1)
  .max(4096)
  .refine(
    // eslint-disable-next-line no-control-regex -- refusing control characters is the point
    (p) => !/[\x00-\x1f\x7f]/.test(p) && !p.startsWith('/') && p.split('/').every((s) => s !== '' && s !== '.' && s !== '..'),
    'invalid_repo_path',
  );

/**
 * `lineage.analysis.fragment`: lines `startLine..endLine` (1-based, inclusive) of one file at one side's pinned
 * commit of an analysis, read from the pipeline's repository cache. Internal (no public route): the gateway's
 * case page shows the strongest fragments side by side with it.
 */
export const FragmentRequest = z
  .strictObject({
    analysisId: DecimalId,
    side: z.enum(['origin', 'target']),
    path: RepoPath,
    startLine: z.number().int().min(1).max(10_000_000),
    endLine: z.number().int().min(1).max(10_000_000),
  })
  .refine((q) => q.endLine >= q.startLine && q.endLine - q.startLine < FRAGMENT_MAX_LINES, { message: 'line_range', path: ['endLine'] });

export const FragmentResponse = z.object({
  side: z.enum(['origin', 'target']),
  url: z.string(),
  commit: Commit,
  path: z.string(),
  /** The first line returned (= the request's startLine). */
  startLine: z.number().int().min(1),
  /** Text of the lines returned, without their line ends; fewer than asked when the file ends first or a bound was hit. */
  lines: z.array(z.string()).max(FRAGMENT_MAX_LINES),
  /** A bound (lines, bytes, a line too long) cut the text short. */
  truncated: z.boolean(),
  /** The file ends within (or before) the range asked for. */
  endOfFile: z.boolean(),
  /** The file holds NUL bytes: no text is returned. */
  binary: z.boolean(),
});
export type FragmentResponse = z.infer<typeof FragmentResponse>;
