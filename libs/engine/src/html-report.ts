// `lineage analyze … --html FILE` and `lineage verify … --html FILE`: one self-contained HTML file (inline CSS and
// SVG, no script, nothing fetched) rendered from the manifest with the case page's own view (libs/report-view), and
// the strongest fragments side by side, read from the two local repositories at the blobs the manifest names.
import {
  CONFIDENCE_WORDS,
  DIRECTION_WORDS,
  LAYER_WORDS,
  PAGES_CSS,
  VERDICT_WORDS,
  evidenceItem,
  html,
  isoTime,
  plural,
  raw,
  sideBySide,
  signalGroupsOf,
  signalList,
  timelineSection,
  timelineFrom,
  visible,
  type FragmentOutcome,
  type SideBySide,
} from '@lineage/report-view';
import type { BlobReader } from './git/catfile';
import { strongest } from './report';
import type { EvidenceItem, Location, Manifest, Side, SkipReason } from './types';

/** Fragments shown side by side, and the lines of context around each matched range. */
export const HTML_FRAGMENTS = 5;
const CONTEXT_LINES = 3;
/** Bounds of a fragment read from a repository: it is shown, not analysed. */
const FRAGMENT_MAX_LINES = 120;
const FRAGMENT_MAX_LINE_CHARS = 400;
const FRAGMENT_MAX_BLOB_BYTES = 4_000_000;

const SKIP_WORDS: Record<SkipReason, string> = {
  SYMLINK: 'a symbolic link, never followed',
  SUBMODULE: 'a submodule, never fetched',
  FILE_TOO_LARGE: 'larger than maxFileBytes, not read',
  UNSAFE_PATH: 'an unsafe path (absolute, `..`, `.git`, control characters), not read',
  HISTORY_TRUNCATED: 'the history walk stopped at maxCommits',
  MISSING_OBJECT: 'an object missing from the repository (a partial clone), not read',
};

export interface HtmlReportInput {
  manifest: Manifest;
  hash: string;
  /** what the user named each side with (a path or URL), shown where the manifest records no URL */
  names: Record<Side, string>;
  /** readers on the two local repositories, for the side-by-side code */
  readers: Record<Side, BlobReader>;
}

