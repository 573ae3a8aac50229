import { SlashCommandBuilder } from '@discordjs/builders';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  DiscordAPIError,
  MessageFlags,
  Routes,
  StringSelectMenuBuilder,
  type ChatInputCommandInteraction,
  type TextChannel,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;

const commands = [
  new SlashCommandBuilder().setName('ping').setDescription('Replies with pong'),
  new SlashCommandBuilder()
    .setName('duel')
    .setDescription('Duel someone')
    .addSubcommand((s) =>
      s
        .setName('challenge')
        .setDescription('Challenge a player')
        .addUserOption((o) => o.setName('opponent').setDescription('Who').setRequired(true))
        .addIntegerOption((o) => o.setName('stake').setDescription('Stake').setMinValue(1).setMaxValue(10))
        .addChannelOption((o) => o.setName('where').setDescription('Where').addChannelTypes(ChannelType.GuildText)),
    )
    .addSubcommand((s) =>
      s
        .setName('pick')
        .setDescription('Pick a game')
        .addStringOption((o) => o.setName('game').setDescription('Game').setRequired(true).setAutocomplete(true)),
    ),
];

beforeAll(async () => {
  h = await startHarness();
  await h.client.application!.commands.set(commands);
});

afterAll(async () => {
  await h?.stop();
});

