// The pages' bodies as pure functions of the data the API's subjects return (same zod schemas): no I/O here,
// so every renderer is unit-tested for escaping and structure (services/gateway/test/pages-*.test.ts).
import type { z } from 'zod';
import type { analysisApi, casesApi, factsApi, fragmentApi, WireError } from '@lineage/schemas';
import { VERDICTS } from '@lineage/schemas';
import {
  CONFIDENCE_WORDS,
  DIRECTION_WORDS,
  LAYER_WORDS,
  STAGE_WORDS,
  VERDICT_WORDS,
  day,
  evidenceItem,
  html,
  isoTime,
  plural,
  query,
  raw,
  repositoryName,
  safeHref,
  shortCommit,
  sideBySide,
  signalGroupsOf,
  signalList,
  timelineSection,
  timelineFrom,
  visible,
  wordsFor,
  type Html,
  type SideBySide as ViewSideBySide,
} from '@lineage/report-view';
import { layout } from './layout';

type Analysis = z.infer<typeof analysisApi.Analysis>;
type CaseReport = z.infer<typeof casesApi.CaseReport>;
type CaseCard = z.infer<typeof casesApi.CaseCard>;
type CaseList = z.infer<typeof casesApi.CaseList>;
type SearchResults = z.infer<typeof casesApi.SearchResults>;
type EvidencePage = z.infer<typeof casesApi.EvidencePage>;
type EvidenceItem = z.infer<typeof casesApi.EvidenceItem>;
type FactResponse = z.infer<typeof factsApi.FactResponse>;
type ChainFactResponse = z.infer<typeof factsApi.ChainFactResponse>;
type FactView = z.infer<typeof factsApi.FactView>;
type Fragment = z.infer<typeof fragmentApi.FragmentResponse>;
type ChallengePreparation = z.infer<typeof casesApi.ChallengePreparationResponse>;
type Wire = z.infer<typeof WireError>;

