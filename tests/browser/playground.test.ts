import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorEvent } from '@stonehall/discord-emulator';
import { button, startHarness, type Harness } from '../helpers/harness.ts';
import { actAs, closeContexts, contentWidth, css, message, openChannel, openPage, PHONE, runBrowserTests, screenshot, sharedBrowser, type, warmUp } from './browser.ts';

/**
 * The playground as a person uses it, in Chromium, against the real bot: ephemeral replies only for
 * whoever caused them, the command form (choices, autocomplete from the bot), rendering of the
 * bot's messages, refused payloads shown in the page, the clock control driving reminders and the
 * 24-hour forfeit, and the phone layout.
 */
let h: Harness;
let browser: Browser;
let gameId = 0;
let mover = '';
let waiting = '';
const events: EmulatorEvent[] = [];
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

beforeAll(async () => {
  if (!runBrowserTests) return;
  h = await startHarness();
  [browser] = await Promise.all([sharedBrowser(), warmUp(h)]);
  h.emulator.state.on((e) => events.push(e));
  // A game between Alice and Bob, set up through the test API (the other file plays one by clicks).
  const res = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones join', options: { opponent: 'bob' } });
  const challenge = res.response!.message!;
  await h.api.click('bob', challenge.id, button(challenge, (b) => b.label === 'Accept').custom_id!);
  await h.settle();
  const game = await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' }, include: { seats: true } });
  gameId = game.id;
  const turn = (game.state as { turn: string }).turn;
  const alias = (id: string) => Object.entries(h.emulator.users).find(([, v]) => v === id)![0];
  mover = alias(turn);
  waiting = mover === 'alice' ? 'bob' : 'alice';
});
afterAll(async () => {
  await closeContexts(browser);
  await h?.close();
});

const board = (page: Page) => page.locator('#message-list .msg').filter({ has: page.locator('.embed-title', { hasText: `Knucklebones #${gameId}` }) });

