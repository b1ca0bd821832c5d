import { BlobReader } from '../git/catfile';
import { resolveGitDir } from '../git/runner';
import { Deadline, resolveLimits } from '../limits';
import type { StageOptions } from '../inventory';
import type {
  ChronologyFact,
  Side,
  Comparison,
  EvidenceItem,
  Fingerprints,
  History,
  Inventory,
  Layer,
  LayerScore,
  Location,
  RepoRef,
  Topology,
} from '../types';
import { LAYERS } from '../types';
import { matchCode, runsFirst, type Fragment } from './code';
import { compareDependencies } from './dependency';
import { cmp, dec, isoTime, strengthOf } from './format';
import { DatingCache, MaterialDater } from './history-layer';
import { foundingCommits } from './founding';
import { formerIdentities, madeUnderFormerIdentity, type FormerIdentity } from '../lineage/former-identity';
import { FingerprintPool } from '../workers/pool';
import { DOC_FILE, directoryNames, pathNamesProject, urlNames } from '../lineage/names';
import { commonTemplate, templatesCited } from '../lineage/templates';
import { addedNotice } from '../lineage/added-notice';
import { LICENCE_FILE, licenceAttribution } from '../lineage/licence';
import { thirdPartyCode, type SideThirdPartyInput } from '../lineage/third-party';
import { lineageSignals, type SideLineageInput } from '../lineage/signals/index';
import { commonLineHow } from '../lineage/common-line';
import { topology } from '../lineage/topology';
import { compareLanguage } from './language';
import { compareStructure } from './structure';
import { compareTests } from './tests';

export interface SideData {
  repo: RepoRef;
  inventory: Inventory;
  fingerprints: Fingerprints;
  history: History;
}

const MAX_CODE_ITEMS = 2000;
const MAX_DATED_FRAGMENTS = 60;
const MAX_ITEMS_PER_LAYER = 300;
/** A history of at most this many commits is a snapshot (a published package, an upload), not a project going on. */
const SNAPSHOT_COMMITS = 5;
/** A side's matched material came with its bootstrap when this share of it first appeared in one commit … */
const BOOTSTRAP_SHARE = 0.8;
/** … that made at least this many of the files it still has. */
const BOOTSTRAP_FILES = 20;
/**
 * A history of at least this many commits, every one committed within IMPORT_WINDOW_S and authored over at least
 * IMPORT_AUTHORED_S, was imported in one go (gitpan's CPAN releases, a conversion): its commit times are the import's.
 */
const IMPORT_MIN_COMMITS = 10;
const IMPORT_WINDOW_S = 3600;
const IMPORT_AUTHORED_S = 30 * 86400;

/** How a whole walked history was committed in one go, or null (see IMPORT_MIN_COMMITS). */
export function importedHistory(h: History): { commits: number; seconds: number; authored: { oldest: number; newest: number } } | null {
  if (h.truncated || h.commits.length < IMPORT_MIN_COMMITS || !h.authored) return null;
  let oldest = Infinity;
  let newest = -Infinity;
  for (const c of h.commits) {
    if (c.time < oldest) oldest = c.time;
    if (c.time > newest) newest = c.time;
  }
  if (newest - oldest > IMPORT_WINDOW_S || h.authored.newest - h.authored.oldest < IMPORT_AUTHORED_S) return null;
  return { commits: h.commits.length, seconds: newest - oldest, authored: h.authored };
}

