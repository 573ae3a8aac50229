import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KrellstonesState } from '../../src/games/krellstones/engine/index.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import path from 'node:path';
import { actAs, closeContexts, contentWidth, message, openChannel, openPage, PHONE, playableDm, runBrowserTests, screenshot, SCREENSHOTS, sharedBrowser, type, warmUp } from './browser.ts';
import { ROUNDS, scriptSeed, simulate, slotPlan } from './krellstones-script.ts';

/**
 * Issue 12's "Done when", in the playground: three newcomers (Alice and Bob at a desktop, Carol on
 * a phone-sized tab) claim their free starter kits with the `/` composer (Bob then trashes a face:
 * the confirmation's button); Alice names her Master and slots one of her kit's faces (the form's
 * autocomplete offers only what fits), a moderator grants her a Krell, and she hosts a 2-round FAST
 * game with a sideboard of 1 on her mat (mat autocomplete); Dave sits down and leaves (Join,
 * Leave); Bob and Carol join; they choose stones (the typed select with the alias autocomplete,
 * the Choose stones menus, or nothing) and Ready. Then the game is played to its end through the
 * page: Carol's Pup in the Hangar (on her phone: a wrong yell in the Yell! form of the DM that
 * pinged her, the right one from the board's Yell!), Alice's secret reroll in the Choose rerolls
 * panel, her Nudge of the other two, her sideboard swap between the rounds, Ready on the board and
 * in a turn DM. The test moves the emulator clock one FAST gap at a time through the test API.
 * Every draw comes from one seed (krellstones-script.ts), so the Pup comes when the script says.
 */
const SEED = scriptSeed();
const expected = simulate(SEED);
const plan = slotPlan(SEED);

let h: Harness;
let browser: Browser;
type Tab = Page & { errors: string[] };
const tabs = {} as Record<'alice' | 'bob' | 'carol', Tab>;
type Who = keyof typeof tabs;
const NAME = { alice: 'Alice', bob: 'Bob', carol: 'Carol' } as const;

beforeAll(async () => {
  if (!runBrowserTests) return;
  h = await startHarness({ seeds: () => SEED });
  [browser] = await Promise.all([sharedBrowser(), warmUp(h)]);
  tabs.alice = await openPage(browser, h.emulator.url);
  tabs.bob = await openPage(browser, h.emulator.url, { tabOf: tabs.alice });
  tabs.carol = await openPage(browser, h.emulator.url, { tabOf: tabs.alice });
});
afterAll(async () => {
  await closeContexts(browser);
  await h?.close();
});

const game = () => h.db.prisma.game.findFirstOrThrow({ where: { kind: 'krellstones' } });
const state = async () => (await game()).state as unknown as KrellstonesState;
const who = (id: string) => (Object.keys(NAME) as Who[]).find((w) => h.emulator.users[w] === id)!;
/** The newest ephemeral reply in a tab that says `text`. */
const reply = (page: Page, text: string | RegExp): Locator => page.locator('#message-list .msg.msg-ephemeral', { hasText: text }).last();

/** The board message alone (its whole height, even past the window), and the page around it. */
async function shoot(page: Page, boardMsg: Locator, name: string): Promise<void> {
  await page.bringToFront();
  await page.mouse.move(0, 0);
  // An edit replaces the message's element: try again on the new one.
  for (let k = 0; ; k++) {
    try {
      await boardMsg.screenshot({ path: path.join(SCREENSHOTS, `${name}-board.png`), animations: 'disabled' });
      break;
    } catch (err) {
      if (k === 3 || !/not attached/.test(String(err))) throw err;
    }
  }
  await boardMsg.scrollIntoViewIfNeeded();
  await screenshot(page, name);
}

/** Runs a slash command from the composer: picks it in the "/" list, then fills the form. */
async function slash(page: Page, path: string): Promise<void> {
  await type(page, `/${path}`);
  await page.locator('.slash-item').filter({ has: page.locator('.slash-name', { hasText: new RegExp(`^/${path}$`) }) }).click();
}

/** Chooses the first autocomplete suggestion (containing `text`) for an option of the open form. */
async function suggest(page: Page, option: string, text: string | RegExp = /./): Promise<string> {
  const input = page.locator(`input.opt-input[data-opt="${option}"]`);
  if (!(await input.evaluate((el) => el === el.ownerDocument.activeElement))) await input.click();
  const item = page.locator('.popup .option-item', { hasText: text }).first();
  await item.waitFor();
  const label = await item.innerText();
  await item.click();
  return label;
}

