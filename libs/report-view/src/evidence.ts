// The evidence as the case page and the CLI's offline report show it: one item, the decisive signals with their
// items, and the strongest fragments side by side. Repository-derived text (paths, details, file lines) only ever
// reaches the markup through `html`'s escaping and `visible`.
import { html, type Html } from './html';
import { renderTimeline, type TimelineData, type TimelineSource } from './timeline';
import { CHRONOLOGY_WORDS, EVIDENCE_WORDS, SIGNALS, day, isoTime, plural, shortCommit, visible, wordsFor } from './wording';

export interface ViewLocation {
  path: string;
  startLine: number;
  endLine: number;
}

/** An evidence item as the API returns it and as the manifest records it (`id` a decimal string). */
export interface ViewEvidenceItem {
  id: string;
  layer: string;
  kind: string;
  strength: string;
  score: string;
  language?: string | null;
  origin: ViewLocation | null;
  target: ViewLocation | null;
  detail: string;
}

/** Lines of one side's file around a located item, read at its pinned commit. */
export interface ViewFragment {
  startLine: number;
  lines: string[];
  /** a bound cut the text short */
  truncated: boolean;
  binary: boolean;
}

/** A side's fragment, or why it could not be read (a section shows the error; the page still renders). */
export type FragmentOutcome = { ok: true; value: ViewFragment } | { ok: false; error: { code: string; message: string } };

export interface SideBySide {
  item: ViewEvidenceItem;
  origin: FragmentOutcome | null;
  target: FragmentOutcome | null;
}

export const evidenceAnchor = (id: string) => `evidence-${id}`;

/** The decisive signals (wording.ts SIGNALS), each with the items of its kinds. */
export const signalGroupsOf = <T extends ViewEvidenceItem>(signals: readonly T[]) =>
  SIGNALS.map((s) => ({ ...s, items: signals.filter((i) => (s.kinds as readonly string[]).includes(i.kind)) }));

/** The decisive signals' list, each linked to its evidence items (anchors on the same page). */
export function signalList(groups: ReturnType<typeof signalGroupsOf>, tl: TimelineData): Html {
  return html`<ul class="signals">
${groups.map(
  (s) => html`<li id="signal-${s.key}" class="signal">
<h3>${s.title}</h3>
<p class="signal-plain">${s.plain}.</p>
${signalDetail(s.key, tl)}
${
  s.items.length
    ? html`<ul class="signal-evidence">${s.items.map((i) => html`<li><a href="#${evidenceAnchor(i.id)}">${i.kind} (${i.strength.toLowerCase()})</a>: ${visible(i.detail)}</li>`)}</ul>`
    : html`<p class="muted">No evidence of this kind was recorded.</p>`
}
</li>\n`,
)}</ul>`;
}

function signalDetail(key: string, tl: TimelineData): Html | string {
  if (key === 'fork') {
    if (!tl.fork) return html`<p>The histories share no commit: there is no fork point.</p>`;
    return html`<p>Fork point <a href="#timeline-fork"><code>${shortCommit(tl.fork.commit)}</code></a>, ${day(tl.fork.at)}${tl.sharedCommits !== null ? `, after ${plural(tl.sharedCommits, 'shared commit')}` : ''}. After it the origin made ${tl.fork.after.origin ?? '?'} and the target ${tl.fork.after.target ?? '?'}.</p>`;
  }
  if (key === 'declarations' && tl.declaredBy) return html`<p>The ${tl.declaredBy} declares the other repository as its upstream.</p>`;
  if (key === 'chronology' && tl.material)
    return html`<p>Matched material dated in both histories appears earlier in the origin ${tl.material.origin} times and earlier in the target ${tl.material.target} times.</p>`;
  return '';
}

function location(l: ViewLocation | null): Html | string {
  if (!l) return '—';
  return html`<code class="loc">${visible(l.path)}:${l.startLine}-${l.endLine}</code>`;
}

export function evidenceItem(i: ViewEvidenceItem): Html {
  return html`<li id="${evidenceAnchor(i.id)}" class="evidence strength-${i.strength.toLowerCase()}">
<p class="evidence-head"><span class="kind" title="${wordsFor(EVIDENCE_WORDS, i.kind) ?? ''}">${i.kind}</span> <span class="layer">${i.layer}</span> <span class="strength">${i.strength.toLowerCase()}</span> <span class="score">score ${i.score}</span>${i.language ? html` <span class="lang">${i.language}</span>` : ''}</p>
<p class="evidence-detail">${visible(i.detail)}</p>
${i.origin || i.target ? html`<p class="evidence-loc">origin ${location(i.origin)} · target ${location(i.target)}</p>` : ''}
</li>\n`;
}

