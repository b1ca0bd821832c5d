import { BlobReader } from '../git/catfile';
import { resolveGitDir } from '../git/runner';
import { Deadline, resolveLimits } from '../limits';
import type { StageOptions } from '../inventory';
import type { ChronologyFact, Comparison, EvidenceItem, Fingerprints, History, Inventory, Layer, LayerScore, RepoRef } from '../types';
import { LAYERS } from '../types';
import { matchCode, type Fragment } from './code';
import { compareDependencies } from './dependency';
import { cmp, dec, strengthOf } from './format';
import { declaresUpstream, MaterialDater, repoNames, sharedCommits } from './history-layer';
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

/** Evidence for every layer, chronology facts and the metrics the decision uses. */
export async function compare(origin: SideData, target: SideData, opts: StageOptions & { readers?: { origin: BlobReader; target: BlobReader } } = {}): Promise<Comparison> {
  const limits = resolveLimits(opts.limits);
  const deadline = opts.deadline ?? new Deadline(limits.timeBudgetMs, opts.signal);
  const o = origin.fingerprints;
  const t = target.fingerprints;
  const code = matchCode(o, t);
  deadline.check();
  opts.onProgress?.({ stage: 'compare', done: 1, total: 6, unit: 'items' });

  // Order fragments by size, then by location, so every choice below is deterministic.
  const frags = [...code.fragments].sort(
    (a, b) => b.originFps.length - a.originFps.length || cmp(o.files[a.originFile]!.path, o.files[b.originFile]!.path) || a.origin.startLine - b.origin.startLine ||
      cmp(t.files[a.targetFile]!.path, t.files[b.targetFile]!.path) || a.target.startLine - b.target.startLine,
  );

  // HISTORY: shared commits, declarations, dated material.
  const shared = sharedCommits(origin.history, target.history);
  const oNames = repoNames(origin.repo.url, o);
  const tNames = repoNames(target.repo.url, t);
  const distinctNames = (a: string[], b: string[]): string[] => a.filter((n) => !b.includes(n));
  const targetDeclares = declaresUpstream(t, distinctNames(oNames, tNames));
  const originDeclares = declaresUpstream(o, distinctNames(tNames, oNames));
  const oReader = opts.readers?.origin ?? new BlobReader(resolveGitDir(origin.repo.dir));
  const tReader = opts.readers?.target ?? new BlobReader(resolveGitDir(target.repo.dir));
  const dates = new Map<Fragment, { o: number | null; t: number | null }>();
  let originFirstWeight = 0;
  let targetFirstWeight = 0;
  try {
    const oDater = new MaterialDater(oReader, origin.history, o.k, o.window, limits.maxFileBytes, o);
    const tDater = new MaterialDater(tReader, target.history, t.k, t.window, limits.maxFileBytes, t);
    let n = 0;
    for (const f of frags.slice(0, MAX_DATED_FRAGMENTS)) {
      const of = o.files[f.originFile]!;
      const tf = t.files[f.targetFile]!;
      const oh = f.originFps.map((i) => of.hashes[i]!);
      const th = f.targetFps.map((i) => tf.hashes[i]!);
      const ov = await oDater.firstAppearance(of.path, of.language === 'generic' ? null : of.language, oh);
      const tv = await tDater.firstAppearance(tf.path, tf.language === 'generic' ? null : tf.language, th);
      dates.set(f, { o: ov?.time ?? null, t: tv?.time ?? null });
      if (ov && tv && ov.time !== tv.time && ov.commit !== tv.commit) {
        if (ov.time < tv.time) originFirstWeight += f.originFps.length;
        else targetFirstWeight += f.originFps.length;
      }
      if (++n % 10 === 0) deadline.check();
    }
  } finally {
    if (!opts.readers?.origin) oReader.close();
    if (!opts.readers?.target) tReader.close();
  }
  opts.onProgress?.({ stage: 'compare', done: 2, total: 6, unit: 'items' });

  const evidence: EvidenceItem[] = [];
  for (const f of frags.slice(0, MAX_CODE_ITEMS)) {
    const of = o.files[f.originFile]!;
    const tf = t.files[f.targetFile]!;
    const n = f.originFps.length;
    const d = dates.get(f);
    const when = d ? `; first appearance origin ${d.o ?? 'unknown'}, target ${d.t ?? 'unknown'}` : '';
    evidence.push({
      id: '', layer: 'CODE', kind: 'CODE_FRAGMENT', strength: strengthOf(n, 8, 20), score: dec(Math.min(1, n / 40)), language: of.language,
      origin: { path: of.path, startLine: f.origin.startLine, endLine: f.origin.endLine, blobId: of.blobId },
      target: { path: tf.path, startLine: f.target.startLine, endLine: f.target.endLine, blobId: tf.blobId },
      detail: `${n} rare shared fingerprints${when}`,
    });
  }

  const structure = compareStructure(origin.inventory, target.inventory);
  const tests = compareTests(origin.inventory, target.inventory, o, t);
  const language = compareLanguage(o, t);
  const deps = compareDependencies(o, t);
  opts.onProgress?.({ stage: 'compare', done: 5, total: 6, unit: 'items' });
  for (const r of [structure, tests, language, deps]) evidence.push(...r.items.slice(0, MAX_ITEMS_PER_LAYER));

  const chronology: ChronologyFact[] = [];
  for (const [side, h] of [['origin', origin.history], ['target', target.history]] as const) {
    const head = h.commits[0];
    const oldest = h.commits.reduce<(typeof h.commits)[number] | undefined>((m, c) => (!m || c.time < m.time || (c.time === m.time && c.id < m.id) ? c : m), undefined);
    chronology.push({ kind: 'PINNED_COMMIT', side, time: head ? String(head.time) : null, commit: head?.id ?? null, detail: `${h.commitsWalked} commits walked${h.truncated ? ' (history truncated at maxCommits)' : ''}` });
    chronology.push({ kind: 'OLDEST_COMMIT_WALKED', side, time: oldest ? String(oldest.time) : null, commit: oldest?.id ?? null, detail: 'oldest commit reachable within the limits' });
  }
  let historyScore = 0;
  const oHead = origin.history.commit;
  const tHead = target.history.commit;
  const tIds = new Set(target.history.commits.map((c) => c.id));
  const oIds = new Set(origin.history.commits.map((c) => c.id));
  const originHeadIsShared = tIds.has(oHead);
  const targetHeadIsShared = oIds.has(tHead);
  if (shared.count > 0) {
    const smaller = Math.max(1, Math.min(origin.history.commitsWalked, target.history.commitsWalked));
    historyScore = Math.min(1, 0.5 + shared.count / (2 * smaller));
    chronology.push({ kind: 'SHARED_COMMITS', side: 'both', time: shared.newest ? String(shared.newest.time) : null, commit: shared.newest?.id ?? null, detail: `${shared.count} commits in both histories; newest shared commit given` });
    evidence.push({
      id: '', layer: 'HISTORY', kind: 'SHARED_COMMITS', strength: 'STRONG', score: dec(historyScore), origin: null, target: null,
      detail: `${shared.count} commits in both histories (oldest ${shared.oldest?.id ?? ''}, newest ${shared.newest?.id ?? ''})${originHeadIsShared ? '; the origin commit is in the target history' : ''}${targetHeadIsShared ? '; the target commit is in the origin history' : ''}`,
    });
  }
  for (const [declarer, path] of [['target', targetDeclares], ['origin', originDeclares]] as const) {
    if (!path) continue;
    historyScore = Math.max(historyScore, 0.75);
    const loc = { path, startLine: 0, endLine: 0, blobId: '' };
    evidence.push({
      id: '', layer: 'HISTORY', kind: 'DECLARED_UPSTREAM', strength: 'STRONG', score: dec(1),
      origin: declarer === 'origin' ? loc : null, target: declarer === 'target' ? loc : null,
      detail: `the ${declarer} declares the ${declarer === 'target' ? 'origin' : 'target'} as its upstream`,
    });
    chronology.push({ kind: 'DECLARED_UPSTREAM', side: declarer, time: null, commit: null, detail: `${path} names the other repository as upstream` });
  }
  chronology.push({ kind: 'MATERIAL_FIRST_APPEARANCE', side: 'both', time: null, commit: null, detail: `matched fingerprints dated earlier in origin: ${originFirstWeight}; earlier in target: ${targetFirstWeight}` });

  // Stable ids after a total order on content.
  const layerOrder = (l: Layer): number => LAYERS.indexOf(l);
  evidence.sort(
    (a, b) => layerOrder(a.layer) - layerOrder(b.layer) || (a.layer === 'CODE' ? Number(b.score) - Number(a.score) : 0) || cmp(a.kind, b.kind) ||
      cmp(a.origin?.path ?? '', b.origin?.path ?? '') || (a.origin?.startLine ?? 0) - (b.origin?.startLine ?? 0) ||
      cmp(a.target?.path ?? '', b.target?.path ?? '') || (a.target?.startLine ?? 0) - (b.target?.startLine ?? 0) || cmp(a.detail, b.detail),
  );
  evidence.forEach((e, i) => (e.id = `${e.layer[0]}${String(i + 1).padStart(5, '0')}`));

  const codeScore = Math.max(code.targetContainment, code.originContainment);
  const scores: Record<Layer, number> = { CODE: codeScore, STRUCTURE: structure.score, HISTORY: historyScore, TEST: tests.score, LANGUAGE: language.score, DEPENDENCY: deps.score };
  const layers: LayerScore[] = LAYERS.map((l) => ({ layer: l, score: dec(scores[l]), items: evidence.filter((e) => e.layer === l).length }));
  opts.onProgress?.({ stage: 'compare', done: 6, total: 6, unit: 'items' });
  return {
    layers,
    evidence,
    chronology,
    metrics: {
      targetContainment: dec(code.targetContainment),
      originContainment: dec(code.originContainment),
      sharedCommits: shared.count,
      declaredUpstream: Boolean(targetDeclares || originDeclares),
      declaredBy: targetDeclares ? 'target' : originDeclares ? 'origin' : 'none',
      originFirstWeight,
      targetFirstWeight,
      originHeadIsShared,
      targetHeadIsShared,
      originCodeTokens: o.totalTokens,
      targetCodeTokens: t.totalTokens,
      fragments: code.fragments.length,
    },
  };
}
