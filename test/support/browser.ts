// Headless Chromium from Debian's packages, driven by puppeteer-core: no browser download, no network of its
// own (this machine has none), a fresh profile per launch. `make test` installs chromium when it is missing
// (scripts/ensure-chromium.sh).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { ROOT } from './processes';

export const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
/** Screenshots and other artifacts of the browser tests (gitignored). */
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'pages');

export interface BrowserHandle {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<BrowserHandle> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (make test does it when run as root)`);
  const profile = mkdtempSync(join(tmpdir(), 'lineage-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir: profile,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
    ],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    browser,
    async close() {
      await browser.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** axe-core's WCAG 2 A/AA violations on the page (its rule id and the first targets of each). */
export async function axeViolations(page: Page): Promise<{ id: string; targets: string[] }[]> {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const a = (
      window as unknown as {
        axe: { run(ctx: Document, o: unknown): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const r = await a.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.map((v) => ({ id: v.id, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  });
}
