import { ChannelType, Events, GatewayIntentBits, type Message, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Permission, type ServerDefinition } from '../src/index.ts';
import { startHarness, type Harness } from './helpers.ts';

/** Two servers side by side: a bot in both, people in one or both, nothing crossing between them. */
const twoGuilds = {
  bot: { username: 'TwinBot' },
  users: [
    { alias: 'olive', username: 'olive', globalName: 'Olive' },
    { alias: 'alice', username: 'alice', globalName: 'Alice' },
    { alias: 'bob', username: 'bob', globalName: 'Bob' },
    { alias: 'pat', username: 'pat', globalName: 'Pat' },
    { alias: 'eve', username: 'eve', globalName: 'Eve' },
  ],
  guilds: [
    {
      name: 'North',
      owner: 'olive',
      members: ['alice', 'bob'],
      channels: [{ name: 'general' }, { name: 'games' }],
      roles: [{ name: 'Moderator', permissions: Permission.MANAGE_GUILD }],
      memberRoles: { bob: ['Moderator'] },
    },
    {
      name: 'South',
      owner: 'pat',
      members: ['alice', 'eve'],
      channels: [{ name: 'general' }, { name: 'arena' }],
      roles: [{ name: 'Referee', permissions: Permission.MANAGE_GUILD }],
      memberRoles: { eve: ['Referee'] },
    },
  ],
} as const satisfies ServerDefinition;

let h: Harness<typeof twoGuilds>;
const created: Message[] = [];

beforeAll(async () => {
  h = await startHarness({ server: twoGuilds, intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages] });
  h.client.on(Events.MessageCreate, (m) => void created.push(m));
});
afterAll(async () => {
  await h?.stop();
});

describe('two guilds', () => {
  it('gives each guild its own ids, channels, roles and members, and the bot sees both', () => {
    const [north, south] = h.emulator.guilds;
    expect(north.id).not.toBe(south.id);
    expect(h.emulator.guildId).toBe(north.id);
    expect(north.channels.general).not.toBe(south.channels.general);
    expect(Object.keys(south.channels)).toEqual(['general', 'arena']);
    expect(south.roles.Referee).toBeDefined();

    const n = h.client.guilds.cache.get(north.id)!;
    const s = h.client.guilds.cache.get(south.id)!;
    expect([n.name, s.name]).toEqual(['North', 'South']);
    expect([...n.channels.cache.values()].map((c) => c.name).sort()).toEqual(['games', 'general']);
    expect([...s.channels.cache.values()].map((c) => c.name).sort()).toEqual(['arena', 'general']);
    expect(s.channels.cache.every((c) => c.type === ChannelType.GuildText && c.guildId === s.id)).toBe(true);
    expect(n.ownerId).toBe(h.emulator.users.olive);
    expect(s.ownerId).toBe(h.emulator.users.pat);
    const ids = (g: typeof n) => [...g.members.cache.keys()].sort();
    expect(ids(n)).toEqual([h.emulator.users.olive, h.emulator.users.alice, h.emulator.users.bob, h.emulator.botUserId].sort());
    expect(ids(s)).toEqual([h.emulator.users.pat, h.emulator.users.alice, h.emulator.users.eve, h.emulator.botUserId].sort());
    expect(n.members.cache.get(h.emulator.users.bob)!.permissions.has('ManageGuild')).toBe(true);
    expect(s.members.cache.get(h.emulator.users.eve)!.permissions.has('ManageGuild')).toBe(true);
    expect(n.roles.cache.map((r) => r.name).sort()).toEqual(['@everyone', 'Moderator', 'TwinBot']);
  });

  it('keeps messages, commands and people in their own guild', async () => {
    const [north, south] = h.emulator.guilds;
    await h.client.application!.commands.set([{ name: 'north-only', description: 'A command of North' }], north.id);
    h.onInteraction(async (i) => {
      if (i.isChatInputCommand()) await i.reply(`hello from ${i.guild?.name}`);
    });
    const r = await h.emu.command({ user: 'alice', channel: north.channels.games, name: 'north-only' });
    expect(r.response?.message?.content).toBe('hello from North');
    await expect(h.emu.command({ user: 'alice', channel: south.channels.arena, name: 'north-only' })).rejects.toThrow(/no slash command \/north-only/);
    // Eve is in South only: North's channels are not hers to post in, South's are.
    await expect(h.emu.sendMessage({ user: 'eve', channel: north.channels.general, content: 'hi' })).rejects.toThrow();
    await h.emu.sendMessage({ user: 'eve', channel: south.channels.general, content: 'hi south' });

    const southChannel = (await h.client.channels.fetch(south.channels.general)) as TextChannel;
    await southChannel.send('posted in South');
    const northView = await h.emu.messages(north.channels.general, 'alice');
    const southView = await h.emu.messages(south.channels.general, 'alice');
    expect(northView.messages.map((m) => m.content)).toEqual([]);
    expect(southView.messages.map((m) => m.content)).toEqual(['hi south', 'posted in South']);
    // The bot hears Eve's message as South's (without the MESSAGE_CONTENT intent, its text is empty).
    const eves = await h.emu.waitFor(async () => created.find((m) => m.author.id === h.emulator.users.eve));
    expect(eves.guildId).toBe(south.id);
    expect(eves.channelId).toBe(south.channels.general);

    const state = await h.emu.state();
    expect(state.guilds.map((g) => g.name)).toEqual(['North', 'South']);
    expect(state.guilds[1]!.member_ids).not.toContain(h.emulator.users.bob);
    // The web page shows the first guild: its channels only.
    expect(state.channels.map((c) => c.id)).toEqual([north.channels.general, north.channels.games]);
  });
});
