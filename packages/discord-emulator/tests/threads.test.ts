import { ChannelType, DiscordAPIError, Events, GatewayIntentBits, Routes, type AnyThreadChannel, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

/** Threads as a bot uses them: one started from a game's board, one on its own, messages in both. */
let h: Harness;
const created: AnyThreadChannel[] = [];
beforeAll(async () => {
  h = await startHarness({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages] });
  h.client.on(Events.ThreadCreate, (t, newly) => {
    if (newly) created.push(t);
  });
});
afterAll(async () => {
  await h?.stop();
});

describe('threads', () => {
  it('starts a thread from a message (same id), tells the gateway, and carries messages of the bot and of people', async () => {
    const channel = (await h.client.channels.fetch(h.emulator.channels.games)) as TextChannel;
    const board = await channel.send('Game 1: the board');
    const thread = await board.startThread({ name: 'Game 1 chat' });
    expect(thread.id).toBe(board.id);
    expect(thread.type).toBe(ChannelType.PublicThread);
    expect(thread.parentId).toBe(channel.id);
    expect(thread.ownerId).toBe(h.emulator.botUserId);
    await h.emu.waitFor(async () => created.some((t) => t.id === thread.id));

    await thread.send('your move, Alice');
    await h.emu.sendMessage({ user: 'alice', channel: thread.id, content: 'on it' });
    const seen = await h.emu.messages(thread.id, 'bob');
    expect(seen.messages.map((m) => m.content)).toEqual(['your move, Alice', 'on it']);
    // The channel itself keeps only the board, which now names its thread.
    expect((await h.emu.messages('games')).messages.map((m) => m.content)).toEqual(['Game 1: the board']);
    const fetched = await channel.messages.fetch({ message: board.id, force: true });
    expect(fetched.hasThread).toBe(true);
    expect(fetched.thread?.name).toBe('Game 1 chat');

    // discord.js refuses a second thread by itself (it saw the update); the REST route refuses too.
    const again = await h.client.rest.post(Routes.threads(channel.id, board.id), { body: { name: 'twice' } }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(DiscordAPIError);
    expect((again as DiscordAPIError).code).toBe(160004);
    const unnamed = await channel.threads.create({ name: '' }).catch((e: unknown) => e);
    expect((unnamed as DiscordAPIError).code).toBe(50035);
  });

  it('keeps a private thread from those who are not in it', async () => {
    const channel = (await h.client.channels.fetch(h.emulator.channels.general)) as TextChannel;
    const hidden = await channel.threads.create({ name: 'hand of cards', type: ChannelType.PrivateThread });
    expect(hidden.type).toBe(ChannelType.PrivateThread);
    await hidden.send('only the bot so far');
    await expect(h.emu.messages(hidden.id, 'alice')).rejects.toThrow();
    // The moderator of the example server may not manage threads either; the owner may see everything.
    const owner = await h.emu.messages(hidden.id, 'owner');
    expect(owner.messages.map((m) => m.content)).toEqual(['only the bot so far']);
  });
});