describe('discord.js against the emulator', () => {
  it('logs in and caches the demo guild, its channels, roles and members', () => {
    const { client, emulator } = h;
    expect(client.user?.id).toBe(emulator.botUserId);
    expect(client.user?.bot).toBe(true);
    const guild = client.guilds.cache.get(emulator.guildId);
    expect(guild?.name).toBe('Emulator Test Server');
    expect(guild?.available).toBe(true);
    expect([...guild!.channels.cache.values()].map((c) => c.name).sort()).toEqual(
      ['announcements', 'challenges', 'games', 'general', 'leaderboard'].sort(),
    );
    const mod = guild!.members.cache.get(emulator.users.moderator);
    expect(mod?.roles.cache.some((r) => r.name === 'Moderator')).toBe(true);
    expect(mod?.permissions.has('ManageGuild')).toBe(true);
    expect(guild!.members.cache.get(emulator.users.alice)?.permissions.has('ManageGuild')).toBe(false);
    const me = guild!.members.me!;
    const channel = guild!.channels.cache.get(emulator.channels.general) as TextChannel;
    expect(channel.permissionsFor(me).has(['SendMessages', 'ViewChannel'])).toBe(true);
    expect(client.application?.id).toBe(emulator.applicationId);
  });

  it('registers commands through client.application.commands.set and the test API sees them', async () => {
    const state = await h.emu.state();
    expect(state.commands.map((c) => c.name).sort()).toEqual(['duel', 'ping']);
    const fetched = await h.client.application!.commands.fetch();
    expect(fetched.map((c) => c.name).sort()).toEqual(['duel', 'ping']);
    await expect(h.emu.command({ user: 'alice', channel: 'general', name: 'nope' })).rejects.toThrow(/no slash command \/nope is registered/);
  });

  it('runs a command as Alice; an ephemeral reply is seen by Alice only', async () => {
    let seen: ChatInputCommandInteraction | undefined;
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      seen = i;
      await i.reply({ content: `pong for ${i.user.username}`, flags: MessageFlags.Ephemeral });
    });
    const result = await h.emu.command({ user: 'alice', channel: 'general', name: 'ping' });
    expect(result.error).toBeUndefined();
    expect(result.response?.type).toBe(4);
    expect(result.response?.message?.content).toBe('pong for alice');
    expect(result.response?.message?.flags).toBe(64);
    expect(seen?.commandName).toBe('ping');
    expect(seen?.guildId).toBe(h.emulator.guildId);
    expect(seen?.channel?.id).toBe(h.emulator.channels.general);
    expect(seen?.member?.user.id).toBe(h.emulator.users.alice);
    expect(seen?.appPermissions?.has('SendMessages')).toBe(true);

    const alice = await h.emu.messages('general', 'alice');
    expect(alice.messages.map((m) => m.content)).toContain('pong for alice');
    const reply = alice.messages.find((m) => m.content === 'pong for alice')!;
    expect(reply.author.id).toBe(h.emulator.botUserId);
    expect(reply.interaction_metadata?.user.id).toBe(h.emulator.users.alice);
    expect(reply.type).toBe(20);
    const bob = await h.emu.messages('general', 'bob');
    expect(bob.messages.map((m) => m.content)).not.toContain('pong for alice');
    // Ephemeral messages are invisible through channel routes.
    await expect(h.client.rest.get(Routes.channelMessage(h.emulator.channels.general, reply.id))).rejects.toMatchObject({ code: 10008 });
  });

  it('resolves subcommands and typed options (user, integer, channel)', async () => {
    let got: Record<string, unknown> = {};
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      got = {
        sub: i.options.getSubcommand(),
        opponent: i.options.getUser('opponent')?.id,
        member: i.options.getMember('opponent') ? 'yes' : 'no',
        stake: i.options.getInteger('stake'),
        where: i.options.getChannel('where')?.id,
      };
      await i.reply({ content: 'ok' });
    });
    const r = await h.emu.command({
      user: 'alice',
      channel: 'challenges',
      name: 'duel',
      options: { subcommand: 'challenge', opponent: 'bob', stake: '3', where: 'games' },
    });
    expect(r.response?.type).toBe(4);
    expect(got).toEqual({ sub: 'challenge', opponent: h.emulator.users.bob, member: 'yes', stake: 3, where: h.emulator.channels.games });
    // The public reply is attributed to Alice's command.
    expect(r.response?.message?.interaction?.name).toBe('duel challenge');
    // Structured form and "name with subcommand" form are equivalent.
    const r2 = await h.emu.command({ user: 'bob', channel: 'general', name: 'duel challenge', options: { options: { opponent: h.emulator.users.alice } } });
    expect(r2.response?.type).toBe(4);
    // Bad input is refused before anything reaches the bot.
    await expect(h.emu.command({ user: 'alice', channel: 'general', name: 'duel', options: { subcommand: 'challenge', opponent: 'bob', stake: 11 } })).rejects.toThrow(/<= 10/);
    await expect(h.emu.command({ user: 'alice', channel: 'general', name: 'duel', options: { subcommand: 'challenge' } })).rejects.toThrow(/requires option "opponent"/);
    await expect(h.emu.command({ user: 'alice', channel: 'general', name: 'duel', options: { subcommand: 'challenge', opponent: 'zed' } })).rejects.toThrow(/must be a user/);
  });

  it('button reply, then a click that updates the message', async () => {
    h.onInteraction(async (i) => {
      if (i.isChatInputCommand()) {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('accept').setLabel('Accept').setStyle(ButtonStyle.Success),
          new ButtonBuilder().setCustomId('never').setLabel('Disabled').setStyle(ButtonStyle.Secondary).setDisabled(true),
        );
        await i.reply({ content: 'Bob, do you accept?', components: [row] });
      } else if (i.isButton()) {
        expect(i.message.content).toBe('Bob, do you accept?');
        await i.update({ content: `Accepted by ${i.user.username}`, components: [] });
      }
    });
    const r = await h.emu.command({ user: 'alice', channel: 'games', name: 'ping' });
    const messageId = r.response!.message!.id;
    expect(r.response!.message!.components).toHaveLength(1);
    await expect(h.emu.click('bob', messageId, 'never')).rejects.toThrow(/disabled/);
    await expect(h.emu.click('bob', messageId, 'missing')).rejects.toThrow(/no component with custom_id "missing"/);
    const click = await h.emu.click('bob', messageId, 'accept');
    expect(click.response?.type).toBe(7);
    expect(click.response?.message?.content).toBe('Accepted by bob');
    expect(click.response?.message?.components).toEqual([]);
    expect(click.response?.message?.edited_timestamp).not.toBeNull();
    const view = await h.emu.messages('games', 'carol');
    expect(view.messages.find((m) => m.id === messageId)?.content).toBe('Accepted by bob');
  });

  it('string select menus deliver the chosen values', async () => {
    let values: string[] = [];
    h.onInteraction(async (i) => {
      if (i.isChatInputCommand()) {
        const menu = new StringSelectMenuBuilder()
          .setCustomId('column')
          .setPlaceholder('Column')
          .addOptions({ label: 'One', value: '1' }, { label: 'Two', value: '2' }, { label: 'Three', value: '3' });
        await i.reply({ content: 'Pick', components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu)] });
      } else if (i.isStringSelectMenu()) {
        values = i.values;
        await i.deferUpdate();
      }
    });
    const r = await h.emu.command({ user: 'carol', channel: 'general', name: 'ping' });
    await expect(h.emu.select('carol', r.response!.message!.id, 'column', ['4'])).rejects.toThrow(/no option "4"/);
    await expect(h.emu.select('carol', r.response!.message!.id, 'column', ['1', '2'])).rejects.toThrow(/between 1 and 1/);
    const s = await h.emu.select('carol', r.response!.message!.id, 'column', ['2']);
    expect(s.response?.type).toBe(6);
    expect(values).toEqual(['2']);
  });

  it('deferReply then editReply', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply();
      await gate;
      await i.editReply({ content: 'done thinking' });
    });
    const r = await h.emu.command({ user: 'dave', channel: 'general', name: 'ping' });
    expect(r.response?.type).toBe(5);
    expect(r.response?.message?.flags).toBe(128); // LOADING
    release();
    const final = await h.emu.waitFor(async () => {
      const view = await h.emu.interaction(r.interactionId);
      return view.original?.content === 'done thinking' ? view.original : null;
    });
    expect(final.flags).toBe(0);
    expect(final.edited_timestamp).not.toBeNull();
  });

  it('followUp after a reply, and with_response', async () => {
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      const res = await i.reply({ content: 'first', withResponse: true });
      expect(res.resource?.message?.content).toBe('first');
      expect(res.interaction.id).toBe(i.id);
      const fetched = await i.fetchReply();
      expect(fetched.content).toBe('first');
      await i.followUp({ content: 'second (only you)', flags: MessageFlags.Ephemeral });
      await i.followUp({ content: 'third' });
    });
    const r = await h.emu.command({ user: 'alice', channel: 'leaderboard', name: 'ping' });
    expect(r.response?.message?.content).toBe('first');
    const view = await h.emu.waitFor(async () => {
      const v = await h.emu.interaction(r.interactionId);
      return v.followups.length === 2 ? v : null;
    });
    expect(view.followups.map((m) => m.content)).toEqual(['second (only you)', 'third']);
    expect(view.followups[1]?.message_reference?.message_id).toBe(r.response?.message?.id);
    const bob = await h.emu.messages('leaderboard', 'bob');
    expect(bob.messages.map((m) => m.content)).toEqual(['first', 'third']);
    const alice = await h.emu.messages('leaderboard', 'alice');
    expect(alice.messages.map((m) => m.content)).toEqual(['first', 'second (only you)', 'third']);
  });

  it('a plain reply() gets a 204 without a body and resolves', async () => {
    let outcome = '';
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      const res = await i.reply('plain');
      outcome = res.constructor.name;
      expect(i.replied).toBe(true);
    });
    const r = await h.emu.command({ user: 'bob', channel: 'general', name: 'ping' });
    expect(r.response?.message?.content).toBe('plain');
    await h.emu.waitFor(async () => outcome);
    expect(outcome).toBe('InteractionResponse');
  });

  it('a second acknowledgement is refused with 40060', async () => {
    let second: unknown;
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply('once');
      second = await h.client.rest
        .post(Routes.interactionCallback(i.id, i.token), { body: { type: 4, data: { content: 'twice' } }, auth: false })
        .catch((e: unknown) => e);
    });
    await h.emu.command({ user: 'bob', channel: 'general', name: 'ping' });
    await h.emu.waitFor(async () => second);
    expect(second).toBeInstanceOf(DiscordAPIError);
    expect((second as DiscordAPIError).code).toBe(40060);
    expect((second as DiscordAPIError).status).toBe(400);
  });

  it('channel.send and message.edit; editing someone else\'s message is 50005', async () => {
    const channel = (await h.client.channels.fetch(h.emulator.channels.announcements)) as TextChannel;
    const sent = await channel.send({ content: 'Season 1 begins' });
    expect(sent.author.id).toBe(h.emulator.botUserId);
    const edited = await sent.edit({ content: 'Season 1 has begun' });
    expect(edited.editedTimestamp).not.toBeNull();
    const carol = await h.emu.messages('announcements', 'carol');
    expect(carol.messages.at(-1)?.content).toBe('Season 1 has begun');

    const { message } = await h.emu.sendMessage({ user: 'carol', channel: 'announcements', content: 'hi <@' + h.emulator.botUserId + '>' });
    expect(message.mentions.map((u) => u.id)).toEqual([h.emulator.botUserId]);
    const err = await channel.messages.edit(message.id, { content: 'hijacked' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiscordAPIError);
    expect((err as DiscordAPIError).code).toBe(50005);
    expect((err as DiscordAPIError).status).toBe(403);

    const fetched = await channel.messages.fetch({ limit: 10 });
    expect(fetched.first()?.id).toBe(message.id); // newest first
    await sent.delete();
    await expect(channel.messages.fetch({ message: sent.id, force: true })).rejects.toMatchObject({ code: 10008 });
  });

  it('interaction responses are bot messages: editable through the channel route; replies reference their target', async () => {
    h.onInteraction(async (i) => {
      if (i.isChatInputCommand()) await i.reply('board v1');
    });
    const r = await h.emu.command({ user: 'alice', channel: 'games', name: 'ping' });
    const channel = (await h.client.channels.fetch(h.emulator.channels.games)) as TextChannel;
    const edited = await channel.messages.edit(r.response!.message!.id, { content: 'board v2' });
    expect(edited.content).toBe('board v2');
    expect(edited.webhookId).toBe(h.emulator.applicationId);
    expect(edited.interactionMetadata?.user.id).toBe(h.emulator.users.alice);
    const reply = await edited.reply('replying to the board');
    expect(reply.reference?.messageId).toBe(edited.id);
    expect(reply.type).toBe(19);
    const err = await channel.send({ content: 'x', reply: { messageReference: '123456789012345678' } }).catch((e: unknown) => e);
    expect((err as DiscordAPIError).code).toBe(50035);
  });

  it('DMs a user, and gets 50007 once their DMs are closed', async () => {
    const bob = await h.client.users.fetch(h.emulator.users.bob);
    const dm = await bob.send('Your turn!');
    expect(dm.channel.type).toBe(ChannelType.DM);
    const dms = await h.emu.dms('bob');
    expect(dms.messages.map((m) => m.content)).toEqual(['Your turn!']);
    await h.emu.setDmsOpen('bob', false);
    const err = await bob.send('Still there?').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiscordAPIError);
    expect((err as DiscordAPIError).code).toBe(50007);
    expect((err as DiscordAPIError).status).toBe(403);
    await h.emu.setDmsOpen('bob', true);
    await bob.send('Welcome back');
    expect((await h.emu.dms('bob')).messages).toHaveLength(2);
  });

  it('dedupes a repeated enforced nonce', async () => {
    const channel = (await h.client.channels.fetch(h.emulator.channels.general)) as TextChannel;
    const before = (await h.emu.messages('general')).messages.length;
    const a = await channel.send({ content: 'board v1', nonce: 'outbox-42', enforceNonce: true });
    const b = await channel.send({ content: 'board v1', nonce: 'outbox-42', enforceNonce: true });
    expect(b.id).toBe(a.id);
    const c = await channel.send({ content: 'board v1', nonce: 'outbox-42' }); // not enforced: a new message
    expect(c.id).not.toBe(a.id);
    expect((await h.emu.messages('general')).messages.length).toBe(before + 2);
  });

  it('autocomplete round trip', async () => {
    h.onInteraction(async (i) => {
      if (!i.isAutocomplete()) return;
      const focused = i.options.getFocused(true);
      expect(focused.name).toBe('game');
      expect(i.options.getSubcommand()).toBe('pick');
      await i.respond(
        ['knucklebones', 'chess', 'checkers'].filter((g) => g.startsWith(String(focused.value))).map((g) => ({ name: g, value: g })),
      );
    });
    const r = await h.emu.autocomplete({ user: 'alice', channel: 'general', name: 'duel', options: { subcommand: 'pick', game: 'ch' }, focused: 'game' });
    expect(r.choices).toEqual([
      { name: 'chess', value: 'chess' },
      { name: 'checkers', value: 'checkers' },
    ]);
  });

  it('advances the clock and waits for its listeners', async () => {
    let advanced = 0;
    const off = h.emulator.clock.onAdvance(async (ms) => {
      await new Promise((r) => setTimeout(r, 20));
      advanced += ms;
    });
    const before = Date.parse((await h.emu.clock()).now);
    const res = await h.emu.advanceClock(24 * 3600_000);
    off();
    expect(advanced).toBe(24 * 3600_000);
    expect(res.offsetMs).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(Date.parse(res.now) - before).toBeGreaterThanOrEqual(24 * 3600_000);
    // New messages carry emulator time (timestamp and snowflake).
    const channel = (await h.client.channels.fetch(h.emulator.channels.general)) as TextChannel;
    const m = await channel.send('tomorrow');
    expect(m.createdTimestamp - Date.now()).toBeGreaterThan(23 * 3600_000);
  });
});
