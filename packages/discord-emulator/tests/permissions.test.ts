/**
 * Discord's permission system as the emulator models it: the overwrite arithmetic (cases from
 * Discord's Permissions topic), the server definition's overwrites, the test API that changes them
 * at run time (and the gateway events that keep discord.js's caches in step), and what each REST
 * route the bot uses answers when a permission is missing.
 */
import { SlashCommandBuilder } from '@discordjs/builders';
import { AttachmentBuilder, DiscordAPIError, EmbedBuilder, Events, PermissionFlagsBits, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, channelPermissions, implicitPermissions, Permission, type PermissionGuild, type PermissionOverwrite } from '../src/permissions.ts';
import type { ServerDefinition } from '../src/server.ts';
import { startHarness, type Harness } from './helpers.ts';

// ---- the arithmetic ------------------------------------------------------------------------------

const GUILD = '100';
const OWNER = '1';
const MEMBER = '2';
const ROLE_A = '10';
const ROLE_B = '11';
const { VIEW_CHANNEL: VIEW, SEND_MESSAGES: SEND, EMBED_LINKS: EMBED, ATTACH_FILES: ATTACH, READ_MESSAGE_HISTORY: HISTORY, ADMINISTRATOR: ADMIN } = Permission;

function guildWith(roles: Record<string, bigint>): PermissionGuild {
  return { id: GUILD, ownerId: OWNER, rolePermissions: (id) => roles[id] };
}
const role = (id: string, allow: bigint, deny: bigint): PermissionOverwrite => ({ id, type: 0, allow, deny });
const member = (id: string, allow: bigint, deny: bigint): PermissionOverwrite => ({ id, type: 1, allow, deny });

describe('channel permissions: the overwrite order of Discord\'s Permissions topic', () => {
  const base = VIEW | SEND | EMBED | ATTACH | HISTORY;
  const cases: Array<{ name: string; roles: Record<string, bigint>; memberRoles: string[]; overwrites: PermissionOverwrite[]; user?: string; has: bigint; lacks: bigint }> = [
    {
      name: '@everyone deny, then a role allow, then the member deny: the member overwrite wins',
      roles: { [GUILD]: base, [ROLE_A]: 0n },
      memberRoles: [ROLE_A],
      overwrites: [role(GUILD, 0n, SEND | ATTACH), role(ROLE_A, SEND | ATTACH, 0n), member(MEMBER, 0n, ATTACH)],
      has: VIEW | SEND | EMBED,
      lacks: ATTACH,
    },
    {
      name: '@everyone deny is lifted by a role allow',
      roles: { [GUILD]: base, [ROLE_A]: 0n },
      memberRoles: [ROLE_A],
      overwrites: [role(GUILD, 0n, SEND), role(ROLE_A, SEND, 0n)],
      has: VIEW | SEND,
      lacks: 0n,
    },
    {
      name: 'two roles at the same level: one allows, one denies: allow wins (denies apply first, then allows)',
      roles: { [GUILD]: base, [ROLE_A]: 0n, [ROLE_B]: 0n },
      memberRoles: [ROLE_A, ROLE_B],
      overwrites: [role(ROLE_A, 0n, EMBED), role(ROLE_B, EMBED, 0n)],
      has: VIEW | EMBED,
      lacks: 0n,
    },
    {
      name: 'a role overwrite of a role the member does not have changes nothing',
      roles: { [GUILD]: base, [ROLE_A]: 0n, [ROLE_B]: 0n },
      memberRoles: [ROLE_A],
      overwrites: [role(ROLE_B, 0n, SEND)],
      has: VIEW | SEND,
      lacks: 0n,
    },
    {
      name: 'a member allow overrides a role deny',
      roles: { [GUILD]: base, [ROLE_A]: 0n },
      memberRoles: [ROLE_A],
      overwrites: [role(ROLE_A, 0n, ATTACH), member(MEMBER, ATTACH, 0n)],
      has: ATTACH,
      lacks: 0n,
    },

    {
      name: 'administrator (from any role) bypasses every overwrite',
      roles: { [GUILD]: base, [ROLE_A]: ADMIN },
      memberRoles: [ROLE_A],
      overwrites: [role(GUILD, 0n, VIEW | SEND), member(MEMBER, 0n, VIEW | SEND | ATTACH)],
      has: ALL_PERMISSIONS,
      lacks: 0n,
    },
    {
      name: 'the owner bypasses every overwrite',
      roles: { [GUILD]: 0n },
      memberRoles: [],
      overwrites: [role(GUILD, 0n, VIEW), member(OWNER, 0n, VIEW | SEND)],
      user: OWNER,
      has: ALL_PERMISSIONS,
      lacks: 0n,
    },
    {
      name: 'base permissions are @everyone OR every role of the member',
      roles: { [GUILD]: VIEW, [ROLE_A]: SEND, [ROLE_B]: ATTACH },
      memberRoles: [ROLE_A, ROLE_B],
      overwrites: [],
      has: VIEW | SEND | ATTACH,
      lacks: EMBED | HISTORY,
    },
  ];
  it('without View Channel nothing else counts; without Send Messages no files, embeds or mass mentions', () => {
    const g = guildWith({ [GUILD]: base | Permission.MENTION_EVERYONE });
    const unseen = channelPermissions(g, { userId: MEMBER, roleIds: [] }, [role(GUILD, 0n, VIEW)]);
    expect(unseen & SEND).toBe(SEND); // the bits Discord's algorithm gives (and discord.js computes)…
    expect(implicitPermissions(unseen)).toBe(0n); // …count for nothing without View Channel
    const mute = implicitPermissions(channelPermissions(g, { userId: MEMBER, roleIds: [] }, [role(GUILD, 0n, SEND)]));
    expect(mute & (VIEW | HISTORY)).toBe(VIEW | HISTORY);
    expect(mute & (ATTACH | EMBED | Permission.MENTION_EVERYONE)).toBe(0n);
    expect(implicitPermissions(ALL_PERMISSIONS)).toBe(ALL_PERMISSIONS);
  });

  for (const c of cases) {
    it(c.name, () => {
      const perms = channelPermissions(guildWith(c.roles), { userId: c.user ?? MEMBER, roleIds: c.memberRoles }, c.overwrites);
      expect(perms & c.has).toBe(c.has);
      expect(perms & c.lacks).toBe(0n);
    });
  }
});

