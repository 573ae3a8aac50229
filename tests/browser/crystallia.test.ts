import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasOf, startHarness, type Harness } from '../helpers/harness.ts';
import { load } from '../games/crystallia/driver.ts';
import { crystallia } from '../../src/games/crystallia/engine/index.ts';
import { textLayout, WIDTH } from '../../src/games/crystallia/render.ts';
import { chooseFirst, closeContexts, contentWidth, message, openPage, opensPanel, PHONE, runBrowserTests, screenshot, SCREENSHOTS, sharedBrowser, step, type, warmUp } from './browser.ts';

/**
 * A whole two-player game of Crystallia in the playground, as newcomers play it: Alice in a desktop
 * tab, Bob in a phone-sized one (390 px). Alice challenges Bob with the command form, Bob accepts,
 * and every turn is clicked in the page (Take your turn on the board, the stone and square menus, a
 * direction, the abilities and isolation steps, the preview picture, Confirm), always taking the
 * first option the panel offers, until the game ends. The board's picture fills the phone's message
 * column and is replaced after every turn; the final one shows everyone's score.
 */
let h: Harness;
let browser: Browser;
type Tab = Page & { errors: string[] };
const tabs: Record<string, Tab> = {};

beforeAll(async () => {
  if (!runBrowserTests) return;
  h = await startHarness();
  [browser] = await Promise.all([sharedBrowser(), warmUp(h)]);
  tabs.alice = await openPage(browser, h.emulator.url, { query: '?as=alice&channel=general' });
  tabs.bob = await openPage(browser, h.emulator.url, { tabOf: tabs.alice, query: '?as=bob&channel=general' });
  await tabs.bob.setViewportSize(PHONE);
});
afterAll(async () => {
  await closeContexts(browser);
  await h?.close();
});

/**
 * The smallest text of the game's picture as the page shows it: the picture's smallest text
 * (render.ts `textLayout`, in pixels of the picture) times the width the image is displayed at.
 */
async function smallestTextShown(gameId: number, img: Locator): Promise<number> {
  const { state } = await load(h, gameId);
  const t = textLayout(crystallia.view(state, null), { names: { [state.players[0]!]: 'Alice', [state.players[1]!]: 'Bob' }, title: `Crystallia #${gameId}` });
  const shown = (await img.boundingBox())!.width;
  return (Math.min(...t.texts.map((x) => x.px)) * shown) / t.width;
}

const natural = (img: Locator) => img.evaluate((el) => ((el as unknown as { complete: boolean }).complete ? (el as unknown as { naturalWidth: number }).naturalWidth : 0));
const boardOf = (page: Page, id: string) => page.locator(`#message-list .msg[data-id="${id}"]`);
const actionOf = (cid: string) => cid.split(':')[1];

/**
 * The next step the panel offers, read from the page: a direction, an isolation colour, skipping
 * the abilities, then the first square or the first stone; always the first one enabled.
 */
async function nextStep(panel: Locator): Promise<[string, () => Promise<void>]> {
  const cids = (sel: string) => panel.locator(sel).evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { cid: string } }).dataset.cid));
  const buttons = await cids('button[data-cid]:not([disabled])');
  for (const a of ['dir', 'iso', 'skip']) {
    const cid = buttons.find((c) => actionOf(c) === a);
    if (cid) return [a, () => panel.locator(`button[data-cid="${cid}"]`).click()];
  }
  const menus = await cids('.select[data-cid]:not(.is-disabled)');
  for (const a of ['sq', 'stone']) {
    const cid = menus.find((c) => actionOf(c) === a);
    if (cid) return [a, () => chooseFirst(panel.locator(`.select[data-cid="${cid}"]`))];
  }
  throw new Error(`the panel offers nothing to do: ${await panel.innerText()}`);
}