/** A value from a subject, or the error it answered (a section shows the error; the page still renders). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: Wire };

const repo = (url: string) => visible(url);
const verdictBadge = (v: string) => html`<span class="verdict verdict-${v.toLowerCase()}">${wordsFor(VERDICT_WORDS, v)?.title ?? v}</span>`;

// ---------------------------------------------------------------------------------------------- home

export function homePage(o: { authRequired: boolean; error?: Wire }): Html {
  const body = html`<h1>Compare two repositories</h1>
<p class="lead">Give the repository the material may come from (the <strong>origin</strong>) and the one that may hold it (the <strong>target</strong>). Each is pinned to an exact commit first: a branch or tag you name, or the repository's default branch.</p>
${o.error ? formError(o.error) : ''}
<form class="analysis-form" method="post" action="/analyses">
<fieldset>
<legend>Origin</legend>
<p><label for="origin-url">Repository URL</label>
<input id="origin-url" name="origin_url" type="text" inputmode="url" required maxlength="512" autocomplete="off" spellcheck="false" placeholder="https://github.com/owner/name"></p>
<p><label for="origin-ref">Branch, tag or commit <span class="optional">(optional)</span></label>
<input id="origin-ref" name="origin_ref" type="text" maxlength="255" autocomplete="off" spellcheck="false"></p>
</fieldset>
<fieldset>
<legend>Target</legend>
<p><label for="target-url">Repository URL</label>
<input id="target-url" name="target_url" type="text" inputmode="url" required maxlength="512" autocomplete="off" spellcheck="false" placeholder="https://github.com/owner/other"></p>
<p><label for="target-ref">Branch, tag or commit <span class="optional">(optional)</span></label>
<input id="target-ref" name="target_ref" type="text" maxlength="255" autocomplete="off" spellcheck="false"></p>
</fieldset>
${
  o.authRequired
    ? html`<p><label for="api-key">API key</label>
<input id="api-key" name="api_key" type="password" required maxlength="512" autocomplete="off"></p>`
    : ''
}
<p><button type="submit">Pin both commits and analyse</button></p>
</form>
<p>The form goes through the same steps as the API: <code>POST /api/v1/repositories/validate</code>, then <code>POST /api/v1/analyses</code>. Finished comparisons are listed under <a href="/cases">Cases</a>.</p>`;
  return layout({ title: 'New analysis', nav: 'home', body });
}

function formError(e: Wire): Html {
  return html`<div class="notice notice-error" role="alert">
<p><strong>${e.message}</strong> <code class="error-code">${e.code}</code></p>
${e.fields?.length ? html`<ul>${e.fields.map((f) => html`<li><code>${f.path}</code>: ${f.issue}</li>`)}</ul>` : ''}
</div>`;
}

// ------------------------------------------------------------------------------------------ progress

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export function progressPage(a: Analysis): Html {
  const doneStages = a.stages.filter((s) => s.state === 'done').length;
  const body = html`<section class="progress" id="analysis" data-analysis-id="${a.id}" data-state="${a.state}" aria-labelledby="progress-title">
<h1 id="progress-title">Analysis ${a.id}</h1>
<dl class="pair">
<dt>Origin</dt><dd><code>${repo(a.pair.origin.url)}</code> at <code>${a.pair.origin.commit}</code></dd>
<dt>Target</dt><dd><code>${repo(a.pair.target.url)}</code> at <code>${a.pair.target.commit}</code></dd>
</dl>
<p class="state" aria-live="polite">State: <strong id="analysis-state">${a.state}</strong> · <span id="analysis-count">${doneStages} of ${a.stages.length}</span> stages done</p>
<div id="analysis-result">${resultLine(a)}</div>
<table class="stages">
<caption>Stages</caption>
<thead><tr><th scope="col">Stage</th><th scope="col">State</th><th scope="col">Progress</th><th scope="col">Attempt</th></tr></thead>
<tbody>
${a.stages.map(
  (s) => html`<tr id="stage-${s.name}" data-stage="${s.name}" class="stage-${s.state}">
<th scope="row">${STAGE_WORDS[s.name] ?? s.name}</th>
<td class="stage-state">${s.state}</td>
<td class="stage-progress">${stageProgress(s)}</td>
<td class="stage-attempt">${s.attempt}</td>
</tr>\n`,
)}</tbody>
</table>
<p class="refresh"><a id="refresh-link" href="/analyses/${a.id}">Refresh this page</a>${TERMINAL.has(a.state) ? '' : html` <span class="hint" id="live-hint">(it updates by itself when JavaScript is on)</span>`}</p>
</section>`;
  return layout({ title: `Analysis ${a.id}`, nav: 'home', scripts: ['progress.js'], body });
}

export function stageProgress(s: Analysis['stages'][number]): string {
  if (s.done === null) return s.state === 'done' ? 'done' : '';
  return `${s.done}${s.total !== null ? ` / ${s.total}` : ''}${s.unit ? ` ${s.unit}` : ''}`;
}

function resultLine(a: Analysis): Html {
  if (a.caseId)
    return html`<p class="notice notice-ok">Finished: <a id="case-link" href="/cases/${a.caseId}">read case ${a.caseId}</a>.</p>`;
  if (a.state === 'completed') return html`<p class="notice">Finished; the case is being published. Refresh in a moment.</p>`;
  if (a.state === 'failed')
    return html`<p class="notice notice-error">The analysis failed: <code class="error-code">${a.error?.code ?? 'unknown'}</code> ${a.error?.message ?? ''}</p>`;
  if (a.state === 'cancelled') return html`<p class="notice notice-error">The analysis was cancelled.</p>`;
  return html``;
}

// --------------------------------------------------------------------------------------------- cases

const cardRow = (c: CaseCard, extra: Html | string = '') => html`<tr>
<th scope="row"><a href="/cases/${c.id}">Case ${c.id}</a></th>
<td><code title="${repo(c.pair.origin.url)}">${visible(repositoryName(c.pair.origin.url))}</code> <span class="commit">${shortCommit(c.pair.origin.commit)}</span></td>
<td><code title="${repo(c.pair.target.url)}">${visible(repositoryName(c.pair.target.url))}</code> <span class="commit">${shortCommit(c.pair.target.commit)}</span></td>
<td>${verdictBadge(c.verdict)}</td>
<td>${c.confidence.toLowerCase()}</td>
<td>${DIRECTION_WORDS[c.direction] ?? c.direction}</td>
<td>${day(c.createdAt)}</td>${extra}
</tr>\n`;

const cardHead = (extra = '') =>
  html`<thead><tr><th scope="col">Case</th><th scope="col">Origin</th><th scope="col">Target</th><th scope="col">Verdict</th><th scope="col">Confidence</th><th scope="col">Direction</th><th scope="col">Created</th>${extra ? html`<th scope="col">${extra}</th>` : ''}</tr></thead>`;

export function casesPage(list: CaseList, filters: { verdict?: string; repository?: string; limit?: string; cursor?: string }): Html {
  const next = list.nextCursor
    ? `/cases${query({ verdict: filters.verdict, repository: filters.repository, limit: filters.limit, cursor: list.nextCursor })}`
    : null;
  const first = filters.cursor
    ? `/cases${query({ verdict: filters.verdict, repository: filters.repository, limit: filters.limit })}`
    : null;
  const body = html`<h1>Cases</h1>
<form class="filters" method="get" action="/cases" role="search" aria-label="Filter cases">
<p><label for="filter-verdict">Verdict</label>
<select id="filter-verdict" name="verdict">
<option value="">any</option>
${VERDICTS.map((v) => html`<option value="${v}"${filters.verdict === v ? raw(' selected') : ''}>${VERDICT_WORDS[v]?.title ?? v}</option>\n`)}</select></p>
<p><label for="filter-repository">Repository</label>
<input id="filter-repository" name="repository" type="text" maxlength="512" value="${filters.repository ?? ''}" spellcheck="false"></p>
<p><button type="submit">Filter</button></p>
</form>
${
  list.items.length === 0
    ? html`<p class="empty">No cases${filters.verdict || filters.repository ? ' match these filters' : ' yet'}.</p>`
    : html`<table class="cases">
<caption>${plural(list.items.length, 'case')} on this page</caption>
${cardHead()}
<tbody>
${list.items.map((c) => cardRow(c))}</tbody>
</table>`
}
${pager(first, next)}`;
  return layout({ title: 'Cases', nav: 'cases', body });
}

function pager(first: string | null, next: string | null): Html {
  if (!first && !next) return html``;
  return html`<nav class="pager" aria-label="Pages">
${first ? html`<a href="${first}">First page</a>` : ''}
${next ? html`<a href="${next}" rel="next" id="next-page">Next page</a>` : ''}
</nav>`;
}

export function searchPage(q: string | undefined, results: SearchResults | null, limit?: string): Html {
  const next = q && results?.nextCursor ? `/search${query({ q, limit, cursor: results.nextCursor })}` : null;
  const body = html`<h1>Search cases</h1>
<form class="filters" method="get" action="/search" role="search" aria-label="Search cases">
<p><label for="search-q">Case id, verdict or repository</label>
<input id="search-q" name="q" type="search" required maxlength="256" value="${q ?? ''}" spellcheck="false"></p>
<p><button type="submit">Search</button></p>
</form>
${
  results === null
    ? html`<p class="hint">Search by case id (<code>42</code>), by verdict (<code>HEAVILY_DERIVED</code>) or by part of a repository URL (<code>github.com/owner</code>).</p>`
    : results.items.length === 0
      ? html`<p class="empty">No case matches.</p>`
      : html`<table class="cases">
<caption>${plural(results.items.length, 'result')} on this page</caption>
${cardHead('Matched on')}
<tbody>
${results.items.map((h) => cardRow(h.case, html`<td>${h.matchedOn}</td>`))}</tbody>
</table>`
}
${pager(null, next)}`;
  return layout({ title: q ? 'Search results' : 'Search', nav: 'search', body });
}

// ---------------------------------------------------------------------------------------- case page

/** A located item with both sides' fragments as the fragment subject answered them (the view's SideBySide). */
export interface SideBySide extends ViewSideBySide {
  item: EvidenceItem;
  origin: Outcome<Fragment> | null;
  target: Outcome<Fragment> | null;
}

