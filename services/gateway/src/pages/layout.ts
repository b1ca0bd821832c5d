import type { Response } from 'express';
import { ERROR_STATUS, type ErrorCode } from '@lineage/schemas';
import { requestIdOf, toWireError, loggerOf } from '@lineage/service-kit';
import { html, type Html, type Interpolation } from '@lineage/report-view';
import { ASSET_VERSION } from './assets';

/** Every page's Content-Security-Policy: no inline script or style, nothing from elsewhere. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export interface PageOptions {
  title: string;
  /** Which navigation entry is the current page. */
  nav?: 'home' | 'cases' | 'search';
  /** External scripts under /assets (file names only). */
  scripts?: string[];
  body: Interpolation;
}

const NAV: { key: PageOptions['nav']; href: string; label: string }[] = [
  { key: 'home', href: '/', label: 'New analysis' },
  { key: 'cases', href: '/cases', label: 'Cases' },
  { key: 'search', href: '/search', label: 'Search' },
];

export function layout(o: PageOptions): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${o.title} · Lineage</title>
<link rel="stylesheet" href="/assets/pages.css?v=${ASSET_VERSION}">
${(o.scripts ?? []).map((s) => html`<script src="/assets/${s}?v=${ASSET_VERSION}" defer></script>\n`)}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<p class="brand"><a href="/">Lineage</a></p>
<nav aria-label="Main">
<ul>
${NAV.map((n) => html`<li><a href="${n.href}"${n.key === o.nav ? html` aria-current="page"` : ''}>${n.label}</a></li>\n`)}</ul>
</nav>
</header>
<main id="main">
${o.body}
</main>
<footer class="site">
<p>Lineage compares two git repositories pinned at exact commits. A technical comparison: it draws no conclusion about licences or rights. <a href="/api/v1/openapi.json">API</a></p>
</footer>
</body>
</html>
`;
}

/** Send a page with the page headers: CSP, no caching of data that changes, HTML content type. */
export function sendPage(res: Response, status: number, page: Html): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', PAGE_CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.send(page.value);
}

const TITLES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: 'That request is not valid',
  NOT_FOUND: 'Nothing here',
  CASE_NOT_FOUND: 'No such case',
  ANALYSIS_NOT_FOUND: 'No such analysis',
  RATE_LIMITED: 'Too many requests',
  SERVICE_UNAVAILABLE: 'A service is unavailable',
  UPSTREAM_TIMEOUT: 'A service did not answer in time',
  INTERNAL: 'Something went wrong',
};

/**
 * An error as a page: the API's stable code and status, its fixed message (never the caller's input), the
 * field paths and issue names of a validation failure, and the request id. Never a stack trace.
 */
export function sendErrorPage(res: Response, err: unknown): void {
  const { wire, internal } = toWireError(err);
  if (internal) loggerOf(res).error({ err }, 'unhandled error');
  else if (wire.code === 'SERVICE_UNAVAILABLE' || wire.code === 'UPSTREAM_TIMEOUT')
    loggerOf(res).warn({ code: wire.code }, 'upstream problem');
  const headers = (err as { headers?: Record<string, string> }).headers;
  if (headers?.['Retry-After']) res.setHeader('Retry-After', headers['Retry-After']);
  const status = ERROR_STATUS[wire.code];
  const body = html`<section class="error" aria-labelledby="error-title">
<h1 id="error-title">${TITLES[wire.code] ?? 'The request could not be completed'}</h1>
<p class="error-message">${wire.message}</p>
${wire.fields?.length ? html`<ul class="fields">${wire.fields.map((f) => html`<li><code>${f.path}</code>: ${f.issue}</li>`)}</ul>` : ''}
<dl class="meta">
<dt>Status</dt><dd>${status}</dd>
<dt>Code</dt><dd><code class="error-code">${wire.code}</code></dd>
<dt>Request id</dt><dd><code>${requestIdOf(res)}</code></dd>
</dl>
<p><a href="/">Start a new analysis</a> · <a href="/cases">Browse cases</a></p>
</section>`;
  sendPage(res, status, layout({ title: TITLES[wire.code] ?? 'Error', body }));
}
