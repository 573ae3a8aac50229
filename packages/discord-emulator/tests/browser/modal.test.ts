import { ActionRowBuilder, ModalBuilder, TextInputBuilder, TextInputStyle } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { message, openPage, runBrowserTests, type } from '../../src/playwright.ts';
import { botAndBrowser, registerCommands } from './bot-and-browser.ts';

/**
 * What Stonehall does not use yet but a bot may: a command typed as a whole line (a choice by name,
 * a boolean), a modal, and its submission. A tiny discord.js bot of the test's own, no database.
 */
const seen: Array<{ kind: string; loud: boolean | null }> = [];

const setup = botAndBrowser(async (emulator, client) => {
  await registerCommands(emulator, [
    {
      name: 'team',
      description: 'Name your team',
      options: [
        { type: 3, name: 'kind', description: 'Colour', required: true, choices: [{ name: 'Red', value: 'r' }, { name: 'Blue', value: 'b' }] },
        { type: 5, name: 'loud', description: 'Announce it?' },
      ],
    },
  ]);
  client.on('interactionCreate', async (i) => {
    if (i.isChatInputCommand()) {
      seen.push({ kind: i.options.getString('kind', true), loud: i.options.getBoolean('loud') });
      const input = new TextInputBuilder().setCustomId('name').setLabel('Team name').setStyle(TextInputStyle.Short).setRequired(true);
      await i.showModal(new ModalBuilder().setCustomId('team').setTitle('Your team').addComponents(new ActionRowBuilder<TextInputBuilder>().addComponents(input)));
    } else if (i.isModalSubmit()) {
      await i.reply({ content: `Team **${i.fields.getTextInputValue('name')}** is ready`, flags: 64 });
    }
  });
});

describe.skipIf(!runBrowserTests)('the playground with a bot that opens modals', () => {
  it('sends a command typed as a line, shows the modal and submits it', async () => {
    const page = await openPage(setup.browser, setup.emulator.url, { query: '?as=carol&channel=general' });
    await type(page, '/team kind:Blue loud:true');
    await page.locator('.popup .slash-item', { hasText: '/team' }).waitFor();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Your team' });
    await dialog.waitFor();
    expect(seen).toEqual([{ kind: 'b', loud: true }]);
    await dialog.getByRole('textbox', { name: /Team name/ }).fill('Dice Lords');
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await message(page, 'Team Dice Lords is ready').locator('.msg-eph-note').waitFor();
    await expect(dialog.isVisible()).resolves.toBe(false);
    expect(page.errors).toEqual([]);
  });
});
