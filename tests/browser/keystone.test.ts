import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeystoneState } from '../../src/games/keystone/engine/index.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { actAs, chooseFirst, closeContexts, contentWidth, message, openChannel, openPage, opensPanel, PHONE, playableDm, runBrowserTests, screenshot, SCREENSHOTS, sharedBrowser, step, type, warmUp } from './browser.ts';

/**
 * Three tabs of the playground, as Alice, Bob and Carol, start a Keystone match with the slash
 * command form and play its first tricks by clicking, as a newcomer would: My hand and its menu,
 * the menu in a turn DM, the placement panel (a card at a time with the preview, then Auto-place).
 */
let h: Harness;
let browser: Browser;
type Tab = Page & { errors: string[] };
const tabs: Record<string, Tab> = {};

beforeAll(async () => {
  if (!runBrowserTests) return;
  h = await startHarness();
  [browser] = await Promise.all([sharedBrowser(), warmUp(h)]);
  tabs.Alice = await openPage(browser, h.emulator.url);
  tabs.Bob = await openPage(browser, h.emulator.url, { tabOf: tabs.Alice });
  tabs.Carol = await openPage(browser, h.emulator.url, { tabOf: tabs.Alice });
});
afterAll(async () => {
  await closeContexts(browser);
  await h?.close();
});