export interface CasePageData {
  report: CaseReport;
  /** The evidence route's page for the filters in the URL. */
  evidence: EvidencePage;
  /** The HISTORY layer's items: the decisive signals' evidence. */
  signals: EvidenceItem[];
  filters: { layer?: string; strength?: string; kind?: string; path?: string; limit?: string; cursor?: string };
  fragments: SideBySide[];
  fact: { projection: Outcome<FactResponse> | null; chain: Outcome<ChainFactResponse> | null };
  /** Absolute URL of the case in the API (`npx lineage verify <case URL> …`). */
  caseApiUrl: string;
}

export function casePage(d: CasePageData): Html {
  const r = d.report;
  const v = VERDICT_WORDS[r.verdict];
  // The evidence list: the page of the filters, then every item this page links to that is not on it.
  const listed = new Map<string, EvidenceItem>(d.evidence.items.map((i) => [i.id, i]));
  const referenced = [...d.signals, ...r.highlights].filter((i, n, all) => !listed.has(i.id) && all.findIndex((j) => j.id === i.id) === n);
  const signalGroups = signalGroupsOf(d.signals);
  const tl = timelineFrom(r);

  const body = html`<article class="case" aria-labelledby="case-title">
<header class="case-head">
<h1 id="case-title">Case ${r.id}: ${verdictBadge(r.verdict)}</h1>
<p class="verdict-line"><strong>${v?.title ?? r.verdict}</strong> with ${CONFIDENCE_WORDS[r.confidence] ?? r.confidence}: ${v?.plain ?? ''}. Direction: ${DIRECTION_WORDS[r.direction] ?? r.direction}.</p>
<dl class="pair">
<dt>Origin</dt><dd><a href="${safeHref(r.pair.origin.url)}" rel="nofollow noreferrer"><code>${repo(r.pair.origin.url)}</code></a> at <code>${r.pair.origin.commit}</code>${r.pair.origin.committedAt ? html`, ${isoTime(r.pair.origin.committedAt)}` : ''}</dd>
<dt>Target</dt><dd><a href="${safeHref(r.pair.target.url)}" rel="nofollow noreferrer"><code>${repo(r.pair.target.url)}</code></a> at <code>${r.pair.target.commit}</code>${r.pair.target.committedAt ? html`, ${isoTime(r.pair.target.committedAt)}` : ''}</dd>
</dl>
</header>
<nav class="toc" aria-label="On this page">
<ul>
<li><a href="#summary">Summary</a></li><li><a href="#signals">Decisive signals</a></li><li><a href="#timeline">Timeline</a></li><li><a href="#side-by-side">Side by side</a></li><li><a href="#evidence">Evidence</a></li><li><a href="#verify">Verify</a></li><li><a href="#fact">On-chain fact</a></li>
</ul>
</nav>

<section id="summary" aria-labelledby="summary-title">
<h2 id="summary-title">Summary</h2>
<p class="summary">${r.summary}</p>
<p>${r.whyChosen}</p>
<table class="layers">
<caption>Layer scores</caption>
<thead><tr><th scope="col">Layer</th><th scope="col">What it compares</th><th scope="col">Score</th><th scope="col">Items</th></tr></thead>
<tbody>
${r.layers.map((l) => html`<tr><th scope="row"><a href="${`/cases/${r.id}${query({ layer: l.layer })}#evidence`}">${l.layer}</a></th><td>${LAYER_WORDS[l.layer] ?? ''}</td><td>${l.score}</td><td>${l.items}</td></tr>\n`)}</tbody>
</table>
<details class="alternatives"><summary>Alternatives the engine scored</summary>
<ul>${r.alternatives.map((a) => html`<li>${a.chosen ? html`<strong>${a.verdict}</strong>` : a.verdict} ${a.score}: ${a.reason}</li>`)}</ul>
</details>
</section>

<section id="signals" aria-labelledby="signals-title">
<h2 id="signals-title">Decisive signals</h2>
${signalList(signalGroups, tl)}
</section>

${timelineSection(tl, r.chronology, signalGroups)}

<section id="side-by-side" aria-labelledby="sbs-title">
<h2 id="sbs-title">Side by side: the strongest fragments</h2>
${d.fragments.length === 0 ? html`<p class="muted">No evidence item of this case is located in a file on both sides.</p>` : d.fragments.map((f, n) => sideBySide(f, n))}
</section>

<section id="evidence" aria-labelledby="evidence-title">
<h2 id="evidence-title">Evidence</h2>
<p>${plural(r.evidence.total, 'item')} in all: ${r.evidence.byStrength.STRONG} strong, ${r.evidence.byStrength.MODERATE} moderate, ${r.evidence.byStrength.WEAK} weak. ${d.evidence.total !== r.evidence.total ? `${plural(d.evidence.total, 'item')} match the filters.` : ''}</p>
${facets(r.id, d.evidence, d.filters)}
${d.evidence.items.length === 0 ? html`<p class="empty">No evidence item matches these filters.</p>` : html`<ol class="evidence-list">${d.evidence.items.map(evidenceItem)}</ol>`}
${pager(
  d.filters.cursor ? `/cases/${r.id}${query({ ...d.filters, cursor: undefined })}#evidence` : null,
  d.evidence.nextCursor ? `/cases/${r.id}${query({ ...d.filters, cursor: d.evidence.nextCursor })}#evidence` : null,
)}
${referenced.length ? html`<h3>Also referenced on this page</h3><ol class="evidence-list referenced">${referenced.map(evidenceItem)}</ol>` : ''}
</section>

