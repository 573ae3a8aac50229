import { ButtonStyle, ComponentType, type MessageComponentInteraction } from 'discord.js';
import type { ServiceContext } from '../services/context.ts';
import { UserError } from '../services/errors.ts';
import { getGame, type GameSnapshot } from '../services/games.ts';
import { boardFor, boardUrl, playerNames } from './board.ts';
import { linkRow } from './chrome.ts';
import type { BotDeps } from './command.ts';
import { customId } from './custom-id.ts';
import { mention, ts } from './format.ts';
import { parseGameId, type GameModules, type MessagePayload } from './game-module.ts';
import { handleGameComponent, toDiscord } from './game-routes.ts';
import { recentLines, withRecentInDm } from './history.ts';

/**
 * Turn DMs and where players move (issue 14: one rate-limited call per move made on the board).
 *
 * Every seat remembers where its player made their last move in the game (`seats.dm_moves`,
 * written with the move). A player who moves from their DMs gets turn DMs with the game's move
 * buttons, as always: their click's answer removes them for free. A player who moves on the board
 * gets the same ping, text and link, but instead of move buttons one **Play here** button that
 * never goes stale: clicked, it turns that DM (through the interaction, which costs no
 * rate-limited call) into the current turn's move buttons, or, when it is not their turn, into the
 * game as it is now. Such a DM never lies, so it never needs the edit that retires old buttons
 * (`dm_live` stays false): a board player's move costs only the next player's DM.
 */

export const PLAY_HERE_LABEL = 'Play here';

/** Why a board mover's turn DM has no move buttons (its last line). */
export const PLAY_HERE_NOTE = 'You played on the board last time: tap **Play here** to play from this DM.';

type Rows = MessagePayload['components'];
type Component = NonNullable<Rows>[number]['components'][number];

const isLink = (c: Component) => c.type === ComponentType.Button && c.style === ButtonStyle.Link;
const isPlayHere = (c: Component) => c.type === ComponentType.Button && 'custom_id' in c && typeof c.custom_id === 'string' && c.custom_id.startsWith('g:here:');

/** The DM offers moves: it has a component other than a link or Play here (that one never goes stale). */
export function hasMoveButtons(rows: Rows): boolean {
  return (rows ?? []).some((r) => r.components.some((c) => !isLink(c) && !isPlayHere(c)));
}

/**
 * Of a message's rows, the link buttons only (the link back to the board), also from a row that
 * mixes them with game buttons: a DM that loses its game buttons (Play here, a retire edit, the
 * closed-DMs mention) keeps its link.
 */
export function linkRowsOf(rows: Rows): NonNullable<Rows> {
  return (rows ?? []).map((r) => ({ ...r, components: r.components.filter(isLink) })).filter((r) => r.components.length > 0);
}

function playHereRow(gameId: number): NonNullable<Rows>[number] {
  return {
    type: ComponentType.ActionRow,
    components: [{ type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: customId('g:here', gameId), label: PLAY_HERE_LABEL, emoji: { name: '▶️' } }],
  };
}

/**
 * A turn or reminder DM for a player who moved on the board last time: the same text and picture,
 * the link to the board, and Play here in place of the move buttons (with a line saying why). A DM
 * that offers no moves anyway (Tellstones' turns are played on the board), or whose button is urgent
 * (a Krellstones yell), is left as it is.
 */
export function forBoardMover(payload: MessagePayload, gameId: number): MessagePayload {
  if (!hasMoveButtons(payload.components) || payload.urgent) return payload;
  const content = payload.content ? `${payload.content}\n${PLAY_HERE_NOTE}` : PLAY_HERE_NOTE;
  return {
    ...payload,
    content: content.length <= 2000 ? content : payload.content,
    components: [playHereRow(gameId), ...linkRowsOf(payload.components)],
  };
}

/**
 * The player's turn DM as the game is now, with its move buttons (the outbox's refresh edit, and
 * Play here on their turn): what the others did since their last move, then the game's own text.
 */
export async function currentTurnDm(ctx: ServiceContext, games: GameModules, snap: GameSnapshot, userId: string, deadlineAt: Date): Promise<MessagePayload> {
  const names = await playerNames(ctx, snap.game.seats.map((s) => s.playerId));
  const recent = await recentLines(ctx, games, snap.game.id, snap.game.kind, names, userId, snap.game.version);
  return withRecentInDm(
    games.require(snap.game.kind).present.notification(
      {
        type: 'turn',
        gameId: snap.game.id,
        kind: snap.game.kind,
        view: snap.view(userId),
        deadlineAt: deadlineAt.toISOString(),
        opponents: snap.game.seats.filter((s) => s.playerId !== userId).map((s) => s.playerId),
      },
      { names, boardUrl: boardUrl(snap.game), version: snap.game.version, active: snap.game.status === 'active', cycle: snap.game.cycleId !== null },
    ),
    recent,
  );
}

/**
 * The game as it is now, for a Play here clicked when it is not the player's turn: the public
 * board (a spectator's view: nothing hidden, as on the board itself) without its buttons, who the
 * game waits for, and Play here again (still valid later) with the link to the board.
 */