// ---- through discord.js --------------------------------------------------------------------------

const server = {
  bot: { username: 'PermBot' },
  users: [
    { alias: 'owner', username: 'owner' },
    { alias: 'alice', username: 'alice' },
    { alias: 'moderator', username: 'mod' },
  ],
  guilds: [
    {
      name: 'Permission Server',
      owner: 'owner',
      channels: [
        { name: 'general' },
        { name: 'hidden', overwrites: [{ role: 'PermBot', deny: ['VIEW_CHANNEL'] }] },
        { name: 'readonly', overwrites: [{ role: '@everyone', deny: ['SEND_MESSAGES'] }, { role: 'Moderator', allow: ['SEND_MESSAGES'] }] },
        { name: 'noattach', overwrites: [{ user: 'bot', deny: ['ATTACH_FILES', 'EMBED_LINKS', 'READ_MESSAGE_HISTORY'] }] },
        { name: 'scratch' },
        { name: 'doomed' },
      ],
      roles: [{ name: 'Moderator', permissions: Permission.MANAGE_GUILD }],
      memberRoles: { moderator: ['Moderator'] },
      botPermissions: ['VIEW_CHANNEL', 'SEND_MESSAGES', 'SEND_MESSAGES_IN_THREADS', 'EMBED_LINKS', 'ATTACH_FILES', 'READ_MESSAGE_HISTORY', 'USE_APPLICATION_COMMANDS'],
    },
  ],
} as const satisfies ServerDefinition;

let h: Harness<typeof server>;
const png = () => new AttachmentBuilder(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), { name: 'board.png' });

async function refusal(p: Promise<unknown>): Promise<{ status: number; code: number | string }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof DiscordAPIError)) throw new Error(`expected a DiscordAPIError, got ${String(err)}`);
  return { status: err.status, code: err.code };
}

function textChannel(name: keyof (typeof h)['emulator']['channels']): TextChannel {
  const c = h.client.channels.cache.get(h.emulator.channels[name]);
  if (!c) throw new Error(`no channel ${name} in discord.js's cache`);
  return c as TextChannel;
}