<section id="verify" aria-labelledby="verify-title">
<h2 id="verify-title">Verify it yourself</h2>
<p>The case rests on a canonical evidence manifest whose SHA-256 is</p>
<p><code class="hash" id="manifest-hash">${r.manifestHash}</code></p>
<p>Engine ${r.engineVersion}. <a href="/api/v1/analyses/${r.analysisId}/manifest">Download the manifest</a> (its bytes hash to the value above). To recompute it from your own clones:</p>
<pre class="recipe" tabindex="0"><code>git clone --bare ${repo(r.pair.origin.url)} origin.git
git clone --bare ${repo(r.pair.target.url)} target.git
npx lineage verify ${d.caseApiUrl} origin.git target.git</code></pre>
<p><code>lineage verify</code> reads the commits, URLs and limits the manifest records, recomputes it and prints <code>identical: …</code> or the first difference.</p>
</section>

${factSection(r, d.fact)}
</article>`;
  return layout({ title: `Case ${r.id}`, nav: 'cases', scripts: ['challenge.js'], body });
}

function facets(caseId: string, page: EvidencePage, f: CasePageData['filters']): Html {
  const active = (k: keyof CasePageData['filters'], v: string) => f[k] === v;
  const group = (k: 'layer' | 'strength' | 'kind' | 'language', label: string, counts: Record<string, number>) => {
    // `language` is a facet the evidence route counts but does not filter on: shown as counts, not links.
    const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    if (entries.length === 0) return html``;
    return html`<div class="facet"><h3>${label}</h3><ul>
