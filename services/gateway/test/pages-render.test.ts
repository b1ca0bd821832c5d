// The pages' renderers: escaping of every repository-derived string, and the timeline's geometry.
import { casesApi } from '@lineage/schemas';
import { escapeHtml, html, raw, safeHref, query } from '@lineage/report-view';
import { GEOMETRY, renderTimeline, scale, timelineFrom, type TimelineData } from '@lineage/report-view';
import { casePage, casesPage, challengePage, homePage, progressPage, searchPage, type CasePageData } from '../src/pages/views';
import { PAGE_CSP } from '../src/pages/layout';
import { day, visible } from '@lineage/report-view';

const HOSTILE_PATH = '<img src=x onerror=alert(1)>.js';
const HOSTILE_TEXT = '</script><script>alert(2)</script>';
const hex40 = (c: string) => c.repeat(40);
const DAY = 86_400;
const T0 = 1_600_000_000;

function report(over: Partial<Record<string, unknown>> = {}) {
  const loc = (path: string, a: number, b: number) => ({ path, startLine: a, endLine: b, blobId: 'b'.repeat(40) });
  const item = (id: string, kind: string, layer: 'CODE' | 'HISTORY' = 'CODE', extra: Record<string, unknown> = {}) => ({
    id,
    layer,
    kind,
    strength: 'STRONG' as const,
    score: '1.0000',
    language: layer === 'CODE' ? 'javascript' : null,
    origin: layer === 'CODE' ? loc(HOSTILE_PATH, 3, 9) : null,
    target: layer === 'CODE' ? loc(`src/${HOSTILE_PATH}`, 5, 11) : null,
    detail: `matched ${HOSTILE_TEXT}`,
    ...extra,
  });
  const r = {
    id: '7',
    analysisId: '3',
    pair: {
      origin: { url: 'http://127.0.0.1:9/"><script>alert(3)</script>/origin.git', commit: hex40('a'), committedAt: String(T0 + 35 * DAY) },
      target: { url: 'javascript:alert(4)', commit: hex40('b'), committedAt: String(T0 + 30 * DAY) },
    },
    verdict: 'DECLARED_FORK',
    confidence: 'HIGH',
    direction: 'ORIGIN_TO_TARGET',
    summary: `Summary with ${HOSTILE_TEXT}`,
    layers: [
      { layer: 'CODE', score: '0.9000', items: 1 },
      { layer: 'HISTORY', score: '0.5000', items: 2 },
    ],
    chronology: [
      { kind: 'PINNED_COMMIT', side: 'origin', description: '4 commits walked', commit: hex40('a'), at: String(T0 + 35 * DAY) },
      {
        kind: 'OLDEST_COMMIT_WALKED',
        side: 'origin',
        description: 'oldest commit reachable within the limits',
        commit: hex40('c'),
        at: String(T0),
      },
      { kind: 'PINNED_COMMIT', side: 'target', description: '4 commits walked', commit: hex40('b'), at: String(T0 + 30 * DAY) },
      {
        kind: 'OLDEST_COMMIT_WALKED',
        side: 'target',
        description: 'oldest commit reachable within the limits',
        commit: hex40('c'),
        at: String(T0),
      },
      {
        kind: 'SHARED_COMMITS',
        side: 'both',
        description: '3 commits in both histories; newest shared commit given',
        commit: hex40('d'),
        at: String(T0 + 20 * DAY),
      },
      {
        kind: 'FORK_POINT',
        side: 'both',
        description: 'newest commit both histories hold (a merge base); origin made 1 commits after it, target 2',
        commit: hex40('d'),
        at: String(T0 + 20 * DAY),
      },
      { kind: 'DECLARED_UPSTREAM', side: 'target', description: `README.md:3 names ${HOSTILE_TEXT}`, commit: null, at: null },
      {
        kind: 'MATERIAL_FIRST_APPEARANCE',
        side: 'both',
        description: 'matched fingerprints dated earlier in origin: 12; earlier in target: 0',
        commit: null,
        at: null,
      },
    ],
    evidence: { total: 3, byStrength: { STRONG: 3, MODERATE: 0, WEAK: 0 } },
    highlights: [item('1', 'CODE_FRAGMENT')],
    alternatives: [{ verdict: 'DECLARED_FORK', score: '0.9', reason: HOSTILE_TEXT, chosen: true }],
    whyChosen: `DECLARED_FORK scored 0.9 ${HOSTILE_TEXT}`,
    manifestHash: '0x' + 'ab'.repeat(32),
    engineVersion: '0.5.0',
    factKey: '42',
    fact: null,
    createdAt: String(T0 + 40 * DAY),
    ...over,
  };
  return { report: casesApi.CaseReport.parse(r), item };
}

