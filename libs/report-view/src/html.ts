// A tiny auto-escaping HTML template: every interpolated value is escaped unless it is already `Html`
// (the output of another `html` template or of `raw` on a constant). Repository-derived strings (paths,
// URLs, file content, evidence details, commit messages) only ever reach a page through `${...}`.

export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type Interpolation = Html | string | number | boolean | null | undefined | readonly Interpolation[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Escape text for an element's content or a quoted attribute value. Lone surrogates and NUL become U+FFFD. */
export function escapeHtml(s: string): string {
  return s
    .replace(/[\0]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

function render(v: Interpolation): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup written in this code base (never data): a constant, or a number formatted here. */
export const raw = (s: string): Html => new Html(s);

/**
 * A URL for an `href`: same-site paths (`/...` but not `//...`) and http(s) URLs only; anything else
 * (`javascript:`, `data:`) becomes `#`. The result is still escaped by `html` as an attribute value.
 */
export function safeHref(url: string): string {
  if (/^\/(?![/\\])/.test(url)) return url;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : '#';
  } catch {
    return '#';
  }
}

/** A query string from defined values only, URL-encoded. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