/** Opens a multi-select menu of a message, ticks its first option and closes it (which sends it). */
async function tickFirst(scope: Locator, placeholder: RegExp): Promise<void> {
  const face = scope.locator('.select-face', { hasText: placeholder }).first();
  await face.click();
  await scope.getByRole('option').first().click();
  await face.click();
}

describe.skipIf(!runBrowserTests)('the playground in Chromium: three newcomers play Krellstones', () => {
  let boardId = '';
  const board = (w: Who) => tabs[w].locator(`#msg-${boardId}`);

  it('they claim starter kits; Alice names a stone, slots a face and hosts; Bob and Carol join; all Ready', async () => {
    for (const w of ['carol', 'bob', 'alice'] as const) {
      await tabs[w].bringToFront();
      await actAs(tabs[w], NAME[w]);
      await openChannel(tabs[w], 'general');
      // Carol is on a phone (the switcher folds away at that width: she picks who she is first).
      if (w === 'carol') await tabs.carol.setViewportSize(PHONE);
      // The claim from the "/" list (a form with no options: Enter sends it).
      await slash(tabs[w], 'krellstone claim');
      await tabs[w].keyboard.press('Enter');
      await reply(tabs[w], 'Your free starter kit').locator('.msg-eph-note').waitFor();
    }
    // Bob trashes one of his faces: the command asks first, with buttons.
    await tabs.bob.bringToFront();
    await slash(tabs.bob, 'krellstone trash');
    const trashed = (await suggest(tabs.bob, 'face')).match(/^#(\d+)/)![1]!;
    await tabs.bob.keyboard.press('Enter');
    const asked = reply(tabs.bob, `Trash face #${trashed}`);
    await asked.waitFor();
    // The answer edits the question: follow it by its id.
    const ask = tabs.bob.locator(`#msg-${await asked.getAttribute('data-id')}`);
    await ask.getByRole('button', { name: `Trash face #${trashed}` }).click();
    await ask.getByText(new RegExp(`Face #${trashed} \\(.*\\) is gone for good\\.`)).waitFor();
    await expect(ask.getByRole('button', { name: /Trash face|Keep it/ }).count()).resolves.toBe(0);
    await tabs.alice.bringToFront();
    const alice = tabs.alice;

    // Alice names her Master: the stone option suggests her stones by type, or by number.
    const master = (await h.db.prisma.asset.findMany({ where: { playerId: h.emulator.users.alice, type: 'stone' }, orderBy: { id: 'asc' } })).at(-1)!;
    await slash(alice, 'krellstone alias set');
    const stone = alice.locator('input.opt-input[data-opt="stone"]');
    await stone.pressSequentially('mast');
    await expect.poll(() => alice.locator('.popup .option-item').allInnerTexts()).toEqual([expect.stringMatching(new RegExp(`^Master #${master.id}: `))]);
    await stone.fill('');
    await stone.pressSequentially(`#${master.id}`);
    expect(await suggest(alice, 'stone', new RegExp(`^Master #${master.id}: `))).toMatch(/^Master #\d+: (\d+ ){19}\d+$/);
    await alice.locator('input.opt-input[data-opt="alias"]').fill('Boss');
    await alice.keyboard.press('Enter');
    await reply(alice, /is now called Boss/).waitFor();

    // The slot form, face first: the stone option then offers only stones that face fits, and the
    // side option only the sides it may take (never a duplicate value).
    await slash(alice, 'krellstone slot');
    const face = await suggest(alice, 'face');
    expect(face).toMatch(new RegExp(`^#\\d+ ${plan.face.type} face ${plan.face.value}, weight ${plan.face.weight}`, 'i'));
    await alice.locator('.popup .option-item').first().waitFor();
    const stones = await alice.locator('.popup .option-item').allInnerTexts();
    expect(stones.length).toBeGreaterThan(0);
    for (const s of stones) expect(s.toLowerCase()).toMatch(new RegExp(`^${plan.face.type}`));
    await suggest(alice, 'stone');
    expect(await suggest(alice, 'side')).toMatch(new RegExp(`^Side ${plan.side}: shows \\d+ → ${plan.face.value}$`));
    await alice.keyboard.press('Enter');
    await reply(alice, `slotted into side ${plan.side}`).waitFor();

    // A moderator (Alice's tab acting as Mod for a moment) grants her a Krell for her sideboard.
    await actAs(alice, 'Mod');
    await type(alice, '/krellstone-grant stones player:Alice type:Krell');
    await alice.keyboard.press('Enter');
    await reply(alice, /Granted @Alice 1 new Krell \(#\d+\)/).waitFor();
    await actAs(alice, 'Alice');
    const granted = await h.db.prisma.asset.findFirstOrThrow({ where: { playerId: h.emulator.users.alice, type: 'stone' }, orderBy: { id: 'desc' } });

    // She hosts on her mat (autocomplete), 2 rounds, then sets the FAST pace with a typed line.
    await slash(alice, 'krellstones start');
    await alice.locator('.opt-folded[data-opt="mat"]').click();
    expect(await suggest(alice, 'mat', 'Modern Krellstones')).toMatch(/^Modern Krellstones mat \(#\d+\)$/);
    await alice.locator('.opt-folded[data-opt="rounds"]').click();
    await alice.locator('input.opt-input[data-opt="rounds"]').fill(String(ROUNDS));
    await alice.keyboard.press('Enter');
    const table = message(alice, /Krellstones: table #\d+, opened by/);
    await table.waitFor();
    boardId = (await table.getAttribute('data-id'))!;
    await type(alice, '/krellstones rules pace:FAST sideboard:1');
    await alice.keyboard.press('Enter');
    await board('alice').getByText(/2 rounds · rerolls on · sideboard 1 · FAST pace/).waitFor();
    // The kit's mat is named once ("Modern Krellstones mat", not "… mat mat").
    await expect(board('alice').innerText()).resolves.toMatch(/on the Modern Krellstones mat \(#\d+\)/);

    // Dave (Alice's tab for a moment) has no stones: Join refuses him with the fix. He claims his kit,
    // sits down with Join and gets up with Leave.
    await actAs(alice, 'Dave');
    await board('alice').getByRole('button', { name: 'Join' }).click();
    await reply(alice, /You have no krellstones yet: every player brings 1 Pawn, 1 Dancer, 3 Krells, 1 Master\. Claim your free starter kit with \/krellstone claim/).waitFor();
    await slash(alice, 'krellstone claim');
    await alice.keyboard.press('Enter');
    await expect.poll(() => h.db.prisma.asset.count({ where: { playerId: h.emulator.users.dave, type: 'stone' } })).toBe(6);
    await board('alice').getByRole('button', { name: 'Join' }).click();
    await board('alice').getByText(/@Dave ⏳ choosing/).waitFor();
    await board('alice').getByRole('button', { name: 'Leave' }).click();
    await expect.poll(() => board('alice').innerText()).not.toContain('@Dave');
    await actAs(alice, 'Alice');

    // Bob joins with the table's button, Carol with a typed line (in that order: seats 2 and 3).
    await tabs.bob.bringToFront();
    await board('bob').getByRole('button', { name: 'Join' }).click();
    await board('bob').getByText(/@Bob ⏳ choosing/).waitFor();
    await tabs.carol.bringToFront();
    await type(tabs.carol, '/krellstones join host:Alice');
    await tabs.carol.keyboard.press('Enter');
    await board('carol').getByText(/@Carol ⏳ choosing/).waitFor();
    await shoot(tabs.carol, board('carol'), 'krellstones-table-phone');

    // Alice brings her Master by its alias (the select's autocomplete), then Ready on the table.
    await alice.bringToFront();
    await slash(alice, 'krellstones select');
    await alice.locator('input.opt-input[data-opt="stone"]').pressSequentially('bo');
    await expect.poll(() => alice.locator('.popup .option-item').allInnerTexts()).toEqual([expect.stringMatching(/^Master “Boss” #\d+: /)]);
    await suggest(alice, 'stone', 'Boss');
    await alice.keyboard.press('Enter');
    await reply(alice, /You bring your Master “Boss”/).waitFor();
    // …puts the granted Krell on her sideboard in the Choose stones panel, and readies on the table.
    await board('alice').getByRole('button', { name: 'Choose stones' }).click();
    const mine = reply(alice, 'What you bring');
    await mine.locator('.select-face', { hasText: /Sideboard/ }).click();
    await mine.getByRole('option', { name: new RegExp(`Krell #${granted.id}\\b`) }).click();
    await mine.getByText(`Sideboard (1 of 1): Krell #${granted.id}.`).waitFor();
    // With a sideboard the Pawn, the Dancer and the Master share a menu, so the panel keeps its Ready
    // within Discord's five rows; she readies from the panel.
    await mine.getByRole('button', { name: 'Ready' }).click();
    await reply(alice, /You are ready: the game starts when everyone seated is/).waitFor();
    await board('alice').getByText(/@Alice ✅ ready/).waitFor();
    // Bob ticks his first Krell in the Choose stones menu and readies on the table.
    await tabs.bob.bringToFront();
    await board('bob').getByRole('button', { name: 'Choose stones' }).click();
    const panel = reply(tabs.bob, 'What you bring');
    await tickFirst(panel, /Krells/);
    await panel.getByText(/Chosen \(1 of 6\): Krell #\d+/).waitFor();
    await board('bob').getByRole('button', { name: 'Ready' }).click();
    await board('bob').getByText(/@Bob ✅ ready/).waitFor();
    // Carol chooses nothing: Ready fills her six stones; the last Ready starts the game.
    await tabs.carol.bringToFront();
    await board('carol').getByRole('button', { name: 'Ready' }).click();
    for (const w of ['alice', 'bob', 'carol'] as const) await board(w).getByText(/round 1 of 2 · FAST/).waitFor();
    // Before anyone rolls, each seat says so (no "Pawn · · Dancer ·", no sum of 0).
    await expect.poll(async () => (await board('carol').innerText()).match(/not rolled yet/g)?.length).toBe(3);
    expect((await game()).boardMessageId).toBe(boardId);
  }, 60_000);

  it('they play both rounds in the page: a yell in the Yell! form, a secret reroll, Ready on the board and in a DM', async () => {
    const pups: Array<{ round: number; player: string }> = [];
    let shotRerolls = false;
    let swapped = false;
    const granted = String((await h.db.prisma.asset.findFirstOrThrow({ where: { playerId: h.emulator.users.alice, type: 'stone' }, orderBy: { id: 'desc' } })).id);
    for (let step = 0; step < 200; step++) {
      const s = await state();
      if (s.outcome) break;
      if (s.phase === 'rolling') {
        const open = s.windows.find((p) => !pups.some((x) => x.round === s.round && x.player === p));
        if (!open) {
          await h.api.advanceClock(2_000);
          continue;
        }
        const w = who(open);
        const page = tabs[w];
        await page.bringToFront();
        await board(w).getByRole('button', { name: 'Yell!' }).waitFor();
        // A short window says its length beside the clock time ("8 s to yell"), never "in a few seconds".
        await expect(board(w).innerText()).resolves.toMatch(/yell KRELLSTONES! now \(the Yell! button or \/krellstones yell\): 8 s to yell, until \d+:\d\d:\d\d [AP]M, or until the rolling ends!/);
        await shoot(page, board(w), `krellstones-pup-${w === 'carol' ? 'phone' : 'desktop'}`);
        // A wrong yell, from the Yell! of the DM that pinged the owner, counts for nothing…
        const phone = page.viewportSize()!.width < 700;
        if (phone) await page.getByRole('button', { name: 'Channels' }).click();
        await openChannel(page, 'Stonehall');
        const ping = message(page, /PUP IN THE HANGAR in Krellstones #\d+!/).last();
        await expect(ping.innerText()).resolves.toMatch(/exactly, 8 s to yell, until \d+:\d\d:\d\d [AP]M or until the rolling ends/);
        await ping.getByRole('button', { name: 'Yell!' }).click();
        const dialog = page.getByRole('dialog', { name: 'Pup in the Hangar!' });
        await dialog.getByRole('textbox', { name: /Your yell/ }).fill('krellstones!');
        await dialog.getByRole('button', { name: 'Submit' }).click();
        await message(page, /only the exact yell counts/).last().waitFor();
        if (phone) await page.getByRole('button', { name: 'Channels' }).click();
        await openChannel(page, 'general');
        // …the exact one turns the Master to its highest side.
        await board(w).getByRole('button', { name: 'Yell!' }).click();
        await dialog.getByRole('textbox', { name: /Your yell/ }).fill('KRELLSTONES!');
        await dialog.getByRole('button', { name: 'Submit' }).click();
        await message(page, /KRELLSTONES!\*?\*? CAPTAIN ON DECK|KRELLSTONES! CAPTAIN ON DECK/).waitFor();
        await board(w).getByText('CAPTAIN ON DECK').first().waitFor();
        // Everyone hears who yelled.
        await message(tabs.alice, `@${NAME[w]} yells KRELLSTONES! CAPTAIN ON DECK`).waitFor();
        pups.push({ round: s.round, player: w });
        continue;
      }
      if (s.phase === 'rerolls') {
        const pending = (['alice', 'bob', 'carol'] as const).find((w) => s.seats[h.emulator.users[w]]!.choice === 'pending');
        if (!pending) throw new Error('rerolls with nobody to choose');
        const page = tabs[pending];
        await page.bringToFront();
        await board(pending).getByText(/Choosing rerolls/).waitFor();
        if (!shotRerolls) {
          shotRerolls = true;
          await shoot(tabs.alice, board('alice'), 'krellstones-rerolls-desktop');
          await shoot(tabs.carol, board('carol'), 'krellstones-rerolls-phone');
        }
        if (pending === 'alice' && s.round === 1) {
          // The secret panel: pick the first stone in play, then Ready from the panel.
          await board('alice').getByRole('button', { name: 'Choose rerolls' }).click();
          const panel = reply(page, 'Your rerolls');
          await tickFirst(panel, /Stones to reroll/);
          await panel.getByText(/Selected to reroll: (?!nothing)/).waitFor();
          await screenshot(page, 'krellstones-reroll-panel');
          await panel.getByRole('button', { name: 'Ready: reroll 1' }).click();
          await reply(page, /You are ready \(1 stone to reroll/).waitFor();
          // Nobody else sees what she chose.
          await board('bob').getByText(/@Alice.*✅ ready/).waitFor();
          await expect(board('bob').innerText()).resolves.not.toMatch(/Selected/);
        } else if (pending === 'bob' && s.round === 1) {
          // Alice, ready, nudges the two still choosing (the board's Nudge), then Bob readies.
          await tabs.alice.bringToFront();
          await board('alice').getByRole('button', { name: 'Nudge' }).click();
          await reply(tabs.alice, /Nudged @(Bob|Carol), @(Bob|Carol): a DM reminds them/).waitFor();
          await page.bringToFront();
          await board('bob').getByRole('button', { name: 'Ready' }).click();
        } else if (pending === 'bob' && s.round === 2) {
          // Bob readies from his turn DM.
          await openChannel(page, 'Stonehall');
          // He readied on the board last round: the DM offers Play here first.
          const dm = await playableDm(message(page, /Round 2 of .*choose your rerolls/).last());
          await dm.getByRole('button', { name: 'Ready' }).click();
          await message(page, /you reroll nothing/).last().waitFor();
          await openChannel(page, 'general');
        } else {
          await board(pending).getByRole('button', { name: 'Ready' }).click();
        }
        await expect.poll(async () => (await state()).seats[h.emulator.users[pending]]!.choice, { timeout: 10_000 }).not.toBe('pending');
        continue;
      }
      if (s.phase === 'swaps' && s.seats[h.emulator.users.alice]!.choice === 'pending') {
        // Between the rounds: Alice swaps the granted Krell in for her first Krell, from the board's panel.
        await tabs.alice.bringToFront();
        await board('alice').getByRole('button', { name: 'Sideboard swap' }).click();
        const panel = reply(tabs.alice, 'Sideboard swaps');
        await panel.locator('.select-face', { hasText: 'A sideboard stone to bring in' }).click();
        await panel.getByRole('option', { name: new RegExp(`Krell #${granted}\\b`) }).click();
        await panel.getByText('which Krell goes to the sideboard?').waitFor();
        await panel.locator('.select-face', { hasText: 'The Krell to take out' }).click();
        await panel.getByRole('option').first().click();
        await panel.getByText(new RegExp(`Swapped #${granted} in for #\\d+`)).waitFor();
        await shoot(tabs.alice, board('alice'), 'krellstones-swaps-desktop');
        await panel.getByRole('button', { name: 'Ready: no more swaps' }).click();
        await reply(tabs.alice, 'no more swaps this time').waitFor();
        swapped = true;
        await expect.poll(async () => (await state()).phase, { timeout: 10_000 }).not.toBe('swaps');
        continue;
      }
      throw new Error(`unexpected phase ${s.phase}`);
    }

    const final = await state();
    expect(final.outcome?.winners.map(who)).toEqual(expected.outcome!.winners);
    expect(pups).toEqual(expected.pups);
    expect(swapped).toBe(true);
    expect(final.seats[h.emulator.users.alice]!.active.map((x) => x.id)).toContain(granted);
    const winner = NAME[expected.outcome!.winners[0] as Who];
    for (const w of ['alice', 'bob', 'carol'] as const) {
      await board(w).getByText(new RegExp(`🏆 @${winner} wins.* Rounds won: @${winner} `)).waitFor();
      await expect(board(w).getByRole('button').count()).resolves.toBe(0);
    }
    await shoot(tabs.carol, board('carol'), 'krellstones-end-phone');
    await shoot(tabs.alice, board('alice'), 'krellstones-end-desktop');
    expect(await contentWidth(tabs.carol)).toBeLessThanOrEqual(PHONE.width);
    for (const w of ['alice', 'bob', 'carol'] as const) expect(tabs[w].errors, w).toEqual([]);
    expect((await h.api.state()).rejections).toEqual([]);
  }, 60_000);
});