export function sideBySide(s: SideBySide, n: number): Html {
  const i = s.item;
  const range = (l: ViewLocation | null) => (l ? { from: Math.max(1, l.startLine), to: Math.max(1, l.endLine) } : null);
  const ranges = { origin: range(i.origin), target: range(i.target) };
  // Lines of the matched ranges whose text (trimmed) the other side's matched range holds too.
  const texts = (side: 'origin' | 'target') => {
    const f = s[side];
    const r = ranges[side];
    if (!f?.ok || !r) return new Set<string>();
    return new Set(
      f.value.lines
        .filter((_, k) => f.value.startLine + k >= r.from && f.value.startLine + k <= r.to)
        .map((t) => t.trim())
        .filter((t) => t.length > 0),
    );
  };
  const shared = { origin: texts('target'), target: texts('origin') };
  const pane = (side: 'origin' | 'target') => {
    const l = i[side]!;
    const f = s[side];
    const r = ranges[side]!;
    const caption = html`<figcaption><span class="side">${side}</span> <code class="loc">${visible(l.path)}:${l.startLine}-${l.endLine}</code></figcaption>`;
    if (!f) return html`<figure class="code code-${side}">${caption}<p class="muted">Not read.</p></figure>`;
    if (!f.ok) {
      const why =
        f.error.code === 'REPOSITORY_NOT_CACHED'
          ? `The ${side} repository is no longer in the analysis pipeline's cache, so its text cannot be shown here; the location above is exact.`
          : f.error.message;
      return html`<figure class="code code-${side}">${caption}<p class="notice notice-error fragment-error">${why} <code class="error-code">${f.error.code}</code></p></figure>`;
    }
    const v = f.value;
    if (v.binary) return html`<figure class="code code-${side}">${caption}<p class="muted">A binary file: no text to show.</p></figure>`;
    return html`<figure class="code code-${side}">${caption}
<pre tabindex="0"><code>${v.lines.map((t, k) => {
      const no = v.startLine + k;
      const inRange = no >= r.from && no <= r.to;
      const isShared = inRange && shared[side].has(t.trim());
      return html`<span class="line${inRange ? ' in-range' : ''}${isShared ? ' shared' : ''}" data-line="${no}"><span class="ln" aria-hidden="true">${no}</span><span class="mark" aria-hidden="true">${isShared ? '=' : ' '}</span>${visible(t)}</span>`;
    })}</code></pre>
${v.truncated ? html`<p class="muted">Cut short at ${v.lines.length} lines (the view is bounded).</p>` : ''}
</figure>`;
  };
  return html`<section class="pair-view" id="fragment-${n + 1}" aria-label="${`Fragment ${n + 1}`}">
<h3>${i.kind} · ${i.strength.toLowerCase()} · score ${i.score}${i.language ? ` · ${i.language}` : ''} <a class="to-evidence" href="#${evidenceAnchor(i.id)}">(evidence)</a></h3>
<p class="evidence-detail">${visible(i.detail)}</p>
<div class="panes">
${pane('origin')}
${pane('target')}
</div>
<p class="legend"><span class="swatch in-range"></span> the matched range · <span class="swatch shared"></span> <code>=</code> a line the other side's matched range holds too</p>
</section>\n`;
}

/** The timeline section: the SVG (its fork point and material linked to their evidence items) and every dated fact. */
export function timelineSection(
  tl: TimelineData,
  chronology: TimelineSource['chronology'],
  groups: ReturnType<typeof signalGroupsOf>,
): Html {
  const first = (key: string) => groups.find((g) => g.key === key)?.items[0];
  const fork = first('fork');
  const material = first('chronology');
  return html`<section id="timeline" aria-labelledby="timeline-heading">
<h2 id="timeline-heading">Lineage timeline</h2>
${renderTimeline(tl, {
  fork: fork ? `#${evidenceAnchor(fork.id)}` : undefined,
  material: material ? `#${evidenceAnchor(material.id)}` : undefined,
})}
<details><summary>Every dated fact the engine recorded</summary>
<table class="chronology">
<thead><tr><th scope="col">What</th><th scope="col">Side</th><th scope="col">Commit</th><th scope="col">When (UTC)</th><th scope="col">Detail</th></tr></thead>
<tbody>
${chronology.map((c) => html`<tr><th scope="row" title="${wordsFor(CHRONOLOGY_WORDS, c.kind) ?? ''}">${c.kind}</th><td>${c.side}</td><td><code>${shortCommit(c.commit)}</code></td><td>${isoTime(c.at)}</td><td>${visible(c.description)}</td></tr>\n`)}</tbody>
</table>
</details>
</section>`;
}
