import { SlashCommandBuilder } from '@discordjs/builders';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  DiscordAPIError,
  InteractionContextType,
  MessageFlags,
  ModalBuilder,
  PermissionFlagsBits,
  TextInputBuilder,
  TextInputStyle,
} from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
const warnings: Array<[Record<string, unknown>, string]> = [];
const logger = { info() {}, error() {}, warn: (details: Record<string, unknown>, msg: string) => void warnings.push([details, msg]) };

beforeAll(async () => {
  h = await startHarness({ interactionTimeoutMs: 400, logger });
  await h.client.application!.commands.set([
    new SlashCommandBuilder().setName('ping').setDescription('global ping').setContexts(InteractionContextType.Guild, InteractionContextType.BotDM),
    new SlashCommandBuilder().setName('guildonly').setDescription('not in DMs').setContexts(InteractionContextType.Guild),
    new SlashCommandBuilder().setName('admin').setDescription('mods only').setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild),
    new SlashCommandBuilder().setName('form').setDescription('opens a modal'),
  ]);
  // A guild command with the same name as a global one wins in that guild.
  await h.client.guilds.cache.get(h.emulator.guildId)!.commands.set([new SlashCommandBuilder().setName('ping').setDescription('guild ping')]);
});

afterAll(async () => {
  await h?.stop();
});

/**
 * The bot holds its reply to the next slash command until `release()`, which resolves to how the
 * reply went: 'ok', or the error Discord answered with.
 */
function replyWhenReleased(content: string): { release(): Promise<unknown> } {
  let outcome: unknown;
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  h.onInteraction(async (i) => {
    if (!i.isChatInputCommand()) return;
    await gate;
    outcome = await i.reply(content).then(
      () => 'ok',
      (e: unknown) => e,
    );
  });
  return {
    async release() {
      open();
      await h.emu.waitFor(async () => outcome);
      return outcome;
    },
  };
}

