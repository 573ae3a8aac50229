import { SlashCommandBuilder } from '@discordjs/builders';
import { DiscordAPIError, Routes, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
let channel: TextChannel;
const warnings: unknown[][] = [];

beforeAll(async () => {
  // Without rate limits: some thirty requests to one channel would wait 10 s on its 5-per-5-s
  // bucket, and nothing here is about rate limits (tests/rate-limits.test.ts is).
  h = await startHarness({ rateLimits: false, logger: { info: () => undefined, warn: (...a: unknown[]) => warnings.push(a), error: () => undefined } });
  await h.client.application!.commands.set([
    new SlashCommandBuilder().setName('ping').setDescription('pong'),
    new SlashCommandBuilder()
      .setName('find')
      .setDescription('find')
      .addStringOption((o) => o.setName('q').setDescription('query').setAutocomplete(true)),
  ]);
  channel = (await h.client.channels.fetch(h.emulator.channels.general)) as TextChannel;
});

afterAll(async () => {
  await h?.stop();
});

async function rejected(p: Promise<unknown>): Promise<DiscordAPIError> {
  const err = await p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DiscordAPIError);
  return err as DiscordAPIError;
}

type Tree = { _errors?: Array<{ code: string; message: string }>; [k: string]: unknown };
const errorsOf = (e: DiscordAPIError) => (e.rawError as { errors: Tree }).errors;
const at = (tree: Tree, ...path: string[]): Array<{ code: string; message: string }> | undefined => {
  let node: unknown = tree;
  for (const p of path) node = (node as Record<string, unknown> | undefined)?.[p];
  return (node as Tree | undefined)?._errors;
};

const button = (id: string) => ({ type: 2, style: 1, label: id, custom_id: id });
const row = (...components: unknown[]) => ({ type: 1, components });

