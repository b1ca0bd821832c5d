/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// The gateway's pages in a real browser (Debian's headless Chromium through puppeteer-core) against the real
// stack: a fork whose shared history holds a file named `<img src=x onerror=alert(1)>.js` with a
// `</script><script>` body, served over git's smart HTTP, analysed from the home form, followed live on the
// progress page, read on the case page (timeline, side by side, evidence, fact, wallet), with JavaScript on
// and off. No dialog may fire, no element may be injected, the CSP must hold with no violation, and axe-core
// finds no WCAG 2 A/AA violation. Screenshots go to test-artifacts/pages/.
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { recoverTypedDataAddress } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { assertDev, buildChallengeTypedData, deployDev, devAccount, startAnvil, type AnvilHandle } from '@lineage/registry';
import { buildHostileFork, HOSTILE, SCRIPT_BODY } from '../support/hostile-fork';
import { startGitServer, type GitServer } from '../support/git-http';
import { startStack, type Stack } from '../support/stack';
import { waitFor } from '../support/processes';
import { json } from '../support/http';
import { ARTIFACTS, axeViolations, launchChromium, type BrowserHandle } from '../support/browser';

jest.setTimeout(240_000);

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const challenger = devAccount(1);

let root: string;
let cache: string;
let git: GitServer;
let anvil: AnvilHandle;
let stack: Stack;
let b: BrowserHandle;
let base: string;
let analysisId: string;
let caseId: string;

interface Watched {
  page: Page;
  dialogs: string[];
  csp: string[];
  errors: string[];
}

async function openPage(opts: { js?: boolean; wallet?: boolean } = {}): Promise<Watched> {
  const page = await b.browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const w: Watched = { page, dialogs: [], csp: [], errors: [] };
  page.on('dialog', (d) => {
    w.dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/content security policy|refused to/i.test(m.text())) w.csp.push(m.text());
  });
  page.on('pageerror', (e) => w.errors.push(String(e)));
  if (opts.js === false) {
    await page.setJavaScriptEnabled(false);
    return w;
  }
  await page.evaluateOnNewDocument(() => {
    const g = window as unknown as { __csp: string[] };
    g.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => g.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  if (opts.wallet) {
    // A wallet stand-in: answers like an EIP-1193 provider; the signing itself happens in this test process with
    // anvil's public development account 1 (a well-known test key), as a real wallet would do outside the page.
    await page.exposeFunction('__walletSign', async (typedJson: string) => {
      const t = JSON.parse(typedJson) as { domain: never; message: never };
      return privateKeyToAccount(challenger.privateKey).signTypedData(buildChallengeTypedData({ domain: t.domain, message: t.message }));
    });
    await page.evaluateOnNewDocument((address: string) => {
      const g = window as unknown as { ethereum: unknown; __walletCalls: string[]; __walletSign(s: string): Promise<string> };
      g.__walletCalls = [];
      g.ethereum = {
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          g.__walletCalls.push(method);
          if (method === 'eth_requestAccounts') return [address];
          if (method === 'eth_signTypedData_v4') return g.__walletSign(String(params![1]));
          throw new Error('unsupported');
        },
      };
    }, challenger.address);
  }
  return w;
}

async function cspViolations(w: Watched): Promise<string[]> {
  const inPage = await w.page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []).catch(() => []);
  return [...w.csp, ...inPage];
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) as `${string}.png`, fullPage: true });

/** What must hold on every page: the CSP header, no dialog, no violation, no script error, no injected element. */
async function expectClean(w: Watched, res: { headers(): Record<string, string> } | null): Promise<void> {
  expect(res?.headers()['content-security-policy']).toBe(CSP);
  expect(w.dialogs).toEqual([]);
  expect(await cspViolations(w)).toEqual([]);
  expect(w.errors).toEqual([]);
  const injected = await w.page.evaluate(() => ({
    imgs: document.querySelectorAll('img').length,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length,
    inlineStyles: document.querySelectorAll('[style]').length,
    scripts: [...document.querySelectorAll('script')].map((s) => (s.getAttribute('src') ?? 'inline').replace(/\?v=[0-9a-f]+$/, '')),
  }));
  expect(injected.imgs).toBe(0);
  expect(injected.handlers).toBe(0);
  expect(injected.inlineStyles).toBe(0);
  for (const s of injected.scripts) expect(s).toMatch(/^\/assets\/[a-z-]+\.js$/);
}

