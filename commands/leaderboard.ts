import { games } from '../src/games/index.ts';
import { SlashCommandBuilder } from '@discordjs/builders';
import type { ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { requireGuild } from '../src/bot/interaction-utils.ts';
import { allTimeStandings, hasCycles, leaderboardText, resolveCycle, standings, standingsText } from '../src/services/leaderboard.ts';
import { UserError } from '../src/services/errors.ts';

/**
 * `/leaderboard [game] [cycle] [all-time] [detailed]`: standings of a cycle (default: the current or
 * the last one), or all-time (every finished game but practice; the default where no cycle has run).
 */

const schema = z.object({
  game: z
    .string()
    .refine((g) => games.get(g) !== undefined, 'unknown game')
    .nullable()
    .transform((g) => g ?? games.kinds()[0]!),
  cycle: z.string().trim().max(100).nullable(),
  detailed: z.boolean().nullable(),
  allTime: z.boolean().nullable(),
});
type Input = z.infer<typeof schema>;

const data = new SlashCommandBuilder()
  .setName('leaderboard')
  .setDescription('Standings of a cycle or of all time: rank, name, wins–losses and Glicko-2 rating.')
  .setDMPermission(false)
  .addStringOption((o) =>
    o
      .setName('game')
      .setDescription(`Which game (default ${games.all[0]!.title})`)
      .addChoices(...games.all.map((g) => ({ name: g.title, value: g.kind }))),
  )
  .addStringOption((o) => o.setName('cycle').setDescription('Cycle name, e.g. "Cycle 16" (default: current or last)').setMaxLength(100))
  .addBooleanOption((o) => o.setName('all-time').setDescription('Every finished game but practice, not one cycle (the default where no cycle has run)'))
  .addBooleanOption((o) => o.setName('detailed').setDescription('The long form: draws, forfeits, points, rating deviation (default: one short line each)'));

function read(i: ChatInputCommandInteraction): unknown {
  return { game: i.options.getString('game'), cycle: i.options.getString('cycle'), detailed: i.options.getBoolean('detailed'), allTime: i.options.getBoolean('all-time') };
}

async function execute(i: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  const guildId = requireGuild(i);
  const detailed = input.detailed === true;
  if (input.allTime || (input.allTime === null && input.cycle === null && !(await hasCycles(deps.ctx, guildId)))) {
    if (input.cycle !== null) throw new UserError('leaderboard/all-time-cycle', 'Choose either a `cycle` or `all-time`, not both.');
    const rows = await allTimeStandings(deps.ctx, { guildId, kind: input.game });
    const title = `🏆 **${deps.games.title(input.game)} leaderboard: all time**`;
    await i.reply({ content: standingsText(title, rows, { detailed }), allowedMentions: { parse: [] } });
    return;
  }
  const cycle = await resolveCycle(deps.ctx, guildId, input.cycle);
  const rows = await standings(deps.ctx, { cycleId: cycle.id, kind: input.game });
  await i.reply({ content: leaderboardText(cycle, input.game, rows, { detailed }), allowedMentions: { parse: [] } });
}

export default defineCommand<Input>({ data, schema, read, execute });
