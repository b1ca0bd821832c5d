// What the comparison reads from each side beyond the fingerprints: READMEs below the root near the matched code,
// the matched files' comments, and the heads of the files with the most matched material.
import type { BlobReader } from '../git/catfile';
import type { Fingerprints, Inventory, Side } from '../types';
import type { SideLineageInput } from '../lineage/signals/index';
import type { SideThirdPartyInput } from '../lineage/third-party';
import type { Fragment } from './code';
import { cmp } from './format';

const NESTED_README = /^(.+)\/readme(?:\.[a-z]+)?$/i;
const MAX_NESTED_DOCS = 16;
const MAX_NESTED_DOC_BYTES = 256 * 1024;

/**
 * READMEs below the root in the directories that hold a side's matched code, or above them, nearest the root first
 * (at most MAX_NESTED_DOCS): where a package moved out of a larger repository is announced (SideLineageInput's
 * nestedDocs).
 */
export async function nestedDocs(inv: Inventory, matched: Iterable<string>, reader: BlobReader): Promise<SideLineageInput['docs']> {
  const dirs = new Set<string>();
  for (const p of matched) for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1)) dirs.add(p.slice(0, i));
  const depth = (p: string): number => p.split('/').length;
  const picked = inv.files
    .filter((f) => f.class !== 'vendored' && f.size <= MAX_NESTED_DOC_BYTES && dirs.has(NESTED_README.exec(f.path)?.[1] ?? ''))
    .sort((a, b) => depth(a.path) - depth(b.path) || cmp(a.path, b.path))
    .slice(0, MAX_NESTED_DOCS);
  const out: SideLineageInput['docs'] = [];
  for (const f of picked) {
    const b = await reader.readBlob(f.blobId, MAX_NESTED_DOC_BYTES);
    if (b) out.push({ path: f.path, blobId: f.blobId, text: b.toString('utf8') });
  }
  return out;
}

/** The comments of the files in `paths` (SideLineageInput's codeComments), in the fingerprints' order. */
export function commentsIn(fp: Fingerprints, paths: ReadonlySet<string>): NonNullable<SideLineageInput['codeComments']> {
  const blob = new Map(fp.files.map((f) => [f.path, f.blobId]));
  return fp.language
    .filter((it) => it.kind === 'COMMENT' && paths.has(it.path))
    .map((it) => ({ path: it.path, blobId: blob.get(it.path) ?? '', line: it.line, text: it.text }));
}

/** Matched files whose heads are read for a third party's copyright notice: the most matched first, at most this many a side. */
const MAX_HEAD_FILES = 64;
/** Bytes of a file's head read for it. */
const HEAD_BYTES = 8 * 1024;

/** Per side, the matched fingerprints of each file and the heads of the files with the most (thirdPartyCode's input). */
export async function embeddedInput(
  frags: readonly Fragment[],
  o: Fingerprints,
  t: Fingerprints,
  readers: Record<Side, BlobReader>,
  maxBytes: number,
): Promise<Record<Side, Pick<SideThirdPartyInput, 'heads' | 'matched'>>> {
  const matched = { origin: new Map<string, number>(), target: new Map<string, number>() };
  for (const f of frags) {
    const op = o.files[f.originFile]!.path;
    const tp = t.files[f.targetFile]!.path;
    matched.origin.set(op, (matched.origin.get(op) ?? 0) + f.originFps.length);
    matched.target.set(tp, (matched.target.get(tp) ?? 0) + f.originFps.length);
  }
  return {
    origin: { matched: matched.origin, heads: await fileHeads(o, matched.origin, readers.origin, maxBytes) },
    target: { matched: matched.target, heads: await fileHeads(t, matched.target, readers.target, maxBytes) },
  };
}

/** The heads of the side's matched files with the most matched material. */
async function fileHeads(
  fp: Fingerprints,
  weight: ReadonlyMap<string, number>,
  reader: BlobReader,
  maxBytes: number,
): Promise<SideThirdPartyInput['heads']> {
  const blob = new Map(fp.files.map((f) => [f.path, f.blobId]));
  const picked = [...weight]
    .sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))
    .slice(0, MAX_HEAD_FILES)
    .map(([path]) => ({ path, blobId: blob.get(path)! }))
    .filter((f) => f.blobId);
  // 16 at a time: whole blobs come back (cat-file cannot read a head), so at most 16 x maxFileBytes are held at once.
  const bodies = await reader.readBlobs(
    picked.map((f) => f.blobId),
    maxBytes,
    16,
  );
  return picked.flatMap((f, i) => (bodies[i] ? [{ ...f, text: bodies[i]!.subarray(0, HEAD_BYTES).toString('utf8') }] : []));
}
