import { games } from '../src/games/index.ts';
import { SlashCommandBuilder } from '@discordjs/builders';
import type { ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { requireGuild } from '../src/bot/interaction-utils.ts';
import { leaderboardText, resolveCycle, standings } from '../src/services/leaderboard.ts';

/** `/leaderboard [game] [cycle]`: standings of a cycle (default: the current or the last one). */

const schema = z.object({
  game: z
    .string()
    .refine((g) => games.get(g) !== undefined, 'unknown game')
    .nullable()
    .transform((g) => g ?? games.kinds()[0]!),
  cycle: z.string().trim().max(100).nullable(),
  detailed: z.boolean().nullable(),
});
type Input = z.infer<typeof schema>;

const data = new SlashCommandBuilder()
  .setName('leaderboard')
  .setDescription('Standings of a cycle: games, wins, draws, losses, forfeits and Glicko-2 rating.')
  .setDMPermission(false)
  .addStringOption((o) =>
    o
      .setName('game')
      .setDescription(`Which game (default ${games.all[0]!.title})`)
      .addChoices(...games.all.map((g) => ({ name: g.title, value: g.kind }))),
  )
  .addStringOption((o) => o.setName('cycle').setDescription('Cycle name, e.g. "Cycle 16" (default: current or last)').setMaxLength(100))
  .addBooleanOption((o) => o.setName('detailed').setDescription('The long form: draws, forfeits, points, rating deviation (default: one short line each)'));

function read(i: ChatInputCommandInteraction): unknown {
  return { game: i.options.getString('game'), cycle: i.options.getString('cycle'), detailed: i.options.getBoolean('detailed') };
}

async function execute(i: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  const guildId = requireGuild(i);
  const cycle = await resolveCycle(deps.ctx, guildId, input.cycle);
  const rows = await standings(deps.ctx, { cycleId: cycle.id, kind: input.game });
  await i.reply({ content: leaderboardText(cycle, input.game, rows, { detailed: input.detailed === true }), allowedMentions: { parse: [] } });
}

export default defineCommand<Input>({ data, schema, read, execute });
