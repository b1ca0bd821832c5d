// Turns an analysis-completed event and its verified manifest into the stored case:
// the report a reader gets from GET /cases/{id} and the ranked evidence rows.
// Every sentence of the summary is derived from counts in the manifest; the
// wording is neutral and makes no legal or moral claim.
import type { AnalysisCompletedEvent, ManifestEvidenceItem, ParsedManifest, casesApi } from '@lineage/schemas';
import type { z } from 'zod';

type Report = Omit<z.input<typeof casesApi.CaseReport>, 'id' | 'analysisId' | 'factKey' | 'fact' | 'createdAt'>;
type ApiEvidence = Omit<z.input<typeof casesApi.EvidenceItem>, 'id'>;

export interface EvidenceRow {
  seq: number;
  layer: string;
  strength: string;
  kind: string;
  language: string | null;
  origin_path: string | null;
  target_path: string | null;
  item: ApiEvidence;
}

export interface BuiltCase {
  report: Report;
  evidence: EvidenceRow[];
}

/** How many of the strongest items the report carries; the rest are paged by the evidence route. */
export const HIGHLIGHTS = 10;

const STRENGTH_RANK: Record<string, number> = { STRONG: 3, MODERATE: 2, WEAK: 1 };

/** Strongest first, then by score, then manifest order: a total, stable order. */
export function rankEvidence(items: readonly ManifestEvidenceItem[]): ManifestEvidenceItem[] {
  return items
    .map((item, index) => ({ item, index, score: Number(item.score) }))
    .sort((a, b) => STRENGTH_RANK[b.item.strength]! - STRENGTH_RANK[a.item.strength]! || b.score - a.score || a.index - b.index)
    .map((x) => x.item);
}

const location = (l: ManifestEvidenceItem['origin']) =>
  l ? { path: l.path, startLine: l.startLine, endLine: l.endLine, blobId: l.blobId || null } : null;

export function toApiEvidence(e: ManifestEvidenceItem): ApiEvidence {
  return {
    layer: e.layer,
    kind: e.kind,
    strength: e.strength,
    score: e.score,
    language: e.language ?? null,
    origin: location(e.origin),
    target: location(e.target),
    detail: e.detail,
  };
}

export function buildCase(event: AnalysisCompletedEvent, manifest: ParsedManifest): BuiltCase {
  const ranked = rankEvidence(manifest.evidence);
  const evidence: EvidenceRow[] = ranked.map((e, i) => ({
    seq: i + 1,
    layer: e.layer,
    strength: e.strength,
    kind: e.kind.slice(0, 64),
    language: e.language ? e.language.slice(0, 64) : null,
    origin_path: e.origin?.path ?? null,
    target_path: e.target?.path ?? null,
    item: toApiEvidence(e),
  }));
  // Items located on both sides first: a reader can open both files at the lines given.
  const located = evidence.filter((r) => r.item.origin && r.item.target);
  const rest = evidence.filter((r) => !(r.item.origin && r.item.target));
  const highlights = [...located, ...rest]
    .slice(0, HIGHLIGHTS)
    .sort((a, b) => a.seq - b.seq)
    .map((r) => ({ ...r.item, id: String(r.seq) }));

  const byStrength = { STRONG: 0, MODERATE: 0, WEAK: 0 };
  for (const e of manifest.evidence) byStrength[e.strength] += 1;

  const alternatives = [...manifest.alternatives]
    .sort((a, b) => Number(b.score) - Number(a.score))
    .map((a) => ({ verdict: a.verdict, score: a.score, reason: a.reason, chosen: a.verdict === manifest.verdict }));

  return {
    report: {
      pair: event.pair,
      verdict: manifest.verdict,
      confidence: manifest.confidence,
      direction: manifest.direction,
      summary: summarize(event, manifest),
      layers: manifest.layers.map((l) => ({ layer: l.layer, score: l.score, items: l.items })),
      chronology: manifest.chronology.map((c) => ({ kind: c.kind, side: c.side, description: c.detail, commit: c.commit, at: c.time })),
      evidence: { total: manifest.evidence.length, byStrength },
      highlights,
      alternatives,
      whyChosen: whyChosen(manifest),
      manifestHash: event.manifestHash,
      engineVersion: manifest.engineVersion,
    },
    evidence,
  };
}

/** `owner/name` for forge URLs, the URL otherwise. */
export function repositoryName(url: string): string {
  const m = /^[a-z]+:\/\/[^/]+\/([^/]+\/[^/]+?)(?:\.git)?\/?$/i.exec(url);
  return m ? m[1]! : url;
}