describe('interaction lifecycle', () => {
  it('no response in time: the test API reports it and a late reply gets 10062', async () => {
    const held = replyWhenReleased('too late');
    const r = await h.emu.command({ user: 'alice', channel: 'general', name: 'ping' });
    expect(r.response).toBeNull();
    expect(r.error).toMatch(/did not respond/);
    const late = await held.release();
    expect(late).toBeInstanceOf(DiscordAPIError);
    expect((late as DiscordAPIError).code).toBe(10062);
    expect((late as DiscordAPIError).status).toBe(404);
    expect((await h.emu.interaction(r.interactionId)).expired).toBe(true);
    // The server log says so too (a person running `npm start` sees why the click failed).
    expect(warnings).toContainEqual([expect.objectContaining({ interaction: r.interactionId, name: 'ping', timeoutMs: 400 }), expect.stringMatching(/did not answer an interaction in time/)]);
  });

  it('wait_ms: the test API stops waiting sooner, and the interaction stays open for a late answer within its window', async () => {
    const held = replyWhenReleased('in time');
    const r = await h.emu.rawInteraction({ user: 'alice', channel: 'general', type: 2, data: { id: '1', name: 'ping', type: 1 }, wait_ms: 50 });
    expect(r.response).toBeNull();
    expect(r.error).toMatch(/within 50 ms/);
    // The window (400 ms here) is still open: the answer that comes now is accepted, not 10062.
    expect(await held.release()).toBe('ok');
    expect((await h.emu.interaction(r.interactionId)).expired).toBe(false);
  });

  it('guild commands override global ones of the same name', async () => {
    let description = '';
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      description = i.command?.description ?? '';
      await i.reply({ content: `guild=${i.commandGuildId ?? 'global'}` });
    });
    const r = await h.emu.command({ user: 'alice', channel: 'general', name: 'ping' });
    expect(r.response?.message?.content).toBe(`guild=${h.emulator.guildId}`);
    expect(description).toBe('guild ping');
  });

  it('runs global commands in DMs with `user` instead of `member`', async () => {
    let seen: Record<string, unknown> = {};
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      seen = { inGuild: i.inGuild(), member: i.member, user: i.user.id, context: i.context, dm: i.channel?.isDMBased() };
      await i.reply('dm pong');
    });
    const r = await h.emu.command({ user: 'alice', channel: 'dm', name: 'ping' });
    expect(r.response?.message?.content).toBe('dm pong');
    expect(seen).toEqual({ inGuild: false, member: null, user: h.emulator.users.alice, context: 1, dm: true });
    expect((await h.emu.dms('alice')).messages.map((m) => m.content)).toEqual(['dm pong']);
    await expect(h.emu.command({ user: 'alice', channel: 'dm', name: 'guildonly' })).rejects.toThrow(/not available in DMs/);
  });

  it('default_member_permissions: Alice is refused, the moderator may run it', async () => {
    h.onInteraction(async (i) => {
      if (i.isChatInputCommand()) await i.reply({ content: `perms ok for ${i.user.username}`, flags: MessageFlags.Ephemeral });
    });
    await expect(h.emu.command({ user: 'alice', channel: 'general', name: 'admin' })).rejects.toThrow(/lacks the permissions/);
    const r = await h.emu.command({ user: 'moderator', channel: 'general', name: 'admin' });
    expect(r.response?.message?.content).toBe('perms ok for mod');
  });

  it('only the owner of an ephemeral message can use its components', async () => {
    h.onInteraction(async (i) => {
      if (i.isChatInputCommand()) {
        await i.reply({
          content: 'confirm?',
          flags: MessageFlags.Ephemeral,
          components: [new ActionRowBuilder<ButtonBuilder>().addComponents(new ButtonBuilder().setCustomId('yes').setLabel('Yes').setStyle(ButtonStyle.Danger))],
        });
      } else if (i.isButton()) {
        expect(i.message.flags.has(MessageFlags.Ephemeral)).toBe(true);
        await i.update({ content: 'confirmed', components: [] });
      }
    });
    const r = await h.emu.command({ user: 'bob', channel: 'general', name: 'ping' });
    const id = r.response!.message!.id;
    await expect(h.emu.click('alice', id, 'yes')).rejects.toThrow(/cannot see it/);
    const click = await h.emu.click('bob', id, 'yes');
    expect(click.response?.message?.content).toBe('confirmed');
  });

  it('a followUp after an ephemeral deferReply edits the thinking message', async () => {
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply({ flags: MessageFlags.Ephemeral });
      await i.followUp({ content: 'here it is' });
    });
    const r = await h.emu.command({ user: 'carol', channel: 'general', name: 'ping' });
    expect(r.response?.message?.flags).toBe(64 | 128);
    const original = await h.emu.waitFor(async () => {
      const v = await h.emu.interaction(r.interactionId);
      return v.original?.content === 'here it is' ? v : null;
    });
    expect(original.followups).toEqual([]);
    expect(original.original?.flags).toBe(64);
    const bob = await h.emu.messages('general', 'bob');
    expect(bob.messages.some((m) => m.content === 'here it is')).toBe(false);
  });

  it('deleteReply removes the response', async () => {
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply('short-lived');
      await i.deleteReply();
    });
    const r = await h.emu.command({ user: 'dave', channel: 'general', name: 'ping' });
    await h.emu.waitFor(async () => {
      const msgs = await h.emu.messages('general');
      return !msgs.messages.some((m) => m.id === r.response?.message?.id);
    });
  });

  it('shows a modal and receives its submission', async () => {
    let answer = '';
    h.onInteraction(async (i) => {
      if (i.isChatInputCommand()) {
        const modal = new ModalBuilder()
          .setCustomId('rename')
          .setTitle('Rename your team')
          .addComponents(
            new ActionRowBuilder<TextInputBuilder>().addComponents(
              new TextInputBuilder().setCustomId('name').setLabel('Team name').setStyle(TextInputStyle.Short).setMaxLength(20),
            ),
          );
        await i.showModal(modal);
      } else if (i.isModalSubmit()) {
        answer = i.fields.getTextInputValue('name');
        await i.reply({ content: `Team renamed to ${answer}` });
      }
    });
    const r = await h.emu.command({ user: 'alice', channel: 'general', name: 'form' });
    expect(r.response?.type).toBe(9);
    expect(r.response?.modal?.title).toBe('Rename your team');
    await expect(h.emu.submitModal({ user: 'alice', values: { name: 'x'.repeat(21) } })).rejects.toThrow(/1-20 characters|0-20 characters/);
    await expect(h.emu.submitModal({ user: 'bob', values: { name: 'Bobs' } })).rejects.toThrow(/no open modal/);
    const s = await h.emu.submitModal({ user: 'alice', customId: 'rename', values: { name: 'Dice Lords' } });
    expect(answer).toBe('Dice Lords');
    expect(s.response?.message?.content).toBe('Team renamed to Dice Lords');
  });

  it('interaction tokens expire after 15 minutes of emulator time', async () => {
    let edit: (() => Promise<unknown>) | undefined;
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply('soon stale');
      edit = () => i.editReply('edited').catch((e: unknown) => e);
    });
    await h.emu.command({ user: 'bob', channel: 'general', name: 'ping' });
    await h.emu.waitFor(async () => edit);
    await h.emu.advanceClock(16 * 60_000);
    const err = await edit!();
    expect(err).toBeInstanceOf(DiscordAPIError);
    expect((err as DiscordAPIError).code).toBe(50027);
  });

  it('forgets interactions once their token has expired: a long session keeps only the last 15 minutes in memory', async () => {
    h.onInteraction(async (i) => {
      if (i.isChatInputCommand()) await i.reply('pong');
    });
    const old: string[] = [];
    for (let k = 0; k < 5; k++) old.push((await h.emu.command({ user: 'alice', channel: 'general', name: 'ping' })).interactionId);
    expect(h.emulator.records().interactions).toBeGreaterThanOrEqual(5);
    await h.emu.advanceClock(16 * 60_000);
    const fresh = await h.emu.command({ user: 'alice', channel: 'general', name: 'ping' });
    expect(fresh.response?.message?.content).toBe('pong');
    // Only the new one is left; an old one is unknown, as Discord forgets it.
    expect(h.emulator.records().interactions).toBe(1);
    expect((await h.emu.interaction(fresh.interactionId)).acknowledged).toBe(true);
    await expect(h.emu.interaction(old[0]!)).rejects.toThrow(/unknown interaction/);
  });
});
