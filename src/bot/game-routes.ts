import { MessageFlags, type MessageComponentInteraction, type ModalSubmitInteraction } from 'discord.js';
import { UserError } from '../services/errors.ts';
import { markBoardRendered } from '../services/board-marks.ts';
import { getGame, playMove, previewMoves, type GameInfo, type GameSnapshot, type MoveResult } from '../services/games.ts';
import { boardWithRecent, playerNames } from './board.ts';
import type { BotDeps } from './command.ts';
import { parseCollectionId, parseGameId, type GameModule, type MessagePayload, type ModalContext, type ParsedGameId, type RouteContext } from './game-module.ts';
import { mention } from './format.ts';
import { EPHEMERAL } from './interaction-utils.ts';

/**
 * Dispatches a click on a game's own button or menu: the seat, status, kind and version guard is
 * written here once, and the game's route gets a checked context with views only.
 */

/**
 * After a move made from a button: when the click came from the board itself, answer by
 * editing the board in place (type 7) and record the version shown; elsewhere (a DM, an
 * ephemeral menu) acknowledge there and let the outbox refresh the board.
 */
export async function answerMove(interaction: MessageComponentInteraction, deps: BotDeps, result: MoveResult, note: string): Promise<void> {
  const game = result.after.game;
  if (interaction.message.id === game.boardMessageId) {
    const names = await playerNames(deps.ctx, game.seats.map((s) => s.playerId));
    await interaction.update(toDiscord(await boardWithRecent(deps.ctx, deps.games, result.after, names)) as never);
    await markBoardRendered(deps.ctx, game.id, game.version, interaction.message.id);
  } else if (ownsMessage(interaction, game)) {
    await interaction.update({ content: `${interaction.message.content ?? ''}\n✅ ${note}`.slice(0, 2000), components: [], allowedMentions: { parse: [] } });
  } else {
    // The click came from a message this route does not own (a forged id on another board): answer
    // privately, never rewrite that message.
    await interaction.reply({ content: `✅ ${note}`.slice(0, 2000), flags: EPHEMERAL, allowedMentions: { parse: [] } });
  }
}

/**
 * May a game route rewrite the message clicked? Only the game's board, an ephemeral message (the
 * route's own menus, seen by the clicker alone), or a DM (a player's own turn DM). Another
 * channel's or another game's message never.
 */
export function ownsMessage(interaction: MessageComponentInteraction, game: Pick<GameInfo, 'boardMessageId'>): boolean {
  if (interaction.message.id === game.boardMessageId) return true;
  if (interaction.message.flags.has(MessageFlags.Ephemeral)) return true;
  return !interaction.inGuild();
}

/**
 * Answers a click by editing the clicked message when it is the one the route owns, else with a
 * private reply: a forged id on someone else's message never rewrites that message.
 */
export async function updateOwned(interaction: MessageComponentInteraction, owns: boolean, payload: Record<string, unknown>): Promise<void> {
  if (owns) await interaction.update(payload as never);
  else await interaction.reply({ ...payload, components: [], flags: EPHEMERAL } as never);
}

/** A renderer's payload as discord.js's interaction options (files become attachments). */
export function toDiscord(p: MessagePayload): Record<string, unknown> {
  const { allowed_mentions, files, urgent: _urgent, ...rest } = p;
  return {
    ...rest,
    ...(allowed_mentions ? { allowedMentions: allowed_mentions } : {}),
    ...(files ? { files: files.map((f) => ({ attachment: f.data, name: f.name, ...(f.description ? { description: f.description } : {}) })) } : {}),
  };
}

/**
 * A click's checks, in order, on the game as read for it (or as the move's transaction locks it,
 * for a direct route): the game's kind, the seat, a running game, the turn, the version. Returns
 * whether the clicker is seated.
 */
