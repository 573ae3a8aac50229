import type { Harness } from '../helpers/harness.ts';
import type { Locator, Page } from 'playwright-core';

// The page helpers (a browser, a tab acting as a user, screenshots) come with the emulator package.
export * from '@stonehall/discord-emulator/playwright';

/**
 * The bot's first interactions after start-up are its slowest (connection pool, prepared queries,
 * JIT), and Discord gives it 3 real seconds. One throwaway command, repeated until answered, keeps
 * a busy machine's cold start out of what the tests measure.
 */
export async function warmUp(h: Harness): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const r = await h.api.command({ user: 'dave', channel: 'general', name: 'knucklebones games' });
    if (r.response) return;
  }
  throw new Error('the bot did not answer a slash command within its 3 seconds, five times in a row');
}


// ---- panels: ephemeral messages that the bot edits at every step --------------------------------

type Doc = { getElementById(id: string): El | null; querySelectorAll(sel: string): ArrayLike<El> };
type El = { outerHTML: string; dataset: Record<string, string | undefined>; querySelector(sel: string): El | null; textContent: string | null };

/**
 * Runs `click` (a button or menu that answers with a new ephemeral message, such as My hand) and
 * returns that new message, found by its id (older panels may say the same words).
 */
export async function opensPanel(page: Page, click: () => Promise<unknown>): Promise<Locator> {
  const known = await page.locator('#message-list .msg.msg-ephemeral').evaluateAll((els) => els.map((e) => (e as unknown as El).dataset.id!));
  await click();
  const found = await page.waitForFunction(
    (before: string[]) => [...Array.from((globalThis as unknown as { document: Doc }).document.querySelectorAll('#message-list .msg.msg-ephemeral'))].map((e) => e.dataset.id!).find((id) => !before.includes(id)) ?? null,
    known,
    { polling: 50 },
  );
  return page.locator(`#msg-${await found.jsonValue()}`);
}

/**
 * One step in a panel the bot edits in place: runs `act` (a click or a menu choice in it), then
 * waits until the panel has been replaced by the bot's answer (no spinner left, something changed).
 * Throws if the page says the interaction failed.
 */
export async function step(panel: Locator, act: () => Promise<unknown>): Promise<void> {
  const id = (await panel.getAttribute('data-id'))!;
  const before = await panel.evaluate((el) => (el as unknown as El).outerHTML);
  await act();
  await panel.page().waitForFunction(
    ([msg, html]) => {
      const el = (globalThis as unknown as { document: Doc }).document.getElementById(`msg-${msg}`);
      return !!el && !el.querySelector('.is-busy') && el.outerHTML !== html;
    },
    [id, before] as const,
    { polling: 50 },
  );
  if (await panel.locator('.msg-failed').count()) throw new Error(`the panel ${id} says the interaction failed: ${await panel.innerText()}`);
}

/** Opens the `nth` menu of `scope` whose face shows `placeholder` (any when omitted) and picks its first option. */
export async function chooseFirst(scope: Locator, placeholder?: RegExp, nth = 0): Promise<void> {
  const faces = placeholder ? scope.locator('.select-face', { hasText: placeholder }) : scope.locator('.select-face');
  await faces.nth(nth).click();
  await scope.getByRole('option').first().click();
}

/**
 * A turn DM, ready to play from: a player whose last move was on the board gets **Play here** in
 * place of the move buttons (src/bot/dm-moves.ts), and tapping it turns this very DM into the
 * turn's buttons. Returns the DM pinned by its id (its text is replaced).
 */
export async function playableDm(dm: Locator): Promise<Locator> {
  await dm.waitFor();
  const pinned = dm.page().locator(`#msg-${await dm.getAttribute('data-id')}`);
  const here = pinned.getByRole('button', { name: 'Play here' });
  if ((await here.count()) > 0) await step(pinned, () => here.click());
  return pinned;
}
