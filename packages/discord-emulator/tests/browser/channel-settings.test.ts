import { PermissionFlagsBits, type TextChannel } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { openPage, runBrowserTests } from '../../src/playwright.ts';
import { botAndBrowser } from './bot-and-browser.ts';

/**
 * A moderator opens a channel's settings in the playground, sees what the bot may do there and
 * switches the bot's permissions; the bot (a real discord.js client) learns of it through
 * CHANNEL_UPDATE and Discord's refusals follow.
 */
const setup = botAndBrowser();

describe.skipIf(!runBrowserTests)('channel settings in the playground', () => {
  it('a player sees no settings; the moderator switches Attach Files and View Channel off and on for the bot', async () => {
    const player = await openPage(setup.browser, setup.emulator.url, { query: '?as=alice&channel=games' });
    await player.locator('#chat-title', { hasText: 'games' }).waitFor();
    expect(await player.locator('#channel-settings-btn').isVisible()).toBe(false);
    await player.close();

    const page = await openPage(setup.browser, setup.emulator.url, { query: '?as=moderator&channel=games' });
    await page.getByRole('button', { name: /Channel settings/ }).click();
    const panel = page.getByRole('dialog', { name: 'What EmulatorBot may do in #games' });
    await panel.waitFor();
    await panel.getByText('EmulatorBot has everything it needs here.').waitFor();
    const attach = panel.getByRole('switch', { name: 'Attach Files' });
    expect(await attach.isChecked()).toBe(true);

    const games = setup.client.channels.cache.get(setup.emulator.channels.games!) as TextChannel;
    const me = games.guild.members.me!;
    const updated = new Promise((resolve) => setup.client.once('channelUpdate', resolve));
    await attach.click();
    await panel.getByText('EmulatorBot is missing: Attach Files.').waitFor();
    await updated;
    expect(await attach.isChecked()).toBe(false);
    expect(games.permissionsFor(me)!.has(PermissionFlagsBits.AttachFiles)).toBe(false);
    const refused = await games.send({ files: [{ attachment: Buffer.from('png'), name: 'board.png' }] }).catch((e: { code?: number }) => e.code);
    expect(refused).toBe(50013);

    await panel.getByRole('switch', { name: 'View Channel' }).click();
    await panel.getByText('EmulatorBot is missing: View Channel, Send Messages, Embed Links, Attach Files, Read Message History.').waitFor();
    await expect(panel.getByRole('switch', { name: 'Send Messages' }).isChecked()).resolves.toBe(true); // granted, but without View Channel it has no effect
    await panel.getByText('Allowed, but has no effect here').first().waitFor();
    expect(await games.send('hello').catch((e: { code?: number }) => e.code)).toBe(50001);

    await panel.getByRole('button', { name: "Remove EmulatorBot's overwrite" }).click();
    await panel.getByText('EmulatorBot has everything it needs here.').waitFor();
    expect((await setup.emulator.client.channelPermissions('games')).overwrites).toEqual([]);
    await expect(games.send('back')).resolves.toBeTruthy();
    expect(page.errors).toEqual([]);
  });

  it('a change made elsewhere (the test API) shows in an open panel', async () => {
    const page = await openPage(setup.browser, setup.emulator.url, { query: '?as=moderator&channel=general' });
    await page.getByRole('button', { name: /Channel settings/ }).click();
    const panel = page.getByRole('dialog', { name: 'What EmulatorBot may do in #general' });
    await panel.getByText('EmulatorBot has everything it needs here.').waitFor();
    await setup.emulator.client.setOverwrite({ channel: 'general', role: '@everyone', deny: ['EMBED_LINKS'] });
    await setup.emulator.client.setRolePermissions({ role: 'EmulatorBot', permissions: ['VIEW_CHANNEL', 'SEND_MESSAGES', 'ATTACH_FILES', 'READ_MESSAGE_HISTORY'] });
    await panel.getByText('EmulatorBot is missing: Embed Links.').waitFor();
    expect(await panel.getByRole('switch', { name: 'Embed Links' }).isChecked()).toBe(false);
    expect(page.errors).toEqual([]);
  });
});
