// Headless Chromium from Debian's packages, driven by puppeteer-core: no browser download, no network of its
// own (this machine has none), a fresh profile per launch. `make test` installs chromium when it is missing
// (scripts/ensure-chromium.sh).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
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
