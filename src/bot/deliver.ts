import { DiscordAPIError, HTTPError, RESTJSONErrorCodes, Routes, type APIChannel, type APIGuild, type APIMessage, type Client } from 'discord.js';
import type { Outbox } from '../generated/prisma/client.ts';
import { DeliveryError, isRetry, type ClaimHints, type Deliverer } from '../outbox/dispatcher.ts';
import { query, type Statement } from '../db/hot.ts';
import type { ServiceContext } from '../services/context.ts';
import { leaderboardText, standings } from '../services/leaderboard.ts';
import { outboxPayloadSchemas, outboxRowGame, type OutboxPayload } from '../services/notifications.ts';
import { getGame } from '../services/games.ts';
import { boardUrl, playerNames, renderBoard } from './board.ts';
import { linkRow } from './chrome.ts';
import { mention } from './format.ts';
import { recentLines, withRecentInDm } from './history.ts';
import type { GameModules, MessagePayload, NotificationMeta } from './game-module.ts';
import { currentTurnDm, forBoardMover, hasMoveButtons, linkRowsOf, withBlockedBoard } from './dm-moves.ts';
import { resultMessage, teamsAndLabel, type ResultInput } from './results.ts';
import { tableMessage } from './tables.ts';
import { blockBoard, blockChannel, refusedPost, unblockBoard, unblockChannel } from '../services/channel-blocks.ts';
import { gameNeeds, permissionLabel, POSTING_NEEDS } from './permissions.ts';

/** Turns discord.js errors into retriable or final delivery errors. */
export function classify(err: unknown): DeliveryError {
  if (err instanceof DeliveryError) return err;
  if (err instanceof DiscordAPIError) {
    if (err.status === 429) return new DeliveryError(`rate limited: ${err.message}`, true);
    if (err.status >= 500) return new DeliveryError(`Discord ${err.status}: ${err.message}`, true);
    return new DeliveryError(`Discord ${err.status} ${err.code}: ${err.message}`, false);
  }
  if (err instanceof HTTPError) return new DeliveryError(`HTTP ${err.status}: ${err.message}`, err.status >= 500 || err.status === 429);
  return new DeliveryError(String((err as Error)?.message ?? err), true);
}

/**
 * A payload as discord.js's REST options: files become multipart uploads, each listed in the
 * body's `attachments` (on an edit, the listed attachments replace the message's old ones).
 */
function withFiles(payload: MessagePayload & { nonce?: string; enforce_nonce?: true }): { body: unknown; files?: Array<{ name: string; data: Buffer }> } {
  const { files, ...body } = payload;
  if (!files?.length) return { body };
  return {
    body: { ...body, attachments: files.map((f, id) => ({ id: String(id), filename: f.name, ...(f.description ? { description: f.description } : {}) })) },
    files: files.map((f) => ({ name: f.name, data: f.data })),
  };
}


/**
 * The statements every DM's delivery runs, prepared on plain pg where there is a pool (src/db/hot.ts
 * `query`), through Prisma on the embedded database: the same text either way.
 */
const DM_TARGET: Statement = {
  name: 'stonehall-dm-target',
  text: `SELECT s.dm_moves, p.dm_channel_id, s.dm_message_id, g.board_blocked, g.channel_id, EXISTS (
      SELECT 1 FROM outbox o WHERE o.status = 'pending' AND o.id > $1::bigint AND o.kind = 'dm' AND o.payload->>'userId' = $3::text
        AND ${outboxRowGame('o')} = $4::text AND o.payload->'notification'->>'type' = 'turn') AS superseded
    FROM players p LEFT JOIN seats s ON s.game_id = $2::int AND s.player_id = p.id LEFT JOIN games g ON g.id = $2::int WHERE p.id = $3::text`,
};
const RETIRE_DM: Statement = {
  name: 'stonehall-retire-dm',
  text: `UPDATE seats s SET dm_live = false
    FROM games g, players pl
    WHERE g.id = s.game_id AND pl.id = s.player_id AND s.game_id = $1::int AND s.player_id = $2::text AND s.dm_live AND s.dm_message_id IS NOT NULL
      AND (s.turn_version IS NULL OR s.turn_version <= $3::int)
    RETURNING s.dm_message_id, g.guild_id, g.channel_id, g.board_message_id, pl.dm_channel_id`,
};
const RECORD_DM: Statement = {
  name: 'stonehall-record-dm',
  text: `UPDATE seats s SET dm_message_id = $1::text, dm_live = $2::boolean
    FROM (SELECT game_id, seat, dm_message_id, dm_live FROM seats WHERE game_id = $3::int AND player_id = $4::text FOR UPDATE) old
    WHERE s.game_id = old.game_id AND s.seat = old.seat
    RETURNING old.dm_message_id AS old_id, old.dm_live AS old_live`,
};