function data(): CasePageData {
  const { report: r, item } = report();
  const signals = [
    item('2', 'SHARED_COMMITS', 'HISTORY'),
    item('3', 'DECLARED_UPSTREAM', 'HISTORY', { detail: `the target's README.md declares descent from "${HOSTILE_TEXT}"` }),
  ];
  return {
    report: r,
    evidence: {
      items: [r.highlights[0]!],
      nextCursor: 'abc_DEF-1',
      total: 3,
      facets: {
        layer: { CODE: 1, HISTORY: 2 },
        strength: { STRONG: 3 },
        kind: { CODE_FRAGMENT: 1, [HOSTILE_PATH]: 1 },
        language: { javascript: 1 },
      },
    },
    signals,
    filters: {},
    fragments: [
      {
        item: r.highlights[0]!,
        origin: {
          ok: true,
          value: {
            side: 'origin',
            url: r.pair.origin.url,
            commit: r.pair.origin.commit,
            path: HOSTILE_PATH,
            startLine: 1,
            lines: ['// head', 'x', HOSTILE_TEXT, 'const a = "<b>";', 'same line', 'y', 'z', 'w', 'v', 'u'],
            truncated: false,
            endOfFile: true,
            binary: false,
          },
        },
        target: {
          ok: false,
          error: { code: 'REPOSITORY_NOT_CACHED', message: "The repository is no longer in the analysis pipeline's cache." },
        },
      },
    ],
    fact: {
      projection: { ok: false, error: { code: 'FACT_NOT_FOUND', message: 'No fact has that identifier.' } },
      chain: { ok: false, error: { code: 'CHAIN_UNAVAILABLE', message: 'The chain is not available.' } },
    },
    caseApiUrl: 'http://127.0.0.1:8080/api/v1/cases/7',
  };
}

/** Every tag name in a page: only the ones this code writes may appear. */
const tags = (s: string) => new Set([...s.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1]!.toLowerCase()));

describe('html', () => {
  it('escapes interpolations, keeps nested templates, and never double-escapes', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\`</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;');
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${['<', html`<br>`]}${null}${undefined}${false}${0}</p>`.value).toBe('<p><b>&lt;i&gt;</b>&lt;<br>0</p>');
    expect(raw('<hr>').value).toBe('<hr>');
    expect(escapeHtml('a\0b\uD800c')).toBe('a\uFFFDb\uFFFDc');
  });

  it('keeps only same-site paths and http(s) URLs in links', () => {
    expect(safeHref('/cases/1')).toBe('/cases/1');
    expect(safeHref('//evil.example/x')).toBe('#');
    expect(safeHref('/\\evil.example')).toBe('#');
    expect(safeHref('javascript:alert(1)')).toBe('#');
    expect(safeHref('JaVaScRiPt:alert(1)')).toBe('#');
    expect(safeHref('data:text/html,<script>')).toBe('#');
    expect(safeHref('https://github.com/a/b')).toBe('https://github.com/a/b');
    expect(query({ a: '1', b: undefined, c: '', d: 'x&y=z' })).toBe('?a=1&d=x%26y%3Dz');
  });

  it('makes control characters and bidi overrides visible', () => {
    expect(visible('a\u202Eb\u0007c\td')).toBe('a\\u{202e}b\\u{7}c\td');
  });
});