async function landmarks(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => ({
    header: document.querySelectorAll('body > header').length,
    nav: document.querySelectorAll('nav').length,
    main: document.querySelectorAll('main').length,
    unlabelled: [...document.querySelectorAll('input:not([type=hidden]), select, textarea')].filter(
      (e) => !(e as HTMLInputElement).labels?.length,
    ).length,
  }));
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lineage-pages-repos-'));
  cache = mkdtempSync(join(tmpdir(), 'lineage-pages-cache-'));
  buildHostileFork(root);
  git = await startGitServer(root);
  anvil = await startAnvil({ slotsInAnEpoch: 1 });
  const registry = await deployDev(anvil.rpcUrl);
  stack = await startStack({
    extraEnv: {
      'analysis-pipeline': {
        LINEAGE_REPO_ALLOWED_HOSTS: `http://127.0.0.1:${git.port}`,
        LINEAGE_REPO_ALLOW_PRIVATE_ADDRESSES: 'true',
        REPO_CACHE_DIR: cache,
        WORKER_THREADS: '1',
      },
      'chain-reader': {
        RPC_URL: anvil.rpcUrl,
        REGISTRY_ADDRESS: registry.address,
        REGISTRY_DEPLOYED_BLOCK: String(registry.deployedBlock),
      },
    },
  });
  base = `http://127.0.0.1:${stack.ports.gateway}`;
  (globalThis as { __registry?: string }).__registry = registry.address;
  b = await launchChromium();
}, 180_000);

