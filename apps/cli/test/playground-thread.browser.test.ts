/**
 * The pretend server seen in a real browser: open the thread in #general, "Save thread to brain"
 * on one of its messages, ask in #general about something said in its middle, and open the
 * citation: the page switches to the thread and scrolls to that message. Screenshots go to
 * test-artifacts/playground-thread-*.png.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PRETEND_THREAD } from '@brain/discord';
import { describeBrowser, launchChromium, shot } from './browser.ts';
import { startEmbeddedPlayground, type EmbeddedPlayground } from './embedded-playground.ts';

describeBrowser('the playground’s pretend server in a real browser', () => {
  let browser: Browser;
  let playground: EmbeddedPlayground;
  let page: Page;

  beforeAll(async () => {
    playground = await startEmbeddedPlayground('brain-pretend-browser-');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  });

  it('saves the thread, answers from its middle, and the citation opens that message', async () => {
    await page.goto(`${playground.web.url}/playground`);
    await page.click(`a[data-channel="${PRETEND_THREAD.id}"]`);
    const anyMessage = page.locator('.message[data-author="member"]').nth(5);
    await anyMessage.hover();
    await anyMessage.getByRole('button', { name: 'Apps ▸ Save thread to brain' }).click();
    await page.getByText(/Saved .*Moving staging to the new cluster/).waitFor({ timeout: 60_000 });
    await shot(page, 'playground-thread-saved');

    await page.click('a[data-channel="100000000000000002"]');
    await page.fill('#input', '/ask question: Which port does the new staging load balancer listen on?');
    await page.keyboard.press('Escape');
    await page.press('#input', 'Enter');
    const citation = page.locator(`a.jump[data-jump-message="${PRETEND_THREAD.factMessageId}"]`).first();
    await citation.waitFor({ timeout: 60_000 });
    expect(await page.locator('.message[data-author="bot"]').last().textContent()).toContain('8443');
    await shot(page, 'playground-thread-answer');

    await citation.click();
    const target = page.locator(`#m-${PRETEND_THREAD.factMessageId}`);
    await target.waitFor();
    expect(await page.locator('.chat-title').textContent()).toBe('Moving staging to the new cluster');
    expect(await target.getAttribute('class')).toContain('jumped');
    expect(await target.isVisible()).toBe(true);
    const [box, list] = [await target.boundingBox(), await page.locator('#messages').boundingBox()];
    const inView = box !== null && list !== null && box.y >= list.y && box.y + box.height <= list.y + list.height;
    expect(inView).toBe(true);
    await shot(page, 'playground-thread-jumped');

    await page.click('a[data-channel="100000000000000010"]');
    await page.locator('.forum-post').first().waitFor();
    await shot(page, 'playground-thread-forum');
  }, 180_000);
});