const VERDICT_PHRASE: Record<ParsedManifest['verdict'], string> = {
  INDEPENDENT: 'the evidence does not indicate that either repository derives from the other',
  SHARED_UPSTREAM: 'the overlap is explained by history both repositories share',
  DECLARED_FORK: 'one repository declares the other as its upstream',
  LIKELY_DERIVED: 'the evidence indicates that material likely derives from the other repository',
  HEAVILY_DERIVED: 'the evidence indicates that a large share of material derives from the other repository',
  INSUFFICIENT_EVIDENCE: 'there is not enough comparable material to decide',
};
const DIRECTION_PHRASE: Record<ParsedManifest['direction'], string> = {
  ORIGIN_TO_TARGET: 'from the origin to the target',
  TARGET_TO_ORIGIN: 'from the target to the origin',
  NONE: 'not determined',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const day = (t: string | null) => (t === null ? null : new Date(Number(t) * 1000).toISOString().slice(0, 10));

/** The plain-language summary: only counts and facts present in the manifest, in neutral words. */
export function summarize(event: AnalysisCompletedEvent, m: ParsedManifest): string {
  const origin = `${repositoryName(event.pair.origin.url)} at ${event.pair.origin.commit.slice(0, 12)}`;
  const target = `${repositoryName(event.pair.target.url)} at ${event.pair.target.commit.slice(0, 12)}`;
  const parts: string[] = [];
  const n = m.evidence.length;
  if (n === 0) {
    parts.push(`Comparing the target ${target} with the origin ${origin} produced no evidence items.`);
  } else {
    const s = { STRONG: 0, MODERATE: 0, WEAK: 0 };
    for (const e of m.evidence) s[e.strength] += 1;
    parts.push(
      `Comparing the target ${target} with the origin ${origin} produced ${plural(n, 'evidence item')}: ` +
        `${s.STRONG} strong, ${s.MODERATE} moderate and ${s.WEAK} weak.`,
    );
    const layers = m.layers.filter((l) => l.items > 0).sort((a, b) => b.items - a.items);
    if (layers.length > 0) {
      parts.push(`By layer: ${layers.map((l) => `${l.layer} ${plural(l.items, 'item')} (score ${l.score})`).join(', ')}.`);
    }
  }
  const mt = m.metrics;
  if (mt.targetCodeTokens > 0 && mt.originCodeTokens > 0) {
    parts.push(
      `Share of the target's code material also found in the origin: ${mt.targetContainment}; of the origin's found in the target: ${mt.originContainment}.`,
    );
  }
  if (mt.sharedCommits > 0) parts.push(`The two histories share ${plural(mt.sharedCommits, 'commit')}.`);
  const l = m.lineage;
  const fork = l?.forkPoints[0];
  if (l && fork) {
    parts.push(
      `The newest commit both hold is ${fork.commit.slice(0, 12)}, dated ${day(fork.time)}; after it the origin has ${plural(l.originOnlyCommits, 'commit')} and the target ${plural(l.targetOnlyCommits, 'commit')}.`,
    );
    const kinds = l.signals
      .filter((s) => s.original === l.original && Number(s.weight) > 0)
      .map((s) => s.kind.toLowerCase().replace(/_/g, ' '));
    if (l.certain) parts.push(`The ${l.original}'s pinned commit is in the other history, so the other continues it.`);
    else if (l.original !== 'none') parts.push(`Signals that the ${l.original} is the original: ${kinds.join(', ')}.`);
    else parts.push('The signals do not show which side is the original.');
  }
  if (mt.declaredUpstream && mt.declaredBy !== 'none') parts.push(`The ${mt.declaredBy} declares the other repository as its upstream.`);
  const od = day(event.pair.origin.committedAt);
  const td = day(event.pair.target.committedAt);
  if (od && td) parts.push(`The pinned origin commit is dated ${od} and the pinned target commit ${td}.`);
  if (mt.originFirstWeight > 0 || mt.targetFirstWeight > 0) {
    parts.push(
      `Matched material dated in both histories appears earlier in the origin ${mt.originFirstWeight} times and earlier in the target ${mt.targetFirstWeight} times.`,
    );
  }
  parts.push(
    `Verdict ${m.verdict} with ${m.confidence.toLowerCase()} confidence: ${VERDICT_PHRASE[m.verdict]}; direction ${DIRECTION_PHRASE[m.direction]}.`,
  );
  parts.push('This is a technical comparison of the two pinned commits; it draws no conclusion about licences or rights.');
  return parts.join(' ');
}

export function whyChosen(m: ParsedManifest): string {
  const sorted = [...m.alternatives].sort((a, b) => Number(b.score) - Number(a.score));
  const winner = sorted.find((a) => a.verdict === m.verdict);
  if (!winner) return `The engine recorded no scored alternative for ${m.verdict}.`;
  const others = sorted.filter((a) => a !== winner);
  const ahead =
    others.length === 0 ? 'the only alternative scored' : `ahead of ${others.map((a) => `${a.verdict} (${a.score})`).join(', ')}`;
  return `${m.verdict} scored ${winner.score}, ${ahead}. ${winner.reason}`.trim();
}

/** Words a summary must never contain: the service states evidence, not accusations or legal conclusions. */
export const BANNED_WORDS =
  /\b(stolen|steal\w*|theft|thie\w*|plagiar\w*|infring\w*|illegal\w*|unlawful\w*|guilt\w*|liab\w*|pira\w*|violat\w*|copied illegally)\b/i;
