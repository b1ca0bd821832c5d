// The pages' stylesheet, shared by the gateway (served as /assets/pages.css) and the CLI's offline HTML report
// (inlined in its <style>): one look for a case wherever it is read. Plain CSS, no url() or @import.
export const PAGES_CSS = `/* Lineage pages. No inline styles anywhere (CSP style-src 'self'): everything is here. */
:root {
  --fg: #1b1f24; --muted: #4a5361; --bg: #ffffff; --panel: #f5f7fa; --line: #d0d7de;
  --accent: #0b5cad; --accent-fg: #ffffff; --ok: #116329; --bad: #a40e26; --warn: #7d4e00;
  --origin: #0b5cad; --target: #8a3ffc; --shared: #4a5361; --range: #fff5c2; --match: #c9f2d4;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
body { margin: 0; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid #f0a500; outline-offset: 2px; }
code, pre, .commit { font-family: var(--mono); font-size: 0.9em; }
.skip { position: absolute; left: -999px; top: 0; background: var(--accent); color: var(--accent-fg); padding: 0.5rem 1rem; }
.skip:focus { left: 0.5rem; }
header.site { display: flex; align-items: center; gap: 2rem; padding: 0.75rem 1.5rem; background: #102a43; color: #ffffff; flex-wrap: wrap; }
header.site a { color: #ffffff; text-decoration: none; }
header.site .brand { margin: 0; font-weight: 700; font-size: 1.25rem; }
header.site nav ul { display: flex; gap: 1.25rem; list-style: none; margin: 0; padding: 0; }
header.site nav a[aria-current="page"] { text-decoration: underline; text-underline-offset: 4px; }
main { max-width: 76rem; margin: 0 auto; padding: 1.5rem; }
footer.site { max-width: 76rem; margin: 2rem auto 0; padding: 1rem 1.5rem 2rem; color: var(--muted); border-top: 1px solid var(--line); font-size: 0.9rem; }
h1 { font-size: 1.75rem; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.35rem; margin: 2rem 0 0.75rem; padding-bottom: 0.25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1rem 0 0.5rem; }
.lead { font-size: 1.05rem; max-width: 50rem; }
.muted, .hint, .optional { color: var(--muted); }
.notice { padding: 0.75rem 1rem; border-radius: 6px; background: var(--panel); border: 1px solid var(--line); }
.notice-error { border-color: var(--bad); background: #fff0f1; }
.notice-ok { border-color: var(--ok); background: #effaf2; }
.error-code { color: var(--bad); }

form fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 1rem; padding: 0.5rem 1rem; }
form legend { font-weight: 700; padding: 0 0.25rem; }
label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
input[type="text"], input[type="search"], input[type="password"], select, textarea {
  width: 100%; max-width: 40rem; padding: 0.5rem; font: inherit; color: var(--fg); background: #ffffff; border: 1px solid #6e7781; border-radius: 4px;
}
textarea { font-family: inherit; }
button { font: inherit; padding: 0.5rem 1rem; color: var(--accent-fg); background: var(--accent); border: 1px solid var(--accent); border-radius: 4px; cursor: pointer; }
button[type="button"] { background: #ffffff; color: var(--accent); }
form.filters { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-end; }
form.filters p { margin: 0; }
form.filters input, form.filters select { width: auto; min-width: 14rem; }
form.path-filter label { display: inline; }

table { border-collapse: collapse; width: 100%; margin: 0.5rem 0 1rem; }
caption { text-align: left; color: var(--muted); padding: 0.25rem 0; }
th, td { text-align: left; padding: 0.4rem 0.6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { background: var(--panel); }
.pager { display: flex; gap: 1.5rem; margin: 1rem 0; }
.empty { color: var(--muted); font-style: italic; }

.verdict { display: inline-block; padding: 0.05rem 0.5rem; border-radius: 999px; font-size: 0.9em; font-weight: 700; border: 1px solid currentColor; }
.verdict-independent { color: var(--ok); }
.verdict-shared_upstream, .verdict-insufficient_evidence { color: var(--muted); }
.verdict-declared_fork { color: var(--accent); }
.verdict-likely_derived { color: var(--warn); }
.verdict-heavily_derived { color: var(--bad); }
.verdict-line { font-size: 1.1rem; }
dl.pair { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dl.pair dt { font-weight: 700; }
dl.pair dd { margin: 0; overflow-wrap: anywhere; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }
dl.meta dd { margin: 0; }
nav.toc ul { display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; list-style: none; padding: 0; margin: 0.5rem 0; }
.summary { max-width: 60rem; }

ul.signals { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(20rem, 1fr)); gap: 1rem; }
li.signal { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 1rem; background: var(--panel); }
li.signal h3 { margin-top: 0.25rem; }
.signal-evidence { padding-left: 1.25rem; overflow-wrap: anywhere; }

svg.timeline { width: 100%; height: auto; max-height: 20rem; background: #ffffff; border: 1px solid var(--line); border-radius: 6px; }
svg.timeline text { font: 13px system-ui, sans-serif; fill: var(--fg); }
svg.timeline .lane-label { font-weight: 700; }
svg.timeline .shared-line { stroke: var(--shared); stroke-width: 6; stroke-linecap: round; }
svg.timeline .branch { fill: none; stroke-width: 4; stroke-linecap: round; }
svg.timeline .branch-origin { stroke: var(--origin); }
svg.timeline .branch-target { stroke: var(--target); }
svg.timeline .commit { fill: #ffffff; stroke-width: 1.5; }
svg.timeline .commit-origin { stroke: var(--origin); }
svg.timeline .commit-target { stroke: var(--target); }
svg.timeline .pinned { stroke: #ffffff; stroke-width: 2; }
svg.timeline .pinned-origin { fill: var(--origin); }
svg.timeline .pinned-target { fill: var(--target); }
svg.timeline .oldest { fill: #ffffff; stroke: var(--shared); stroke-width: 2; }
svg.timeline .fork { fill: #f0a500; stroke: #102a43; stroke-width: 2; }
svg.timeline .fork-label { font-weight: 700; }
svg.timeline .material rect { fill: #116329; }
svg.timeline .axis, svg.timeline .axis-tick { stroke: var(--muted); stroke-width: 1; }
svg.timeline .axis-label, svg.timeline .after-label { fill: var(--muted); }
.timeline-words { color: var(--muted); max-width: 60rem; }

.pair-view { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 1rem 1rem; margin: 1rem 0; }
.panes { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
@media (max-width: 60rem) { .panes { grid-template-columns: 1fr; } }
figure.code { margin: 0; min-width: 0; }
figure.code figcaption { font-weight: 600; margin-bottom: 0.25rem; overflow-wrap: anywhere; }
figure.code .side { text-transform: capitalize; }
figure.code pre { margin: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; overflow-x: auto; padding: 0.25rem 0; max-height: 32rem; }
figure.code code { display: block; font-size: 0.85rem; line-height: 1.45; }
.line { display: block; white-space: pre; padding-right: 0.75rem; }
.line .ln { display: inline-block; width: 3.5rem; padding-right: 0.5rem; text-align: right; color: var(--muted); user-select: none; }
.line .mark { display: inline-block; width: 1.25rem; color: var(--ok); font-weight: 700; user-select: none; }
.line.in-range { background: var(--range); }
.line.shared { background: var(--match); }
.legend { color: var(--muted); font-size: 0.9rem; }
.swatch { display: inline-block; width: 1rem; height: 1rem; vertical-align: middle; border: 1px solid var(--line); }
.swatch.in-range { background: var(--range); }
.swatch.shared { background: var(--match); }

.facets { display: flex; flex-wrap: wrap; gap: 0.5rem 2rem; align-items: flex-start; margin-bottom: 1rem; }
.facet ul { list-style: none; padding: 0; margin: 0; }
.facet a.active { font-weight: 700; }
.count { color: var(--muted); font-size: 0.85em; }
ol.evidence-list { padding-left: 0; list-style: none; }
li.evidence { border-left: 4px solid var(--line); padding: 0.25rem 0.75rem; margin: 0.5rem 0; overflow-wrap: anywhere; }
li.evidence:target { background: #fff8d6; }
li.evidence.strength-strong { border-left-color: var(--bad); }
li.evidence.strength-moderate { border-left-color: var(--warn); }
li.evidence.strength-weak { border-left-color: var(--muted); }
.evidence-head { margin: 0; }
.evidence-head .kind { font-weight: 700; }
.evidence-head .layer, .evidence-head .strength, .evidence-head .score, .evidence-head .lang { color: var(--muted); margin-left: 0.5rem; }
.evidence-detail, .evidence-loc { margin: 0.25rem 0; }
.hash { overflow-wrap: anywhere; }
pre.recipe, pre.payload { background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: 0.75rem; overflow-x: auto; }
section.progress .stages td, section.progress .stages th { white-space: nowrap; }
tr.stage-done td.stage-state { color: var(--ok); font-weight: 700; }
tr.stage-running td.stage-state { color: var(--accent); font-weight: 700; }
tr.stage-failed td.stage-state { color: var(--bad); font-weight: 700; }
.signal-plain::first-letter { text-transform: uppercase; }
`;