describe.skipIf(!runBrowserTests)('a whole Crystallia game in the playground, one player on a phone', () => {
  it('Alice challenges Bob in the page; every turn is clicked to the end; the picture reads on a phone', async () => {
    const alice = tabs.alice!;
    const bob = tabs.bob!;
    await type(alice, '/crystallia jo');
    await alice.locator('.slash-item', { hasText: '/crystallia join' }).click();
    // Every option of /crystallia join is optional, so folded until clicked.
    await alice.locator('label.opt-folded[data-opt="opponent"]').click();
    await alice.locator('.option-item', { hasText: 'Bob' }).click();
    await alice.keyboard.press('Enter');
    const invite = message(bob, /challenges you to \*?\*?Crystallia/);
    await bob.bringToFront();
    await invite.getByRole('button', { name: 'Accept' }).click();
    await expect.poll(() => h.db.prisma.game.count({ where: { kind: 'crystallia' } }), { timeout: 10_000 }).toBe(1);
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia' } })).id;
    const boardId = (await load(h, gameId)).game.boardMessageId!;

    // On the phone, the board's picture is as wide as the message column allows (about 330 px of 390): readable, never cut,
    // and no text on it smaller than 11 px as shown.
    const phoneImg = boardOf(bob, boardId).locator('.attachment-image img');
    await expect.poll(() => natural(phoneImg), { timeout: 10_000 }).toBe(WIDTH);
    const box = (await phoneImg.boundingBox())!;
    expect(box.width).toBeGreaterThan(300);
    expect(await smallestTextShown(gameId, phoneImg)).toBeGreaterThanOrEqual(11);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await contentWidth(bob)).toBeLessThanOrEqual(PHONE.width);
    await phoneImg.scrollIntoViewIfNeeded();
    await screenshot(bob, 'crystallia-board-phone');

    let turns = 0;
    const previewed = new Set<string>();
    for (;;) {
      const { game, state } = await load(h, gameId);
      if (state.outcome) break;
      expect(++turns, 'a game of Crystallia ends within 60 turns').toBeLessThan(60);
      const who = aliasOf(h, state.turn!.player);
      const page = tabs[who]!;
      await page.bringToFront();
      const board = boardOf(page, boardId);
      const img = board.locator('.attachment-image img');
      // The page shows the board as it is now (its picture and its button carry the game's version).
      await expect.poll(() => img.getAttribute('src'), { timeout: 10_000 }).toContain(`-v${game.version}.png`);
      const panel = await opensPanel(page, () => board.locator(`button[data-cid="cr:play:${gameId}:${game.version}"]`).click());
      await panel.getByText(/Your turn|Your second turn/).waitFor();
      const steps: string[] = [];
      while (!(await panel.getByRole('button', { name: 'Confirm' }).count())) {
        expect(steps.length, `a turn in ${steps.length} steps: ${steps.join(', ')}`).toBeLessThan(12);
        const [name, act] = await nextStep(panel);
        steps.push(name);
        await step(panel, act);
      }
      await panel.getByText('Preview, not played yet').waitFor();
      if (!previewed.has(who)) {
        // Each player's first preview: the picture of the result, full size, before anything is played.
        previewed.add(who);
        const preview = panel.locator('.attachment-image img');
        await expect.poll(() => natural(preview), { timeout: 10_000 }).toBe(WIDTH);
        await preview.scrollIntoViewIfNeeded();
        await screenshot(page, `crystallia-preview-${page === bob ? 'phone' : 'desktop'}`);
      }
      await step(panel, () => panel.getByRole('button', { name: 'Confirm' }).click());
      await expect(panel.innerText()).resolves.toMatch(/✅ Played in Crystallia/);
      expect((await load(h, gameId)).game.version).toBeGreaterThan(game.version);
    }

    const { game, state } = await load(h, gameId);
    expect(game.status).toBe('finished');
    expect(previewed.size).toBe(2);
    // The end, in both tabs: the last picture, and each player's score broken down beside it.
    for (const [who, page] of Object.entries(tabs)) {
      const board = boardOf(page, boardId);
      await expect.poll(() => board.locator('.attachment-image img').getAttribute('src'), { timeout: 10_000 }).toContain(`-v${game.version}.png`);
      await expect.poll(() => natural(board.locator('.attachment-image img')), { timeout: 10_000 }).toBe(WIDTH);
      // The final picture too: on the phone, its smallest text (the ranking, the platforms) reads at 11 px or more.
      if (page === bob) expect(await smallestTextShown(gameId, board.locator('.attachment-image img'))).toBeGreaterThanOrEqual(11);
      await expect(board.innerText()).resolves.toMatch(/regular [+−]?\d+.* = -?\d+/);
      expect(await board.locator('button[data-cid^="cr:play:"]').count(), who).toBe(0);
      await board.scrollIntoViewIfNeeded();
      const where = page === bob ? 'phone' : 'desktop';
      await screenshot(page, `crystallia-end-${where}`);
      // The whole final picture at the size the page shows it, for a person to read.
      await board.locator('.attachment-image img').screenshot({ path: path.join(SCREENSHOTS, `crystallia-end-picture-${where}.png`) });
      expect(page.errors, who).toEqual([]);
    }
    expect(await contentWidth(bob)).toBeLessThanOrEqual(PHONE.width);
    expect(Object.keys(state.platforms)).toHaveLength(2);
    expect((await h.api.rejections()).rejections).toEqual([]);
    console.log(`Crystallia in the browser: ${turns} turns`);
  }, 240_000);
});
