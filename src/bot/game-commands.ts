import { z } from 'zod';
import { SlashCommandSubcommandBuilder, type SlashCommandIntegerOption, type SlashCommandSubcommandsOnlyBuilder } from '@discordjs/builders';
import { ButtonStyle, ComponentType, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { challenge, setChallengeMessage } from '../services/challenges.ts';
import { UserError } from '../services/errors.ts';
import { durationText } from '../services/settings.ts';
import { getGame, latestGame, listActiveGames, listOtherGames, resolveOwnGame, startPractice } from '../services/games.ts';
import { boardUrl, boardWithRecent, playerNames } from './board.ts';
import type { BotDeps } from './command.ts';
import { customId } from './custom-id.ts';
import { mention, ts } from './format.ts';
import type { GameModule } from './game-module.ts';
import { toDiscord } from './game-routes.ts';
import { historyMessage } from './history.ts';
import { EPHEMERAL, displayName, requireGuild, respondChoices } from './interaction-utils.ts';
import { requireGameHere } from './permissions.ts';

/**
 * The subcommands every game shares (forfeit, games, view, practice, help) and the challenge
 * behind each game's join subcommand. A game's command module (commands/<game>.ts) declares its
 * own subcommands and hands these to shared code with its module.
 */

/** The `game` option of subcommands that act on one of the invoker's games, and its zod schema. */
export const gameIdSchema = z.number().int().positive().max(2_147_483_647).nullable();
export const gameOptionBuilder = (o: SlashCommandIntegerOption) =>
  o.setName('game').setDescription('Which game (if you have several)').setAutocomplete(true).setMinValue(1);

/** The zod schemas of the shared subcommands, to add to a game command's discriminated union. */
export const commonSubcommandSchemas = [
  z.object({ subcommand: z.literal('forfeit'), game: gameIdSchema }),
  z.object({ subcommand: z.literal('games') }),
  z.object({ subcommand: z.literal('view'), game: gameIdSchema }),
  z.object({ subcommand: z.literal('history'), game: gameIdSchema }),
  z.object({ subcommand: z.literal('practice'), bots: z.number().int().min(1).max(3).nullable() }),
  z.object({ subcommand: z.literal('help') }),
] as const;
export type CommonSubcommand = z.infer<(typeof commonSubcommandSchemas)[number]>;
export const COMMON_SUBCOMMANDS = ['forfeit', 'games', 'view', 'history', 'practice', 'help'] as const;

/** What the shared subcommands read from the interaction (added to a command module's `read`). */
export function readCommon(interaction: ChatInputCommandInteraction): Record<string, unknown> {
  return { game: interaction.options.getInteger('game'), bots: interaction.options.getInteger('bots') };
}

/**
 * The `opponent` option of a join subcommand: absent (an open challenge), a user, or null when an
 * opponent was sent that Discord did not resolve to a user (refused by the schema, never taken for
 * an open challenge).
 */
export function readOpponent(interaction: ChatInputCommandInteraction): { opponent?: { id: string; name: string; bot: boolean } | null } {
  const user = interaction.options.getUser('opponent');
  if (user) return { opponent: { id: user.id, name: displayName(user), bot: user.bot } };
  return interaction.options.get('opponent') ? { opponent: null } : {};
}

/** The `days-per-move` option of a game's join subcommand: the time per move the challenger chooses. */
export const MOVE_DAYS_OPTION = 'days-per-move';
const moveDaysSchema = z.number().min(0.01).max(60).nullable();

/** The time per move the invoker chose on a join subcommand, in minutes (null: not chosen). */
export function readMoveMinutes(interaction: ChatInputCommandInteraction): number | null {
  const parsed = moveDaysSchema.safeParse(interaction.options.getNumber(MOVE_DAYS_OPTION, false) ?? null);
  if (!parsed.success) throw new UserError('input/move-time', 'Give `days-per-move` as a number of days, e.g. 1, 3 or 7.');
  return parsed.data === null ? null : Math.round(parsed.data * 1440);
}

/** Adds the subcommands every game has to a game's slash command. */
export function withGameSubcommands(b: SlashCommandSubcommandsOnlyBuilder, module: GameModule): SlashCommandSubcommandsOnlyBuilder {
  const { engine } = module;
  // A game of two may be challenged with a chosen time per move (within the server's limits): its
  // join subcommand names an `opponent` and goes through joinOrIntend, which reads the option. (A
  // join that seats the invoker at someone's table, such as naming a `host`, gets no such option.)
  const join = b.options.find((o): o is SlashCommandSubcommandBuilder => o instanceof SlashCommandSubcommandBuilder && o.name === module.joinSubcommand);
  const names = join?.options.map((o) => o.toJSON().name) ?? [];
  if (join && engine.minPlayers <= 2 && names.includes('opponent') && !names.includes(MOVE_DAYS_OPTION)) {
    join.addNumberOption((o) =>
      o.setName(MOVE_DAYS_OPTION).setDescription('Challenges: days each player has per move, e.g. 1, 3 or 7 (default: the server’s turn limit)').setMinValue(0.01).setMaxValue(60),
    );
  }
  const multi = engine.maxPlayers > 2 && !engine.out ? ' (your whole team loses)' : engine.out ? ' (the autopilot takes your seat)' : '';
  return b
    .addSubcommand((s) => s.setName('forfeit').setDescription(`Give up a game${multi}; asks you to confirm.`).addIntegerOption(gameOptionBuilder))
    .addSubcommand((s) => s.setName('games').setDescription('List your games in progress, whose turn it is, and the deadlines.'))
    .addSubcommand((s) =>
      s
        .setName('view')
        .setDescription('Look at a game (anyone may watch).')
        .addIntegerOption((o) => o.setName('game').setDescription('Game number').setAutocomplete(true).setMinValue(1)),
    )
    .addSubcommand((s) =>
      s
        .setName('history')
        .setDescription('The moves of a game so far, in words (anyone may read it).')
        .addIntegerOption((o) => o.setName('game').setDescription('Game number (default: your game)').setAutocomplete(true).setMinValue(1)),
    )
    .addSubcommand((s) => {
      s.setName('practice').setDescription(`Practise ${module.title} against the autopilot (no leaderboard, no rewards).`);
      if (engine.maxPlayers - 1 > engine.minPlayers - 1) {
        s.addIntegerOption((o) =>
          o
            .setName('bots')
            .setDescription(`How many autopilot seats (${engine.minPlayers - 1}-${engine.maxPlayers - 1})`)
            .setMinValue(engine.minPlayers - 1)
            .setMaxValue(engine.maxPlayers - 1),
        );
      }
      return s;
    })
    .addSubcommand((s) => s.setName('help').setDescription(`How to play ${module.title}, in short.`));
}

/** Runs a shared subcommand. */
export async function runCommonSubcommand(interaction: ChatInputCommandInteraction, input: CommonSubcommand, deps: BotDeps, module: GameModule): Promise<void> {
  switch (input.subcommand) {
    case 'forfeit':
      return forfeitCommand(interaction, deps, module, input.game);
    case 'games':
      return gamesCommand(interaction, deps, module);
    case 'view':
      return viewCommand(interaction, deps, module, input.game);
    case 'history':
      return historyCommand(interaction, deps, module, input.game);
    case 'practice':
      return practiceCommand(interaction, deps, module, input.bots);
    case 'help':
      await interaction.reply({ content: helpMessage(module), flags: EPHEMERAL });
      return;
  }
}

/** Where a game's full rules live in Stonehall's repository: `docs/rules/<kind>.md`. */
export const rulesPage = (module: Pick<GameModule, 'kind'>): string => `docs/rules/${module.kind}.md`;

/** Discord's limit on a message's content. */
const MESSAGE_LIMIT = 2000;

/**
 * `/<game> help`: the game's short How to play, ending with where its full rules are. Within a
 * message's 2,000 characters: a How to play too long for them is cut, never the pointer
 * (tests/architecture/docs.test.ts checks that no game's is cut).
 */
export function helpMessage(module: Pick<GameModule, 'kind' | 'title' | 'howToPlay'>): string {
  const head = `📖 **How to play ${module.title}**\n`;
  const tail = `\n📘 Every rule and ruling, and which button does what: \`${rulesPage(module)}\` in Stonehall's repository.`;
  const room = MESSAGE_LIMIT - head.length - tail.length;
  const body = module.howToPlay.length <= room ? module.howToPlay : `${module.howToPlay.slice(0, room - 1)}…`;
  return head + body + tail;
}

export async function joinCommand(
  interaction: ChatInputCommandInteraction,
  deps: BotDeps,
  module: GameModule,
  /** Null: an open challenge, which anyone in the server may accept. */
  opponent: { id: string; name: string; bot: boolean } | null,
  /** Setup options for the game, and what to call it ("Tellstones: Fearless Vanguard"). */
  extra: { options?: unknown; title?: string; nonDefaultOptions?: boolean; turnLimitMinutes?: number | null } = {},
): Promise<void> {
  const guildId = requireGuild(interaction);
  // The challenge's game is played here: its board must be postable here.
  requireGameHere(interaction, module);
  const from = { id: interaction.user.id, name: displayName(interaction.user), bot: interaction.user.bot };
  const result = await challenge(deps.ctx, {
    guildId,
    guildName: interaction.guild?.name ?? '',
    channelId: interaction.channelId,
    kind: module.kind,
    from,
    to: opponent,
    ...(extra.options !== undefined ? { options: extra.options } : {}),
    ...(extra.turnLimitMinutes != null ? { turnLimitMinutes: extra.turnLimitMinutes } : {}),
  });
  const title = extra.title ?? module.title;
  const pace = result.challenge.turnLimitMinutes !== null ? ` (${durationText(result.challenge.turnLimitMinutes)} per move)` : '';
  if (opponent === null) return postOpenChallenge(interaction, deps, module, result.challenge.id, title, pace);
  if (result.type === 'started') {
    const url = boardUrl(result.game);
    await interaction.reply({
      content: `⚔️ ${mention(from.id)} accepted ${mention(opponent.id)}'s challenge: ${title} #${result.game.id} is on!${url ? ` Board: ${url}` : ''}`,
      allowedMentions: { users: [opponent.id] },
    });
    return;
  }
  const response = await interaction.reply({
    content: `⚔️ ${mention(opponent.id)}, ${mention(from.id)} challenges you to **${title}**${pace}! Accept with the button, or challenge them back with \`/${module.kind} ${module.joinSubcommand}\`.`,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: customId('ch:accept', result.challenge.id), label: 'Accept' },
          { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('ch:decline', result.challenge.id), label: 'Decline' },
        ],
      },
    ],
    allowedMentions: { users: [opponent.id] },
    withResponse: true,
  });
  const messageId = response.resource?.message?.id;
  if (!messageId) return;
  const now = await setChallengeMessage(deps.ctx, result.challenge.id, messageId);
  // Accepted by a challenge back before this message was recorded: the game's board is another
  // message, so this one must not keep live Accept/Decline buttons. (An Accept click on this very
  // message makes it the board; a Decline click edits it itself.)
  if (now?.challenge.status === 'accepted' && now.boardMessageId !== messageId) {
    await interaction.editReply({
      content: `⚔️ ${mention(opponent.id)} accepted ${mention(from.id)}'s challenge by challenging back: ${title} #${now.challenge.gameId} is on! The board is in this channel.`,
      components: [],
      allowedMentions: { parse: [] },
    });
  }
}

