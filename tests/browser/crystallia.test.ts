import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, startHarness, type Harness } from '../helpers/harness.ts';
import { load, whoseTurn } from '../games/crystallia/driver.ts';
import { contentWidth, launchBrowser, openPage, PHONE, runBrowserTests, screenshot, warmUp } from './browser.ts';

/**
 * Crystallia's picture in the playground, on a phone-sized page (390 px): the board message shows
 * it as an image that fills the message column, and a whole turn is played in the page (Take your
 * turn, the stone and square menus, a direction, the preview picture, Confirm), after which the
 * board's picture is replaced.
 */
let h: Harness;
let browser: Browser;

beforeAll(async () => {
  if (!runBrowserTests) return;
  h = await startHarness();
  [browser] = await Promise.all([launchBrowser(), warmUp(h)]);
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const natural = (img: Locator) => img.evaluate((el) => (el as unknown as { complete: boolean; naturalWidth: number }).complete ? (el as unknown as { naturalWidth: number }).naturalWidth : 0);

async function choose(panel: Locator, page: Page, menu: number): Promise<void> {
  await panel.locator('.select-face').nth(menu).click();
  await page.getByRole('option').first().click();
}

describe.skipIf(!runBrowserTests)('the playground shows Crystallia\'s picture, on a phone', () => {
  it('the board picture fills the message column, and a whole turn is played in the page', async () => {
    const c = await h.api.command({ user: 'alice', channel: 'general', name: 'crystallia', options: { subcommand: 'join', opponent: 'bob' } });
    const cm = c.response!.message!;
    await h.api.click('bob', cm.id, buttons(cm).find((b) => b.label === 'Accept')!.custom_id!);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia' } })).id;
    const who = (await whoseTurn(h, gameId))!;
    const page = await openPage(browser, h.emulator.url, { viewport: PHONE, query: `?as=${who}&channel=general` });
    const board = page.locator(`#message-list .msg[data-id="${cm.id}"]`);
    const img = board.locator('.attachment-image img');
    await expect.poll(() => natural(img)).toBe(720);
    const box = (await img.boundingBox())!;
    // As wide as a phone's message column allows (about 330 px of 390): readable, never cut.
    expect(box.width).toBeGreaterThan(300);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await contentWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await img.scrollIntoViewIfNeeded();
    await screenshot(page, 'crystallia-board-phone');
    const before = await img.getAttribute('src');

    // Take your turn: the panel is ephemeral, for this player only.
    await board.getByRole('button', { name: 'Take your turn' }).click();
    const panel = page.locator('#message-list .msg.msg-ephemeral').last();
    await panel.getByText(/Your turn|Your second turn/).waitFor();
    await choose(panel, page, 0);
    await panel.getByText(/Where does its first half/).waitFor();
    await choose(panel, page, 0);
    await panel.getByText(/first half on \*?\*?[A-F]\d/).waitFor().catch(() => panel.getByText(/Where does the second half/).waitFor());
    await panel.locator('button:not([disabled])', { hasText: /^[→↓←↑]/ }).first().click();
    for (let k = 0; k < 6; k++) {
      const confirm = panel.getByRole('button', { name: 'Confirm' });
      if (await confirm.isVisible().catch(() => false)) break;
      const skip = panel.getByRole('button', { name: /^Skip / });
      const colour = panel.locator('button', { hasText: /^(🟥|🟦|🟩|🟪)/ });
      if (await skip.isVisible().catch(() => false)) await skip.click();
      else if (await colour.first().isVisible().catch(() => false)) await colour.first().click();
      await page.waitForTimeout(200);
    }
    await panel.getByText('Preview, not played yet').waitFor();
    const preview = panel.locator('.attachment-image img');
    await expect.poll(() => natural(preview)).toBe(720);
    await preview.scrollIntoViewIfNeeded();
    await screenshot(page, 'crystallia-preview-phone');
    const version = (await load(h, gameId)).game.version;
    await panel.getByRole('button', { name: 'Confirm' }).click();
    await panel.getByText(/✅ Played in Crystallia/).waitFor();
    await h.settle();
    expect((await load(h, gameId)).game.version).toBeGreaterThan(version);
    // The board's picture was replaced by the new one.
    await expect.poll(() => img.getAttribute('src')).not.toBe(before);
    await expect.poll(() => natural(img)).toBe(720);
    expect(page.errors).toEqual([]);
    await page.context().close();
  }, 120_000);
});
