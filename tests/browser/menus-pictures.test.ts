import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, seedSequence, startHarness, type Harness } from '../helpers/harness.ts';
import { load, whoseTurn } from '../games/crystallia/driver.ts';
import { closeContexts, DESKTOP, menuOptionsOutOfSight, message, openPage, opensPanel, PHONE, runBrowserTests, screenshot, sharedBrowser, warmUp } from './browser.ts';
import { WIDTH } from '../../src/games/crystallia/render.ts';

/**
 * Issue 23, points 14 and 15, where players met them: Crystallia's stone menu and Keystone's card
 * menu sit in the panel at the bottom of the page, right above the message box, and opened downward
 * under it, cut off (on a phone most stones could not be reached); and a tap on Crystallia's board
 * did nothing, so a phone player could not read it. Both at desktop and phone sizes.
 */
let h: Harness;
let browser: Browser;
const SIZES = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

beforeAll(async () => {
  if (!runBrowserTests) return;
  // Fixed seeds: the practice game's deal and the autopilot's leads are the same on every run, so
  // Carol's card menu holds several cards (a random deal could leave her one card to follow suit with).
  h = await startHarness({ seeds: seedSequence('menus-pictures') });
  [browser] = await Promise.all([sharedBrowser(), warmUp(h)]);
});
afterAll(async () => {
  await closeContexts(browser);
  await h?.close();
});

const natural = (img: Locator) => img.evaluate((el) => ((el as unknown as { complete: boolean }).complete ? (el as unknown as { naturalWidth: number }).naturalWidth : 0));

/** Opens the menu `select` (a `.select` in a panel) and checks that every option can be seen and tapped. */
async function openedInSight(page: Page, select: Locator, shot: string): Promise<void> {
  await select.locator('.select-face').click();
  const menu = select.getByRole('listbox');
  await menu.waitFor();
  const face = (await select.locator('.select-face').boundingBox())!;
  const box = (await menu.boundingBox())!;
  // The panel is the last message: there is no room below, so the menu opens above its face.
  expect(box.y + box.height).toBeLessThanOrEqual(face.y + 0.5);
  expect(await menu.getByRole('option').count()).toBeGreaterThan(1);
  await screenshot(page, shot);
  expect(await menuOptionsOutOfSight(page, menu)).toEqual([]);
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
}

describe.skipIf(!runBrowserTests)('menus at the bottom of the page and pictures, in real games', () => {
  it('Crystallia: the stone menu opens upward with every stone in reach; a tap on the board opens it full size', async () => {
    const challenge = await h.api.command({ user: 'alice', channel: 'general', name: 'crystallia', options: { subcommand: 'join', opponent: 'bob' } });
    const cm = challenge.response!.message!;
    await h.api.click('bob', cm.id, buttons(cm).find((b) => b.label === 'Accept')!.custom_id!);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia' } })).id;
    const boardId = (await load(h, gameId)).game.boardMessageId!;
    const who = (await whoseTurn(h, gameId))!;
    for (const [size, viewport] of SIZES) {
      const page = await openPage(browser, h.emulator.url, { query: `?as=${who}&channel=general`, viewport });
      const board = page.locator(`#message-list .msg[data-id="${boardId}"]`);
      const panel = await opensPanel(page, () => board.getByRole('button', { name: 'Take your turn' }).click());
      await openedInSight(page, panel.locator('.select[data-cid^="cr:stone:"]'), `crystallia-stone-menu-${size}`);

      // The board's picture, full size: fitted to the screen, then at its own width (the renderer's WIDTH px).
      const picture = board.locator('.attachment-image img');
      await expect.poll(() => natural(picture), { timeout: 10_000 }).toBe(WIDTH);
      const shown = (await picture.boundingBox())!.width;
      await picture.click();
      const lightbox = page.getByRole('dialog', { name: /^Picture/ });
      await lightbox.waitFor();
      const full = lightbox.getByRole('img');
      const fitted = (await full.boundingBox())!;
      expect(fitted.x + fitted.width).toBeLessThanOrEqual(viewport.width);
      expect(fitted.y + fitted.height).toBeLessThanOrEqual(viewport.height);
      expect(fitted.width).toBeGreaterThanOrEqual(shown - 1);
      await screenshot(page, `crystallia-lightbox-${size}`);
      if (fitted.width < WIDTH) {
        await full.click();
        await expect.poll(async () => Math.round((await full.boundingBox())!.width)).toBe(WIDTH);
        await screenshot(page, `crystallia-lightbox-zoomed-${size}`);
      }
      await lightbox.getByRole('button', { name: 'Close' }).click();
      await lightbox.waitFor({ state: 'detached' });
      expect(page.errors).toEqual([]);
      await page.context().close();
    }
  }, 120_000);

  it('Keystone: My hand\'s card menu opens upward with every card in reach', async () => {
    await h.api.command({ user: 'carol', channel: 'general', name: 'keystone', options: { subcommand: 'practice' } });
    await h.settle();
    for (const [size, viewport] of SIZES) {
      const page = await openPage(browser, h.emulator.url, { query: '?as=carol&channel=general', viewport });
      const board = message(page, /Keystone #\d+/).filter({ has: page.getByRole('button', { name: 'My hand' }) }).last();
      const panel = await opensPanel(page, () => board.getByRole('button', { name: 'My hand' }).click());
      await panel.locator('.select-face', { hasText: /Play a card/ }).waitFor();
      await openedInSight(page, panel.locator('.select').filter({ has: page.locator('.select-face', { hasText: /Play a card/ }) }), `keystone-card-menu-${size}`);
      expect(page.errors).toEqual([]);
      await page.context().close();
    }
  }, 120_000);
});