${entries.map(([v, n]) =>
  k === 'language'
    ? html`<li>${v} <span class="count">${n}</span></li>`
    : html`<li><a href="${`/cases/${caseId}${query({ ...f, cursor: undefined, [k]: active(k, v) ? undefined : v })}#evidence`}"${active(k, v) ? raw(' aria-current="true" class="active"') : ''}>${v}</a> <span class="count">${n}</span></li>\n`,
)}</ul></div>`;
  };
  const any = f.layer || f.strength || f.kind || f.path;
  return html`<div class="facets" aria-label="Filter the evidence">
${group('layer', 'Layer', page.facets.layer)}
${group('strength', 'Strength', page.facets.strength)}
${group('kind', 'Kind', page.facets.kind)}
${group('language', 'Language', page.facets.language)}
<form class="filters path-filter" method="get" action="/cases/${caseId}#evidence">
${f.layer ? html`<input type="hidden" name="layer" value="${f.layer}">` : ''}${f.strength ? html`<input type="hidden" name="strength" value="${f.strength}">` : ''}${f.kind ? html`<input type="hidden" name="kind" value="${f.kind}">` : ''}
<p><label for="evidence-path">Path contains</label> <input id="evidence-path" name="path" type="text" maxlength="1024" value="${f.path ?? ''}" spellcheck="false"> <button type="submit">Filter</button></p>
</form>
${any ? html`<p><a href="/cases/${caseId}#evidence">Clear the filters</a></p>` : ''}
</div>`;
}

function factView(label: string, v: FactView | null, extra?: Html): Html {
  return html`<tr><th scope="row">${label}</th>${
    v
      ? html`<td>${v.outcome}</td><td>${v.status}</td><td>${v.assertionId}</td><td><code title="${v.manifestHash}">${v.manifestHash.slice(0, 18)}…</code></td><td>${v.blockNumber}</td>`
      : html`<td colspan="5">none</td>`
  }${extra ?? html`<td></td>`}</tr>`;
}

function factSection(r: CaseReport, f: CasePageData['fact']): Html {
  const table = (rows: Html[]) => html`<table class="fact">