describe('case page', () => {
  const page = casePage(data()).value;

  it('renders every repository-derived string as text', () => {
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('"><script>');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;.js');
    expect(page).toContain('&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    // The only script is the page's own external one.
    expect([...page.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
      expect.stringMatching(/^<script src="\/assets\/challenge\.js\?v=[0-9a-f]{12}" defer>$/),
    ]);
    expect(page).not.toMatch(/<[^>]*\son[a-z]+=/i); // an event handler attribute inside a tag
    expect(page).not.toMatch(/<[^>]*\sstyle=/i);
    expect(page).not.toContain('href="javascript:');
    const allowed = [
      'html',
      'head',
      'meta',
      'title',
      'link',
      'script',
      'body',
      'a',
      'header',
      'p',
      'nav',
      'ul',
      'li',
      'main',
      'article',
      'h1',
      'h2',
      'h3',
      'span',
      'strong',
      'dl',
      'dt',
      'dd',
      'code',
      'section',
      'table',
      'caption',
      'thead',
      'tr',
      'th',
      'tbody',
      'td',
      'details',
      'summary',
      'svg',
      'desc',
      'text',
      'line',
      'path',
      'circle',
      'g',
      'rect',
      'figure',
      'figcaption',
      'pre',
      'ol',
      'div',
      'form',
      'input',
      'label',
      'button',
      'textarea',
      'footer',
    ];
    for (const t of tags(page)) expect(allowed).toContain(t);
  });

  it('shows the verdict, the signals linked to their evidence, and the verify recipe', () => {
    expect(page).toContain('Declared fork</strong> with high confidence');
    expect(page).toContain('the target derives from the origin');
    expect(page).toContain('href="#evidence-2"'); // fork point → SHARED_COMMITS
    expect(page).toContain('href="#evidence-3"'); // declarations
    for (const id of ['1', '2', '3']) expect(page).toContain(`id="evidence-${id}"`);
    expect(page).toContain('npx lineage verify http://127.0.0.1:8080/api/v1/cases/7 origin.git target.git');
    expect(page).toContain('0x' + 'ab'.repeat(32));
    // Facets are links to the evidence route's filters; the next page keeps them.
    expect(page).toContain('href="/cases/7?layer=HISTORY#evidence"');
    expect(page).toContain(`href="/cases/7?${new URLSearchParams({ kind: HOSTILE_PATH }).toString()}#evidence"`);
    expect(page).toContain('href="/cases/7?cursor=abc_DEF-1#evidence"');
  });

  it('side by side: file:line on both sides, the matched range and shared lines marked, a missing cache said plainly', () => {
    expect(page).toContain(`&lt;img src=x onerror=alert(1)&gt;.js:3-9`);
    expect(page).toContain(`src/&lt;img src=x onerror=alert(1)&gt;.js:5-11`);
    expect(page).toMatch(/<span class="line in-range" data-line="3">/);
    expect(page).toMatch(/<span class="line" data-line="1">/);
    expect(page).toContain('REPOSITORY_NOT_CACHED');
    expect(page).toContain('no longer in the analysis pipeline');
    expect(page).toContain('FACT_NOT_FOUND');
  });

  it('marks lines both matched ranges hold', () => {
    const d = data();
    const o = d.fragments[0]!.origin!;
    if (!o.ok) throw new Error('fixture');
    d.fragments[0]!.target = {
      ok: true,
      value: { ...o.value, side: 'target', startLine: 3, lines: ['a', 'b', 'same line', 'c', '  x  '] },
    };
    const p = casePage(d).value;
    // `same line` is line 5 on both sides, inside both matched ranges (origin 3-9, target 5-11).
    expect(p.match(/<span class="line in-range shared" data-line="5">.*same line<\/span>/g)).toHaveLength(2);
    // `x` is in the target's range but outside the origin's: not shared.
    expect(p).toMatch(/<span class="line in-range" data-line="7">.*x {2}<\/span>/);
    expect(p).toMatch(/<span class="line" data-line="4">.*b<\/span>/);
  });
});

describe('timeline', () => {
  const { report: r } = report();
  const tl = timelineFrom(r);

  it('reads the engine chronology', () => {
    expect(tl.fork).toEqual({ commit: hex40('d'), at: T0 + 20 * DAY, after: { origin: 1, target: 2 } });
    expect(tl.sharedCommits).toBe(3);
    expect(tl.material).toEqual({ origin: 12, target: 0 });
    expect(tl.declaredBy).toBe('target');
    expect(tl.sides.origin).toEqual({
      pinned: { commit: hex40('a'), at: T0 + 35 * DAY },
      oldest: { commit: hex40('c'), at: T0 },
      walked: 4,
    });
  });

  it('places the fork point and both pinned commits on one time axis', () => {
    const svg = renderTimeline(tl).value;
    const { x } = scale(tl);
    const circle = (id: string) => {
      const m = new RegExp(`<circle class="[^"]*" id="${id}" cx="([0-9.]+)" cy="([0-9.]+)"`).exec(svg);
      if (!m) throw new Error(`no ${id}`);
      return { cx: Number(m[1]), cy: Number(m[2]) };
    };
    const fork = circle('timeline-fork');
    const o = circle('timeline-pinned-origin');
    const t = circle('timeline-pinned-target');
    expect(fork).toEqual({ cx: x(T0 + 20 * DAY), cy: GEOMETRY.lane.shared });
    expect(o).toEqual({ cx: x(T0 + 35 * DAY), cy: GEOMETRY.lane.origin });
    expect(t).toEqual({ cx: x(T0 + 30 * DAY), cy: GEOMETRY.lane.target });
    // Oldest (left edge) < fork < target's pinned < origin's pinned (right edge).
    expect(x(T0)).toBe(GEOMETRY.left);
    expect(o.cx).toBe(GEOMETRY.width - GEOMETRY.right);
    expect(fork.cx).toBeGreaterThan(GEOMETRY.left);
    expect(fork.cx).toBeLessThan(t.cx);
    expect(t.cx).toBeLessThan(o.cx);
    // One dot per commit after the fork on each side.
    expect(svg.match(/class="commit commit-origin"/g)).toHaveLength(1);
    expect(svg.match(/class="commit commit-target"/g)).toHaveLength(2);
    expect(svg).toContain('id="timeline-shared"');
    expect(svg).toContain('id="timeline-material"');
    expect(svg).toContain(day(T0));
    expect(svg).toMatch(/<desc id="timeline-desc">The histories share 3 commits up to the fork point dddddddddddd/);
  });

  it('caps the dots, and draws separate histories without a fork point', () => {
    const many: TimelineData = { ...tl, fork: { ...tl.fork!, after: { origin: 500, target: 0 } } };
    const svg = renderTimeline(many).value;
    expect(svg.match(/class="commit commit-origin"/g)).toHaveLength(GEOMETRY.maxDots);
    expect(svg).toContain('500 commits after the fork');
    const none = renderTimeline({ ...tl, fork: null, sharedCommits: null }).value;
    expect(none).not.toContain('timeline-fork');
    expect(none).not.toContain('timeline-shared');
    expect(none.match(/class="branch branch-(origin|target)"/g)).toHaveLength(2);
  });

  it('survives a case with no dates at all', () => {
    const empty = timelineFrom({
      chronology: [],
      pair: { origin: { url: 'u', commit: hex40('a'), committedAt: null }, target: { url: 'v', commit: hex40('b'), committedAt: null } },
    });
    const svg = renderTimeline(empty).value;
    expect(svg).toContain('<svg');
    expect(svg).not.toContain('NaN');
  });
});

describe('other pages', () => {
  it('the home form labels every field and posts to the pages', () => {
    const p = homePage({ authRequired: true }).value;
    for (const id of ['origin-url', 'origin-ref', 'target-url', 'target-ref', 'api-key']) {
      expect(p).toContain(`<label for="${id}">`);
      expect(p).toContain(`id="${id}"`);
    }
    expect(p).toContain('<form class="analysis-form" method="post" action="/analyses">');
    expect(p).toMatch(/<header class="site">[\s\S]*<nav aria-label="Main">[\s\S]*<main id="main">/);
  });

  it('progress, lists, search and challenge pages escape what they show', () => {
    const analysis = {
      id: '5',
      state: 'running' as const,
      pair: {
        origin: { url: `https://x.example/${HOSTILE_TEXT}`, commit: hex40('a') },
        target: { url: 'https://y.example/b', commit: hex40('b') },
      },
      engineVersion: '0.5.0',
      stages: [
        {
          name: 'fetch' as const,
          state: 'running' as const,
          startedAt: null,
          finishedAt: null,
          done: 1,
          total: 2,
          unit: 'repositories',
          attempt: 1,
        },
      ],
      caseId: null,
      manifestHash: null,
      error: null,
      createdAt: '1',
      updatedAt: '2',
    };
    const p = progressPage(analysis).value;
    expect(p).not.toContain('<script>alert');
    expect(p).toContain('1 / 2 repositories');
    expect(p).toContain('href="/analyses/5"');
    const card = {
      id: '9',
      pair: {
        origin: { url: `https://x.example/${HOSTILE_PATH}`, commit: hex40('a'), committedAt: null },
        target: { url: 'https://y.example/b', commit: hex40('b'), committedAt: null },
      },
      verdict: 'INDEPENDENT' as const,
      confidence: 'LOW' as const,
      direction: 'NONE' as const,
      manifestHash: '0x' + 'ab'.repeat(32),
      createdAt: '1',
    };
    const list = casesPage({ items: [card], nextCursor: 'n1' }, { repository: HOSTILE_TEXT, cursor: 'c0' }).value;
    expect(list).not.toContain('<img');
    expect(list).not.toContain('<script>alert');
    expect(list).toContain(`href="/cases?${new URLSearchParams({ repository: HOSTILE_TEXT }).toString()}&amp;cursor=n1"`);
    const s = searchPage(HOSTILE_TEXT, { items: [{ matchedOn: 'repository', case: card }], nextCursor: null }).value;
    expect(s).not.toContain('<script>alert');
    expect(s).not.toContain('<img');
    const prep = {
      typedData: {
        domain: { name: 'LineageRegistry', version: '1', chainId: '31337', verifyingContract: '0x' + '1'.repeat(40) },
        types: { Challenge: [{ name: 'factKey', type: 'uint256' }] },
        primaryType: 'Challenge' as const,
        message: {
          factKey: '1',
          caseId: '7',
          manifestHash: '0x' + 'ab'.repeat(32),
          evidenceDigest: '0x' + '0'.repeat(64),
          rationaleHash: '0x' + 'cd'.repeat(32),
          challenger: '0x' + '2'.repeat(40),
          nonce: '0',
          deadline: '1800000000',
        },
      },
      digest: '0x' + 'ef'.repeat(32),
      relay: { contract: '0x' + '1'.repeat(40), function: 'challengeWithSig' as const },
    };
    expect(challengePage({ id: '7' }, prep).value).toContain('&quot;primaryType&quot;: &quot;Challenge&quot;');
  });

  it('the CSP is the strict one', () => {
    expect(PAGE_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
  });
});
