// What a fork point says of the project: the names and declaration sentences in its root files, and when each of
// those names first gave way to another on each side (the rename that made a fork a new project).
import { BlobReader } from '../git/catfile';
import type { PairView } from '../git/pair-view';
import type { Deadline } from '../limits';
import type { NameRef, Rename } from '../types';
import { declarationSentences } from './declarations';
import { DOC_FILE, IDENTITY_FILE, namesIn, sameName } from './names';

const HEX40 = /^[0-9a-f]{40}$/;
const MAX_DOC_BYTES = 256 * 1024;

/** How long after the fork point a side's own commits are searched for the rename that made it a new project. */
export const RENAME_WINDOW_S = 60 * 86_400;

/**
 * When each name of the fork point first gave way to another on each side: the side's own commits up to
 * RENAME_WINDOW_S after the fork point that touch the files naming the project, oldest first, each such file read
 * until its name changes. A fork renames itself when it is made; an upstream that renames later is outside the
 * window. Bounded: only commits in the window, the files the fork point named the project in, and at most
 * MAX_RENAME_READS versions read a side.
 */
export async function renamesAfterFork(
  view: PairView,
  heads: { origin: string; target: string },
  bases: string[],
  fork: { commit: string; time: number },
  forkNames: readonly NameRef[],
  opts: { deadline: Deadline; signal?: AbortSignal },
): Promise<{ origin: Rename[]; target: Rename[] }> {
  const out: { origin: Rename[]; target: Rename[] } = { origin: [], target: [] };
  const paths = [...new Set(forkNames.map((n) => n.path))].sort();
  if (!paths.length) return out;
  // The pair view holds both sides' objects; the caller's reader holds one side's only.
  const reader = new BlobReader(view.gitDir);
  try {
    for (const side of ['origin', 'target'] as const) {
      const log = (
        await view.run(
          [
            'log',
            '--reverse',
            '--format=%x01%H %ct',
            '--raw',
            '--no-abbrev',
            '--no-renames',
            `--until=${fork.time + RENAME_WINDOW_S}`,
            '--end-of-options',
            heads[side],
            ...bases.map((b) => `^${b}`),
            '--',
            ...paths,
          ],
          { signal: opts.signal, timeoutMs: opts.deadline.remainingMs(), maxOutputBytes: 16 * 1024 * 1024 },
        )
      ).toString('utf8');
      const open = new Map(forkNames.map((n) => [n.key, n]));
      let commit = '';
      let time = 0;
      let reads = 0;
      for (const line of log.split('\n')) {
        if (!open.size || reads >= MAX_RENAME_READS) break;
        if (line.startsWith('\x01')) {
          const sp = line.indexOf(' ');
          commit = line.slice(1, sp);
          time = Number(line.slice(sp + 1));
          continue;
        }
        const tab = line.indexOf('\t');
        if (!line.startsWith(':') || tab < 0) continue;
        const path = line.slice(tab + 1);
        const blob = line.slice(1, tab).split(' ')[3] ?? '';
        const named = [...open.values()].filter((n) => n.path === path);
        if (!HEX40.test(blob) || /^0+$/.test(blob) || !named.length) continue;
        reads++;
        const b = await reader.readBlob(blob, MAX_DOC_BYTES);
        if (!b) continue;
        const now = namesIn(path, b.toString('utf8'), blob, commit);
        for (const f of named) {
          const n = now.find((x) => x.key === f.key);
          if (n && !sameName(n.name, f.name)) {
            out[side].push({ key: f.key, kind: f.kind, from: f.name, to: n.name, commit, time, path });
            open.delete(f.key);
          }
        }
      }
      opts.deadline.check();
    }
    return out;
  } finally {
    reader.close();
  }
}

const MAX_RENAME_READS = 200;

/** Names and declaration sentences in the root files of a commit (the fork point). */
export async function forkPointIdentity(
  view: PairView,
  commit: string,
  opts: { deadline: Deadline; signal?: AbortSignal; reader?: BlobReader },
): Promise<{ names: NameRef[]; sentences: string[] }> {
  const out = (
    await view.run(['ls-tree', '-z', '--full-tree', commit], {
      signal: opts.signal,
      timeoutMs: opts.deadline.remainingMs(),
      maxOutputBytes: 16 * 1024 * 1024,
    })
  ).toString('utf8');
  const files: { path: string; oid: string }[] = [];
  for (const rec of out.split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const [mode = '', type = '', oid = ''] = rec.slice(0, tab).split(' ');
    const path = rec.slice(tab + 1);
    if (type === 'blob' && mode !== '120000' && (IDENTITY_FILE.test(path) || DOC_FILE.test(path))) files.push({ path, oid });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  const reader = opts.reader ?? new BlobReader(view.gitDir);
  try {
    const names: NameRef[] = [];
    const docs: string[] = [];
    for (const f of files) {
      const b = await reader.readBlob(f.oid, MAX_DOC_BYTES);
      if (!b) continue;
      const text = b.toString('utf8');
      if (IDENTITY_FILE.test(f.path)) names.push(...namesIn(f.path, text, f.oid, commit));
      if (DOC_FILE.test(f.path)) docs.push(text);
    }
    return { names, sentences: declarationSentences(docs) };
  } finally {
    if (!opts.reader) reader.close();
  }
}
