import { describe, expect, it } from 'vitest';
import { message, openPage, runBrowserTests, type } from '../../src/playwright.ts';
import { botAndBrowser, registerCommands } from './bot-and-browser.ts';

/**
 * Slash commands typed as a line in the playground, as a person types them in Discord: an option
 * value with spaces, and the form's hint for a number option. A tiny discord.js bot of the test's
 * own that echoes what it received, no database.
 */
const seen: Array<Record<string, string | number | null>> = [];

const setup = botAndBrowser(async (emulator, client) => {
  await registerCommands(emulator, [
    {
      name: 'alias',
      description: 'Name a stone',
      options: [
        {
          type: 1,
          name: 'set',
          description: 'Give a stone an alias',
          options: [
            { type: 3, name: 'stone', description: 'The stone', required: true },
            { type: 3, name: 'alias', description: 'The new alias', required: true },
          ],
        },
      ],
    },
    { name: 'count', description: 'Count to n', options: [{ type: 4, name: 'n', description: 'How far', required: true, min_value: 1 }] },
  ]);
  client.on('interactionCreate', async (i) => {
    if (!i.isChatInputCommand()) return;
    if (i.commandName === 'alias') {
      seen.push({ stone: i.options.getString('stone', true), alias: i.options.getString('alias', true) });
      await i.reply({ content: `Stone ${i.options.getString('stone', true)} is now called ${i.options.getString('alias', true)}`, flags: 64 });
    } else {
      seen.push({ n: i.options.getInteger('n', true) });
      await i.reply({ content: `Counted to ${i.options.getInteger('n', true)}`, flags: 64 });
    }
  });
});

describe.skipIf(!runBrowserTests)('a slash command typed as a line in the playground', () => {
  it('sends an option value that holds spaces, up to the next option name, as Discord does', async () => {
    seen.length = 0;
    const page = await openPage(setup.browser, setup.emulator.url, { query: '?as=carol&channel=general' });
    await type(page, '/alias set alias:Big Red <b>x</b> stone:3');
    await page.locator('.popup .slash-item', { hasText: '/alias set' }).waitFor();
    await page.keyboard.press('Enter');
    await message(page, 'Stone 3 is now called Big Red <b>x</b>').waitFor();
    expect(seen).toEqual([{ stone: '3', alias: 'Big Red <b>x</b>' }]);
    await expect(page.locator('.composer-error').isVisible()).resolves.toBe(false);

    // Sent with Enter from the box without the list (typed fast, list closed): the same reading.
    await type(page, '/alias set stone:"7" alias:The Old One');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await message(page, 'Stone 7 is now called The Old One').waitFor();
    expect(seen.at(-1)).toEqual({ stone: '7', alias: 'The Old One' });
    expect(page.errors).toEqual([]);
  });

  it('says which text belongs to no option, and still refuses a command that does not exist', async () => {
    const page = await openPage(setup.browser, setup.emulator.url, { query: '?as=carol&channel=general' });
    await type(page, '/alias sett stone:3 alias:x');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.locator('.composer-error', { hasText: 'There is no command /alias sett.' }).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('');
    await type(page, '/count 4 n:5');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await page.locator('.composer-error', { hasText: '“4” is not an option of /count: give each option as name:value (n:).' }).waitFor();
    expect(seen.some((s) => s.n === 5)).toBe(false);
    expect(page.errors).toEqual([]);
  });

  it('asks for an integer with "an"', async () => {
    const page = await openPage(setup.browser, setup.emulator.url, { query: '?as=carol&channel=general' });
    await type(page, '/count');
    await page.locator('.popup .slash-item', { hasText: '/count' }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.cmd-form input[data-opt="n"]').waitFor();
    await page.locator('.popup .popup-empty', { hasText: 'Type an integer (min 1).' }).waitFor();
    await page.keyboard.type('4');
    await page.keyboard.press('Enter');
    await message(page, 'Counted to 4').waitFor();
    expect(page.errors).toEqual([]);
  });
});