/**
 * The message of an open challenge: anyone in the channel but the challenger may accept; the first
 * Accept turns this message into the board (even one clicked before its id is recorded: the
 * clicked message is used then).
 */
async function postOpenChallenge(interaction: ChatInputCommandInteraction, deps: BotDeps, module: GameModule, challengeId: number, title: string, pace: string): Promise<void> {
  const from = interaction.user.id;
  const response = await interaction.reply({
    content: `⚔️ ${mention(from)} challenges anyone here to **${title}**${pace}! The first to click **Accept** plays them. (Want someone in particular? \`/${module.kind} ${module.joinSubcommand} opponent:\`)`,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Success, custom_id: customId('ch:accept', challengeId), label: 'Accept' },
          { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('ch:decline', challengeId), label: 'Withdraw' },
        ],
      },
    ],
    allowedMentions: { parse: [] },
    withResponse: true,
  });
  const messageId = response.resource?.message?.id;
  if (messageId) await setChallengeMessage(deps.ctx, challengeId, messageId);
}

export async function forfeitCommand(interaction: ChatInputCommandInteraction, deps: BotDeps, module: GameModule, gameId: number | null): Promise<void> {
  const guildId = requireGuild(interaction);
  const id = await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind: module.kind, gameId });
  const { game } = await getGame(deps.ctx, id, guildId);
  requireKind(deps, module, game, 'forfeit');
  if (!game.seats.some((s) => s.playerId === interaction.user.id && !s.autopilot)) {
    throw new UserError('game/not-participant', `You are not playing in game #${id}.`);
  }
  if (game.status !== 'active') throw new UserError('game/over', `Game #${id} is already over.`);
  await interaction.reply(resignConfirmation(game.id, game.version, game.seats.length, !module.engine.out));
}