/** What a turn DM is recorded as when a newer turn DM of the same player and game follows it. */
const SUPERSEDED = 'superseded: a newer turn DM follows';

/** A channel-refusal reason: Discord no longer knows the channel (10003). */
const GONE = 'the channel no longer exists';

/** The nonce Discord uses to drop a duplicate create (max 25 chars). */
const nonceFor = (row: Outbox, suffix = '') => `sh${row.id}${suffix}`.slice(0, 25);

/**
 * Delivers outbox rows through discord.js's REST client, with the payloads in Discord's JSON
 * shape. It needs no gateway session or cache, so a worker process (STONEHALL_GATEWAY=0)
 * delivers exactly like the bot.
 */
export class DiscordDeliverer implements Deliverer {
  constructor(
    private readonly client: Client,
    private readonly ctx: ServiceContext,
    private readonly games: GameModules,
  ) {}

  async deliver(row: Outbox, hints: ClaimHints = {}): Promise<string> {
    try {
      switch (row.kind) {
        case 'dm':
          return await this.dm(row, outboxPayloadSchemas.dm.parse(row.payload), hints.superseded ?? false);
        case 'board':
          return await this.board(row, outboxPayloadSchemas.board.parse(row.payload), hints.boardShown ?? null);
        case 'result':
          return await this.result(row, outboxPayloadSchemas.result.parse(row.payload));
        case 'dm-edit':
          return await this.dmEdit(outboxPayloadSchemas['dm-edit'].parse(row.payload), hints.retireIdle ?? false);
        case 'channel-message':
          return await this.channelMessage(row, outboxPayloadSchemas['channel-message'].parse(row.payload));
        case 'text-dm':
          return await this.textDm(row, outboxPayloadSchemas['text-dm'].parse(row.payload));
        case 'leaderboard':
          return await this.leaderboard(row, outboxPayloadSchemas.leaderboard.parse(row.payload));
        case 'table':
          return await this.table(outboxPayloadSchemas.table.parse(row.payload));
        default:
          throw new DeliveryError(`unknown outbox kind ${row.kind}`, false);
      }
    } catch (err) {
      throw classify(err);
    }
  }

  /**
   * DM channel ids never change (per bot and user): known in memory, else stored on the player,
   * so a DM channel is opened once, not once per process, restart or cache sweep.
   */
  private readonly dmChannels = new Map<string, string>();

  /** The user's DM channel: from memory, from `stored` (read by the caller with its own row), from the player, or opened. */
  private async dmChannel(userId: string, stored?: string | null): Promise<string> {
    let known = this.dmChannels.get(userId) ?? stored ?? null;
    if (!known && stored === undefined) {
      const player = await this.ctx.db.player.findUnique({ where: { id: userId }, select: { dmChannelId: true } });
      known = player?.dmChannelId ?? null;
    }
    if (!known) return this.openDm(userId);
    this.remember(userId, known);
    return known;
  }

  private remember(userId: string, channelId: string): void {
    if (this.dmChannels.size > 50_000) this.dmChannels.clear();
    this.dmChannels.set(userId, channelId);
  }

  /** Opens the DM channel (one global-budget request) and stores it on the player, if there is one. */
  private async openDm(userId: string): Promise<string> {
    const dm = (await this.client.rest.post(Routes.userChannels(), { body: { recipient_id: userId } })) as APIChannel;
    this.remember(userId, dm.id);
    await this.ctx.db.player.updateMany({ where: { id: userId }, data: { dmChannelId: dm.id } });
    return dm.id;
  }

  /**
   * Runs a call in the user's DM channel. A stored channel Discord no longer knows (10003) is
   * forgotten and a new one opened, once; any other error (50007: DMs closed) is the caller's.
   */
  private async inDm<T>(userId: string, call: (channelId: string) => Promise<T>, stored?: string | null): Promise<T> {
    const channelId = await this.dmChannel(userId, stored);
    try {
      return await call(channelId);
    } catch (err) {
      if (!(err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownChannel)) throw err;
      this.dmChannels.delete(userId);
      await this.ctx.db.player.updateMany({ where: { id: userId, dmChannelId: channelId }, data: { dmChannelId: null } });
      return call(await this.openDm(userId));
    }
  }

