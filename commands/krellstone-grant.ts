import { SlashCommandBuilder } from '@discordjs/builders';
import { PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';
import { defineCommand } from '../src/bot/command.ts';
import krellstone, { typeChoices } from './krellstone.ts';

/**
 * `/krellstone-grant`: moderators give a player Krellstones stones, faces, mats or credits. A
 * command of its own, apart from the players' `/krellstone`, so that Discord hides it from players
 * (default member permissions: Manage Server); the grant checks the member again in its
 * transaction, as a server may show the command to anyone. It runs `/krellstone`'s grant use cases.
 */
const data = new SlashCommandBuilder()
  .setName('krellstone-grant')
  .setDescription('Moderators: give a player Krellstones stones, faces, mats or credits.')
  .setDMPermission(false)
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .addSubcommand((s) =>
    s
      .setName('stones')
      .setDescription('Moderators: give new stones (random values).')
      .addUserOption((o) => o.setName('player').setDescription('Who').setRequired(true))
      .addStringOption((o) => o.setName('type').setDescription('Stone type').setRequired(true).addChoices(...typeChoices))
      .addIntegerOption((o) => o.setName('count').setDescription('How many (default 1)').setMinValue(1).setMaxValue(20)),
  )
  .addSubcommand((s) =>
    s
      .setName('faces')
      .setDescription('Moderators: give faces (random, or as given).')
      .addUserOption((o) => o.setName('player').setDescription('Who').setRequired(true))
      .addStringOption((o) => o.setName('type').setDescription('Stone type (default random)').addChoices(...typeChoices))
      .addIntegerOption((o) => o.setName('value').setDescription('Value (needs the type; default random)').setMinValue(1).setMaxValue(67))
      .addIntegerOption((o) => o.setName('weight').setDescription('Weight (default random)').addChoices({ name: '0', value: 0 }, { name: '1', value: 1 }, { name: '2', value: 2 }))
      .addBooleanOption((o) => o.setName('promo').setDescription('Promo face (default: one in ten)'))
      .addIntegerOption((o) => o.setName('count').setDescription('How many (default 1)').setMinValue(1).setMaxValue(20)),
  )
  .addSubcommand((s) =>
    s
      .setName('mats')
      .setDescription('Moderators: give mats.')
      .addUserOption((o) => o.setName('player').setDescription('Who').setRequired(true))
      .addStringOption((o) => o.setName('name').setDescription('The mat’s name (default Modern Krellstones mat)').setMaxLength(40))
      .addIntegerOption((o) => o.setName('count').setDescription('How many (default 1)').setMinValue(1).setMaxValue(20)),
  )
  .addSubcommand((s) =>
    s
      .setName('credits')
      .setDescription('Moderators: give credits.')
      .addUserOption((o) => o.setName('player').setDescription('Who').setRequired(true))
      .addIntegerOption((o) => o.setName('amount').setDescription('How many credits').setRequired(true).setMinValue(1).setMaxValue(100_000)),
  );

function read(i: ChatInputCommandInteraction): unknown {
  return { ...(krellstone.read(i) as Record<string, unknown>), cmd: `grant ${i.options.getSubcommand(false)}` };
}

export default defineCommand({ data, schema: krellstone.schema, read, execute: krellstone.execute });