/**
 * Asks to confirm a forfeit, saying what it does in this game: `teams` for a game of teams
 * (Tellstones' King's Circle: the whole team loses), else a seat of three or more goes on under
 * the autopilot (engines with `out`).
 */
export function resignConfirmation(gameId: number, version: number, seats: number, teams: boolean) {
  const what = seats <= 2 ? 'You lose.' : teams ? 'Your whole team loses.' : 'The autopilot plays your seat for the rest of the game, and you rank last.';
  return {
    content: `Really forfeit game #${gameId}? ${what} This cannot be undone.`,
    flags: EPHEMERAL,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          { type: ComponentType.Button, style: ButtonStyle.Danger, custom_id: customId('g:resign-yes', gameId, version), label: 'Yes, forfeit' },
          { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('g:resign-no', gameId), label: 'Keep playing' },
        ],
      },
    ],
  } as const;
}

export async function gamesCommand(interaction: ChatInputCommandInteraction, deps: BotDeps, module: GameModule): Promise<void> {
  const guildId = requireGuild(interaction);
  const games = await listActiveGames(deps.ctx, { guildId, userId: interaction.user.id, kind: module.kind });
  if (games.length === 0) {
    await interaction.reply({ content: `You have no ${module.title} game in progress. Start one with \`/${module.kind} ${module.startSubcommand ?? module.joinSubcommand}\`, or \`/${module.kind} practice\`.`, flags: EPHEMERAL });
    return;
  }
  const names = await playerNames(deps.ctx, [...new Set(games.flatMap((g) => g.game.seats.map((s) => s.playerId)))]);
  const lines = games.slice(0, 20).map((snap) => {
    const line = module.present.summary(snap.view(interaction.user.id), interaction.user.id, { gameId: snap.game.id, names });
    const deadline = snap.game.seats.find((s) => s.deadlineAt)?.deadlineAt;
    const url = boardUrl(snap.game);
    return `• ${line}${snap.game.practice ? ' (practice)' : ''}${deadline ? `, deadline ${ts(deadline)}` : ''}${url ? ` · [board](${url})` : ''}`;
  });
  if (games.length > 20) lines.push(`…and ${games.length - 20} more.`);
  await interaction.reply({ content: `Your ${module.title} games:\n${lines.join('\n')}`.slice(0, 2000), flags: EPHEMERAL });
}