const board = (page: Page): Locator => page.locator('#message-list .msg').filter({ has: page.locator('.embed-title', { hasText: /^Keystone #\d+$/ }) });
const NAMES = ['Alice', 'Bob', 'Carol'] as const;

async function gameState(): Promise<KeystoneState & { id: number; version: number }> {
  const g = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'keystone' } });
  return { ...(g.state as unknown as KeystoneState), id: g.id, version: g.version };
}
const nameOf = (s: KeystoneState, seat: number) => NAMES[(['alice', 'bob', 'carol'] as const).findIndex((a) => h.emulator.users[a] === s.players[seat])]!;

describe.skipIf(!runBrowserTests)('the playground in Chromium: a Keystone match in three tabs', () => {
  it('Alice names Bob and Carol with the command form; both accept in their tabs', async () => {
    for (const n of ['Carol', 'Bob', 'Alice'] as const) {
      await tabs[n]!.bringToFront();
      await actAs(tabs[n]!, n);
      await openChannel(tabs[n]!, 'general');
    }
    const alice = tabs.Alice!;
    await type(alice, '/keystone jo');
    await alice.locator('.slash-item', { hasText: '/keystone join' }).click();
    await alice.locator('.option-item', { hasText: 'Bob' }).click();
    await expect(alice.locator('input:focus').getAttribute('data-opt')).resolves.toBe('opponent2');
    await alice.locator('.option-item', { hasText: 'Carol' }).click();
    await alice.keyboard.press('Enter');
    for (const n of ['Bob', 'Carol'] as const) {
      // The invitation (edited as players accept) names the table.
      const invite = message(tabs[n]!, /Keystone: table #\d+, opened by/);
      await tabs[n]!.bringToFront();
      await invite.getByRole('button', { name: 'Accept' }).click();
    }
    for (const n of NAMES) await board(tabs[n]!).locator('.embed-desc', { hasText: /Game 1 of 2 · trick 1 of 12/ }).waitFor();
    await screenshot(tabs.Alice!, 'keystone-board');
  });

  it('they play two tricks by clicking: My hand, the DM menu, the placement panel and Auto-place', async () => {
    for (let trick = 1; trick <= 2; trick++) {
      for (let k = 0; k < 3; k++) {
        const s = await gameState();
        expect(s.phase).toBe('play');
        const who = nameOf(s, s.turn);
        const page = tabs[who]!;
        await page.bringToFront();
        if (trick === 1) {
          // My hand: an ephemeral panel for the clicker only, with the menu of playable cards.
          await board(page).getByRole('button', { name: 'My hand' }).click();
          const panel = page.locator('#message-list .msg.msg-ephemeral', { hasText: 'Your hand' }).last();
          await panel.waitFor();
          if (k === 0) await screenshot(page, 'keystone-my-hand');
          await chooseFirst(panel, /Play a card/);
          await panel.locator('.msg-content', { hasText: /You played/ }).waitFor();
        } else {
          await openChannel(page, 'Stonehall');
          // They played from My hand on the board last trick: the DM offers Play here first.
          // This trick's DM (pinned by playableDm: an older DM must not be taken while this one is on its way).
          const dm = await playableDm(message(page, new RegExp(`Your turn in Keystone #${s.id} \\(game 1 of 2, trick ${trick} of`)).last());
          expect(await dm.getByRole('button', { name: 'Play here' }).count()).toBe(0);
          await chooseFirst(dm, /Play a card/);
          await dm.locator('.msg-content', { hasText: /You played/ }).waitFor();
          await openChannel(page, 'general');
        }
        await expect.poll(async () => (await gameState()).played.length + (await gameState()).pending.length).not.toBe(s.played.length);
      }
      const s = await gameState();
      expect(s.phase).toBe('place');
      const winner = tabs[nameOf(s, s.turn)]!;
      await winner.bringToFront();
      await board(winner).getByRole('button', { name: 'Place won cards…' }).click();
      const opened = winner.locator('#message-list .msg.msg-ephemeral', { hasText: 'place the 3 cards you won' }).last();
      await opened.waitFor();
      // The panel is edited at every step: follow it by its message id.
      const panel = winner.locator(`#msg-${await opened.getAttribute('data-id')}`);
      if (trick === 1) {
        // One card at a time: each choice shows the lines after it, until all are planned.
        for (let c = 0; c < 3; c++) {
          await chooseFirst(panel, /Place .* on…/);
          await panel.locator('.msg-content', { hasText: `Planned:` }).waitFor();
        }
        await panel.locator('.msg-content', { hasText: 'Your lines after placing them all' }).waitFor();
        await screenshot(winner, 'keystone-placement-preview');
        await panel.getByRole('button', { name: 'Place all 3 as shown' }).click();
        await panel.locator('.msg-content', { hasText: /✅ Placed/ }).waitFor();
      } else {
        await panel.getByRole('button', { name: 'Auto-place…' }).click();
        await panel.locator('.msg-content', { hasText: /would place/ }).waitFor();
        await panel.getByRole('button', { name: /Auto-place$/ }).click();
        await panel.locator('.msg-content', { hasText: /✅ Auto-placed/ }).waitFor();
      }
      await expect.poll(async () => (await gameState()).trick).toBe(trick + 1);
    }
    for (const n of NAMES) await board(tabs[n]!).locator('.embed-desc', { hasText: /trick 3 of 12/ }).waitFor();
    await screenshot(tabs.Alice!, 'keystone-after-two-tricks');
    for (const n of NAMES) expect(tabs[n]!.errors, n).toEqual([]);
    expect((await h.api.state()).rejections).toEqual([]);
  }, 90_000);

  it('they play on to the end of the match (both games) by clicking, Carol on a phone: My hand and its first card, Auto-place', async () => {
    await tabs.Carol!.setViewportSize(PHONE);
    let plays = 0;
    let placements = 0;
    for (;;) {
      const s = await gameState();
      if (s.phase === 'over') break;
      expect(plays + placements, 'a match is 72 plays and 24 placements').toBeLessThan(100);
      const page = tabs[nameOf(s, s.turn)]!;
      await page.bringToFront();
      const b = board(page);
      if (s.phase === 'play') {
        // My hand reads the hand as it is now (its button carries no version).
        const panel = await opensPanel(page, () => b.locator(`button[data-cid="ks:hand:${s.id}"]`).click());
        await step(panel, () => chooseFirst(panel, /Play a card/));
        await expect(panel.innerText()).resolves.toMatch(/You played/);
        plays++;
      } else {
        // The board as it is now: Place won cards… carries the game's version (an older board's is refused).
        const panel = await opensPanel(page, () => b.locator(`button[data-cid="ks:place:${s.id}:${s.version}"]`).click());
        await step(panel, () => panel.getByRole('button', { name: 'Auto-place…' }).click());
        await expect(panel.innerText()).resolves.toMatch(/would place/);
        await step(panel, () => panel.getByRole('button', { name: /Auto-place$/ }).click());
        await expect(panel.innerText()).resolves.toMatch(/✅ Auto-placed/);
        placements++;
      }
      expect((await gameState()).version).toBeGreaterThan(s.version);
    }
    // Two tricks were played above: 22 tricks of 3 cards and their placements here.
    expect(plays).toBe(66);
    expect(placements).toBe(22);
    const final = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'keystone' } });
    expect(final.status).toBe('finished');
    for (const n of NAMES) {
      const page = tabs[n]!;
      const b = board(page);
      await b.getByText(/Match over/).first().waitFor();
      expect(await b.locator('button[data-cid^="ks:hand:"]').count(), n).toBe(0);
      expect(page.errors, n).toEqual([]);
    }
    for (const [n, where] of [['Alice', 'desktop'], ['Carol', 'phone']] as const) {
      const page = tabs[n]!;
      await board(page).scrollIntoViewIfNeeded();
      await screenshot(page, `keystone-end-${where}`);
      await board(page).screenshot({ path: path.join(SCREENSHOTS, `keystone-end-board-${where}.png`) });
    }
    expect(await contentWidth(tabs.Carol!)).toBeLessThanOrEqual(PHONE.width);
    expect((await h.api.state()).rejections).toEqual([]);
  }, 240_000);
});