  private post(channelId: string, payload: MessagePayload & { nonce: string; enforce_nonce: true }): Promise<APIMessage> {
    return this.client.rest.post(Routes.channelMessages(channelId), withFiles(payload)) as Promise<APIMessage>;
  }

  /**
   * What the DM shows besides its notification: from the row (written with the change), reading
   * the game only for a board posted after the row was written, or for rows older than `meta`.
   */
  private async dmMeta(p: OutboxPayload<'dm'>): Promise<NotificationMeta> {
    const opponents = 'opponents' in p.notification ? p.notification.opponents : [];
    if (p.meta) {
      const m = p.meta;
      let boardMessageId = m.boardMessageId;
      if (boardMessageId === null) {
        const g = await this.ctx.db.game.findUnique({ where: { id: p.notification.gameId }, select: { boardMessageId: true } });
        boardMessageId = g?.boardMessageId ?? null;
      }
      return {
        names: await playerNames(this.ctx, [...new Set([p.userId, ...opponents, ...m.players])]),
        boardUrl: boardUrl({ guildId: m.guildId, channelId: m.channelId, boardMessageId }),
        version: m.version,
        active: m.active,
        cycle: m.cycle,
      };
    }
    const game = await this.ctx.db.game.findUnique({ where: { id: p.notification.gameId }, include: { seats: true } });
    return {
      names: await playerNames(this.ctx, [...new Set([p.userId, ...opponents, ...(game?.seats.map((s) => s.playerId) ?? [])])]),
      boardUrl: game ? boardUrl(game) : null,
      version: game?.version ?? 0,
      active: game?.status === 'active',
      cycle: game !== null && game.cycleId !== null,
    };
  }