export async function viewCommand(interaction: ChatInputCommandInteraction, deps: BotDeps, module: GameModule, gameId: number | null): Promise<void> {
  const guildId = requireGuild(interaction);
  const id = gameId ?? (await resolveOwnGame(deps.ctx, { guildId, userId: interaction.user.id, kind: module.kind }));
  const snap = await getGame(deps.ctx, id, guildId);
  requireKind(deps, module, snap.game, 'view');
  // A spectator view for everyone (participants included): the viewer-specific view is for DMs.
  const payload = await boardWithRecent(deps.ctx, deps.games, snap, await playerNames(deps.ctx, snap.game.seats.map((s) => s.playerId)));
  await interaction.reply({ ...toDiscord(payload), components: [], flags: EPHEMERAL } as never);
}

/** A game named to another game's command (`/knucklebones view game:` a Tellstones game) is refused with the right command. */
function requireKind(deps: BotDeps, module: GameModule, game: { id: number; kind: string }, subcommand: 'view' | 'history' | 'forfeit'): void {
  if (game.kind !== module.kind) {
    throw new UserError('game/wrong-kind', `Game #${game.id} is a game of ${deps.games.title(game.kind)}: use \`/${game.kind} ${subcommand} game:${game.id}\`.`);
  }
}

/**
 * `/<game> history [game]`: the move log in words, for players and spectators alike (spectator
 * views only), privately. Without a game: the invoker's game in progress, else their latest one.
 */
