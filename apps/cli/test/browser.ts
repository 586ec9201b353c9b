import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (bash .ci/provision-chromium.sh installs it). */
export const CHROMIUM = '/usr/bin/chromium';
/** Screenshots land here, at the repository root, as CI's test artifacts. */
export const ARTIFACTS = path.resolve(import.meta.dirname, '../../../test-artifacts');

/**
 * A browser suite that runs where Chromium is installed and, elsewhere, is one skipped test that
 * says why and how to install it.
 */
export function describeBrowser(name: string, suite: () => void): void {
  if (!fs.existsSync(CHROMIUM)) {
    describe(name, () => {
      it(`is skipped: Chromium is not installed at ${CHROMIUM} (apt-get install chromium; CI runs bash .ci/provision-chromium.sh)`, (ctx) => {
        console.log(`[browser test] skipped: ${CHROMIUM} not found; run bash .ci/provision-chromium.sh`);
        ctx.skip();
      });
    });
    return;
  }
  describe(name, () => {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    suite();
  });
}

/** Headless, no sandbox (CI runs as root), nothing that reaches out to the network by itself. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}