function checkClick(deps: BotDeps, module: GameModule, route: GameModule['routes'][string], parsed: ParsedGameId, userId: string, snap: Pick<GameSnapshot, 'game' | 'awaiting'>): boolean {
  const { game } = snap;
  if (game.kind !== module.kind) {
    throw new UserError('game/wrong-kind', `Game #${game.id} is a game of ${deps.games.title(game.kind)}, not ${module.title}: use the buttons on its own board.`);
  }
  const seated = game.seats.some((s) => s.playerId === userId && !s.autopilot);
  if (!seated && route.who !== 'anyone') {
    throw new UserError('game/not-participant', `You are not playing in game #${game.id}. Start your own with \`/${module.kind} ${module.startSubcommand ?? module.joinSubcommand}\`.`);
  }
  if (game.status !== 'active' && !route.finished) throw new UserError('game/over', `Game #${game.id} is already over.`);
  if (seated && !route.anytime && game.status === 'active' && !snap.awaiting.includes(userId)) {
    const waits = snap.awaiting.map(mention).join(', ');
    throw new UserError('game/not-your-turn', `It is not your turn${waits ? `: the game waits for ${waits}` : ''}.`);
  }
  if (parsed.version !== null && parsed.version !== game.version) {
    throw new UserError('game/stale', 'That button belongs to an older board: the game has moved on. Use the buttons on the current board.');
  }
  return seated;
}

function findModule(deps: BotDeps, parsed: ParsedGameId): GameModule {
  const m = deps.games.all.find((g) => g.ids.prefix === parsed.prefix);
  if (!m) throw new Error(`no game for prefix ${parsed.prefix}`);
  return m;
}

/**
 * Handles the click if its id is one of the games' ids; false when it is not. `opts.customId` runs
 * another id for this click (Play here running a turn DM's `opensTurn` button), and `opts.inPlace`
 * makes the route's private reply edit the clicked message instead (that DM becomes the panel).
 */
export async function handleGameComponent(interaction: MessageComponentInteraction, deps: BotDeps, opts: { customId?: string; inPlace?: boolean } = {}): Promise<boolean> {
  const parsed = parseGameId(opts.customId ?? interaction.customId, deps.games.all.map((g) => g.ids));
  if (!parsed) return false;
  const module = findModule(deps, parsed);
  const route = module.routes[parsed.action]!;
  const userId = interaction.user.id;
  // A move from the button's id alone: played at once, its checks on the game as the move locks it.
  if (route.direct && parsed.version !== null && !opts.customId) {
    const { move, note } = route.direct(parsed.args);
    const result = await playMove(deps.ctx, {
      gameId: parsed.gameId,
      userId,
      guildId: interaction.guildId,
      move,
      many: Array.isArray(move),
      expectedVersion: parsed.version,
      guard: (_game, snap) => checkClick(deps, module, route, parsed, userId, snap),
      clicked: { messageId: interaction.message.id, inGuild: interaction.inGuild() },
      via: interaction.inGuild() ? 'board' : 'dm',
    });
    await answerMove(interaction, deps, result, note);
    return true;
  }
  const snap = await getGame(deps.ctx, parsed.gameId, interaction.guildId);
  const { game } = snap;
  const seated = checkClick(deps, module, route, parsed, userId, snap);
  const version = parsed.version ?? game.version;
  const play = (move: unknown, opts: { notify?: string[] } = {}) =>
    playMove(deps.ctx, {
      gameId: game.id,
      userId,
      guildId: interaction.guildId,
      move,
      many: Array.isArray(move),
      // An unversioned id reads the game as it is now: its moves are checked by the engine alone
      // (a change between reading and moving, a roll that fell due, is no reason to refuse).
      ...(parsed.version !== null ? { expectedVersion: version } : {}),
      kind: module.kind,
      fromDm: !interaction.inGuild() && interaction.message.id === game.seats.find((s) => s.playerId === userId)?.dmMessageId,
      fromBoard: interaction.message.id === game.boardMessageId,
      // Where the player moves decides what their next turn DM offers (src/bot/dm-moves.ts).
      via: interaction.inGuild() ? 'board' : 'dm',
      ...(opts.notify ? { notify: opts.notify } : {}),
    });
  const ctx: RouteContext = {
    interaction,
    deps,
    game,
    version,
    userId,
    seated,
    view: snap.view(seated ? userId : null),
    legal: seated ? snap.legalMoves(userId) : [],
    values: interaction.isAnySelectMenu() ? interaction.values : [],
    snapshot: snap,
    play,
    async move(move, note, opts) {
      const result = await play(move, opts);
      await answerMove(interaction, deps, result, note);
      return result;
    },
    preview: (moves) => previewMoves(deps.ctx, { gameId: game.id, userId, guildId: interaction.guildId, moves, expectedVersion: version }),
    answer: (result, note) => answerMove(interaction, deps, result, note),
    async reply(payload) {
      if (opts.inPlace && ownsMessage(interaction, game)) {
        // The whole message is replaced: no embeds or files of what it showed before stay behind.
        await interaction.update({ embeds: [], ...toDiscord(payload), ...(payload.files?.length ? {} : { attachments: [] }) } as never);
        return;
      }
      await interaction.reply({ ...toDiscord(payload), flags: EPHEMERAL } as never);
    },
    async update(payload) {
      if (!ownsMessage(interaction, game)) {
        await interaction.reply({ ...toDiscord(payload), flags: EPHEMERAL } as never);
        return;
      }
      await interaction.update(toDiscord(payload) as never);
    },
    id: (action, ...args) => module.ids.make(action, game.id, version, ...args),
  };
  await route.handle(ctx, parsed.args);
  return true;
}