export async function historyCommand(interaction: ChatInputCommandInteraction, deps: BotDeps, module: GameModule, gameId: number | null): Promise<void> {
  const guildId = requireGuild(interaction);
  let id = gameId;
  if (id === null) {
    const active = await listActiveGames(deps.ctx, { guildId, userId: interaction.user.id, kind: module.kind });
    if (active.length > 1) {
      throw new UserError('game/ambiguous', `You have ${active.length} games in progress: pick one with the \`game\` option (${active.map((g) => `#${g.game.id}`).join(', ')}).`);
    }
    id = active[0]?.game.id ?? (await latestGame(deps.ctx, { guildId, userId: interaction.user.id, kind: module.kind }));
    if (id === null) {
      throw new UserError('game/none', `You have not played ${module.title} here yet. Name a game with the \`game\` option, or start one with \`/${module.kind} ${module.startSubcommand ?? module.joinSubcommand}\`.`);
    }
  }
  const { game } = await getGame(deps.ctx, id, guildId);
  requireKind(deps, module, game, 'history');
  const payload = await historyMessage(deps.ctx, deps.games, id, guildId, interaction.user.id, (ids) => playerNames(deps.ctx, ids));
  await interaction.reply({ ...toDiscord(payload), flags: EPHEMERAL } as never);
}

/** `/<game> practice`: a game against the autopilot, in this channel, at once. */
export async function practiceCommand(interaction: ChatInputCommandInteraction, deps: BotDeps, module: GameModule, bots: number | null): Promise<void> {
  const guildId = requireGuild(interaction);
  requireGameHere(interaction, module);
  const game = await startPractice(deps.ctx, {
    guildId,
    guildName: interaction.guild?.name ?? '',
    channelId: interaction.channelId,
    kind: module.kind,
    player: { id: interaction.user.id, name: displayName(interaction.user) },
    bots: bots ?? module.engine.minPlayers - 1,
  });
  await interaction.reply({
    content: `🤖 Practice ${module.title} #${game.id} against the autopilot: the board follows in this channel, and your turns come by DM (or as a mention here if your DMs are closed). It counts on no leaderboard.`,
    flags: EPHEMERAL,
  });
}

/** Autocomplete for a `game` option: the invoker's games first, then (for view) others in the server. */
export async function autocompleteGame(interaction: AutocompleteInteraction, deps: BotDeps, module: GameModule, everyone: boolean): Promise<void> {
  if (!interaction.inGuild()) return respondChoices(interaction, []);
  const typed = String(interaction.options.getFocused()).replace(/^#/, '').trim();
  // Anyone may read any game's history, as anyone may view a board.
  everyone ||= interaction.options.getSubcommand(false) === 'history';
  const own = await listActiveGames(deps.ctx, { guildId: interaction.guildId, userId: interaction.user.id, kind: module.kind });
  const names = await playerNames(deps.ctx, [...new Set(own.flatMap((g) => g.game.seats.map((s) => s.playerId)))]);
  const choices = own.map((snap) => ({
    name: module.present.summary(snap.view(interaction.user.id), interaction.user.id, { gameId: snap.game.id, names }),
    value: snap.game.id,
  }));
  if (everyone && choices.length < 25) {
    const others = await listOtherGames(deps.ctx, { guildId: interaction.guildId, kind: module.kind, excludeIds: choices.map((c) => c.value), take: 25 - choices.length });
    const otherNames = await playerNames(deps.ctx, [...new Set(others.flatMap((g) => g.seats.map((s) => s.playerId)))]);
    for (const g of others) choices.push({ name: `#${g.id}: ${g.seats.map((s) => otherNames[s.playerId] ?? 'player').join(' vs ')}`, value: g.id });
  }
  await respondChoices(interaction, choices.filter((c) => typed === '' || String(c.value).startsWith(typed) || c.name.toLowerCase().includes(typed.toLowerCase())));
}