/** Waits until discord.js has received a gateway event the test API caused. */
function nextEvent<K extends Events>(event: K): Promise<void> {
  return new Promise((resolve) => h.client.once(event as never, () => resolve()));
}

beforeAll(async () => {
  h = await startHarness({ server });
  await h.client.application!.commands.set([new SlashCommandBuilder().setName('where').setDescription('What may the bot do here?')]);
  h.onInteraction(async (i) => {
    if (!i.isChatInputCommand()) return;
    await i.reply({ content: `app_permissions ${i.appPermissions.bitfield.toString()}`, embeds: [new EmbedBuilder().setTitle('Embedded')], files: [png()] });
  });
});

afterAll(async () => {
  await h?.stop();
});

describe('the server definition\'s overwrites and the bot\'s role', () => {
  it('discord.js computes from GUILD_CREATE the same permissions as the emulator, channel by channel', async () => {
    const guild = h.client.guilds.cache.get(h.emulator.guildId)!;
    const me = guild.members.me!;
    expect(me.roles.cache.some((r) => r.name === 'PermBot' && r.managed)).toBe(true);
    for (const name of Object.keys(h.emulator.channels) as Array<keyof typeof h.emulator.channels>) {
      const view = await h.emu.channelPermissions(name);
      expect(textChannel(name).permissionsFor(me)!.bitfield.toString(), name).toBe(view.bits);
    }
    // The bits say what roles and overwrites give; `effective` applies the implicit rules.
    const hidden = await h.emu.channelPermissions('hidden');
    expect(hidden.permissions).not.toContain('VIEW_CHANNEL');
    expect(hidden.permissions).toContain('SEND_MESSAGES');
    expect(hidden.effective).toEqual([]);
    expect((await h.emu.channelPermissions('noattach')).effective).not.toContain('ATTACH_FILES');
    const readonly = await h.emu.channelPermissions('readonly');
    expect(readonly.permissions).not.toContain('SEND_MESSAGES');
    expect(readonly.permissions).toContain('ATTACH_FILES');
    expect(readonly.effective).not.toContain('ATTACH_FILES');
    expect((await h.emu.channelPermissions('readonly', 'moderator')).effective).toContain('SEND_MESSAGES');
  });

  it('botPermissions sets the managed role: without MANAGE_MESSAGES the bot cannot delete another\'s message', async () => {
    const { message } = await h.emu.sendMessage({ user: 'alice', channel: 'general', content: 'mine' });
    expect(await refusal(textChannel('general').messages.delete(message.id))).toEqual({ status: 403, code: 50013 });
  });

  it('a definition naming an unknown role, member or permission is refused', async () => {
    const { seedServer } = await import('../src/server.ts');
    const { EmulatorState } = await import('../src/state.ts');
    const { OffsetClock } = await import('../src/clock.ts');
    const bad = (overwrites: unknown) =>
      seedServer(new EmulatorState(new OffsetClock()), { ...server, guilds: [{ ...server.guilds[0], channels: [{ name: 'x', overwrites }] as never }] });
    expect(() => bad([{ role: 'Nobody', deny: ['VIEW_CHANNEL'] }])).toThrow(/no role "Nobody"/);
    expect(() => bad([{ user: 'zed', deny: ['VIEW_CHANNEL'] }])).toThrow(/no member "zed"/);
    expect(() => bad([{ role: '@everyone', deny: ['FLY'] }])).toThrow(/unknown permission "FLY"/);
    expect(() => bad([{ role: '@everyone', user: 'alice' }])).toThrow(/either a role or a user/);
  });
});