  private async dm(row: Outbox, p: OutboxPayload<'dm'>, superseded: boolean): Promise<string> {
    // One read for a turn or reminder: where the player moved last (a board mover gets Play here
    // instead of move buttons, src/bot/dm-moves.ts), their stored DM channel, and whether a newer
    // turn of theirs in this game already queued its own DM: then this turn is over, and its ping
    // would only spend a call (and a DM channel's 5 per 5 s) on a turn they can no longer play.
    // The claim may already have seen that newer DM (ClaimHints.superseded): then nothing is read.
    const ping = p.notification.type === 'turn' || p.notification.type === 'reminder';
    if (ping && superseded) return SUPERSEDED;
    const target = ping ? await this.dmTarget(row.id, p.notification.gameId, p.userId) : null;
    if (target?.superseded) return SUPERSEDED;
    const meta = await this.dmMeta(p);
    const present = this.games.require(p.notification.kind).present;
    // A turn DM says what the others did since this player's last move (spectator views only).
    const recent = p.notification.type === 'turn' ? await recentLines(this.ctx, this.games, p.notification.gameId, p.notification.kind, meta.names, p.userId, p.meta ? meta.version : undefined) : [];
    const rendered = withRecentInDm(present.notification(p.notification, meta), recent);
    // The board is refused in its channel: the moves stay in the DM, with why (src/services/channel-blocks.ts).
    const blocked = target?.boardBlocked && !this.usableAgain(p.meta?.guildId, target.channelId, p.notification.kind) ? { id: p.notification.gameId, kind: p.notification.kind, channelId: target.channelId ?? p.fallbackChannelId, boardBlocked: target.boardBlocked } : null;
    const payload = blocked ? withBlockedBoard(rendered, blocked) : target && !target.dmMoves ? forBoardMover(rendered, p.notification.gameId) : rendered;
    // A turn that edits the player's newest DM of the game in place (no new message, no ping).
    if (p.edit && p.notification.type === 'turn' && target?.dmMessageId) {
      const edited = await this.editDm(p.userId, p.notification.gameId, target.dmMessageId, target.dmChannelId, payload);
      if (edited) return edited;
    }
    try {
      const { channelId, msg } = await this.inDm(p.userId, async (channelId) => ({ channelId, msg: await this.post(channelId, { ...payload, nonce: nonceFor(row), enforce_nonce: true }) }), target ? target.dmChannelId : undefined);
      if (p.notification.type !== 'update') await this.retirePreviousDm(p.userId, p.notification.gameId, channelId, msg.id, payload);
      return msg.id;
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser) {
        // The game's result message, posted in its channel in the same change, already names and
        // pings every player: a game-over mention there too would say it twice.
        if (p.notification.type === 'game-over' && (p.meta?.channelId ?? p.fallbackChannelId) === p.fallbackChannelId) return 'skipped: the result message names them';
        // DMs closed: mention the player in the game's channel instead, so the ping is not lost.
        // Rendered again for everyone's eyes: a game may show private things in a DM (a hand).
        const open = withRecentInDm(present.notification(p.notification, { ...meta, public: true }), recent);
        // Without its game buttons: nothing would retire them when the turn ends (one stale set per
        // turn left in the channel), and the board, one tap away, carries the same ones, always current.
        const links = linkRowsOf(open.components);
        const fallback: MessagePayload = {
          ...open,
          components: links.length ? links : linkRow(meta.boardUrl),
          content: `${mention(p.userId)} (your DMs are closed, so here it is) ${open.content ?? ''}`.slice(0, 2000),
          allowed_mentions: { users: [p.userId] },
        };
        const msg = await this.inChannel(p.fallbackChannelId, p.notification.kind, () => this.post(p.fallbackChannelId, { ...fallback, nonce: nonceFor(row, 'f'), enforce_nonce: true }), p.meta?.guildId);
        return `fallback:${msg.id}`;
      }
      throw err;
    }
  }

  /**
   * Where the player made their last move in this game (from a DM, or not yet: true; on the
   * board: false), and their stored DM channel, in one query.
   */
  private async dmTarget(
    rowId: bigint,
    gameId: number,
    userId: string,
  ): Promise<{ dmMoves: boolean; dmChannelId: string | null; dmMessageId: string | null; superseded: boolean; boardBlocked: string | null; channelId: string | null }> {
    const rows = await query<{ dm_moves: boolean | null; dm_channel_id: string | null; dm_message_id: string | null; superseded: boolean; board_blocked: string | null; channel_id: string | null }>(
      this.ctx.db,
      DM_TARGET,
      [String(rowId), gameId, userId, String(gameId)],
    );
    const r = rows[0];
    return {
      dmMoves: r?.dm_moves ?? true,
      dmChannelId: r?.dm_channel_id ?? null,
      dmMessageId: r?.dm_message_id ?? null,
      superseded: r?.superseded ?? false,
      boardBlocked: r?.board_blocked ?? null,
      channelId: r?.channel_id ?? null,
    };
  }

  /**
   * Edits the player's newest DM of the game into this turn (a turn DM with `edit`), and records
   * whether it now shows game buttons. Null when that DM cannot be edited (deleted, DMs closed):
   * the caller posts a new one, as for any turn.
   */
  private async editDm(userId: string, gameId: number, messageId: string, stored: string | null, payload: MessagePayload): Promise<string | null> {
    const { urgent: _urgent, ...body } = payload;
    try {
      await this.inDm(userId, (channelId) => this.client.rest.patch(Routes.channelMessage(channelId, messageId), withFiles(body)), stored);
    } catch (err) {
      if (err instanceof DiscordAPIError && (err.code === RESTJSONErrorCodes.UnknownMessage || err.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser)) return null;
      throw err;
    }
    await this.ctx.db.seat.updateMany({ where: { gameId, playerId: userId, dmMessageId: messageId }, data: { dmLive: hasMoveButtons(body.components) } });
    return `edited:${messageId}`;
  }

  /**
   * Edits the player's newest DM of the game in place: a refresh re-renders their running turn from
   * the game as it is now; a retire keeps the text and the link to the board and drops the game
   * buttons. Cosmetic (a click on an old button is refused anyway), so a DM that is gone is skipped.
   * A board mover's DM offers Play here, which is never stale: it is refreshed only if it still
   * shows move buttons (they moved on the board from a DM that had them), to take them away.
   */
  private async dmEdit(p: OutboxPayload<'dm-edit'>, retireIdle: boolean): Promise<string> {
    // The claim found nothing to retire (ClaimHints.retireIdle): what `retire` would find, without its statement.
    if (p.mode === 'retire') return retireIdle ? 'not-live' : this.retire(p);
    const seat = await this.ctx.db.seat.findFirst({ where: { gameId: p.gameId, playerId: p.userId } });
    if (!seat?.dmMessageId) return 'no-dm';
    if (!seat.deadlineAt) return 'no-turn';
    if (!seat.dmMoves && !seat.dmLive) return 'play-here';
    const snap = await getGame(this.ctx, p.gameId, null);
    // The refreshed turn DM says what the others did since this player's last move, as the first did.
    const turn = await currentTurnDm(this.ctx, this.games, snap, p.userId, seat.deadlineAt);
    const boardBlocked = this.usableAgain(snap.game.guildId, snap.game.channelId, snap.game.kind) ? null : snap.game.boardBlocked;
    const body: MessagePayload = boardBlocked ? withBlockedBoard(turn, { ...snap.game, boardBlocked }) : seat.dmMoves ? turn : forBoardMover(turn, snap.game.id);
    try {
      const messageId = seat.dmMessageId;
      await this.inDm(p.userId, (channelId) => this.client.rest.patch(Routes.channelMessage(channelId, messageId), withFiles(body)));
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownMessage) return 'dm-gone';
      throw err;
    }
    const live = hasMoveButtons(body.components);
    if (live !== seat.dmLive) await this.ctx.db.seat.updateMany({ where: { gameId: p.gameId, playerId: p.userId, dmMessageId: seat.dmMessageId }, data: { dmLive: live } });
    return `${p.mode}:${seat.dmMessageId}`;
  }

  /**
   * The player's turn ended: their newest DM of the game loses its game buttons, keeping its text
   * and a link to the board (no read of the old message). Only a DM that still shows buttons is
   * edited (`dm_live`): one the click answered, or one already retired, costs no call. Skipped when
   * a newer turn of theirs has begun (that turn's DM retires this one).
   */
  private async retire(p: OutboxPayload<'dm-edit'>): Promise<string> {
    const rows = await query<{ dm_message_id: string; guild_id: string; channel_id: string; board_message_id: string | null; dm_channel_id: string | null }>(this.ctx.db, RETIRE_DM, [p.gameId, p.userId, p.version]);
    const seat = rows[0];
    if (!seat) return 'not-live';
    const url = boardUrl({ guildId: seat.guild_id, channelId: seat.channel_id, boardMessageId: seat.board_message_id });
    const body = { components: linkRow(url) };
    try {
      await this.inDm(p.userId, (channelId) => this.client.rest.patch(Routes.channelMessage(channelId, seat.dm_message_id), { body }), seat.dm_channel_id);
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownMessage) return 'dm-gone';
      // Still live: the retry edits it.
      await this.ctx.db.$executeRaw`UPDATE seats SET dm_live = true WHERE game_id = ${p.gameId} AND player_id = ${p.userId} AND dm_message_id = ${seat.dm_message_id}`;
      throw err;
    }
    return `retire:${seat.dm_message_id}`;
  }

  /**
   * Only the newest turn, reminder or game-over DM of a game offers moves: the previous one keeps
   * its text and its link to the board but loses its game buttons, if it still has them (one
   * statement records the new DM and returns the old one). Cosmetic, so a failure is logged and the
   * delivery still counts (a click on an old button is refused anyway).
   */
  private async retirePreviousDm(userId: string, gameId: number, channelId: string, newId: string, payload: MessagePayload): Promise<void> {
    try {
      // Play here never goes stale: a DM with only that and links is not live.
      const live = hasMoveButtons(payload.components);
      const rows = await query<{ old_id: string | null; old_live: boolean }>(this.ctx.db, RECORD_DM, [newId, live, gameId, userId]);
      const old = rows[0];
      if (!old?.old_id || old.old_id === newId || !old.old_live) return;
      await this.client.rest.patch(Routes.channelMessage(channelId, old.old_id), { body: { components: linkRowsOf(payload.components) } });
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownMessage) return;
      this.ctx.log.warn({ err, gameId, userId }, 'could not remove the buttons of an older DM');
    }
  }

  private async board(row: Outbox, p: OutboxPayload<'board'>, shownAtClaim: string | null): Promise<string> {
    // Whether `board_version` can be trusted to say what the board shows. Not after an edit of ours
    // that the game outran: a click's answer may have shown the newer board before our edit reached
    // Discord and replaced it, and that click's mark still says the board is current. Nor on a retry
    // (the claim's second attempt or later), for the same reason: the attempt before may have sent
    // such an edit and stopped (a crash, a lapsed lease) before it could look again. Then the board
    // is rendered and edited again, whatever `board_version` says; the last edit standing is of the
    // game as it is.
    let trusted = !isRetry(row);
    // The claim found the board showing the game's version (the click's answer edited it): a later
    // change of the game wrote a board row of its own, so this one has nothing left to do. (The
    // claim gives no board for a retried row.)
    if (shownAtClaim) return `up-to-date:${shownAtClaim}`;
    // Render, edit, then check that nobody changed the game meanwhile; if they did, render again.
    for (let pass = 0; pass < 5; pass++) {
      if (trusted) {
        // Most board rows find the board already edited by the click's own reply: check cheaply first.
        const shown = await this.ctx.db.game.findUnique({ where: { id: p.gameId }, select: { version: true, boardVersion: true, boardMessageId: true } });
        if (shown && shown.boardMessageId && shown.boardVersion >= shown.version) return `up-to-date:${shown.boardMessageId}`;
        // A newer change of the game queued its own board row (waiting, if a click's answer shows
        // that board): it renders the board as it is then, so this one has nothing left to do.
        if (pass === 0 && (await this.newerBoardRow(row.id, p.gameId))) return 'superseded';
      }
      const { payload, game } = await renderBoard(this.ctx, this.games, p.gameId);
      if (trusted && game.boardVersion >= game.version && game.boardMessageId) return `up-to-date:${game.boardMessageId}`;
      // Discord would refuse it (the gateway's cache says what the bot lacks there): no call, the
      // game goes on from DMs until a later change finds the channel usable again.
      // (Editing its own board needs no Send Messages: only what the board itself needs.)
      const known = this.missingReason(game.guildId, game.channelId, game.kind, game.boardMessageId !== null);
      if (known) return this.boardRefused(game, known);
      let messageId = game.boardMessageId;
      let posted: APIMessage | null = null;
      try {
        if (messageId) {
          try {
            posted = (await this.client.rest.patch(Routes.channelMessage(game.channelId, messageId), withFiles(payload))) as APIMessage;
          } catch (err) {
            if (!(err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownMessage)) throw err;
            messageId = null; // the board was deleted: post a new one
          }
        }
        if (!messageId) {
          posted = await this.post(game.channelId, { ...payload, nonce: nonceFor(row, `b${game.version}`), enforce_nonce: true });
          messageId = posted.id;
        }
      } catch (err) {
        const reason = this.refusalReason(err, game.guildId, game.channelId, game.kind);
        if (reason === null) throw err;
        return this.boardRefused(game, reason);
      }
      await this.ctx.db.game.updateMany({
        where: { id: game.id, boardVersion: { lt: game.version } },
        data: { boardVersion: game.version, boardMessageId: messageId },
      });
      // Without Embed Links Discord posts the message but drops its embeds: a board with nothing on it.
      if (payload.embeds?.length && posted && Array.isArray(posted.embeds) && posted.embeds.length === 0) {
        return this.boardRefused(game, `missing ${permissionLabel('EmbedLinks')}`, messageId);
      }
      // Taken after its refusal: the block is over, and what ended there meanwhile is shown (src/services/channel-blocks.ts).
      if (game.boardBlocked !== null) await unblockBoard(this.ctx, game.id, game.channelId);
      const now = await this.ctx.db.game.findUnique({ where: { id: game.id }, select: { version: true } });
      if (!now || now.version === game.version) return messageId;
      trusted = false;
    }
    throw new DeliveryError(`board of game ${p.gameId} kept changing while being edited`, true);
  }

  /** A finished game's result in its channel, with its players mentioned (src/bot/results.ts). */
  private async result(row: Outbox, p: OutboxPayload<'result'>): Promise<string> {
    const game = await this.ctx.db.game.findUnique({ where: { id: p.gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
    if (!game?.outcome) return 'no-result';
    const payload = resultMessage({
      gameId: game.id,
      title: this.games.title(game.kind),
      seats: game.seats,
      outcome: game.outcome as unknown as ResultInput['outcome'],
      boardUrl: boardUrl(game),
      rematch: game.cycleId === null && !this.games.get(game.kind)?.assets,
      ...teamsAndLabel(this.games.get(game.kind), game.seats.map((s) => s.playerId)),
    });
    // Text and buttons only: what any post needs, not what the game's board needs.
    const msg = await this.inChannel(game.channelId, null, () => this.post(game.channelId, { ...payload, nonce: nonceFor(row), enforce_nonce: true }), game.guildId);
    return msg.id;
  }

  /**
   * Why Discord refuses Stonehall's posts in a channel, as a moderator reads it: the channel is gone
   * (10003), or the bot lacks a permission (50001 Missing Access, 50013 Missing Permissions), named
   * from the gateway's cache when this process has one. Null: another error.
   */
  private refusalReason(err: unknown, guildId: string | null, channelId: string, kind: string | null): string | null {
    if (!(err instanceof DiscordAPIError)) return null;
    if (err.code === RESTJSONErrorCodes.UnknownChannel) return GONE;
    if (err.code !== RESTJSONErrorCodes.MissingAccess && err.code !== RESTJSONErrorCodes.MissingPermissions) return null;
    const known = this.missingReason(guildId, channelId, kind);
    if (known) return known;
    if (err.code === RESTJSONErrorCodes.MissingAccess) return `missing ${permissionLabel('ViewChannel')}`;
    const needs = kind === null ? POSTING_NEEDS : gameNeeds(this.games.get(kind) ?? null);
    return `missing one of ${needs.filter((n) => n.permission !== 'ViewChannel').map((n) => permissionLabel(n.permission)).join(', ')}`;
  }

  /** What the gateway's cache says the bot lacks in the channel (null: nothing, or unknown here). */
  private missingReason(guildId: string | null | undefined, channelId: string, kind: string | null, edit = false): string | null {
    if (!guildId) return null;
    const missing = this.ctx.channels?.missing(guildId, channelId, kind, { edit });
    if (!missing?.length) return null;
    if (missing.includes(GONE)) return GONE;
    return `missing ${missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(', ')} and ${missing.at(-1)}`}`;
  }

  /**
   * The gateway's cache says the bot may post the game in its channel again (not merely: it does not
   * know): a DM written in the change whose board row comes next says nothing of a missing board.
   */
  private usableAgain(guildId: string | undefined, channelId: string | null, kind: string): boolean {
    if (!guildId || !channelId) return false;
    const missing = this.ctx.channels?.missing(guildId, channelId, kind, { edit: true });
    return missing !== null && missing !== undefined && missing.length === 0;
  }

  /** The server's system channel: from the gateway's cache, else (a worker) asked of Discord once per server. */
  private async systemChannelOf(guildId: string): Promise<string | null> {
    const cached = this.client.guilds.cache.get(guildId);
    if (cached) return cached.systemChannelId;
    if (!this.systemChannels.has(guildId)) {
      const guild = (await this.client.rest.get(Routes.guild(guildId)).catch(() => null)) as APIGuild | null;
      if (this.systemChannels.size > 10_000) this.systemChannels.clear();
      this.systemChannels.set(guildId, guild?.system_channel_id ?? null);
    }
    return this.systemChannels.get(guildId) ?? null;
  }

  private readonly systemChannels = new Map<string, string | null>();

  /** The board cannot be shown: the game goes on from DMs, its players and the moderators told once (src/services/channel-blocks.ts). */
  private async boardRefused(game: { id: number; guildId: string; channelId: string }, reason: string, messageId?: string): Promise<string> {
    this.blockedChannels.add(game.channelId);
    await blockBoard(this.ctx, game.id, { reason, systemChannelId: await this.systemChannelOf(game.guildId) });
    return `blocked: ${reason}${messageId ? ` (${messageId})` : ''}`.slice(0, 200);
  }

  /** Channels this process saw refused: a later success there ends the block (one statement, only then). */
  private readonly blockedChannels = new Set<string>();

  /**
   * Posts in a channel that is not a game's board (a result, an announcement, a leaderboard, a
   * closed-DMs mention): a refusal tells the moderators once and fails the row for good, with why;
   * Discord will not take it as things are.
   */
  private async inChannel<T>(channelId: string, kind: string | null, call: () => Promise<T>, guildId?: string | null, edit = false): Promise<T> {
    const guild = guildId ?? this.guildOf(channelId);
    const known = this.missingReason(guild, channelId, kind, edit);
    if (known) return this.channelRefused(guild, channelId, known);
    try {
      const out = await call();
      if (this.blockedChannels.delete(channelId)) await unblockChannel(this.ctx, channelId);
      return out;
    } catch (err) {
      const reason = this.refusalReason(err, guild, channelId, kind);
      if (reason === null) throw err;
      return this.channelRefused(guild, channelId, reason);
    }
  }

  private async channelRefused(guildId: string | null, channelId: string, reason: string): Promise<never> {
    if (guildId) {
      this.blockedChannels.add(channelId);
      await blockChannel(this.ctx, { guildId, channelId, reason, systemChannelId: await this.systemChannelOf(guildId) });
    }
    throw new DeliveryError(refusedPost(channelId, reason), false);
  }

  private guildOf(channelId: string): string | null {
    const c = this.client.channels.cache.get(channelId);
    return c && 'guildId' in c ? c.guildId : null;
  }

  private async newerBoardRow(id: bigint, gameId: number): Promise<boolean> {
    const rows = await this.ctx.db.$queryRaw<Array<{ id: bigint }>>`
      SELECT id FROM outbox WHERE status = 'pending' AND kind = 'board' AND id > ${id} AND payload->>'gameId' = ${String(gameId)} LIMIT 1`;
    return rows.length > 0;
  }

  private async channelMessage(row: Outbox, p: OutboxPayload<'channel-message'>): Promise<string> {
    const msg = await this.inChannel(p.channelId, null, () => this.post(p.channelId, { content: p.content, allowed_mentions: { users: p.allowedUserIds }, nonce: nonceFor(row), enforce_nonce: true }));
    return msg.id;
  }

  /** A plain DM (cycles); a mention in the fallback channel when the user's DMs are closed. */
  private async textDm(row: Outbox, p: OutboxPayload<'text-dm'>): Promise<string> {
    try {
      const msg = await this.inDm(p.userId, (channelId) => this.post(channelId, { content: p.content, allowed_mentions: { parse: [] }, nonce: nonceFor(row), enforce_nonce: true }));
      return msg.id;
    } catch (err) {
      if (!(err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.CannotSendMessagesToThisUser)) throw err;
      const content = `${mention(p.userId)} (your DMs are closed, so here it is) ${p.content}`.slice(0, 2000);
      const msg = await this.inChannel(p.fallbackChannelId, null, () => this.post(p.fallbackChannelId, { content, allowed_mentions: { users: [p.userId] }, nonce: nonceFor(row, 'f'), enforce_nonce: true }));
      return `fallback:${msg.id}`;
    }
  }

  /** A table's message, edited to show the table as it is now (an edit: delivering twice is harmless). */
  private async table(p: OutboxPayload<'table'>): Promise<string> {
    const table = await this.ctx.db.gameTable.findUnique({ where: { id: p.tableId }, include: { seats: { orderBy: { seat: 'asc' } } } });
    if (!table?.messageId) return 'no-message';
    // A started table's message is the game's board now: never draw the table over it.
    if (table.status === 'started') return 'started';
    try {
      const messageId = table.messageId;
      await this.inChannel(table.channelId, null, () => this.client.rest.patch(Routes.channelMessage(table.channelId, messageId), withFiles(tableMessage(this.games, table))), table.guildId, true);
    } catch (err) {
      if (err instanceof DiscordAPIError && err.code === RESTJSONErrorCodes.UnknownMessage) return 'message-deleted';
      throw err;
    }
    // The game may have started while this edit was on its way (a Ready or Join meanwhile turned the
    // message into the board): the table must not stay drawn over the board, so the board is drawn again.
    const now = await this.ctx.db.gameTable.findUnique({ where: { id: p.tableId }, select: { status: true, gameId: true } });
    if (now?.status === 'started' && now.gameId !== null) {
      const { payload } = await renderBoard(this.ctx, this.games, now.gameId);
      await this.client.rest.patch(Routes.channelMessage(table.channelId, table.messageId), withFiles(payload));
      return `board-again:${table.messageId}`;
    }
    return table.messageId;
  }

  /** A cycle's leaderboard, computed from the database now. */
  private async leaderboard(row: Outbox, p: OutboxPayload<'leaderboard'>): Promise<string> {
    const cycle = await this.ctx.db.cycle.findUniqueOrThrow({ where: { id: p.cycleId }, include: { season: true } });
    const content = leaderboardText(cycle, p.kind, await standings(this.ctx, { cycleId: p.cycleId, kind: p.kind }));
    const msg = await this.inChannel(p.channelId, null, () => this.post(p.channelId, { content, allowed_mentions: { parse: [] }, nonce: nonceFor(row), enforce_nonce: true }), cycle.guildId);
    return msg.id;
  }
}