/** Handles `raw` if it is one of the games' collection routes (no game in progress); false when it is not. */
export async function handleCollectionComponent(interaction: MessageComponentInteraction, deps: BotDeps): Promise<boolean> {
  const schemes = deps.games.all.flatMap((g) => (g.collectionRoutes ? [g.collectionRoutes] : []));
  const parsed = parseCollectionId(interaction.customId, schemes);
  if (!parsed) return false;
  await parsed.route.handle(interaction, parsed.args, deps);
  return true;
}

/**
 * Handles a modal submission whose id is one of the games' (a route that opened a modal); false
 * when it is not. The guard is a click's: the game exists here, is of the route's game and runs,
 * and the submitter is seated (a route for anyone excepted).
 */
export async function handleGameModal(interaction: ModalSubmitInteraction, deps: BotDeps): Promise<boolean> {
  const parsed = parseGameId(interaction.customId, deps.games.all.map((g) => g.ids));
  if (!parsed) return false;
  const module = findModule(deps, parsed);
  const route = module.routes[parsed.action]!;
  if (!route.submit) return false;
  const snap = await getGame(deps.ctx, parsed.gameId, interaction.guildId);
  const { game } = snap;
  if (game.kind !== module.kind) throw new UserError('game/wrong-kind', `Game #${game.id} is a game of ${deps.games.title(game.kind)}, not ${module.title}.`);
  const userId = interaction.user.id;
  const seated = game.seats.some((s) => s.playerId === userId && !s.autopilot);
  if (!seated && route.who !== 'anyone') throw new UserError('game/not-participant', `You are not playing in game #${game.id}.`);
  if (game.status !== 'active' && !route.finished) throw new UserError('game/over', `Game #${game.id} is already over.`);
  const fields: Record<string, string> = {};
  for (const f of interaction.fields.fields.values()) if ('value' in f && typeof f.value === 'string') fields[f.customId] = f.value;
  const ctx: ModalContext = {
    interaction,
    deps,
    game,
    userId,
    view: snap.view(seated ? userId : null),
    fields,
    // Modals carry no version: the engine checks the move against the game as it is.
    play: (move) => playMove(deps.ctx, { gameId: game.id, userId, guildId: interaction.guildId, move, kind: module.kind, via: interaction.inGuild() ? 'board' : 'dm' }),
  };
  await route.submit(ctx, parsed.args);
  return true;
}