async function stateDm(ctx: ServiceContext, games: GameModules, snap: GameSnapshot, note: string): Promise<MessagePayload> {
  const { game } = snap;
  const names = await playerNames(ctx, game.seats.map((s) => s.playerId));
  const board = boardFor(games, snap, names);
  const title = `**${games.title(game.kind)} #${game.id}**`;
  const url = boardUrl(game);
  const links: NonNullable<Rows> = linkRow(url);
  let head: string;
  if (game.status !== 'active') head = `🏁 ${title} is over: the board shows how it ended.`;
  else {
    const waits = snap.awaiting
      .map((p) => {
        const deadline = game.seats.find((s) => s.playerId === p)?.deadlineAt;
        return `${mention(p)}${deadline ? ` (until ${ts(deadline, 'f')})` : ''}`;
      })
      .join(', ');
    head = `${note} ${title} ${waits ? `waits for ${waits}` : 'is moving on by itself'}. Tap **${PLAY_HERE_LABEL}** again when it is your turn.`;
  }
  return {
    ...board,
    content: [head, url ? `Board: ${url}` : null, board.content].filter(Boolean).join('\n').slice(0, 2000),
    components: [...(game.status === 'active' ? [playHereRow(game.id)] : []), ...links],
    allowed_mentions: { parse: [] },
  };
}

/** The custom id of the first button of `payload` whose route opens the turn's first step, if any. */
function opensTurnButton(games: GameModules, kind: string, payload: MessagePayload): string | null {
  const module = games.require(kind);
  for (const r of payload.components ?? []) {
    for (const c of r.components) {
      if (!('custom_id' in c) || typeof c.custom_id !== 'string') continue;
      const parsed = parseGameId(c.custom_id, [module.ids]);
      if (parsed && module.routes[parsed.action]?.opensTurn) return c.custom_id;
    }
  }
  return null;
}

/**
 * Play here, in a turn DM: on the player's turn, that DM becomes the turn's move buttons (and the
 * seat's newest DM, still showing buttons, so a move made elsewhere retires them), or, when those
 * buttons open the turn's first step (a route marked `opensTurn`), that step itself; otherwise it
 * shows the game as it is now. Answered through the interaction: no rate-limited call.
 */
export async function playHere(interaction: MessageComponentInteraction, gameId: number, deps: BotDeps): Promise<void> {
  if (interaction.inGuild()) throw new UserError('input/dm-only', 'Play here works in your DMs with Stonehall. In the server, use the buttons on the board.');
  const snap = await getGame(deps.ctx, gameId, null);
  const { game } = snap;
  const userId = interaction.user.id;
  const seat = game.seats.find((s) => s.playerId === userId && !s.autopilot);
  if (!seat) throw new UserError('game/not-participant', `You are not playing in game #${gameId}.`);
  // The whole message is replaced: no embeds or files of what it showed before stay behind.
  const update = (p: MessagePayload) => interaction.update({ embeds: [], ...toDiscord(p), ...(p.files?.length ? {} : { attachments: [] }) } as never);
  const myTurn = game.status === 'active' && seat.deadlineAt !== null && snap.awaiting.includes(userId);
  if (!myTurn) {
    await update(await stateDm(deps.ctx, deps.games, snap, game.status === 'active' ? 'It is not your turn:' : ''));
    return;
  }
  const payload = await currentTurnDm(deps.ctx, deps.games, snap, userId, seat.deadlineAt!);
  const live = hasMoveButtons(payload.components);
  // This DM becomes the seat's newest, showing buttons, before it shows them (a failed answer then
  // costs at most one needless retire edit, never buttons nobody retires). Not over a newer DM of
  // theirs that still shows move buttons: that one stays the one to play from.
  const adopted = await deps.ctx.db.$executeRaw`
    UPDATE seats SET dm_message_id = ${interaction.message.id}, dm_live = ${live}
    WHERE game_id = ${gameId} AND player_id = ${userId} AND turn_version IS NOT DISTINCT FROM ${seat.turnVersion}
      AND (dm_message_id IS NULL OR dm_message_id = ${interaction.message.id} OR NOT dm_live)`;
  if (adopted === 0) {
    // Their turn ended meanwhile, or a newer DM of theirs shows the move buttons.
    const now = await getGame(deps.ctx, gameId, null);
    const still = now.game.status === 'active' && now.awaiting.includes(userId) && now.game.seats.some((s) => s.playerId === userId && s.deadlineAt !== null);
    await update(await stateDm(deps.ctx, deps.games, now, still ? 'Your newest DM of this game has the move buttons: play there or on the board.' : 'It is not your turn:'));
    return;
  }
  // A turn DM whose button opens the turn's first step (RouteDef.opensTurn): that step at once, in this DM.
  const opens = opensTurnButton(deps.games, game.kind, payload);
  if (opens && (await handleGameComponent(interaction, deps, { customId: opens, inPlace: true }))) return;
  await update(payload);
}

/**
 * A turn DM while Discord refuses the game's board in its channel (issue 22): the moves stay in
 * the DM (never Play here), and a line says why the board is missing and how to see it.
 */
export function withBlockedBoard(payload: MessagePayload, game: { id: number; kind: string; channelId: string; boardBlocked: string }): MessagePayload {
  const note = `⚠️ The board can't be shown in <#${game.channelId}> right now (${game.boardBlocked}): play from this DM, and \`/${game.kind} view game:${game.id}\` shows the board.`;
  const content = payload.content ? `${payload.content}\n${note}` : note;
  return { ...payload, content: content.length <= 2000 ? content : payload.content ?? '' };
}