describe('payload validation', () => {
  it('content over 2000 characters: 50035 with errors.content', async () => {
    const err = await rejected(channel.send({ content: 'x'.repeat(2001) }));
    expect(err.code).toBe(50035);
    expect(err.status).toBe(400);
    expect(err.rawError).toMatchObject({ message: 'Invalid Form Body' });
    expect(at(errorsOf(err), 'content')).toEqual([{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }]);
    expect(err.message).toContain('content[BASE_TYPE_MAX_LENGTH]: Must be 2000 or fewer in length.');
    // exactly 2000 is fine
    await channel.send({ content: 'x'.repeat(2000) });
  });

  it('more than 5 action rows', async () => {
    const rows = Array.from({ length: 6 }, (_, i) => row(button(`b${i}`)));
    const err = await rejected(channel.send({ content: 'rows', components: rows as never }));
    expect(at(errorsOf(err), 'components')).toEqual([{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 5 or fewer in length.' }]);
  });

  it('more than 5 buttons in a row, duplicate custom ids, link button rules', async () => {
    const err = await rejected(channel.send({ content: 'six', components: [row(...Array.from({ length: 6 }, (_, i) => button(`b${i}`)))] as never }));
    expect(at(errorsOf(err), 'components', '0', 'components', '5')?.[0]?.code).toBe('COMPONENT_LAYOUT_WIDTH_EXCEEDED');
    const dup = await rejected(channel.send({ content: 'dup', components: [row(button('a'), button('a'))] as never }));
    expect(at(errorsOf(dup), 'components', '0', 'components', '1', 'custom_id')?.[0]?.code).toBe('COMPONENT_CUSTOM_ID_DUPLICATED');
    const link = await rejected(channel.send({ content: 'link', components: [row({ type: 2, style: 5, label: 'x', custom_id: 'x' })] as never }));
    const linkErrors = errorsOf(link);
    expect(at(linkErrors, 'components', '0', 'components', '0', 'url')?.[0]?.code).toBe('BUTTON_COMPONENT_URL_REQUIRED');
    expect(at(linkErrors, 'components', '0', 'components', '0', 'custom_id')).toBeDefined();
    const long = await rejected(channel.send({ content: 'long', components: [row({ ...button('y'), label: 'l'.repeat(81) })] as never }));
    expect(at(errorsOf(long), 'components', '0', 'components', '0', 'label')?.[0]).toEqual({ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 80 or fewer in length.' });
  });

  it('a select menu with 26 options, or sharing its row', async () => {
    const options = Array.from({ length: 26 }, (_, i) => ({ label: `o${i}`, value: `v${i}` }));
    const err = await rejected(channel.send({ content: 'menu', components: [row({ type: 3, custom_id: 'm', options })] as never }));
    expect(at(errorsOf(err), 'components', '0', 'components', '0', 'options')).toEqual([
      { code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 25 in length.' },
    ]);
    const shared = await rejected(
      channel.send({ content: 'menu', components: [row(button('b'), { type: 3, custom_id: 'm', options: options.slice(0, 2) })] as never }),
    );
    expect(at(errorsOf(shared), 'components', '0', 'components', '1')?.[0]?.code).toBe('COMPONENT_LAYOUT_WIDTH_EXCEEDED');
    const ok = await channel.send({ content: 'menu', components: [row({ type: 3, custom_id: 'm', options: options.slice(0, 25) })] as never });
    expect(ok.components).toHaveLength(1);
  });

  it('embed limits: description, field count, total size, number of embeds', async () => {
    const desc = await rejected(channel.send({ embeds: [{ description: 'd'.repeat(4097) }] }));
    expect(at(errorsOf(desc), 'embeds', '0', 'description')?.[0]?.code).toBe('BASE_TYPE_MAX_LENGTH');
    const fields = Array.from({ length: 26 }, (_, i) => ({ name: `f${i}`, value: 'v' }));
    const many = await rejected(channel.send({ embeds: [{ title: 't', fields }] }));
    expect(at(errorsOf(many), 'embeds', '0', 'fields')?.[0]).toEqual({ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' });
    const value = await rejected(channel.send({ embeds: [{ fields: [{ name: 'n', value: 'v'.repeat(1025) }] }] }));
    expect(at(errorsOf(value), 'embeds', '0', 'fields', '0', 'value')?.[0]?.code).toBe('BASE_TYPE_MAX_LENGTH');
    const big = await rejected(channel.send({ embeds: [{ description: 'a'.repeat(4000) }, { description: 'b'.repeat(2001) }] }));
    expect(at(errorsOf(big), 'embeds')?.[0]?.code).toBe('MAX_EMBED_SIZE_EXCEEDED');
    const eleven = await rejected(channel.send({ embeds: Array.from({ length: 11 }, () => ({ title: 't' })) }));
    expect(at(errorsOf(eleven), 'embeds')?.[0]).toEqual({ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' });
    const ok = await channel.send({ embeds: [{ title: 'Leaderboard', description: 'Alice 3 – Bob 1', color: 0xff0000, fields: [{ name: 'Games', value: '4', inline: true }] }] });
    expect(ok.embeds[0]?.title).toBe('Leaderboard');
  });

  it('an empty message is 50006', async () => {
    const err = await rejected(channel.send({ content: '   ' }));
    expect(err.code).toBe(50006);
    expect(err.message).toBe('Cannot send an empty message');
  });

  it('validates interaction responses under data.*', async () => {
    let err: unknown;
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      err = await i.reply({ content: 'y'.repeat(2001) }).catch((e: unknown) => e);
      await i.reply('fine after all');
    });
    const r = await h.emu.command({ user: 'alice', channel: 'general', name: 'ping' });
    expect(r.response?.message?.content).toBe('fine after all');
    expect(err).toBeInstanceOf(DiscordAPIError);
    expect(at(errorsOf(err as DiscordAPIError), 'data', 'content')?.[0]?.code).toBe('BASE_TYPE_MAX_LENGTH');
  });

  it('validates autocomplete results', async () => {
    let err: unknown;
    h.onInteraction(async (i) => {
      if (!i.isAutocomplete()) return;
      err = await i.respond(Array.from({ length: 26 }, (_, k) => ({ name: `c${k}`, value: `c${k}` }))).catch((e: unknown) => e);
      await i.respond([{ name: 'one', value: '1' }]);
    });
    const r = await h.emu.autocomplete({ user: 'bob', channel: 'general', name: 'find', options: { q: 'o' }, focused: 'q' });
    expect(r.choices).toEqual([{ name: 'one', value: '1' }]);
    expect(at(errorsOf(err as DiscordAPIError), 'data', 'choices')?.[0]).toEqual({ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' });
  });

  it('validates command registration like Discord', async () => {
    const rest = h.client.rest;
    const route = Routes.applicationGuildCommands(h.emulator.applicationId, h.emulator.guildId);
    const bad = await rejected(rest.put(route, { body: [{ name: 'Bad Name', description: 'x' }] }));
    expect(at(errorsOf(bad), '0', 'name')?.[0]?.code).toBe('APPLICATION_COMMAND_INVALID_NAME');
    const order = await rejected(
      rest.put(route, {
        body: [
          {
            name: 'order',
            description: 'x',
            options: [
              { type: 3, name: 'a', description: 'a' },
              { type: 3, name: 'b', description: 'b', required: true },
            ],
          },
        ],
      }),
    );
    expect(at(errorsOf(order), '0', 'options')?.[0]?.code).toBe('APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID');
    const tooMany = await rejected(
      rest.put(route, { body: [{ name: 'many', description: 'x', options: Array.from({ length: 26 }, (_, i) => ({ type: 3, name: `o${i}`, description: 'o' })) }] }),
    );
    expect(at(errorsOf(tooMany), '0', 'options')?.[0]?.code).toBe('BASE_TYPE_MAX_LENGTH');
    const desc = await rejected(rest.post(route, { body: { name: 'nodesc', description: '' } }));
    expect(at(errorsOf(desc), 'description')?.[0]).toEqual({ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' });
    const mixed = await rejected(
      rest.post(route, {
        body: { name: 'mixed', description: 'x', options: [{ type: 1, name: 's', description: 's' }, { type: 3, name: 'o', description: 'o' }] },
      }),
    );
    expect(at(errorsOf(mixed), 'options')?.[0]?.code).toBe('APPLICATION_COMMAND_OPTIONS_TYPE_INVALID');
  });

  it('keeps the recent rejections and logs each one', async () => {
    const { rejections } = await h.emu.rejections();
    expect(rejections.length).toBeGreaterThan(5);
    const content = rejections.find((r) => r.details.some((d) => d.startsWith('content: BASE_TYPE_MAX_LENGTH')));
    expect(content).toMatchObject({ method: 'POST', status: 400, code: 50035 });
    expect(warnings.length).toBeGreaterThanOrEqual(rejections.length);
    expect((await h.emu.state()).rejections.length).toBe(rejections.length);
  });

  it('a DM refused because the user closed their DMs is logged without its text (a turn DM can hold a hand)', async () => {
    const user = h.emulator.users.bob;
    await h.emu.setDmsOpen('bob', false);
    try {
      const dm = (await h.client.rest.post(Routes.userChannels(), { body: { recipient_id: user } })) as { id: string };
      const err = await rejected(h.client.rest.post(Routes.channelMessages(dm.id), { body: { content: 'Your hand: red 7, secret' } }));
      expect(err.code).toBe(50007);
      const logged = warnings.filter((w) => JSON.stringify(w).includes('50007'));
      expect(logged.length).toBeGreaterThan(0);
      expect(JSON.stringify(logged)).not.toContain('secret');
      // A malformed request still shows its body, which is what finds the bug.
      await rejected(channel.send({ content: 'y'.repeat(2001) }));
      expect(JSON.stringify(warnings.at(-1))).toContain('yyyy');
    } finally {
      await h.emu.setDmsOpen('bob', true);
    }
  });
});
