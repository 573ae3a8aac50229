import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { actAs, closeContexts, message, openChannel, openPage, runBrowserTests, screenshot, sharedBrowser, type, warmUp } from './browser.ts';

/**
 * Two browser tabs, one acting as Alice and one as Bob, play a whole Knucklebones game in the
 * playground by typing the slash command and clicking buttons, against the real bot, database and
 * emulator. Each tab follows the other live; Bob's turn pings arrive in his DMs.
 */
let h: Harness;
let browser: Browser;
let alice: Page & { errors: string[] };
let bob: Page & { errors: string[] };

beforeAll(async () => {
  if (!runBrowserTests) return;
  h = await startHarness();
  [browser] = await Promise.all([sharedBrowser(), warmUp(h)]);
  // Two tabs of one browser, as a moderator trying Stonehall would open them (they share one event stream).
  alice = await openPage(browser, h.emulator.url);
  bob = await openPage(browser, h.emulator.url, { tabOf: alice });
});
afterAll(async () => {
  await closeContexts(browser);
  await h?.close();
});

/** The game's board in #knucklebones (one message, edited in place after every move). */
const board = (page: Page): Locator => page.locator('#message-list .msg').filter({ has: page.locator('.embed-title', { hasText: /^Knucklebones #\d+$/ }) });
const footer = async (page: Page) => (await board(page).locator('.embed-footer').innerText()).trim();

describe.skipIf(!runBrowserTests)('the playground in Chromium: Alice and Bob play Knucklebones', () => {
  let boardId = '';

  it('Alice challenges Bob with the slash command form; Bob accepts in his own tab', async () => {
    // A person switches to a tab before using it (a background tab also paints slowly).
    await bob.bringToFront();
    await actAs(bob, 'Bob');
    await openChannel(bob, 'knucklebones');
    await alice.bringToFront();
    await actAs(alice, 'Alice');
    await openChannel(alice, 'knucklebones');

    // "/" lists the registered commands with their descriptions.
    await type(alice, '/knuck');
    const join = alice.locator('.slash-item', { hasText: '/knucklebones join' });
    await expect(join.innerText()).resolves.toContain('Challenge a player');
    await screenshot(alice, 'slash-commands');
    await join.click();
    // The opponent is optional (without one, the challenge is open to anyone): Alice adds it, and
    // the form asks for the USER option with a member picker.
    const opponent = alice.getByRole('textbox', { name: /^opponent:/ });
    await alice.locator('.opt-folded[data-opt="opponent"]').click();
    await expect(alice.locator('input:focus').getAttribute('data-opt')).resolves.toBe('opponent');
    await alice.locator('.option-item', { hasText: 'Bob' }).click();
    await expect(opponent.inputValue()).resolves.toBe('Bob');
    await screenshot(alice, 'command-form');
    await alice.keyboard.press('Enter');

    // The challenge appears in both tabs; Alice's shows who used the command.
    await message(alice, 'challenges you to').locator('.msg-context', { hasText: 'Alice used /knucklebones join' }).waitFor();
    const challenge = message(bob, 'challenges you to');
    await challenge.locator('.mention', { hasText: '@Bob' }).waitFor();
    await bob.bringToFront();
    await challenge.getByRole('button', { name: 'Accept' }).click();

    // Accepting edits the challenge into the board, in place, in both tabs.
    boardId = (await challenge.getAttribute('data-id')) ?? '';
    expect(boardId).toMatch(/^\d+$/);
    for (const page of [alice, bob]) {
      await board(page).locator('.embed-desc', { hasText: /Turn: @(Alice|Bob) rolled/ }).waitFor();
      await expect(board(page).getAttribute('data-id')).resolves.toBe(boardId);
    }
  });

  it('they play to the end by clicking the board; Bob gets his turn ping in his DMs and its link jumps back to the board', async () => {
    let moves = 0;
    let sawDm = false;
    for (; moves < 80; moves++) {
      const desc = await board(alice).locator('.embed-desc').innerText();
      if (!/Turn:/.test(desc)) break;
      const turn = await footer(alice);
      const mover = /Turn: @Alice/.test(desc) ? alice : bob;
      // The other tab shows the same board without a reload.
      await board(mover).locator('.embed-footer', { hasText: turn }).waitFor();

      await mover.bringToFront();
      if (mover === bob && !sawDm) {
        sawDm = true;
        // Bob's DM with the bot has an unread ping; it names the die and carries the column buttons.
        await bob.locator('#dm-list .badge').waitFor();
        await openChannel(bob, 'Stonehall');
        const ping = message(bob, /Your turn in Knucklebones #\d+ against Alice/).last();
        await ping.waitFor();
        expect(await ping.locator('.msg-content').innerText()).toMatch(/you rolled .*\d/);
        await expect(ping.getByRole('button', { name: /Column [123]/ }).count()).resolves.toBe(3);
        await expect(bob.locator('#dm-list .badge').count()).resolves.toBe(0);
        await screenshot(bob, 'dm-turn-ping');
        // "Open the board" is a Discord message link: inside the playground it jumps to the board.
        await ping.getByRole('link', { name: /Open the board/ }).click();
        await bob.locator('#chat-title', { hasText: 'knucklebones' }).waitFor();
        await bob.locator(`#msg-${boardId}.is-highlighted`).waitFor();
        await screenshot(bob, 'jump-to-board');
      }

      const column = board(mover).locator('button:not([disabled])', { hasText: /Column [123]/ }).first();
      await column.click();
      // Both tabs see the board move on.
      for (const page of [alice, bob]) await board(page).locator('.embed-footer', { hasNotText: turn }).waitFor();
      if (moves === 5) await screenshot(alice, 'playground');
    }
    expect(sawDm).toBe(true);
    expect(moves).toBeGreaterThanOrEqual(9);

    for (const page of [alice, bob]) {
      await board(page).locator('.embed-desc', { hasText: /wins|Draw/ }).waitFor();
      await expect(board(page).locator('.embed-footer').innerText()).resolves.toContain('Game over');
      await expect(board(page).locator('button', { hasText: /Column/ }).count()).resolves.toBe(0);
      // Still the same message: the board was edited in place, never re-posted.
      await expect(board(page).getAttribute('data-id')).resolves.toBe(boardId);
      await expect(board(page).count()).resolves.toBe(1);
    }
    await screenshot(alice, 'game-over');
    expect(alice.errors).toEqual([]);
    expect(bob.errors).toEqual([]);
  }, 60_000); // a whole game, 20 to 40 moves
});