describe('REST routes refuse what Discord refuses', () => {
  it('a channel the bot cannot see: 403 50001 for posting, fetching, typing, threads', async () => {
    const hidden = textChannel('hidden');
    expect(await refusal(hidden.send('hello'))).toEqual({ status: 403, code: 50001 });
    expect(await refusal(hidden.messages.fetch({ limit: 5 }))).toEqual({ status: 403, code: 50001 });
    expect(await refusal(hidden.sendTyping())).toEqual({ status: 403, code: 50001 });
    expect(await refusal(hidden.threads.create({ name: 'side' }))).toEqual({ status: 403, code: 50001 });
    expect(await refusal(h.client.rest.get(`/channels/${hidden.id}`))).toEqual({ status: 403, code: 50001 });
  });

  it('without Send Messages: 403 50013 for posting and typing', async () => {
    const readonly = textChannel('readonly');
    expect(await refusal(readonly.send('hello'))).toEqual({ status: 403, code: 50013 });
    expect(await refusal(readonly.sendTyping())).toEqual({ status: 403, code: 50013 });
  });

  it('without Attach Files: an upload is 50013 on POST and on an edit that adds one; embeds are dropped, the message posted', async () => {
    const channel = textChannel('noattach');
    expect(await refusal(channel.send({ content: 'board', files: [png()] }))).toEqual({ status: 403, code: 50013 });
    const sent = await channel.send({ content: 'with an embed', embeds: [new EmbedBuilder().setTitle('Dropped')] });
    expect(sent.embeds).toEqual([]);
    expect(sent.content).toBe('with an embed');
    const stored = (await h.emu.messages('noattach')).messages.find((m) => m.id === sent.id)!;
    expect(stored.embeds).toEqual([]);
    expect(await refusal(sent.edit({ content: 'now with a board', files: [png()] }))).toEqual({ status: 403, code: 50013 });
    const edited = await sent.edit({ content: 'edited', embeds: [new EmbedBuilder().setTitle('Dropped too')] });
    expect(edited.content).toBe('edited');
    expect(edited.embeds).toEqual([]);
  });

  it('without Read Message History: fetching one message is 50001, a list is empty, a reply is 50013', async () => {
    const channel = textChannel('noattach');
    const { message } = await h.emu.sendMessage({ user: 'alice', channel: 'noattach', content: 'hi bot' });
    expect(await refusal(channel.messages.fetch(message.id))).toEqual({ status: 403, code: 50001 });
    expect((await channel.messages.fetch({ limit: 10, cache: false })).size).toBe(0);
    expect(await refusal(channel.send({ content: 'answer', reply: { messageReference: message.id } }))).toEqual({ status: 403, code: 50013 });
  });

  it('interaction responses need neither Send Messages nor Attach Files nor Embed Links (Discord always allows them)', async () => {
    await h.emu.setOverwrite({ channel: 'scratch', role: 'PermBot', deny: ['SEND_MESSAGES', 'ATTACH_FILES', 'EMBED_LINKS'] });
    const r = await h.emu.command({ user: 'alice', channel: 'scratch', name: 'where' });
    const msg = r.response!.message!;
    expect(msg.attachments).toHaveLength(1);
    expect(msg.embeds).toHaveLength(1);
    const bits = BigInt(/app_permissions (\d+)/.exec(msg.content)![1]!);
    expect(bits & Permission.SEND_MESSAGES).toBe(0n);
    expect(bits & Permission.ATTACH_FILES).toBe(0n);
    expect(bits & Permission.VIEW_CHANNEL).toBe(Permission.VIEW_CHANNEL);
    await h.emu.clearOverwrite({ channel: 'scratch', role: 'PermBot' });
  });
});