<thead><tr><th scope="col">View</th><th scope="col">Outcome</th><th scope="col">Status</th><th scope="col">Assertion</th><th scope="col">Manifest hash</th><th scope="col">Block</th><th scope="col">Agrees</th></tr></thead>
<tbody>${rows}</tbody></table>`;
  const unavailable = (o: { ok: false; error: Wire }, what: string) =>
    html`<p class="muted">${what}: ${o.error.code === 'FACT_NOT_FOUND' ? 'no fact has been recorded for this case yet' : o.error.message} <code class="error-code">${o.error.code}</code></p>`;
  let projection: Html = html``;
  if (f.projection) {
    projection = f.projection.ok
      ? html`<h3>Indexed (projection)</h3>${table([factView('canonical (finalized)', f.projection.value.fact.canonical), factView('latest', f.projection.value.fact.latest)])}
<p class="muted">Indexed up to block ${f.projection.value.meta.indexedBlock ?? 'none'}; finalized ${f.projection.value.meta.finalizedBlock ?? 'none'}.</p>`
      : unavailable(f.projection, 'The fact-indexer');
  }
  let chain: Html = html``;
  if (f.chain) {
    const c = f.chain;
    chain = c.ok
      ? html`<h3>Read from the chain</h3>${table([
          factView('canonical (finalized)', c.value.canonical, html`<td>${c.value.comparison.canonical.matches ? 'yes' : 'no'}</td>`),
          factView('latest', c.value.latest, html`<td>${c.value.comparison.latest.matches ? 'yes' : 'no'}</td>`),
        ])}`
      : unavailable(c, 'The chain');
  }
  const matches = (v: FactView | null | undefined) =>
    v ? (v.manifestHash === r.manifestHash ? "matches this case's manifest hash" : "differs from this case's manifest hash") : '';
  const canonical = f.projection?.ok ? f.projection.value.fact.canonical : null;
  return html`<section id="fact" aria-labelledby="fact-title">
<h2 id="fact-title">On-chain fact</h2>
${
  r.factKey === null
    ? html`<p class="muted">This case has no fact key.</p>`
    : html`<p>Fact key <code id="fact-key">${r.factKey}</code>. <a href="/api/v1/facts/${r.factKey}">As JSON</a> · <a href="/api/v1/facts/${r.factKey}?source=chain">read from the chain</a>${canonical ? html`. The canonical assertion ${matches(canonical)}.` : ''}</p>
${projection}
${chain}
<h3>Challenge this fact</h3>
<p>A challenge is signed by your own wallet (EIP-712) and relayed to the registry's <code>challengeWithSig</code>. This page prepares the payload (<code>POST /api/v1/cases/${r.id}/challenge-preparation</code>) and asks your wallet to sign it; it never holds a key. Without a wallet in this browser, the payload is shown to sign elsewhere.</p>
<form class="challenge" id="challenge-form" method="post" action="/cases/${r.id}/challenge" data-case-id="${r.id}">
<p><label for="challenger">Your address (the challenger)</label>
<input id="challenger" name="challenger" type="text" required pattern="0x[0-9a-fA-F]{40}" maxlength="42" autocomplete="off" spellcheck="false" placeholder="0x…"></p>
<p><label for="rationale">Why the fact is wrong (10 to 600 characters)</label>
<textarea id="rationale" name="rationale" required minlength="10" maxlength="600" rows="3"></textarea></p>
<p><label for="evidence-digest">Evidence digest <span class="optional">(optional, 0x + 64 hex)</span></label>
<input id="evidence-digest" name="evidenceDigest" type="text" pattern="0x[0-9a-f]{64}" maxlength="66" autocomplete="off" spellcheck="false"></p>
<p><button type="submit" id="challenge-prepare">Prepare the challenge</button> <button type="button" id="wallet-sign" hidden>Prepare and sign with my wallet</button></p>
</form>
<div id="challenge-output" aria-live="polite"></div>`
}
</section>`;
}

export function challengePage(r: { id: string }, prep: ChallengePreparation): Html {
  const body = html`<h1>Challenge of case ${r.id}: payload to sign</h1>
<p>Sign this EIP-712 payload with the challenger's wallet (<code>eth_signTypedData_v4</code>), then relay the signature to <code>${prep.relay.function}</code> on <code>${prep.relay.contract}</code>. Its digest is <code>${prep.digest}</code>. The deadline is ${isoTime(prep.typedData.message.deadline)}.</p>
<pre class="payload" id="challenge-payload" tabindex="0"><code>${JSON.stringify(prep.typedData, null, 2)}</code></pre>
<p><a href="/cases/${r.id}#fact">Back to case ${r.id}</a></p>`;
  return layout({ title: `Challenge case ${r.id}`, nav: 'cases', body });
}
