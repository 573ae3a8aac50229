import { SlashCommandBuilder } from '@discordjs/builders';
import type { ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import { defineCommand, type BotDeps } from '../src/bot/command.ts';
import { EPHEMERAL, displayName, requireGuild } from '../src/bot/interaction-utils.ts';
import { cycleTitle, findActiveCycle } from '../src/services/cycles.ts';
import { describeCycleSettings } from './cycle.ts';
import { UserError } from '../src/services/errors.ts';
import { getGame } from '../src/services/games.ts';
import { verifyGame } from '../src/services/replay.ts';
import { getGuildSettings, setReminders } from '../src/services/settings.ts';
import { playerProfile, type ProfileEntry } from '../src/services/ratings.ts';
import { takeVacation, vacationStatus } from '../src/services/vacations.ts';
import { compactRecord } from '../src/services/leaderboard.ts';

const schema = z.discriminatedUnion('subcommand', [
  z.object({ subcommand: z.literal('cycle') }),
  z.object({ subcommand: z.literal('vacation'), days: z.number().int().min(1).max(365).nullable() }),
  z.object({ subcommand: z.literal('profile'), player: z.object({ id: z.string().regex(/^\d+$/), name: z.string(), bot: z.boolean() }).nullable() }),
  z.object({ subcommand: z.literal('reminders'), enabled: z.boolean() }),
  z.object({ subcommand: z.literal('verify'), game: z.number().int().positive().max(2_147_483_647) }),
]);
type Input = z.infer<typeof schema>;

const data = new SlashCommandBuilder()
  .setName('stonehall')
  .setDescription('Stonehall for you: profile, vacation, reminders, fair-dice checks, the season.')
  .setDMPermission(false)
  .addSubcommand((s) =>
    s
      .setName('reminders')
      .setDescription('Turn your own turn reminders on or off (turn pings still arrive).')
      .addBooleanOption((o) => o.setName('enabled').setDescription('Receive reminders before your deadlines').setRequired(true)),
  )
  .addSubcommand((s) =>
    s
      .setName('verify')
      .setDescription('Check a finished game’s fair dice: its seed against the commitment, and every move replayed.')
      .addIntegerOption((o) => o.setName('game').setDescription('Game number').setRequired(true).setMinValue(1)),
  )
  .addSubcommand((s) => s.setName('cycle').setDescription('The current season, cycle and phase, and when phases change.'))
  .addSubcommand((s) =>
    s
      .setName('vacation')
      .setDescription('Pause all your clocks for some days (opponents are told); without days: what you have left.')
      .addIntegerOption((o) => o.setName('days').setDescription('How many days, from now').setMinValue(1).setMaxValue(365)),
  )
  .addSubcommand((s) =>
    s
      .setName('profile')
      .setDescription('All-time record per game: games, wins, rating, recent results (practice does not count).')
      .addUserOption((o) => o.setName('player').setDescription('Whose profile (default: yours)')),
  );

function read(interaction: ChatInputCommandInteraction): unknown {
  return {
    subcommand: interaction.options.getSubcommand(false),
    enabled: interaction.options.getBoolean('enabled'),
    game: interaction.options.getInteger('game'),
    days: interaction.options.getInteger('days'),
    player: (() => {
      const u = interaction.options.getUser('player');
      return u ? { id: u.id, name: displayName(u), bot: u.bot } : null;
    })(),
  };
}

async function execute(interaction: ChatInputCommandInteraction, input: Input, deps: BotDeps): Promise<void> {
  if (input.subcommand === 'reminders') {
    await setReminders(deps.ctx, { userId: interaction.user.id, name: displayName(interaction.user), enabled: input.enabled });
    await interaction.reply({
      content: input.enabled ? '⏰ Reminders are on: you will be reminded before your deadlines.' : '🔕 Reminders are off. You still get a DM when your turn begins.',
      flags: EPHEMERAL,
    });
    return;
  }
  const guildId = requireGuild(interaction);
  if (input.subcommand === 'verify') {
    const { game } = await getGame(deps.ctx, input.game, guildId);
    if (game.status !== 'finished') {
      throw new UserError('verify/running', `Game #${game.id} is still being played: its seed stays secret until it ends. Its commitment is \`${game.seedCommitment}\`.`);
    }
    const r = await verifyGame(deps.ctx, game.id);
    const ok = r.commitmentOk && r.stateOk;
    const lines = [
      `${ok ? '✅' : '❌'} **${deps.games.title(game.kind)} #${game.id}**: ${ok ? 'fair: every random draw (dice, shuffles) came from the seed committed at the start.' : 'something does not match: tell a moderator.'}`,
      `• Seed \`${game.seed}\``,
      `• SHA-256 of the seed ${r.commitmentOk ? 'matches' : '**does not match**'} the commitment shown from the first move (\`${game.seedCommitment}\`).`,
      `• Replaying the game from that seed, ${r.moves} logged move${r.moves === 1 ? '' : 's'} in order, ${r.stateOk ? 'gives exactly the final position' : '**does not give** the final position'}.`,
      'How to recompute it yourself: README, “Fair dice”.',
    ];
    await interaction.reply({ content: lines.join('\n'), flags: EPHEMERAL });
    return;
  }
  if (input.subcommand === 'vacation') {
    const me = { id: interaction.user.id, name: displayName(interaction.user) };
    const t = (d: Date, style: 'f' | 'R') => `<t:${Math.floor(d.getTime() / 1000)}:${style}>`;
    if (input.days === null) {
      const st = await vacationStatus(deps.ctx, { guildId, playerId: me.id });
      const now = st.until ? `You are on vacation until ${t(st.until, 'f')} (${t(st.until, 'R')}). ` : '';
      await interaction.reply({ content: `🏖️ ${now}You have ${st.left} of ${st.of} vacation days left ${st.label}. Take some with \`/stonehall vacation days:\`.`, flags: EPHEMERAL });
      return;
    }
    const r = await takeVacation(deps.ctx, { guildId, guildName: interaction.guild?.name ?? '', player: me, days: input.days });
    const games = r.games.length ? `Your clock is paused in ${r.games.length} game${r.games.length === 1 ? '' : 's'} (${r.games.map((id) => `#${id}`).join(', ')}): those deadlines move back ${input.days} day${input.days === 1 ? '' : 's'}, and your opponents are told.` : 'You have no game running; games that start meanwhile wait for you.';
    await interaction.reply({
      content: `🏖️ On vacation until ${t(r.vacation.endsAt, 'f')} (${t(r.vacation.endsAt, 'R')}). ${games} ${r.left} vacation day${r.left === 1 ? '' : 's'} left.`,
      flags: EPHEMERAL,
    });
    return;
  }
  if (input.subcommand === 'profile') {
    const who = input.player ?? { id: interaction.user.id, name: displayName(interaction.user), bot: false };
    if (who.bot) throw new UserError('profile/bot', `${who.name} is a bot and plays no games. Name a person, or leave \`player\` out for your own profile.`);
    const entries = await playerProfile(deps.ctx, { guildId, playerId: who.id });
    await interaction.reply({ content: profileText(deps, who, interaction.user.id, entries), flags: EPHEMERAL, allowedMentions: { parse: [] } });
    return;
  }
  // The season as players need it (moderators run it with /cycle, hidden from players).
  const cycle = await findActiveCycle(deps.ctx, guildId);
  const guild = await getGuildSettings(deps.ctx, guildId);
  const head = cycle
    ? `**${cycleTitle(cycle)}**: ${cycle.phase === 'battle' ? '⚔️ Battle Phase: the matched games are played.' : '🌙 Rest Phase: state your intents for the next Battle Phase.'}`
    : 'No cycle is running: challenge anyone with a game’s join command.';
  await interaction.reply({ content: `${head}\n${describeCycleSettings(guild)}`, flags: EPHEMERAL, allowedMentions: { parse: [] } });
}

const RESULT_MARK: Record<string, string> = { win: '✅ W', loss: '❌ L', draw: '➖ D', forfeit: '🏳️ F' };

/** A profile: per game one line of rating, rank and record, and one of recent results. */
export function profileText(deps: Pick<BotDeps, 'games'>, who: { id: string; name: string }, viewerId: string, entries: ProfileEntry[]): string {
  const self = who.id === viewerId;
  if (entries.length === 0) {
    return self
      ? 'You have not finished a rated game here yet (practice games do not count). Challenge someone with a game’s join command, e.g. `/knucklebones join`.'
      : `<@${who.id}> has not finished a rated game here yet (practice games do not count).`;
  }
  const lines = [`📇 **${self ? 'Your' : `<@${who.id}>’s`} all-time record here**`];
  for (const e of entries) {
    const r = e.rating;
    lines.push(`**${deps.games.title(e.kind)}** · rating **${Math.round(r.rating)}** (#${e.rank} of ${e.of}) · ${r.games} game${r.games === 1 ? '' : 's'}, ${r.wins} win${r.wins === 1 ? '' : 's'} (${compactRecord(r)})`);
    if (e.recent.length) {
      const recent = e.recent.map((g) => `${RESULT_MARK[g.result] ?? g.result} #${g.gameId} vs ${g.opponents.length === 1 ? `<@${g.opponents[0]}>` : `${g.opponents.length} players`}`);
      lines.push(`-# Recent: ${recent.join(' · ')}`);
    }
  }
  lines.push('-# Glicko-2 rating from 1500 over every finished game that is not practice; W–L(–D), a forfeit counts as a loss.');
  return lines.join('\n').slice(0, 2000);
}

export default defineCommand<Input>({ data, schema, read, execute });
