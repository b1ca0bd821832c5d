// The comparison stage's runner: it matches the code, reads how the histories relate, dates the matched material
// while the other layers are computed, then calls the lineage signals (with shared history: lineage/signals; without:
// lineage/apart) and lays out their items and facts. Each layer and signal is a module of its own.
import type { FingerprintCache } from '../fingerprint-cache';
import { BlobReader } from '../git/catfile';
import { resolveGitDir } from '../git/runner';
import { stageBudget } from '../limits';
import type { StageOptions } from '../inventory';
import type { ChronologyFact, Comparison, EvidenceItem, Fingerprints, History, Layer, LayerScore, Side, Topology } from '../types';
import { LAYERS } from '../types';
import { matchCode, runsFirst } from './code';
import { codeItems, walkFacts } from './code-items';
import { dateFragments, firstAppearanceFact, isSnapshot } from './dating';
import { compareDependencies } from './dependency';
import { cmp, dec } from './format';
import { DatingCache } from './history-layer';
import { historyFacts } from './history-facts';
import { importedFacts, importedHistory } from './imported';
import { compareLanguage } from './language';
import { commentsIn, embeddedInput, nestedDocs } from './side-reads';
import type { SideData } from './side';
import { compareStructure } from './structure';
import { compareTests } from './tests';
import { FingerprintPool } from '../workers/pool';
import { apartSignals, type ApartSide } from '../lineage/apart/index';
import { LICENCE_FILE } from '../lineage/licence';
import { DOC_FILE, urlNames } from '../lineage/names';
import { lineageSignals, type SideLineageInput } from '../lineage/signals/index';
import { topology } from '../lineage/topology';
import { slicesApart } from '../lineage/slices';

export type { SideData } from './side';
export { importedHistory } from './imported';

/** Fragments dated (the largest first): dating reads old versions, the costliest step. */
const MAX_DATED_FRAGMENTS = 60;
const MAX_ITEMS_PER_LAYER = 300;

/** A history stage output persisted by an earlier engine version has no names. */
const NO_NAMES: History['names'] = { pinned: [], past: [] };

/** Root READMEs and the like, by path. */
const docsOf = (fp: Fingerprints): SideLineageInput['docs'] =>
  fp.manifests.filter((m) => !m.path.includes('/') && DOC_FILE.test(m.path)).sort((a, b) => cmp(a.path, b.path));
const licencesOf = (fp: Fingerprints): { path: string; blobId: string; text: string }[] =>
  fp.manifests.filter((m) => !m.path.includes('/') && LICENCE_FILE.test(m.path));
/** The repositories a side's README names as its own (the hosted URL it cites most). */
const selfNames = (h: History): string[] => (h.names?.pinned ?? []).filter((n) => n.kind === 'url').map((n) => n.name);

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
    /** old versions earlier analyses in this process fingerprinted for dating (fingerprint-cache.ts) */
    fingerprintCache?: FingerprintCache;
  } = {},
): Promise<Comparison> {
  const { limits, deadline } = stageBudget(opts);
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
        cache: new DatingCache(
          pool,
          limits.maxFileBytes,
          opts.fingerprintCache ? { cache: opts.fingerprintCache, k: o.k, window: o.window } : undefined,
        ),
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
  const dated = await dating;
  deadline.check();
  opts.onProgress?.({ stage: 'compare', done: 5, total: 6, unit: 'items' });

  const { dates, originFirstWeight, targetFirstWeight } = dated;
  const evidence: EvidenceItem[] = codeItems(frags, o, t, dates);
  for (const r of [structure, tests, language, deps]) evidence.push(...r.items.slice(0, MAX_ITEMS_PER_LAYER));
  const chronology: ChronologyFact[] = walkFacts({ origin: origin.history, target: target.history });

  // Each side's root READMEs and licences, read by both kinds of signal.
  const roots = {
    origin: { docs: docsOf(o), licences: licencesOf(o) },
    target: { docs: docsOf(t), licences: licencesOf(t) },
  };
  const sideInput = (s: SideData, fp: Fingerprints, side: Side): SideLineageInput => ({
    url: s.repo.url,
    names: s.history.names ?? NO_NAMES,
    docs: roots[side].docs,
    nestedDocs: nested[side],
    codeComments: commentsIn(fp, matched[side]),
  });
  const lin = lineageSignals(
    topo,
    { origin: sideInput(origin, o, 'origin'), target: sideInput(target, t, 'target') },
    { origin: originFirstWeight, target: targetFirstWeight },
  );
  const hist = historyFacts(topo, { origin: origin.history.commitsWalked, target: target.history.commitsWalked }, lin.declaration !== null);
  evidence.push(...hist.evidence, ...lin.evidence);
  chronology.push(...hist.chronology, ...lin.chronology.filter((c) => !(hist.forkPointPerSide && c.kind === 'FORK_POINT')));

  const apartSide = (s: SideData, fp: Fingerprints, side: Side): ApartSide => ({
    ...roots[side],
    ownNames: [...urlNames(s.repo.url), ...selfNames(s.history)],
    embedded: embedded ? { ...embedded[side], code: fp.files, licences: roots[side].licences, authors: authors![side] } : null,
    bulk: dated.bulk[side],
    snapshot: isSnapshot(s.history),
  });
  const apart = apartSignals({ origin: apartSide(origin, o, 'origin'), target: apartSide(target, t, 'target') }, shared, authors);
  evidence.push(...apart.evidence);
  chronology.push(...apart.chronology, firstAppearanceFact(dated, shared), ...importedFacts(imported));

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
    HISTORY: hist.score,
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
  const line = topo.commonLine;
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
    ...(apart.template ? { template: apart.template } : {}),
    ...(apart.thirdParty ? { thirdParty: apart.thirdParty } : {}),
    // A common line whose signals name no original is decided as commits held under other ids (decide.ts): by the dated material.
    ...(line ? { rewritten: line.commits } : !shared && topo.rewritten ? { rewritten: topo.rewritten.commits } : {}),
    ...(!line && !shared && slicesApart(topo.rewritten?.content) ? { rewrittenSlices: true } : {}),
    ...(apart.attributedBy ? { attributedBy: apart.attributedBy } : {}),
    ...(!shared && lin.successorNamedBy ? { successorNamedBy: lin.successorNamedBy } : {}),
    ...(lin.declaredInCodeBy ? { declaredInCodeBy: lin.declaredInCodeBy } : {}),
    ...(lin.commonUpstream ? { commonUpstream: lin.commonUpstream } : {}),
    ...(!shared && lin.designClaimBy ? { designClaimBy: lin.designClaimBy } : {}),
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
