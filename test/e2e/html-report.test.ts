/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The CLI's offline HTML report (`lineage analyze … --html`, `lineage verify … --html`) opened from disk in Debian's
// headless Chromium with every network request refused: a real shared pair (jwt-go and its golang-jwt fork, from the
// shared development set) shows its timeline with the fork point and code side by side; a fork whose shared file is
// named `<img src=x onerror=alert(1)>.js` with a `</script><script>` body shows them as text. No request, dialog,
// script error or injected element; axe-core finds no WCAG 2 A/AA violation. Screenshots go to test-artifacts/pages/.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { manifestHash } from '@lineage/engine';
import { realReposDir } from '../fixtures/real-repos-dir';
import { ARTIFACTS, axeViolations, launchChromium, type BrowserHandle } from '../support/browser';
import { buildHostileFork, HOSTILE, SCRIPT_BODY } from '../support/hostile-fork';
import { cloneBundle, sharedPairs } from '../support/pairs';
import { ROOT } from '../support/processes';

jest.setTimeout(240_000);

const BIN = join(ROOT, 'libs', 'engine', 'bin', 'lineage.js');
const base = mkdtempSync(join(tmpdir(), 'lineage-html-report-'));
let b: BrowserHandle;
const lineage = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

beforeAll(async () => {
  b = await launchChromium();
});
afterAll(async () => {
  await b?.close();
  rmSync(base, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  requests: string[];
  dialogs: string[];
  errors: string[];
}

/** The file as a reader opens it, offline: every request the page makes is refused and recorded. */
async function open(file: string): Promise<Opened> {
  const page = await b.browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const o: Opened = { page, requests: [], dialogs: [], errors: [] };
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    if (r.url() === `file://${file}`) return void r.continue();
    o.requests.push(r.url());
    void r.abort();
  });
  page.on('dialog', (d) => {
    o.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') o.errors.push(m.text());
  });
  page.on('pageerror', (e) => o.errors.push(String(e)));
  await page.goto(`file://${file}`, { waitUntil: 'load' });
  return o;
}

/** Nothing fetched, no dialog, no error, and no element the data could have injected. */
async function expectClean(o: Opened): Promise<void> {
  expect(o.requests).toEqual([]);
  expect(o.dialogs).toEqual([]);
  expect(o.errors).toEqual([]);
  const injected = await o.page.evaluate(() => ({
    imgs: document.querySelectorAll('img').length,
    scripts: document.querySelectorAll('script').length,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length,
  }));
  expect(injected).toEqual({ imgs: 0, scripts: 0, handlers: 0 });
  expect(await axeViolations(o.page)).toEqual([]);
}

test('a real shared pair: verdict, timeline with its fork point, code side by side, the manifest hash', async () => {
  const dir = realReposDir();
  const pair = sharedPairs(dir).find((p) => p.name === 'jwt-fork')!;
  const origin = join(base, 'jwt', 'origin.git');
  const target = join(base, 'jwt', 'target.git');
  cloneBundle(join(dir, `${pair.origin.replace('/', '+')}.bundle`), origin);
  cloneBundle(join(dir, `${pair.target.replace('/', '+')}.bundle`), target);
  const file = join(base, 'jwt.html');
  const manifest = join(base, 'jwt.json');
  const r = lineage([
    'analyze',
    origin,
    target,
    '--origin-ref',
    pair.originCommit,
    '--target-ref',
    pair.targetCommit,
    '--html',
    file,
    '--manifest',
    manifest,
    '--quiet',
  ]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);

  const o = await open(file);
  await o.page.screenshot({ path: join(ARTIFACTS, 'html-report-jwt.png') as `${string}.png` });
  const seen = await o.page.evaluate(() => ({
    title: document.querySelector('#case-title')?.textContent ?? '',
    timeline: document.querySelectorAll('#timeline svg.timeline').length,
    fork: document.querySelectorAll('#timeline-fork').length,
    panes: document.querySelectorAll('#side-by-side figure.code pre code').length,
    lines: document.querySelectorAll('#side-by-side .line.in-range').length,
    evidence: document.querySelectorAll('#evidence .evidence').length,
    signalLinks: [...document.querySelectorAll('#signals .signal-evidence a')].map((a) => a.getAttribute('href') ?? ''),
    hash: document.querySelector('#manifest-hash')?.textContent ?? '',
  }));
  expect(seen.title).toMatch(/^Lineage report: (Declared fork|Heavily derived|Likely derived)$/);
  expect(seen.timeline).toBe(1);
  expect(seen.fork).toBe(1);
  expect(seen.panes).toBeGreaterThanOrEqual(2);
  expect(seen.lines).toBeGreaterThan(0);
  expect(seen.evidence).toBeGreaterThan(0);
  expect(seen.signalLinks.length).toBeGreaterThan(0);
  // Every signal links to an item listed on the page.
  for (const href of seen.signalLinks) expect(await o.page.$(href)).not.toBeNull();
  expect(seen.hash).toBe(manifestHash(readFileSync(manifest)));
  await expectClean(o);
  await o.page.close();

  // verify --html writes the report of the manifest it was given, and says identical.
  const again = join(base, 'jwt-verify.html');
  const v = lineage(['verify', manifest, origin, target, '--html', again]);
  expect(v.status).toBe(0);
  expect(v.stdout).toMatch(/^identical: /);
  expect(readFileSync(again, 'utf8')).toContain(seen.hash);
});

test('hostile names and contents are text: the file name, a </script> body, markup in code', async () => {
  const { origin, target } = buildHostileFork(base);
  const file = join(base, 'hostile.html');
  const r = lineage(['analyze', origin, target, '--html', file, '--quiet']);
  expect(r.status).toBe(0);
  const raw = readFileSync(file, 'utf8');
  expect(raw).not.toContain(HOSTILE);
  expect(raw).not.toContain(SCRIPT_BODY);

  const o = await open(file);
  await o.page.screenshot({ path: join(ARTIFACTS, 'html-report-hostile.png') as `${string}.png`, fullPage: true });
  const seen = await o.page.evaluate(() => ({
    locs: [...document.querySelectorAll('#side-by-side figcaption code.loc')].map((e) => e.textContent ?? ''),
    code: [...document.querySelectorAll('#side-by-side pre code')].map((e) => e.textContent ?? '').join('\n'),
  }));
  expect(seen.locs.some((l) => l.startsWith(HOSTILE))).toBe(true);
  expect(seen.code).toContain(SCRIPT_BODY);
  await expectClean(o);
  await o.page.close();
});