describe.skipIf(!runBrowserTests)('the playground in Chromium', () => {
  it('an ephemeral error is shown only to the user who caused it', async () => {
    const [carol, alice] = await Promise.all([
      openPage(browser, h.emulator.url, { query: '?as=carol&channel=knucklebones' }),
      openPage(browser, h.emulator.url, { query: '?as=alice&channel=knucklebones' }),
    ]);
    await board(carol).getByRole('button', { name: /Column 1/ }).click();
    const refusal = message(carol, /not playing in game/);
    await refusal.locator('.msg-eph-note', { hasText: 'Only you can see this' }).waitFor();
    await expect(refusal.locator('.msg-context').textContent()).resolves.toContain('@Stonehall'); // a reply to the board
    await screenshot(carol, 'ephemeral-error');

    // Carol then says something in the channel; once Alice sees that, she has seen everything before it.
    await type(carol, 'good luck both!');
    await carol.keyboard.press('Enter');
    await message(alice, 'good luck both!').waitFor();
    await expect(message(alice, /not playing in game/).count()).resolves.toBe(0);
    await expect(alice.locator('.msg-ephemeral').count()).resolves.toBe(0);

    // Dismissing removes it for Carol.
    await refusal.getByRole('button', { name: 'Dismiss message' }).click();
    await expect.poll(() => message(carol, /not playing in game/).count()).toBe(0);
    expect([...carol.errors, ...alice.errors]).toEqual([]);
    await Promise.all([carol.context().close(), alice.context().close()]);
  });

  it('the command form: choices as a dropdown and autocomplete options asking the bot', async () => {
    const page = await openPage(browser, h.emulator.url, { query: `?as=${mover}&channel=knucklebones` });
    await type(page, '/knucklebones pl');
    await page.locator('.slash-item', { hasText: '/knucklebones place' }).click();
    // column: the registered choices, as a dropdown.
    const choices = page.locator('.popup .option-item');
    await expect.poll(() => choices.allInnerTexts()).toEqual(['Column 1', 'Column 2', 'Column 3']);
    await choices.filter({ hasText: 'Column 2' }).click();
    // game: optional and autocompleted; the choices come from the bot's autocomplete handler.
    await page.locator('.opt-folded', { hasText: 'game' }).click();
    const suggestion = page.locator('.popup .option-item', { hasText: `#${gameId} vs ${cap(waiting)}` });
    await suggestion.waitFor();
    await expect(suggestion.innerText()).resolves.toMatch(/your turn \(die \d\)/);
    await screenshot(page, 'autocomplete');
    await suggestion.click();
    await page.keyboard.press('Enter');
    const reply = message(page, `column 2 of game #${gameId}`);
    await reply.locator('.msg-eph-note').waitFor();
    await expect(reply.locator('.msg-context').textContent()).resolves.toContain(`${cap(mover)} used /knucklebones place`);
    const used = events.filter((e) => e.type === 'interaction.create' && e.interactionType === 4);
    expect(used.length).toBeGreaterThan(0);
    expect(page.errors).toEqual([]);
    await page.context().close();
    [mover, waiting] = [waiting, mover];
  });

  it('renders the bot’s markdown, timestamps in the viewer’s time zone, embeds and components; a menu choice is sent as the user', async () => {
    const ch = h.emulator.channels;
    const ts = Math.floor(h.clock.now().getTime() / 1000) + 3 * 24 * 3600 + 600;
    const content = [
      '**bold** *italic* __under__ ~~strike~~ `inline` ||secret||',
      `<@${h.emulator.users.alice}> <@&${h.emulator.moderatorRoleId}> <#${ch.knucklebones}>`,
      '> quoted',
      '```js\nconst x = 1;\n```',
      `Deadline <t:${ts}:f> (<t:${ts}:R>)`,
    ].join('\n');
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="60"><rect width="160" height="60" fill="#57f287"/><text x="20" y="38" font-size="20">Stonehall</text></svg>';
    const payload = {
      content,
      embeds: [
        {
          title: 'An embed',
          description: 'With **markdown** and a [link](https://example.com).',
          color: 0xed4245,
          fields: [
            { name: 'Left', value: 'one', inline: true },
            { name: 'Right', value: 'two', inline: true },
            { name: 'Below', value: 'three' },
          ],
          footer: { text: 'A footer' },
          image: { url: 'attachment://card.svg' },
        },
      ],
      components: [
        {
          type: 1,
          components: [
            { type: 2, style: 1, label: 'Primary', custom_id: 'demo:1' },
            { type: 2, style: 3, label: 'Success', custom_id: 'demo:3' },
            { type: 2, style: 4, label: 'Danger', custom_id: 'demo:4' },
            { type: 2, style: 2, label: 'Disabled', custom_id: 'demo:2', disabled: true },
            { type: 2, style: 5, label: 'Docs', url: 'https://example.com/docs' },
          ],
        },
        { type: 1, components: [{ type: 3, custom_id: 'demo:pick', placeholder: 'Pick a game', options: [{ label: 'Knucklebones', value: 'kb', description: 'Dice' }, { label: 'Tellstones', value: 'ts' }] }] },
      ],
      attachments: [{ id: 0, filename: 'card.svg' }],
    };
    const form = new FormData();
    form.append('payload_json', JSON.stringify(payload));
    form.append('files[0]', new Blob([svg], { type: 'image/svg+xml' }), 'card.svg');
    const res = await fetch(`${h.emulator.apiBase}/v10/channels/${ch.general}/messages`, { method: 'POST', headers: { authorization: `Bot ${h.emulator.botToken}` }, body: form });
    expect(res.status).toBe(200);

    const page = await openPage(browser, h.emulator.url, { query: '?as=carol&channel=general', timezoneId: 'Asia/Tokyo' });
    const m = message(page, 'bold');
    const body = m.locator('.msg-content');
    await expect(body.locator('strong').innerText()).resolves.toBe('bold');
    await expect(body.locator('em').first().innerText()).resolves.toBe('italic');
    await expect(body.locator('u').innerText()).resolves.toBe('under');
    await expect(body.locator('s').innerText()).resolves.toBe('strike');
    await expect(body.locator('code.md-code').innerText()).resolves.toBe('inline');
    await expect(body.locator('.mention').allInnerTexts()).resolves.toEqual(['@Alice', '@Moderator', '#knucklebones']);
    await expect(body.locator('blockquote').innerText()).resolves.toBe('quoted');
    await expect(body.locator('pre code').innerText()).resolves.toBe('const x = 1;');
    const tokyo = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Asia/Tokyo' }).format(new Date(ts * 1000));
    await expect(body.locator('time[data-style="f"]').innerText()).resolves.toBe(tokyo);
    await expect(body.locator('time[data-style="R"]').innerText()).resolves.toBe('in 3 days');
    // The spoiler hides its text until clicked.
    await expect(css(body.locator('.spoiler'), 'color')).resolves.toBe('rgba(0, 0, 0, 0)');

    const embed = m.locator('.embed');
    await expect(css(embed, 'border-left-color')).resolves.toBe('rgb(237, 66, 69)');
    await expect(embed.locator('.embed-title').innerText()).resolves.toBe('An embed');
    await expect(embed.locator('.embed-desc strong').innerText()).resolves.toBe('markdown');
    await expect(embed.locator('.embed-field-name').allInnerTexts()).resolves.toEqual(['Left', 'Right', 'Below']);
    const [left, right, below] = await Promise.all(['Left', 'Right', 'Below'].map((n) => embed.locator('.embed-field', { hasText: n }).boundingBox()));
    expect(left!.y).toBe(right!.y); // inline fields side by side
    expect(below!.y).toBeGreaterThan(left!.y);
    await expect(embed.locator('.embed-footer').innerText()).resolves.toBe('A footer');
    await expect.poll(() => embed.locator('img.embed-image').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(160);

    await expect(m.getByRole('button', { name: 'Disabled' }).isDisabled()).resolves.toBe(true);
    await expect(m.getByRole('button', { name: 'Primary' }).isEnabled()).resolves.toBe(true);
    await expect(m.getByRole('link', { name: 'Docs' }).getAttribute('href')).resolves.toBe('https://example.com/docs');
    await screenshot(page, 'rendering');

    // Choosing in the menu sends a component interaction as Carol.
    await m.locator('.select-face').click();
    await m.getByRole('option', { name: /Tellstones/ }).click();
    await expect
      .poll(() => events.some((e) => e.type === 'interaction.create' && e.interactionType === 3 && e.userId === h.emulator.users.carol))
      .toBe(true);
    // The bot does not know that menu: it answers (ephemerally) or Discord says the interaction failed.
    await page.locator('.msg-ephemeral, .msg-failed').first().waitFor();
    expect(page.errors).toEqual([]);
    await page.context().close();
  });

  it('a payload the emulator refuses appears in the page, not silently', async () => {
    const page = await openPage(browser, h.emulator.url, { query: '?as=moderator&channel=general' });
    const before = h.emulator.state.rejections.length;
    const res = await fetch(`${h.emulator.apiBase}/v10/channels/${h.emulator.channels.general}/messages`, {
      method: 'POST',
      headers: { authorization: `Bot ${h.emulator.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'x'.repeat(2001) }),
    });
    expect(res.status).toBe(400);
    const toast = page.locator('.toast-error', { hasText: 'Discord refused a request from Stonehall' });
    await toast.waitFor();
    await expect(toast.innerText()).resolves.toMatch(/content: BASE_TYPE_MAX_LENGTH/);
    await expect(page.locator('#errors-count').innerText()).resolves.toBe(String(before + 1));
    await page.locator('#errors-btn').click();
    await page.locator('#errors-panel .rejection', { hasText: 'Invalid Form Body' }).waitFor();
    await screenshot(page, 'refused-payload');
    expect(page.errors).toEqual([]);
    await page.context().close();
  });

  it('the clock control: the moderator advances time and sees the reminders and the 24-hour forfeit', async () => {
    const mod = await openPage(browser, h.emulator.url);
    await actAs(mod, 'Mod');
    await openChannel(mod, 'knucklebones');
    const idle = await openPage(browser, h.emulator.url, { query: `?as=${mover}&channel=dm` });
    const reminders = () => message(idle, 'Reminder: your turn').count();
    const before = await reminders();

    await mod.getByRole('button', { name: 'Emulator clock' }).click();
    await mod.getByRole('button', { name: '+12 h' }).click();
    await mod.locator('#clock-status', { hasText: 'Advanced +12 h' }).waitFor();
    await expect.poll(reminders).toBe(before + 1);
    await expect(mod.locator('#clock-offset').innerText()).resolves.toMatch(/^\+12h/);

    await mod.getByRole('button', { name: '+12 h' }).click();
    await mod.locator('#clock-status', { hasText: 'Advanced +12 h' }).waitFor();
    await board(mod).locator('.embed-desc', { hasText: `@${cap(mover)}’s turn ran out` }).waitFor();
    await message(idle, `#${gameId} is over`).waitFor();
    // The 4 h and 1 h reminders fell due in the same jump as the deadline: a lost turn gets no reminder.
    await expect.poll(reminders).toBe(before + 1);
    await screenshot(mod, 'clock-forfeit');
    await screenshot(idle, 'reminders-dm');
    expect([...mod.errors, ...idle.errors]).toEqual([]);
    await Promise.all([mod.context().close(), idle.context().close()]);
  });

  it('at a phone width the channel list collapses into a drawer', async () => {
    const page = await openPage(browser, h.emulator.url, { viewport: PHONE, query: '?as=bob&channel=general' });
    const sidebar = page.locator('#sidebar');
    const offscreen = async () => {
      const box = await sidebar.boundingBox();
      return box!.x + box!.width <= 0;
    };
    await expect.poll(offscreen).toBe(true);
    await expect(page.locator('#members').isVisible()).resolves.toBe(false);
    await expect(contentWidth(page)).resolves.toBeLessThanOrEqual(PHONE.width);
    await page.getByRole('button', { name: 'Channels' }).click();
    await expect.poll(async () => (await sidebar.boundingBox())!.x).toBe(0);
    await screenshot(page, 'phone-channels');
    await openChannel(page, 'knucklebones');
    await expect.poll(offscreen).toBe(true);
    await board(page).waitFor();
    await screenshot(page, 'phone-knucklebones');
    await type(page, '/');
    await page.locator('.slash-item').first().waitFor();
    await screenshot(page, 'phone-slash');
    await expect(contentWidth(page)).resolves.toBeLessThanOrEqual(PHONE.width);
    expect(page.errors).toEqual([]);
    await page.context().close();
  });
});
