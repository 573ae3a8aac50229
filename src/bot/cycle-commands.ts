import type { ChatInputCommandInteraction } from 'discord.js';
import { runsCycles } from '../services/cycles.ts';
import { UserError } from '../services/errors.ts';
import { stateIntent, type IntentMode } from '../services/intents.ts';
import type { BotDeps } from './command.ts';
import { mention } from './format.ts';
import { joinCommand, readMoveMinutes } from './game-commands.ts';
import { openTableCommand } from './tables.ts';
import type { GameModule } from './game-module.ts';
import { EPHEMERAL, displayName, requireGuild } from './interaction-utils.ts';
import { requireGameHere } from './permissions.ts';
import { getGuildSettings } from '../services/settings.ts';

type Named = { id: string; name: string; bot: boolean };

/**
 * `/<game> join`: in a server running cycles (an active season), an intent for the next Battle
 * Phase (RULINGS.md, Commencement); otherwise today's challenge, unchanged.
 */
export async function joinOrIntend(
  interaction: ChatInputCommandInteraction,
  deps: BotDeps,
  module: GameModule,
  opponents: Named[],
  mode: IntentMode | null,
  /** How the game is challenged outside cycles (options, title); intents make default games. */
  challenge: Parameters<typeof joinCommand>[4] = {},
): Promise<void> {
  const guildId = requireGuild(interaction);
  const kind = module.kind;
  const command = `/${kind} ${module.joinSubcommand}`;
  const { minPlayers: min, maxPlayers: max } = module.engine;
  const moveMinutes = readMoveMinutes(interaction);
  const cycles = await runsCycles(deps.ctx, guildId);
  if (opponents.length === 0) {
    // No one named: an open challenge for anyone here (two-player games, outside cycles).
    if (cycles) {
      throw new UserError('intent/no-opponent', `This server runs cycles: \`${command}\` states whom you intend to play in the next Battle Phase, so name them with \`opponent\`.`);
    }
    if (min > 2) {
      throw new UserError('challenge/group-size', `${module.title} is played by ${min === max ? min : `${min} to ${max}`}: name ${min - 1 === max - 1 ? min - 1 : `${min - 1} to ${max - 1}`} opponents.`);
    }
    if (mode) throw new UserError('challenge/one-opponent', `\`mode\` is for Rest Phases with several opponents: leave it out to challenge anyone here.`);
    return joinCommand(interaction, deps, module, null, { ...challenge, turnLimitMinutes: moveMinutes });
  }
  if (!cycles) {
    // Outside cycles: one opponent is a challenge; several (in a game for more than two) are a
    // table of named players that starts when all of them accept.
    const group = opponents.length > 1 || min >= 3;
    if (group && max >= 3 && (mode === null || mode === 'together')) {
      if (moveMinutes !== null) {
        throw new UserError('challenge/move-time-table', `\`days-per-move\` is for a challenge of one opponent; a table of ${module.title} uses the server's turn limit. Leave it out.`);
      }
      if (opponents.length + 1 < min || opponents.length + 1 > max) {
        throw new UserError('challenge/group-size', `${module.title} is played by ${min === max ? min : `${min} to ${max}`}: name ${min - 1 === max - 1 ? min - 1 : `${min - 1} to ${max - 1}`} opponents.`);
      }
      return openTableCommand(interaction, deps, module, challenge.options ?? {}, opponents.length + 1, { invited: opponents });
    }
    if (opponents.length > 1 || mode) {
      throw new UserError(
        'challenge/one-opponent',
        `This server is not running cycles, so \`${command}\` challenges one player: name just \`opponent\` (several opponents and \`mode\` are for Rest Phases).`,
      );
    }
    return joinCommand(interaction, deps, module, opponents[0]!, { ...challenge, turnLimitMinutes: moveMinutes });
  }
  if (moveMinutes !== null) {
    throw new UserError('intent/move-time', `Games arranged in a cycle use the server's turn limit. Run \`${command}\` without \`days-per-move\` to state your intent.`);
  }
  if (challenge.nonDefaultOptions) {
    throw new UserError('intent/options', `Games arranged in a cycle use the standard rules. Run \`${command}\` without the variant options to state your intent.`);
  }
  // The Battle Phase starts a match's game in the server's game channels, or, when none are listed,
  // here: then its board must be postable here.
  if ((await getGuildSettings(deps.ctx, guildId)).gameChannelIds.length === 0) requireGameHere(interaction, module);
  const channel = interaction.channel;
  const from = { id: interaction.user.id, name: displayName(interaction.user), bot: interaction.user.bot };
  const r = await stateIntent(deps.ctx, {
    guildId,
    guildName: interaction.guild?.name ?? '',
    channelId: interaction.channelId,
    channelName: channel && 'name' in channel ? (channel.name ?? null) : null,
    kind,
    from,
    opponents,
    mode,
  });
  const named = r.intents.map((i) => mention(i.opponentId));
  const lines: string[] = [];
  if (r.mode === 'together') {
    const table = [from.id, ...opponents.map((o) => o.id)];
    if (named.length) lines.push(`📣 ${mention(from.id)} wants a table of ${module.title} with ${named.join(', ')} in the next Battle Phase of **${r.cycle.season.name} / ${r.cycle.name}**: it is made when every one of them names this same table.`);
    if (r.repeated.length) lines.push('You already named this table in this Rest Phase; nothing new.');
    for (const m of r.matched) lines.push(`🤝 **Match!** ${m.players.map(mention).join(', ')} all named the same table: your game starts when the Battle Phase begins.`);
    if (!r.matched.length && !r.repeated.length) lines.push(`Waiting for ${table.filter((p) => p !== from.id).map(mention).join(', ')} to name the same table.`);
    // Nothing new (the table was already named): an answer for the invoker only.
    const quiet = r.intents.length === 0;
    await interaction.reply({ content: lines.join('\n').slice(0, 2000), allowedMentions: { users: quiet ? [] : opponents.map((o) => o.id) }, ...(quiet ? { flags: EPHEMERAL } : {}) });
    return;
  }
  if (named.length) {
    const how = r.intents.length > 1 ? (r.mode === 'any' ? ' (**any**: one game, against whichever names you back first)' : ' (**each**: a game against every one who names you back)') : '';
    lines.push(`📣 ${mention(from.id)} intends to play ${module.title} against ${named.join(', ')}${how} in the next Battle Phase of **${r.cycle.season.name} / ${r.cycle.name}**.`);
  }
  if (r.repeated.length) lines.push(`You already named ${r.repeated.map(mention).join(', ')} in this Rest Phase; nothing new there.`);
  for (const m of r.matched) {
    const other = m.playerA === from.id ? m.playerB : m.playerA;
    lines.push(`🤝 **Match!** ${mention(from.id)} and ${mention(other)} named each other: your game starts when the Battle Phase begins.`);
  }
  const voided = r.intents.filter((i) => i.status === 'void');
  if (voided.length) lines.push(`Your other \`any\` intents (${voided.map((i) => mention(i.opponentId)).join(', ')}) are void for this phase.`);
  const all = r.allMatches.map((m) => mention(m.playerA === from.id ? m.playerB : m.playerA));
  lines.push(all.length ? `Your matches so far: ${all.join(', ')}.` : 'No mutual intents yet: a game is made when one of them names you too.');
  const ping = [...new Set([...r.intents.map((i) => i.opponentId)])];
  // A statement that changed nothing (everyone named was named already) is answered to the invoker only.
  const quiet = r.intents.length === 0;
  await interaction.reply({ content: lines.join('\n').slice(0, 2000), allowedMentions: { users: quiet ? [] : ping }, ...(quiet ? { flags: EPHEMERAL } : {}) });
}