describe('changes at run time reach the bot as Discord\'s gateway events', () => {
  it('setOverwrite: CHANNEL_UPDATE updates discord.js\'s overwrites; app_permissions and the routes follow; clearOverwrite restores', async () => {
    const channel = textChannel('scratch');
    await channel.send('before');
    const updated = nextEvent(Events.ChannelUpdate);
    const view = await h.emu.setOverwrite({ channel: 'scratch', user: 'bot', allow: ['VIEW_CHANNEL'], deny: ['SEND_MESSAGES'] });
    await updated;
    expect(view.permissions).not.toContain('SEND_MESSAGES');
    const me = h.client.guilds.cache.get(h.emulator.guildId)!.members.me!;
    expect(channel.permissionOverwrites.cache.get(h.emulator.botUserId)?.deny.has(PermissionFlagsBits.SendMessages)).toBe(true);
    expect(channel.permissionsFor(me)!.has(PermissionFlagsBits.SendMessages)).toBe(false);
    expect(channel.permissionsFor(me)!.bitfield.toString()).toBe(view.bits);
    expect(await refusal(channel.send('after'))).toEqual({ status: 403, code: 50013 });
    const r = await h.emu.command({ user: 'alice', channel: 'scratch', name: 'where' });
    expect(r.response!.message!.content).toBe(`app_permissions ${view.bits}`);

    const cleared = nextEvent(Events.ChannelUpdate);
    await h.emu.clearOverwrite({ channel: 'scratch', user: 'bot' });
    await cleared;
    expect(channel.permissionOverwrites.cache.has(h.emulator.botUserId)).toBe(false);
    expect(channel.permissionsFor(me)!.has(PermissionFlagsBits.SendMessages)).toBe(true);
    await expect(channel.send('again')).resolves.toBeTruthy();
  });

  it('setRolePermissions: GUILD_ROLE_UPDATE; the bot\'s managed role without Attach Files is refused uploads everywhere', async () => {
    const roleUpdated = nextEvent(Events.GuildRoleUpdate);
    // @everyone's permissions count for the bot too (Discord's default grants Attach Files): take it from both.
    await h.emu.setRolePermissions({ role: '@everyone', permissions: ['VIEW_CHANNEL', 'SEND_MESSAGES', 'READ_MESSAGE_HISTORY'] });
    await roleUpdated;
    const botRoleUpdated = nextEvent(Events.GuildRoleUpdate);
    const result = await h.emu.setRolePermissions({ role: 'PermBot', permissions: ['VIEW_CHANNEL', 'SEND_MESSAGES', 'READ_MESSAGE_HISTORY'] });
    await botRoleUpdated;
    expect(result.permissions).toEqual(['VIEW_CHANNEL', 'SEND_MESSAGES', 'READ_MESSAGE_HISTORY']);
    const me = h.client.guilds.cache.get(h.emulator.guildId)!.members.me!;
    expect(textChannel('general').permissionsFor(me)!.has(PermissionFlagsBits.AttachFiles)).toBe(false);
    expect(await refusal(textChannel('general').send({ files: [png()] }))).toEqual({ status: 403, code: 50013 });
    await h.emu.setRolePermissions({ role: 'PermBot', permissions: ['VIEW_CHANNEL', 'SEND_MESSAGES', 'ATTACH_FILES', 'EMBED_LINKS', 'READ_MESSAGE_HISTORY', 'USE_APPLICATION_COMMANDS'] });
    await expect(textChannel('general').send({ files: [png()] })).resolves.toBeTruthy();
  });

  it('deleteChannel: CHANNEL_DELETE removes it from discord.js; every route then answers 404 10003', async () => {
    const channel = textChannel('doomed');
    const sent = await channel.send('soon gone');
    const deleted = nextEvent(Events.ChannelDelete);
    await h.emu.deleteChannel({ channel: 'doomed' });
    await deleted;
    expect(h.client.channels.cache.has(h.emulator.channels.doomed)).toBe(false);
    const id = h.emulator.channels.doomed;
    expect(await refusal(h.client.rest.post(`/channels/${id}/messages`, { body: { content: 'hello?' } }))).toEqual({ status: 404, code: 10003 });
    expect(await refusal(h.client.rest.patch(`/channels/${id}/messages/${sent.id}`, { body: { content: 'x' } }))).toEqual({ status: 404, code: 10003 });
    expect(await refusal(h.client.rest.get(`/channels/${id}/messages/${sent.id}`))).toEqual({ status: 404, code: 10003 });
    expect((await h.emu.state()).channels.map((c) => c.name)).not.toContain('doomed');
  });

  it('the test API names what it cannot find', async () => {
    await expect(h.emu.setOverwrite({ channel: 'nowhere', role: '@everyone', deny: ['VIEW_CHANNEL'] })).rejects.toThrow(/unknown channel "nowhere"/);
    await expect(h.emu.setOverwrite({ channel: 'general', role: 'Nobody', deny: ['VIEW_CHANNEL'] })).rejects.toThrow(/unknown role "Nobody"/);
    await expect(h.emu.setOverwrite({ channel: 'general', deny: ['VIEW_CHANNEL'] })).rejects.toThrow(/either role/);
    await expect(h.emu.setRolePermissions({ role: 'Nobody', permissions: [] })).rejects.toThrow(/unknown role/);
  });
});
