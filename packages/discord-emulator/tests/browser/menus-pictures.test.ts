import { deflateSync } from 'node:zlib';
import { ActionRowBuilder, StringSelectMenuBuilder, type TextChannel } from 'discord.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, menuOptionsOutOfSight, message, openPage, PHONE, runBrowserTests, screenshot } from '../../src/playwright.ts';
import { botAndBrowser } from './bot-and-browser.ts';

/**
 * A select menu in the last message, right above the message box, and a picture too wide for a
 * phone, at desktop and phone sizes: the menu opens upward with every option in sight (it opened
 * downward under the message box, cut off), and a tap on the picture opens it full size in a
 * lightbox that closes again (it did nothing). A tiny discord.js bot of the test's own.
 */
const picked: string[] = [];
const STONES = Array.from({ length: 12 }, (_, i) => ({ label: `Stone #${i + 1}`, value: `s${i + 1}`, description: `Pyramid ${(i % 4) + 1}, ${i % 2 ? 'blue' : 'red'}` }));

/** A PNG of w × h pixels (stripes, so a scaled copy differs from the original), without a drawing library. */
function png(w: number, h: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = y * (w * 3 + 1) + 1 + x * 3;
      const on = (Math.floor(x / 20) + Math.floor(y / 20)) % 2 === 0;
      raw[o] = on ? 230 : 40;
      raw[o + 1] = on ? 200 : 90;
      raw[o + 2] = on ? 80 : 160;
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const setup = botAndBrowser((_emulator, client) => {
  client.on('interactionCreate', async (i) => {
    if (!i.isStringSelectMenu()) return;
    picked.push(...i.values);
    await i.reply({ content: `You picked ${i.values.join(', ')}`, flags: 64 });
  });
});
// After the bot is ready: the messages the tests look at, the last one right above the message box.
beforeAll(async () => {
  if (!runBrowserTests) return;
  const channel = (await setup.client.channels.fetch(setup.emulator.channels.general!)) as TextChannel;
  const early = new StringSelectMenuBuilder().setCustomId('early').setPlaceholder('An earlier menu').addOptions(STONES.slice(0, 4));
  await channel.send({ content: 'An earlier menu, with room below it', components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(early)] });
  await channel.send({ content: 'The board', files: [{ attachment: png(900, 700), name: 'board.png', description: 'The board' }] });
  const menu = new StringSelectMenuBuilder().setCustomId('stone').setPlaceholder('Choose a stone').addOptions(STONES);
  await channel.send({ content: 'Your turn: choose a stone', components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu)] });
});

describe.skipIf(!runBrowserTests)('menus and pictures in the playground', () => {
  for (const [size, viewport, who] of [['desktop', DESKTOP, 'alice'], ['phone', PHONE, 'bob']] as const) {
    it(`${size}: the last message's menu opens upward with every option in sight, and a choice is sent`, async () => {
      const page = await openPage(setup.browser, setup.emulator.url, { query: `?as=${who}&channel=general`, viewport });
      const msg = message(page, 'Your turn: choose a stone');
      await msg.locator('.select-face').click();
      const menu = msg.getByRole('listbox');
      await menu.waitFor();
      // Above its face (the message box is right below it), inside the message list.
      const menuBox = (await menu.boundingBox())!;
      const face = (await msg.locator('.select-face').boundingBox())!;
      const pane = (await page.locator('#messages').boundingBox())!;
      expect(menuBox.y + menuBox.height).toBeLessThanOrEqual(face.y + 0.5);
      expect(menuBox.y).toBeGreaterThanOrEqual(pane.y - 0.5);
      await screenshot(page, `playground-menu-up-${size}`);
      expect(await menuOptionsOutOfSight(page, menu)).toEqual([]);
      await menu.getByRole('option', { name: /Stone #12/ }).click();
      await message(page, 'You picked s12').waitFor();
      expect(picked.at(-1)).toBe('s12');
      expect(page.errors).toEqual([]);
    });

    if (size === 'desktop') {
      it('desktop: a menu with room below it opens downward, as before', async () => {
        const page = await openPage(setup.browser, setup.emulator.url, { query: `?as=${who}&channel=general`, viewport });
        const msg = message(page, 'An earlier menu, with room below it');
        await msg.locator('.select-face').click();
        const menu = msg.getByRole('listbox');
        await menu.waitFor();
        const face = (await msg.locator('.select-face').boundingBox())!;
        expect((await menu.boundingBox())!.y).toBeGreaterThanOrEqual(face.y + face.height - 0.5);
        expect(await menuOptionsOutOfSight(page, menu)).toEqual([]);
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
        expect(page.errors).toEqual([]);
      });
    }

    it(`${size}: a tap on a picture opens it full size; a tap on it shows its own size; Esc and ✕ close it`, async () => {
      const page = await openPage(setup.browser, setup.emulator.url, { query: `?as=${who}&channel=general`, viewport });
      const thumb = message(page, 'The board').locator('.attachment-image img');
      await expect.poll(() => thumb.evaluate((el) => (el as unknown as { naturalWidth: number }).naturalWidth)).toBe(900);
      await thumb.click();
      const box = page.getByRole('dialog', { name: 'Picture: The board' });
      await box.waitFor();
      const img = box.getByRole('img', { name: 'The board' });
      // Fitted: the whole picture on the screen, as large as the screen allows.
      const fitted = (await img.boundingBox())!;
      expect(fitted.x).toBeGreaterThanOrEqual(0);
      expect(fitted.x + fitted.width).toBeLessThanOrEqual(viewport.width);
      expect(fitted.y + fitted.height).toBeLessThanOrEqual(viewport.height);
      expect(Math.round(fitted.width)).toBe(Math.min(900, viewport.width - 16, Math.floor(((viewport.height - 48 - 8) * 900) / 700)));
      await screenshot(page, `playground-lightbox-${size}`);
      if (fitted.width < 900) {
        // Zoomed to its own size: every pixel readable, the stage scrolls to the rest.
        await img.click();
        await expect.poll(async () => Math.round((await img.boundingBox())!.width)).toBe(900);
        await screenshot(page, `playground-lightbox-zoomed-${size}`);
        await img.click();
        await expect.poll(async () => Math.round((await img.boundingBox())!.width)).toBe(Math.round(fitted.width));
      }
      await page.keyboard.press('Escape');
      await box.waitFor({ state: 'detached' });
      // Again, closed with ✕; the page is as it was (the picture did not open a new tab).
      await thumb.click();
      await box.waitFor();
      await box.getByRole('button', { name: 'Close' }).click();
      await box.waitFor({ state: 'detached' });
      expect(page.context().pages().length).toBe(1);
      expect(page.errors).toEqual([]);
    });
  }
});