afterAll(async () => {
  await b?.close();
  await stack?.stop();
  await anvil?.stop();
  await git?.stop();
  rmSync(root, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
}, 60_000);

it('the home form starts an analysis; its page follows the stages live and links the case', async () => {
  const w = await openPage();
  const res = await w.page.goto(`${base}/`);
  expect(res?.status()).toBe(200);
  await expectClean(w, res);
  expect(await landmarks(w.page)).toEqual({ header: 1, nav: 1, main: 1, unlabelled: 0 });
  expect(await axeViolations(w.page)).toEqual([]);
  await shot(w.page, 'home');
  await w.page.type('#origin-url', `${git.url}/hostile/origin.git`);
  await w.page.type('#target-url', `${git.url}/hostile/target.git`);
  await w.page.type('#target-ref', 'main');
  const [nav] = await Promise.all([w.page.waitForNavigation(), w.page.click('.analysis-form button[type=submit]')]);
  expect(nav?.status()).toBe(200);
  const m = /\/analyses\/(\d+)$/.exec(w.page.url());
  expect(m).not.toBeNull();
  analysisId = m![1]!;
  expect(await w.page.$$eval('table.stages tbody tr', (rows) => rows.length)).toBe(9);
  // Updated in place by /assets/progress.js from GET /api/v1/analyses/{id}: no reload.
  await w.page.waitForSelector('#case-link', { timeout: 180_000 });
  expect(await w.page.$eval('#analysis-state', (e) => e.textContent)).toBe('completed');
  expect(await w.page.$$eval('table.stages td.stage-state', (cells) => cells.map((c) => c.textContent))).toEqual(Array(9).fill('done'));
  caseId = /\/cases\/(\d+)$/.exec(await w.page.$eval('#case-link', (a) => (a as HTMLAnchorElement).href))![1]!;
  await expectClean(w, nav);
  expect(await axeViolations(w.page)).toEqual([]);
  await shot(w.page, 'progress');
  await w.page.close();
});

it('the case page: verdict, signals linked to evidence, the timeline with its fork point, hostile names as text', async () => {
  // Assert the case's fact on the local chain (anvil's development account 0), as `make demo` does.
  const report = (await json(await fetch(`${base}/api/v1/cases/${caseId}`))).case;
  const contract = await json(await fetch(`${base}/api/v1/chain/contract`));
  const asserted = await assertDev({
    rpcUrl: anvil.rpcUrl,
    address: contract.address,
    pair: {
      originUrl: report.pair.origin.url,
      originCommit: report.pair.origin.commit,
      targetUrl: report.pair.target.url,
      targetCommit: report.pair.target.commit,
    },
    outcome: 'TRUE',
    manifestHash: report.manifestHash,
  });
  await waitFor(
    'the fact indexed',
    async () => {
      const f = await fetch(`${base}/api/v1/facts/${asserted.factKey}`);
      return f.status === 200 && (await json(f)).fact.latest !== null;
    },
    30_000,
    300,
  );

  const w = await openPage();
  const res = await w.page.goto(`${base}/cases/${caseId}`);
  expect(res?.status()).toBe(200);
  await expectClean(w, res);
  const seen = await w.page.evaluate((hostile) => {
    const text = (sel: string) => document.querySelector(sel)?.textContent ?? '';
    const views = [...document.querySelectorAll('.pair-view')];
    const both = views.find(
      (v) =>
        v.querySelector('.code-origin figcaption')?.textContent?.includes(hostile) &&
        v.querySelector('.code-target figcaption')?.textContent?.includes(hostile),
    );
    const signalLinks = [...document.querySelectorAll('#signals a[href^="#evidence-"]')].map((a) => a.getAttribute('href')!);
    return {
      title: text('#case-title'),
      verdictLine: text('.verdict-line'),
      fork: !!document.querySelector('svg.timeline #timeline-fork'),
      forkTitle: document.querySelector('svg.timeline #timeline-fork title')?.textContent ?? '',
      pinned: document.querySelectorAll('svg.timeline .pinned').length,
      afterDots: {
        origin: document.querySelectorAll('svg.timeline .commit-origin').length,
        target: document.querySelectorAll('svg.timeline .commit-target').length,
      },
      sideBySide: !!both,
      originCode: both?.querySelector('.code-origin pre code')?.textContent ?? '',
      targetCode: both?.querySelector('.code-target pre code')?.textContent ?? '',
      sharedLines: both?.querySelectorAll('.line.shared').length ?? 0,
      signalLinks,
      dangling: signalLinks.filter((h) => !document.getElementById(h.slice(1))),
      hash: text('#manifest-hash'),
      recipe: text('pre.recipe'),
      fact: text('#fact'),
    };
  }, HOSTILE);
  expect(seen.title).toMatch(new RegExp(`^Case ${caseId}: `));
  expect(seen.verdictLine).toMatch(/with (high|medium|low) confidence/);
  expect(seen.verdictLine).toContain('Direction: the target derives from the origin');
  expect(seen.fork).toBe(true);
  expect(seen.forkTitle).toMatch(/^Fork point [0-9a-f]{12}, 2020-10-03/);
  expect(seen.pinned).toBe(2);
  expect(seen.afterDots).toEqual({ origin: 1, target: 2 });
  expect(seen.sideBySide).toBe(true);
  expect(seen.originCode).toContain(SCRIPT_BODY);
  expect(seen.targetCode).toContain(SCRIPT_BODY);
  expect(seen.sharedLines).toBeGreaterThan(0);
  expect(seen.signalLinks.length).toBeGreaterThan(0);
  expect(seen.dangling).toEqual([]);
  expect(seen.hash).toBe(report.manifestHash);
  expect(seen.recipe).toContain(`npx lineage verify ${base}/api/v1/cases/${caseId} origin.git target.git`);
  expect(seen.fact).toContain(asserted.factKey.toString());
  expect(seen.fact).toMatch(/TRUE\s*ASSERTED/);
  expect(await landmarks(w.page)).toMatchObject({ header: 1, main: 1, unlabelled: 0 });
  expect((await landmarks(w.page)).nav).toBeGreaterThanOrEqual(2); // the site's and the page's table of contents
  expect(await axeViolations(w.page)).toEqual([]);
  await shot(w.page, 'case');
  await w.page.screenshot({ path: join(ARTIFACTS, 'case-top.png') as `${string}.png` });
  for (const [sel, name] of [
    ['#timeline', 'case-timeline'],
    ['#fragment-1', 'case-side-by-side'],
    ['#signals', 'case-signals'],
  ] as const) {
    await (await w.page.$(sel))!.screenshot({ path: join(ARTIFACTS, `${name}.png`) as `${string}.png` });
  }

  // A facet is a link to the evidence route's filter of the same name.
  await Promise.all([w.page.waitForNavigation(), w.page.click('.facet a[href*="layer=HISTORY"]')]);
  expect(w.page.url()).toContain('layer=HISTORY');
  const layers = await w.page.$$eval('ol.evidence-list:not(.referenced) .layer', (es) => [...new Set(es.map((e) => e.textContent))]);
  expect(layers).toEqual(['HISTORY']);
  await w.page.close();
});

it('the wallet button prepares the challenge and asks the wallet to sign it; the page holds no key', async () => {
  const w = await openPage({ wallet: true });
  const res = await w.page.goto(`${base}/cases/${caseId}#fact`);
  await w.page.waitForSelector('#wallet-sign:not([hidden])');
  await w.page.type('#challenger', challenger.address);
  await w.page.type('#rationale', 'The shared file came from a third project.');
  await w.page.click('#wallet-sign');
  await w.page.waitForFunction(() => /Signed\./.test(document.getElementById('challenge-output')?.textContent ?? ''), { timeout: 20_000 });
  const out = JSON.parse(await w.page.$eval('#challenge-output pre code', (e) => e.textContent ?? '')) as {
    signature: `0x${string}`;
    message: never;
    digest: string;
  };
  expect(await w.page.evaluate(() => (window as unknown as { __walletCalls: string[] }).__walletCalls)).toEqual([
    'eth_requestAccounts',
    'eth_signTypedData_v4',
  ]);
  const prep = buildChallengeTypedData({
    domain: {
      name: 'LineageRegistry',
      version: '1',
      chainId: '31337',
      verifyingContract: (globalThis as { __registry?: string }).__registry as never,
    },
    message: out.message,
  });
  expect(await recoverTypedDataAddress({ ...prep, signature: out.signature })).toBe(challenger.address);
  await expectClean(w, res);
  await shot(w.page, 'case-challenge');
  await w.page.close();
});

it('works with JavaScript off: the case, the progress page, the challenge payload', async () => {
  const w = await openPage({ js: false });
  let res = await w.page.goto(`${base}/cases/${caseId}`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toBe(CSP);
  expect(await w.page.$('svg.timeline #timeline-fork')).not.toBeNull();
  expect(await w.page.$$eval('.pair-view figure.code', (f) => f.length)).toBeGreaterThanOrEqual(2);
  expect(await w.page.$eval('#wallet-sign', (e) => (e as HTMLButtonElement).hidden)).toBe(true);
  await shot(w.page, 'case-nojs');
  await w.page.type('#challenger', challenger.address);
  await w.page.type('#rationale', 'The shared file came from a third project.');
  const [posted] = await Promise.all([w.page.waitForNavigation(), w.page.click('#challenge-prepare')]);
  expect(posted?.status()).toBe(200);
  const payload = JSON.parse(await w.page.$eval('#challenge-payload', (e) => e.textContent ?? ''));
  expect(payload).toMatchObject({ primaryType: 'Challenge', message: { caseId, challenger: challenger.address } });
  res = await w.page.goto(`${base}/analyses/${analysisId}`);
  expect(await w.page.$eval('#analysis-state', (e) => e.textContent)).toBe('completed');
  expect(await w.page.$eval('#case-link', (a) => a.getAttribute('href'))).toBe(`/cases/${caseId}`);
  expect(await w.page.$eval('#refresh-link', (a) => a.getAttribute('href'))).toBe(`/analyses/${analysisId}`);
  for (const path of ['/cases', `/search?q=${encodeURIComponent('hostile')}`]) {
    res = await w.page.goto(`${base}${path}`);
    expect(res?.status()).toBe(200);
    expect(await w.page.$$eval(`a[href="/cases/${caseId}"]`, (a) => a.length)).toBeGreaterThan(0);
  }
  await shot(w.page, 'cases-nojs');
  expect(w.dialogs).toEqual([]);
  await w.page.close();
});

it("cases and search page with the API's cursors", async () => {
  const w = await openPage();
  const res = await w.page.goto(`${base}/cases?limit=1`);
  await expectClean(w, res);
  expect(await w.page.$$eval('table.cases tbody tr', (r) => r.length)).toBe(1);
  expect(await axeViolations(w.page)).toEqual([]);
  const s = await w.page.goto(`${base}/search?q=${encodeURIComponent(SCRIPT_BODY)}`);
  expect(s?.status()).toBe(200);
  await expectClean(w, s);
  expect(await w.page.$eval('#search-q', (e) => (e as HTMLInputElement).value)).toBe(SCRIPT_BODY);
  await w.page.close();
});

it("errors are pages with the API's codes and statuses, and never echo the input", async () => {
  const cases: [string, number, string][] = [
    ['/cases/999999', 404, 'CASE_NOT_FOUND'],
    ['/analyses/999999', 404, 'ANALYSIS_NOT_FOUND'],
    ['/cases/12abc', 400, 'VALIDATION_FAILED'],
    [`/cases/${'1'}?layer=${encodeURIComponent('<script>x</script>')}`, 400, 'VALIDATION_FAILED'],
    [`/cases?${encodeURIComponent('<b>')}=1`, 400, 'VALIDATION_FAILED'],
    ['/search?q=%00', 400, 'VALIDATION_FAILED'],
    ['/assets/nope.js', 404, 'NOT_FOUND'],
  ];
  for (const [path, status, code] of cases) {
    const res = await fetch(`${base}${path}`);
    expect([path, res.status]).toEqual([path, status]);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CSP);
    const body = await res.text();
    expect(body).toContain(`<code class="error-code">${code}</code>`);
    expect(body).not.toMatch(/<script>|<b>|at \w+ \(|node_modules/);
  }
  const foreign = await fetch(`${base}/analyses`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    body: 'origin_url=x&target_url=y',
    redirect: 'manual',
  });
  expect(foreign.status).toBe(403);
  const bad = await fetch(`${base}/analyses`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `origin_url=${encodeURIComponent('<script>')}&target_url=`,
    redirect: 'manual',
  });
  expect(bad.status).toBe(400);
  expect(await bad.text()).not.toContain('<script>');
  // Static files: their content types, long caching for the version the pages link.
  const page = await (await fetch(`${base}/`)).text();
  const css = /href="(\/assets\/pages\.css\?v=[0-9a-f]{12})"/.exec(page)![1]!;
  const r = await fetch(`${base}${css}`);
  expect(r.headers.get('content-type')).toBe('text/css; charset=utf-8');
  expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect((await fetch(`${base}/assets/progress.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
});

it('a repository no longer cached is said plainly; a service that is down is a 503 page', async () => {
  for (const e of readdirSync(cache)) rmSync(join(cache, e), { recursive: true, force: true });
  const w = await openPage();
  const res = await w.page.goto(`${base}/cases/${caseId}`);
  expect(res?.status()).toBe(200);
  const errors = await w.page.$$eval('.fragment-error .error-code', (es) => [...new Set(es.map((e) => e.textContent))]);
  expect(errors).toEqual(['REPOSITORY_NOT_CACHED']);
  await expectClean(w, res);
  await w.page.close();

  await stack.procs['case-store'].stop();
  const down = await fetch(`${base}/cases/${caseId}`);
  expect(down.status).toBe(503);
  expect(await down.text()).toContain('<code class="error-code">SERVICE_UNAVAILABLE</code>');
});