/** A README below the root (see nestedDocs). */
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
function commentsIn(fp: Fingerprints, paths: ReadonlySet<string>): NonNullable<SideLineageInput['codeComments']> {
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
async function embeddedInput(
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

/** A history stage output persisted by an earlier engine version has no names. */
const NO_NAMES: History['names'] = { pinned: [], past: [] };

/** Evidence for every layer, chronology facts and the metrics the decision uses. */
export async function compare(
  origin: SideData,
  target: SideData,
  opts: StageOptions & {
    readers?: { origin: BlobReader; target: BlobReader };
    /** from the history stage; computed here when absent */
    topology?: Topology;
    /** fingerprints old versions for dating (default: in-process) */
    pool?: FingerprintPool;
    /** close `pool` once dating is done: its workers' memory is freed before the other layers allocate theirs */
    closePoolAfterDating?: boolean;
  } = {},
): Promise<Comparison> {
  const limits = resolveLimits(opts.limits);
  const deadline = opts.deadline ?? new Deadline(limits.timeBudgetMs, opts.signal);
  const o = origin.fingerprints;
  const t = target.fingerprints;
  const code = matchCode(o, t);
  deadline.check();
  opts.onProgress?.({ stage: 'compare', done: 1, total: 6, unit: 'items' });

  // Order fragments by size, then by location, so every choice below is deterministic. Locations are compared on
  // the side the matching ran from (runsFirst, from the trees alone) before the other: exchanging origin and target
  // then leaves the order as it was, and the same fragments are dated and listed (the first MAX_DATED_FRAGMENTS,
  // MAX_CODE_ITEMS) when sizes tie at the cut.
  const first = runsFirst(o, t);
  type Place = { path: string; start: number; end: number };
  const keyed = code.fragments.map((f) => {
    const os: Place = { path: o.files[f.originFile]!.path, start: f.origin.startLine, end: f.origin.endLine };
    const ts: Place = { path: t.files[f.targetFile]!.path, start: f.target.startLine, end: f.target.endLine };
    return { f, k: first ? [os, ts] : [ts, os] };
  });
  const byPlace = (x: Place, y: Place): number => cmp(x.path, y.path) || x.start - y.start || x.end - y.end;
  keyed.sort(({ f: a, k: x }, { f: b, k: y }) => b.originFps.length - a.originFps.length || byPlace(x[0]!, y[0]!) || byPlace(x[1]!, y[1]!));
  const frags = keyed.map(({ f }) => f);

  // HISTORY: how the histories relate (git answers it on a view of both object stores).
  const topo =
    opts.topology ??
    (await topology(
      { origin: origin.repo.dir, target: target.repo.dir },
      { origin: origin.history.commit, target: target.history.commit },
      { limits, deadline, signal: opts.signal },
    ));
  const shared = topo.forkPoints.length > 0;
  const oReader = opts.readers?.origin ?? new BlobReader(resolveGitDir(origin.repo.dir));
  const tReader = opts.readers?.target ?? new BlobReader(resolveGitDir(target.repo.dir));
  const matched = {
    origin: new Set(code.fragments.map((f) => o.files[f.originFile]!.path)),
    target: new Set(code.fragments.map((f) => t.files[f.targetFile]!.path)),
  };
  // Read before the dating takes the readers (and closes them when it ends).
  const nested = {
    origin: await nestedDocs(origin.inventory, matched.origin, oReader),
    target: await nestedDocs(target.inventory, matched.target, tReader),
  };
  // Without shared history: the matched fingerprints per file and the heads of the files with the most, for a third
  // party's copyright notice that both keep (read now, before the dating takes the readers).
  const authors = !shared ? topo.sideAuthors : undefined;
  const embedded = authors ? await embeddedInput(frags, o, t, { origin: oReader, target: tReader }, limits.maxFileBytes) : null;
  const pool = opts.pool ?? new FingerprintPool(1, o.k, o.window);
  // Dating reads old versions in the pool's workers while this thread computes the layers that do not need it.
  const imported = { origin: importedHistory(origin.history), target: importedHistory(target.history) };
  const dating = (async () => {
    try {
      return await dateFragments(frags.slice(0, MAX_DATED_FRAGMENTS), origin, target, {
        imported: { origin: imported.origin !== null, target: imported.target !== null },
        cache: new DatingCache(pool, limits.maxFileBytes),
        readers: { origin: oReader, target: tReader },
        deadline,
      });
    } finally {
      if (!opts.readers?.origin) oReader.close();
      if (!opts.readers?.target) tReader.close();
      if (!opts.pool || opts.closePoolAfterDating) await pool.close();
    }
  })();
  let structure, tests, language, deps;
  try {
    structure = compareStructure(origin.inventory, target.inventory);
    tests = compareTests(origin.inventory, target.inventory, o, t);
    language = await compareLanguage(o, t); // the longest: it gives way to the dating's steps now and then
    deps = compareDependencies(o, t);
  } catch (e) {
    await dating.catch(() => undefined); // never leave it reading after the stage failed
    throw e;
  }
  opts.onProgress?.({ stage: 'compare', done: 2, total: 6, unit: 'items' });
  const { dates, originFirstWeight, targetFirstWeight, fromElsewhere, bulk } = await dating;
  deadline.check();
  opts.onProgress?.({ stage: 'compare', done: 5, total: 6, unit: 'items' });

  const evidence: EvidenceItem[] = [];
  for (const f of frags.slice(0, MAX_CODE_ITEMS)) {
    const of = o.files[f.originFile]!;
    const tf = t.files[f.targetFile]!;
    const n = f.originFps.length;
    const d = dates.get(f);
    const when = d
      ? `; first appearance origin ${isoTime(d.o)}${d.oPath ? ` (in ${d.oPath})` : ''}, target ${isoTime(d.t)}${d.tPath ? ` (in ${d.tPath})` : ''}${d.shared ? ' (inherited from shared history)' : ''}${d.roots ? ' (both histories begin with it: not counted)' : ''}${d.borrowed ? ' (the earlier side keeps it in a directory named after the other project: not counted)' : ''}${d.former ? ` (the ${d.former.side} had it as "${d.former.identity.former}", before it became "${d.former.identity.current}", from an author who made none of its mainline commits since: the former project's, not counted)` : ''}${d.imported ? ` (the ${d.imported}'s history was committed in one go: its date is the import's, not counted)` : ''}`
      : '';
    evidence.push({
      id: '',
      layer: 'CODE',
      kind: 'CODE_FRAGMENT',
      strength: strengthOf(n, 8, 20),
      score: dec(Math.min(1, n / 40)),
      language: of.language,
      origin: { path: of.path, startLine: f.origin.startLine, endLine: f.origin.endLine, blobId: of.blobId },
      target: { path: tf.path, startLine: f.target.startLine, endLine: f.target.endLine, blobId: tf.blobId },
      detail: `${n} rare shared fingerprints${when}`,
    });
  }

  for (const r of [structure, tests, language, deps]) evidence.push(...r.items.slice(0, MAX_ITEMS_PER_LAYER));

  const chronology: ChronologyFact[] = [];
  for (const [side, h] of [
    ['origin', origin.history],
    ['target', target.history],
  ] as const) {
    const head = h.commits[0];
    const oldest = h.commits.reduce<(typeof h.commits)[number] | undefined>(
      (m, c) => (!m || c.time < m.time || (c.time === m.time && c.id < m.id) ? c : m),
      undefined,
    );
    chronology.push({
      kind: 'PINNED_COMMIT',
      side,
      time: head ? String(head.time) : null,
      commit: head?.id ?? null,
      detail: `${h.commitsWalked} commits walked${h.truncated ? ' (history truncated at maxCommits)' : ''}`,
    });
    chronology.push({
      kind: 'OLDEST_COMMIT_WALKED',
      side,
      time: oldest ? String(oldest.time) : null,
      commit: oldest?.id ?? null,
      detail: 'oldest commit reachable within the limits',
    });
  }
  const docs = (fp: Fingerprints): SideLineageInput['docs'] =>
    fp.manifests.filter((m) => !m.path.includes('/') && DOC_FILE.test(m.path)).sort((a, b) => cmp(a.path, b.path));
  const lin = lineageSignals(
    topo,
    {
      origin: {
        url: origin.repo.url,
        names: origin.history.names ?? NO_NAMES,
        docs: docs(o),
        nestedDocs: nested.origin,
        codeComments: commentsIn(o, matched.origin),
      },
      target: {
        url: target.repo.url,
        names: target.history.names ?? NO_NAMES,
        docs: docs(t),
        nestedDocs: nested.target,
        codeComments: commentsIn(t, matched.target),
      },
    },
    { origin: originFirstWeight, target: targetFirstWeight },
  );
  let historyScore = 0;
  const line = topo.commonLine;
  if (line) {
    // No commit id in common, but a line both hold under other ids: shared history all the same, shown as such.
    const smaller = Math.max(1, Math.min(origin.history.commitsWalked, target.history.commitsWalked));
    historyScore = Math.min(1, 0.5 + line.commits / (2 * smaller));
    const detail =
      `0 commit ids in common, but ${line.commits}${topo.truncated ? '+' : ''} commits are the same under other ids, commit after commit ` +
      `(${commonLineHow(line)}): common ancestry; the common line ends at the origin's ${line.origin.commit} and the target's ` +
      `${line.target.commit} (authored ${isoTime(line.authored)}); after it the origin made ${topo.originOnly} commits, the target ${topo.targetOnly}`;
    evidence.push({
      id: '',
      layer: 'HISTORY',
      kind: 'EQUIVALENT_COMMITS',
      strength: 'STRONG',
      score: dec(historyScore),
      origin: null,
      target: null,
      detail,
    });
    chronology.push({ kind: 'EQUIVALENT_COMMITS', side: 'both', time: String(line.authored), commit: null, detail });
    // The fork point is a commit on each side: one fact each, in place of the merge base's.
    for (let i = lin.chronology.length - 1; i >= 0; i--) if (lin.chronology[i]!.kind === 'FORK_POINT') lin.chronology.splice(i, 1);
    for (const side of ['origin', 'target'] as const) {
      const other = side === 'origin' ? 'target' : 'origin';
      chronology.push({
        kind: 'FORK_POINT',
        side,
        time: String(line[side].time),
        commit: line[side].commit,
        detail: `newest commit of the line both histories hold under other ids (the ${other}'s ${line[other].commit}); the ${side} made ${side === 'origin' ? topo.originOnly : topo.targetOnly} commits after it${topo.truncated ? ' (counts stop at maxCommits)' : ''}`,
      });
    }
  } else if (shared) {
    const smaller = Math.max(1, Math.min(origin.history.commitsWalked, target.history.commitsWalked));
    historyScore = Math.min(1, 0.5 + topo.sharedCommits / (2 * smaller));
    const f = topo.forkPoints[0]!;
    evidence.push({
      id: '',
      layer: 'HISTORY',
      kind: 'SHARED_COMMITS',
      strength: 'STRONG',
      score: dec(historyScore),
      origin: null,
      target: null,
      detail:
        `${topo.sharedCommits}${topo.truncated ? '+' : ''} commits in both histories: common ancestry; fork point ${f.commit} (${new Date(f.time * 1000).toISOString().slice(0, 10)})` +
        `${topo.forkPoints.length > 1 ? ` and ${topo.forkPoints.length - 1} more merge base(s)` : ''}; after it the origin made ${topo.originOnly} commits, the target ${topo.targetOnly}`,
    });
    chronology.push({
      kind: 'SHARED_COMMITS',
      side: 'both',
      time: String(f.time),
      commit: f.commit,
      detail: `${topo.sharedCommits} commits in both histories; newest shared commit given`,
    });
  } else if (lin.declaration) historyScore = 0.75;
  {
    // Commits both histories hold under other ids: a history rewritten apart is shared history all the same.
    const r = topo.rewritten;
    if (r) {
      const score = Math.min(1, 0.5 + r.commits / (2 * Math.max(1, Math.min(r.origin, r.target))));
      historyScore = Math.max(historyScore, score);
      const detail = `${r.commits} commits are in both histories under other ids (the same author time, author e-mail and subject; the newest authored ${isoTime(r.newest)}): a history rewritten from the other's, or from a common one: common ancestry; the origin's walk has ${r.origin} commits, the target's ${r.target}`;
      evidence.push({
        id: '',
        layer: 'HISTORY',
        kind: 'REWRITTEN_COMMITS',
        strength: 'STRONG',
        score: dec(score),
        origin: null,
        target: null,
        detail,
      });
      chronology.push({ kind: 'REWRITTEN_COMMITS', side: 'both', time: String(r.newest), commit: null, detail });
    }
  }
  evidence.push(...lin.evidence);
  chronology.push(...lin.chronology);
  // Without shared commits: a licence that kept the other side's author's copyright notice says who copied.
  const licences = (fp: Fingerprints): { path: string; blobId: string; text: string }[] =>
    fp.manifests.filter((m) => !m.path.includes('/') && LICENCE_FILE.test(m.path));
  const attribution =
    !shared && topo.sideAuthors ? licenceAttribution({ origin: licences(o), target: licences(t) }, topo.sideAuthors) : null;
  // A copyright notice that says which side copied: an evidence item at the copier's file, and a chronology fact.
  const copiedBy = (by: Side, f: { path: string; line: number; blobId: string }, detail: string, fact: string): void => {
    const at: Location = { path: f.path, startLine: f.line, endLine: f.line, blobId: f.blobId };
    evidence.push({
      id: '',
      layer: 'HISTORY',
      kind: 'COPYRIGHT_ATTRIBUTION',
      strength: 'STRONG',
      score: dec(2 / 3),
      origin: by === 'origin' ? at : null,
      target: by === 'target' ? at : null,
      detail,
    });
    chronology.push({ kind: 'COPYRIGHT_ATTRIBUTION', side: by, time: null, commit: null, detail: `${f.path}:${f.line} ${fact}` });
  };
  if (attribution) {
    const by = attribution.by;
    const from: Side = by === 'origin' ? 'target' : 'origin';
    copiedBy(
      by,
      attribution,
      `the ${by}'s ${attribution.path}:${attribution.line} names "${attribution.holder}" as a copyright holder: ` +
        `${attribution.founder ? `the author of the ${from}'s oldest commit, and ` : ''}of ${attribution.commits} of its ${attribution.of} commits, ` +
        `who made none of the ${by}'s: the ${by} kept the ${from}'s copyright notice`,
      "keeps the other side's author's copyright notice",
    );
  }
  // A library both sides embed: the matched files' heads keep the notice of a holder who is neither side's own.
  const embeddedSide = (s: Side, fp: Fingerprints): SideThirdPartyInput => ({
    ...embedded![s],
    code: fp.files,
    licences: licences(fp),
    authors: authors![s],
  });
  const third = embedded ? thirdPartyCode({ origin: embeddedSide('origin', o), target: embeddedSide('target', t) }) : null;
  if (third) {
    const pct = (x: number): string => `${Math.round(x * 100)}%`;
    chronology.push({
      kind: 'THIRD_PARTY_CODE',
      side: 'both',
      time: null,
      commit: null,
      detail:
        (third.notice === 'dedication'
          ? `the matched code is dedicated to the public domain on both sides: the origin's ${third.origin.path}:${third.origin.line} and ` +
            `the target's ${third.target.path}:${third.target.line} say so, and neither side's licence dedicates its own code so; its files hold`
          : third.notice === 'pointer'
            ? `the matched code points at the copyright notice in ${third.holder} on both sides: the origin's ${third.origin.path}:` +
              `${third.origin.line} and the target's ${third.target.path}:${third.target.line} say so; its files hold`
            : `the matched code is "${third.holder}"'s on both sides: the origin's ${third.origin.path}:${third.origin.line} and the target's ` +
              `${third.target.path}:${third.target.line} keep that copyright notice, and its holder is neither side's author nor named in ` +
              `either side's licence; its files hold`) +
        ` ${pct(third.matchedShare.origin)} of the origin's matched material and ${pct(third.codeShare.origin)} ` +
        `of its code, ${pct(third.matchedShare.target)} and ${pct(third.codeShare.target)} of the target's: a library both embed`,
    });
  }
  // Without a library both embed: one side's matched files adding its own people's notice under one both name.
  const added = embedded && !third ? addedNotice({ origin: embeddedSide('origin', o), target: embeddedSide('target', t) }) : null;
  if (added) {
    const by = added.by;
    const from: Side = by === 'origin' ? 'target' : 'origin';
    copiedBy(
      by,
      added,
      `the ${by}'s ${added.path}:${added.line} adds "${added.added}", one of the ${by}'s own, under "${added.holder}", whom the ` +
        `${from}'s files name without it; the ${by}'s files that do so hold ${Math.round(added.share * 100)}% of its matched ` +
        `material: the ${by} took the files and went on from them`,
      `adds the ${by}'s own copyright notice under the one both sides' files keep`,
    );
  }
  // Both copyright readings name the copier; when they disagree, neither gives the direction.
  const attributedBy =
    attribution && added ? (attribution.by === added.by ? attribution.by : null) : (attribution?.by ?? added?.by ?? null);
  // Two projects generated from one template: both READMEs cite it, and on each side the matched material first
  // appeared in one commit that made the project's files (its bootstrap). The template is their common source.
  const own = new Set([
    ...urlNames(origin.repo.url),
    ...urlNames(target.repo.url),
    ...selfNames(origin.history),
    ...selfNames(target.history),
  ]);
  const cited = commonTemplate(templatesCited(docs(o)), templatesCited(docs(t)), own);
  const bootstrap = (b: Bulk | null): b is Bulk => b !== null && b.share >= BOOTSTRAP_SHARE && b.filesMade >= BOOTSTRAP_FILES;
  const template = !shared && cited && bootstrap(bulk.origin) && bootstrap(bulk.target) ? cited : null;
  if (template) {
    const pct = (b: Bulk): string => `${Math.round(b.share * 100)}%`;
    chronology.push({
      kind: 'COMMON_TEMPLATE',
      side: 'both',
      time: null,
      commit: null,
      detail:
        `both READMEs say the project was generated from ${template}; the matched material first appeared in one commit on each side ` +
        `(origin ${bulk.origin!.commit.slice(0, 12)}: ${pct(bulk.origin!)} of its dated material, ${bulk.origin!.filesMade} files made; ` +
        `target ${bulk.target!.commit.slice(0, 12)}: ${pct(bulk.target!)}, ${bulk.target!.filesMade} files made): the template's material`,
    });
  }
  chronology.push({
    kind: 'MATERIAL_FIRST_APPEARANCE',
    side: 'both',
    time: null,
    commit: null,
    detail: `matched fingerprints dated earlier in origin: ${originFirstWeight}; earlier in target: ${targetFirstWeight}${shared ? ' (material first seen in shared commits is not counted)' : ''}${fromElsewhere ? ` (more of it came from elsewhere, ${fromElsewhere} fingerprints that both histories begin with or that one side made under a former identity, than the rest of the dating counts: the rest decides no direction)` : ''}`,
  });
  for (const side of ['origin', 'target'] as const) {
    const imp = imported[side];
    if (imp)
      chronology.push({
        kind: 'IMPORTED_HISTORY',
        side,
        time: null,
        commit: null,
        detail:
          `all ${imp.commits} commits of the ${side}'s history were committed within ${imp.seconds} s, authored from ` +
          `${isoTime(imp.authored.oldest)} to ${isoTime(imp.authored.newest)}: an import, whose dates say when the material ` +
          `was imported, not when it was written; they count only where they are the earlier`,
      });
  }

  // Stable ids after a total order on content.
  const layerOrder = (l: Layer): number => LAYERS.indexOf(l);
  evidence.sort(
    (a, b) =>
      layerOrder(a.layer) - layerOrder(b.layer) ||
      (a.layer === 'CODE' ? Number(b.score) - Number(a.score) : 0) ||
      cmp(a.kind, b.kind) ||
      cmp(a.origin?.path ?? '', b.origin?.path ?? '') ||
      (a.origin?.startLine ?? 0) - (b.origin?.startLine ?? 0) ||
      cmp(a.target?.path ?? '', b.target?.path ?? '') ||
      (a.target?.startLine ?? 0) - (b.target?.startLine ?? 0) ||
      cmp(a.detail, b.detail),
  );
  evidence.forEach((e, i) => (e.id = `${e.layer[0]}${String(i + 1).padStart(5, '0')}`));

  const codeScore = Math.max(code.targetContainment, code.originContainment);
  const scores: Record<Layer, number> = {
    CODE: codeScore,
    STRUCTURE: structure.score,
    HISTORY: historyScore,
    TEST: tests.score,
    LANGUAGE: language.score,
    DEPENDENCY: deps.score,
  };
  const layers: LayerScore[] = LAYERS.map((l) => ({
    layer: l,
    score: dec(scores[l]),
    items: evidence.filter((e) => e.layer === l).length,
  }));
  opts.onProgress?.({ stage: 'compare', done: 6, total: 6, unit: 'items' });
  return {
    lineage: shared
      ? {
          ...lin.result,
          ...(line
            ? {
                commonLine: {
                  commits: line.commits,
                  sameTree: line.sameTree,
                  origin: { commit: line.origin.commit, time: String(line.origin.time) },
                  target: { commit: line.target.commit, time: String(line.target.time) },
                  authored: String(line.authored),
                },
              }
            : {}),
        }
      : null,
    ...(template ? { template } : {}),
    ...(third ? { thirdParty: third.holder } : {}),
    // A common line whose signals name no original is decided as commits held under other ids (decide.ts): by the dated material.
    ...(line ? { rewritten: line.commits } : !shared && topo.rewritten ? { rewritten: topo.rewritten.commits } : {}),
    ...(attributedBy ? { attributedBy } : {}),
    ...(!shared && lin.successorNamedBy ? { successorNamedBy: lin.successorNamedBy } : {}),
    ...(lin.declaredInCodeBy ? { declaredInCodeBy: lin.declaredInCodeBy } : {}),
    ...(lin.commonUpstream ? { commonUpstream: lin.commonUpstream } : {}),
    layers,
    evidence,
    chronology,
    metrics: {
      targetContainment: dec(code.targetContainment),
      originContainment: dec(code.originContainment),
      sharedCommits: topo.sharedCommits,
      declaredUpstream: lin.declaration !== null,
      declaredBy: lin.declaration?.by ?? 'none',
      originFirstWeight,
      targetFirstWeight,
      originHeadIsShared: topo.originIsAncestor,
      targetHeadIsShared: topo.targetIsAncestor,
      originCodeTokens: o.totalTokens,
      targetCodeTokens: t.totalTokens,
      fragments: code.fragments.length,
    },
  };
}

interface Dating {
  /** times of first appearance, and the file it was found in when another than the fragment's (moved out of it) */
  dates: Map<
    Fragment,
    {
      o: number | null;
      t: number | null;
      shared: boolean;
      roots: boolean;
      borrowed?: boolean;
      /** the earlier side had it only under a former identity (former-identity.ts): the former project's, not counted */
      former?: { side: Side; identity: FormerIdentity };
      /** the side whose later date is its history's import time, an upper bound only: not counted */
      imported?: Side;
      oPath?: string;
      tPath?: string;
    }
  >;
  /** fingerprints of matched material that appeared first on each side (inherited material is a tie) */
  originFirstWeight: number;
  targetFirstWeight: number;
  /**
   * fingerprints of matched material shown to come from elsewhere (both histories began with it, or the earlier side
   * made it under a former identity), when it outweighs what was counted: the counted remainder then decides no
   * direction, and both weights above are 0 (`mostlyFromElsewhere`)
   */
  fromElsewhere: number;
  /** per side, the commit most of the dated material first appeared in (see `Bulk`) */
  bulk: { origin: Bulk | null; target: Bulk | null };
}

/**
 * A direction rests on the dated material, not on a remainder of it. When more of the matched material is shown to
 * come from elsewhere than the rest of the dating counts (both histories began with it: Json.Net.Unity3D's 2015 import
 * of Json.NET and Newtonsoft.Json.Bson's 2017 move out of it share 55 of 60 dated fragments that way; or the earlier
 * side made it under a former identity: IcedCoffeeScript's CoffeeScript tests of 2010), the few fragments one side
 * had first say which side followed the third project sooner, not who copied whom.
 */
export function mostlyFromElsewhere(fromElsewhere: number, counted: number): boolean {
  return fromElsewhere > counted;
}

/** The commit in which a side's dated matched material first appeared the most, and how many files it made. */
interface Bulk {
  commit: string;
  /** share of the side's dated matched fingerprints that first appeared in it */
  share: number;
  /** files at the pinned commit whose first recorded version is in it */
  filesMade: number;
}

/** The repositories a side's README names as its own (the hosted URL it cites most). */
function selfNames(h: History): string[] {
  return (h.names?.pinned ?? []).filter((n) => n.kind === 'url').map((n) => n.name);
}

function bulkOf(weights: Map<string, number>, hist: History): Bulk | null {
  let total = 0;
  let top: [string, number] | null = null;
  for (const [commit, w] of [...weights].sort((a, b) => cmp(a[0], b[0]))) {
    total += w;
    if (!top || w > top[1]) top = [commit, w];
  }
  if (!top || total === 0) return null;
  let filesMade = 0;
  for (const v of Object.values(hist.pathVersions)) if (v[0]?.commit === top[0]) filesMade++;
  return { commit: top[0], share: top[1] / total, filesMade };
}

/**
 * Who had matched material first. Material whose first appearance on either side is a commit both
 * histories hold was inherited from the shared line: a tie, never evidence of direction. Every
 * fragment's dating runs at once, so the binary searches interleave across the pool's workers; the
 * weights are sums and the dates are per fragment, so the outcome does not depend on which finishes first.
 */
async function dateFragments(
  dated: Fragment[],
  origin: SideData,
  target: SideData,
  opts: {
    cache: DatingCache;
    readers: { origin: BlobReader; target: BlobReader };
    deadline: Deadline;
    /** which side's history was committed in one go (`importedHistory`) */
    imported: Record<Side, boolean>;
  },
): Promise<Dating> {
  const o = origin.fingerprints;
  const t = target.fingerprints;
  const oIds = new Set(origin.history.commits.map((c) => c.id));
  const tIds = new Set(target.history.commits.map((c) => c.id));
  opts.cache.seed(o);
  opts.cache.seed(t);
  const oDater = new MaterialDater(opts.readers.origin, origin.history, opts.cache, (c) => tIds.has(c));
  const tDater = new MaterialDater(opts.readers.target, target.history, opts.cache, (c) => oIds.has(c));
  const lang = (f: { language: string }): string | null => (f.language === 'generic' ? null : f.language);
  const results = await Promise.all(
    dated.map(async (f) => {
      const of = o.files[f.originFile]!;
      const tf = t.files[f.targetFile]!;
      const [ov, tv] = await Promise.all([
        oDater.firstAppearance(
          of.path,
          lang(of),
          f.originFps.map((i) => of.hashes[i]!),
        ),
        tDater.firstAppearance(
          tf.path,
          lang(tf),
          f.targetFps.map((i) => tf.hashes[i]!),
        ),
      ]);
      opts.deadline.check();
      return { f, ov, tv };
    }),
  );
  const out: Dating = {
    dates: new Map(),
    originFirstWeight: 0,
    targetFirstWeight: 0,
    fromElsewhere: 0,
    bulk: { origin: null, target: null },
  };
  let fromElsewhere = 0;
  // Material a side keeps in a directory named after the other project (Ravi's Lua 5.3 tests, imported in 2015 as
  // lua-5.3.0-tests/, before lua/lua's repository held its tests) was taken from it: having it first says only
  // that the other project's repository got it later, never that this side is its source.
  // Only a name the other side alone carries: a name both carry (the shared project's, Spree's `spree/` directories
  // in Solidus and in Spree itself) says nothing of who took from whom.
  const dirNames = (h: History): Set<string> => directoryNames([...(h.names?.pinned ?? []), ...(h.names?.past ?? [])]);
  const [oAll, tAll] = [dirNames(origin.history), dirNames(target.history)];
  const oNames = new Set([...oAll].filter((n) => !tAll.has(n)));
  const tNames = new Set([...tAll].filter((n) => !oAll.has(n)));
  const oFounding = foundingCommits(origin.history);
  const tFounding = foundingCommits(target.history);
  const goesOn = [origin.history, target.history].some((h) => h.truncated || h.commitsWalked > SNAPSHOT_COMMITS);
  // Without commit ids in common, a side's own departure from the line it continues (former-identity.ts).
  const sharedIds = origin.history.commits.some((c) => tIds.has(c.id));
  const formers = sharedIds ? null : { o: formerIdentities(origin.history), t: formerIdentities(target.history) };
  const commitOf = (h: History): Map<string, History['commits'][number]> => new Map(h.commits.map((c) => [c.id, c]));
  const [oCommits, tCommits] = formers?.o.length || formers?.t.length ? [commitOf(origin.history), commitOf(target.history)] : [null, null];
  const oWeights = new Map<string, number>();
  const tWeights = new Map<string, number>();
  const add = (m: Map<string, number>, commit: string, w: number): void => void m.set(commit, (m.get(commit) ?? 0) + w);
  for (const { f, ov, tv } of results) {
    const inherited = Boolean(ov?.shared || tv?.shared);
    // A first appearance in a history's founding commits (its root, or what followed the root at once: founding.ts)
    // only says the material was there when that history began. When both histories begin with it and one goes on
    // from there (Quakespasm's starts in 2010 with an import of FitzQuake and has 1,900 commits since; id Software's
    // Quake repository is the 1999 release, uploaded in 2012; two portable mg's each import OpenBSD's), the project
    // that goes on brought it from elsewhere, and neither date says who had it first. Two bare snapshots (published
    // packages, a commit each) have only their dates, and the earlier one is taken to be first.
    const roots = goesOn && Boolean(ov && tv && oFounding.has(ov.version.commit) && tFounding.has(tv.version.commit));
    const first = ov && tv ? (ov.version.time < tv.version.time ? 'o' : tv.version.time < ov.version.time ? 't' : null) : null;
    const borrowed =
      first === 'o'
        ? pathNamesProject(ov!.path ?? o.files[f.originFile]!.path, tNames)
        : first === 't' && pathNamesProject(tv!.path ?? t.files[f.targetFile]!.path, oNames);
    // Material the earlier side made under a former identity, by someone who left with that identity, was the former
    // project's: a copy of that project finds it there years before the side became what it is (Disque × Valkey).
    const formerIdentity =
      first === 'o' && oCommits
        ? madeUnderFormerIdentity(formers!.o, oCommits.get(ov!.version.commit), ov!.version.time)
        : first === 't' && tCommits
          ? madeUnderFormerIdentity(formers!.t, tCommits.get(tv!.version.commit), tv!.version.time)
          : null;
    const former = formerIdentity && !borrowed ? { side: (first === 'o' ? 'origin' : 'target') as Side, identity: formerIdentity } : null;
    // A history imported in one go dates its material at the import: the material was there by then, maybe long before.
    // Its date still says it had the material first when it is the earlier one; a later one says nothing.
    const imported: Side | null =
      first === 't' && opts.imported.origin ? 'origin' : first === 'o' && opts.imported.target ? 'target' : null;
    out.dates.set(f, {
      o: ov?.version.time ?? null,
      t: tv?.version.time ?? null,
      shared: inherited,
      roots,
      ...(borrowed && !inherited && !roots ? { borrowed: true } : {}),
      ...(former && !inherited && !roots ? { former } : {}),
      ...(imported && !borrowed && !former && !inherited && !roots ? { imported } : {}),
      ...(ov?.path ? { oPath: ov.path } : {}),
      ...(tv?.path ? { tPath: tv.path } : {}),
    });
    if (first && !inherited && (roots || former)) fromElsewhere += f.originFps.length;
    if (ov && !ov.shared) add(oWeights, ov.version.commit, f.originFps.length);
    if (tv && !tv.shared) add(tWeights, tv.version.commit, f.originFps.length);
    if (first && !inherited && !roots && !borrowed && !former && !imported && ov!.version.commit !== tv!.version.commit) {
      if (first === 'o') out.originFirstWeight += f.originFps.length;
      else out.targetFirstWeight += f.originFps.length;
    }
  }
  out.bulk = { origin: bulkOf(oWeights, origin.history), target: bulkOf(tWeights, target.history) };
  if (mostlyFromElsewhere(fromElsewhere, out.originFirstWeight + out.targetFirstWeight)) {
    out.fromElsewhere = fromElsewhere;
    out.originFirstWeight = 0;
    out.targetFirstWeight = 0;
  }
  return out;
}