/** The report as one HTML document. */
export async function htmlReport(input: HtmlReportInput): Promise<string> {
  const m = input.manifest;
  const source = {
    chronology: m.chronology.map((c) => ({ kind: c.kind, side: c.side, commit: c.commit, at: c.time, description: c.detail })),
    pair: m.pair,
  };
  const tl = timelineFrom(source);
  const groups = signalGroupsOf(m.evidence.filter((e) => e.layer === 'HISTORY'));
  const v = VERDICT_WORDS[m.verdict];
  const fragments = await Promise.all(
    strongest(
      m.evidence.filter((e) => e.origin && e.target),
      HTML_FRAGMENTS,
    ).map((item) => readPair(item, input.readers)),
  );
  const pinned = (s: Side) => m.chronology.find((c) => c.kind === 'PINNED_COMMIT' && c.side === s);
  const sideLine = (s: Side) =>
    html`<dt>${s === 'origin' ? 'Origin' : 'Target'}</dt><dd><code>${visible(m.pair[s].url ?? input.names[s])}</code> at <code>${m.pair[s].commit}</code>${pinned(s)?.time ? html`, ${isoTime(pinned(s)!.time)}` : ''}</dd>`;
  const count = (key: (e: EvidenceItem) => string): [string, number][] => {
    const out = new Map<string, number>();
    for (const e of m.evidence) out.set(key(e), (out.get(key(e)) ?? 0) + 1);
    return [...out.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  };
  const facet = (label: string, entries: [string, number][]) =>
    entries.length
      ? html`<div class="facet"><h3>${label}</h3><ul>${entries.map(([k, n]) => html`<li>${k} <span class="count">${n}</span></li>`)}</ul></div>`
      : '';
  const byStrength = (s: string) => m.evidence.filter((e) => e.strength === s).length;
  const origin = visible(m.pair.origin.url ?? input.names.origin);
  const target = visible(m.pair.target.url ?? input.names.target);

  const body = html`<main id="main">
<article class="case" aria-labelledby="case-title">
<header class="case-head">
<h1 id="case-title">Lineage report: <span class="verdict verdict-${m.verdict.toLowerCase()}">${v.title}</span></h1>
<p class="verdict-line"><strong>${v.title}</strong> with ${CONFIDENCE_WORDS[m.confidence]}: ${v.plain}. Direction: ${DIRECTION_WORDS[m.direction]}.</p>
<dl class="pair">
${sideLine('origin')}
${sideLine('target')}
</dl>
</header>
<nav class="toc" aria-label="In this report">
<ul>
<li><a href="#summary">Summary</a></li><li><a href="#signals">Decisive signals</a></li><li><a href="#timeline">Timeline</a></li><li><a href="#side-by-side">Side by side</a></li><li><a href="#evidence">Evidence</a></li><li><a href="#skipped">Skipped</a></li><li><a href="#verify">Verify</a></li>
</ul>
</nav>

<section id="summary" aria-labelledby="summary-title">
<h2 id="summary-title">Summary</h2>
<p class="summary">${visible(m.summary)}</p>
<table class="layers">
<caption>Layer scores</caption>
<thead><tr><th scope="col">Layer</th><th scope="col">What it compares</th><th scope="col">Score</th><th scope="col">Items</th></tr></thead>
<tbody>
${m.layers.map((l) => html`<tr><th scope="row">${l.layer}</th><td>${LAYER_WORDS[l.layer]}</td><td>${l.score}</td><td>${l.items}</td></tr>\n`)}</tbody>
</table>
<details class="alternatives"><summary>Alternatives the engine scored</summary>
<ul>${m.alternatives.map((a) => html`<li>${a.verdict === m.verdict ? html`<strong>${a.verdict}</strong>` : a.verdict} ${a.score}: ${visible(a.reason)}</li>`)}</ul>
</details>
</section>

<section id="signals" aria-labelledby="signals-title">
<h2 id="signals-title">Decisive signals</h2>
${signalList(groups, tl)}
</section>

${timelineSection(tl, source.chronology, groups)}

<section id="side-by-side" aria-labelledby="sbs-title">
<h2 id="sbs-title">Side by side: the strongest fragments</h2>
${fragments.length === 0 ? html`<p class="muted">No evidence item is located in a file on both sides.</p>` : fragments.map((f, n) => sideBySide(f, n))}
</section>

<section id="evidence" aria-labelledby="evidence-title">
<h2 id="evidence-title">Evidence</h2>
<p>${plural(m.evidence.length, 'item')} in all: ${byStrength('STRONG')} strong, ${byStrength('MODERATE')} moderate, ${byStrength('WEAK')} weak.</p>
<div class="facets" aria-label="The evidence by facet">
${facet(
  'Layer',
  count((e) => e.layer),
)}
${facet(
  'Strength',
  count((e) => e.strength),
)}
${facet(
  'Kind',
  count((e) => e.kind),
)}
${facet(
  'Language',
  count((e) => e.language ?? 'none'),
)}
</div>
${m.evidence.length ? html`<ol class="evidence-list">${m.evidence.map((e) => evidenceItem(e))}</ol>` : html`<p class="empty">No evidence item.</p>`}
</section>

<section id="skipped" aria-labelledby="skipped-title">
<h2 id="skipped-title">What was skipped</h2>
${
  m.skipped.length
    ? html`<table class="chronology">
<thead><tr><th scope="col">Side</th><th scope="col">Path</th><th scope="col">Why</th></tr></thead>
<tbody>
${m.skipped.map((s) => html`<tr><td>${s.side ?? ''}</td><td><code>${visible(s.path)}</code></td><td>${SKIP_WORDS[s.reason]}</td></tr>\n`)}</tbody>
</table>`
    : html`<p>Nothing: every file within the limits was read.</p>`
}
</section>

<section id="verify" aria-labelledby="verify-title">
<h2 id="verify-title">Verify it yourself</h2>
<p>This report rests on a canonical evidence manifest whose SHA-256 is</p>
<p><code class="hash" id="manifest-hash">${input.hash}</code></p>
<p>Engine ${m.engineVersion}. To recompute it from your own clones of the two repositories, with the manifest saved by <code>--manifest manifest.json</code>:</p>
<pre class="recipe" tabindex="0"><code>npx lineage verify manifest.json ${origin} ${target}</code></pre>
<p><code>lineage verify</code> reads the commits, URLs and limits the manifest records, recomputes it and prints <code>identical: …</code> or the first difference.</p>
</section>
</article>
</main>`;
  // No script and nothing to fetch: a Content-Security-Policy that allows only the inline style says so to the reader.
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${m.engineVersion}">
<title>${`Lineage report: ${v.title}, ${m.pair.origin.commit.slice(0, 12)} and ${m.pair.target.commit.slice(0, 12)}`}</title>
<style>${raw(PAGES_CSS)}</style>
</head>
<body>
${body}
</body>
</html>
`.toString();
}

/** Both sides' lines of an item, read from the local repositories at the blobs the manifest names. */
async function readPair(item: EvidenceItem, readers: Record<Side, BlobReader>): Promise<SideBySide> {
  const side = async (s: Side, l: Location | null): Promise<FragmentOutcome | null> => {
    if (!l) return null;
    const blob = await readers[s].readBlob(l.blobId, FRAGMENT_MAX_BLOB_BYTES).catch(() => null);
    if (!blob)
      return {
        ok: false,
        error: { code: 'BLOB_UNREADABLE', message: `The ${s} repository does not hold this file's blob (or it is too large to show).` },
      };
    if (blob.includes(0)) return { ok: true, value: { startLine: 1, lines: [], truncated: false, binary: true } };
    const all = blob.toString('utf8').split(/\r?\n/);
    const from = Math.max(1, l.startLine - CONTEXT_LINES);
    const to = Math.min(all.length, Math.max(l.endLine, l.startLine) + CONTEXT_LINES, from + FRAGMENT_MAX_LINES - 1);
    const cut = to < Math.max(l.endLine, l.startLine) + CONTEXT_LINES && to < all.length;
    const lines = all.slice(from - 1, to).map((t) => (t.length > FRAGMENT_MAX_LINE_CHARS ? t.slice(0, FRAGMENT_MAX_LINE_CHARS) : t));
    return {
      ok: true,
      value: { startLine: from, lines, truncated: cut || lines.some((t, k) => all[from - 1 + k]!.length > t.length), binary: false },
    };
  };
  const [origin, target] = await Promise.all([side('origin', item.origin), side('target', item.target)]);
  return { item, origin, target };
}
