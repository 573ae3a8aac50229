import type { Tx } from '../db/client.ts';
import type { ServiceContext } from './context.ts';
import { enqueue } from './notifications.ts';

/**
 * When Discord refuses Stonehall's posts in a channel (a permission taken away, the channel
 * deleted: issue 22). A game whose board is refused goes on from its players' DMs: the game row
 * remembers why (`games.board_blocked`), its players are told once, and their turn DMs carry the
 * moves; the channel gets one `channel_blocks` row per reason while it lasts, so the moderators are told once what to allow,
 * in the announcement channel (or the server's system channel). The next board that Discord takes
 * clears both. Nothing is retried in between: each change of the game tries its board once.
 */

export interface Refusal {
  guildId: string;
  channelId: string;
  /** What is missing, as a moderator reads it: "missing Attach Files", "the channel no longer exists". */
  reason: string;
  /** The server's system channel (from Discord), where moderators are told if no announcement channel is set. */
  systemChannelId: string | null;
}

/**
 * The board of `gameId` was refused. The first time for this game: its players are told (one DM
 * each), every seat's turn DMs carry the moves from now on, and a running turn's DM is refreshed
 * with them. The first time for the channel: the moderators are told. Repeating it tells nobody again.
 */
export async function blockBoard(ctx: ServiceContext, gameId: number, refusal: Omit<Refusal, 'guildId' | 'channelId'>): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    const game = await tx.game.findUnique({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
    if (!game) return;
    const first = game.status === 'active' && (await tx.game.updateMany({ where: { id: gameId, boardBlocked: null }, data: { boardBlocked: refusal.reason } })).count === 1;
    if (first) {
      const title = ctx.games.title(game.kind);
      const humans = game.seats.filter((s) => !s.autopilot);
      await tx.seat.updateMany({ where: { gameId, autopilot: false }, data: { dmMoves: true } });
      for (const s of humans) {
        const content =
          `⚠️ ${title} #${game.id}: Discord doesn't let Stonehall show the board in <#${game.channelId}> right now (${refusal.reason}). ` +
          `The game goes on here in your DMs: your turn DMs carry the moves, and \`/${game.kind} view game:${game.id}\` shows the board. The moderators have been told.`;
        await enqueue(tx, 'text-dm', { userId: s.playerId, fallbackChannelId: game.channelId, content: content.slice(0, 1800) }, now);
        // A turn already pinged (maybe with Play here only): shown again with its moves.
        if (s.deadlineAt && s.dmMessageId) await enqueue(tx, 'dm-edit', { gameId, userId: s.playerId, mode: 'refresh', version: game.version }, now);
      }
    }
    await blockChannelIn(tx, ctx, { ...refusal, guildId: game.guildId, channelId: game.channelId }, now);
  });
  ctx.onOutbox?.();
}

/** A post in a channel was refused (not a game's board): the moderators are told, once. */
export async function blockChannel(ctx: ServiceContext, refusal: Refusal): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.$transaction((tx) => blockChannelIn(tx, ctx, refusal, now));
  ctx.onOutbox?.();
}

async function blockChannelIn(tx: Tx, ctx: ServiceContext, r: Refusal, now: Date): Promise<void> {
  const inserted = await tx.$executeRaw`
    INSERT INTO channel_blocks (channel_id, guild_id, reason, since) VALUES (${r.channelId}, ${r.guildId}, ${r.reason}, ${now})
    ON CONFLICT (channel_id, reason) DO NOTHING`;
  if (inserted === 0) return;
  const guild = await tx.guild.findUnique({ where: { id: r.guildId }, select: { announcementChannelId: true } });
  const target = [guild?.announcementChannelId ?? null, r.systemChannelId].find((c): c is string => c !== null && c !== r.channelId);
  if (!target) {
    ctx.log.warn({ guildId: r.guildId, channelId: r.channelId, reason: r.reason }, 'Discord refuses posts in a channel, and there is no other channel to tell the moderators in');
    return;
  }
  const running = await tx.game.count({ where: { channelId: r.channelId, status: 'active' } });
  const games = running === 0 ? '' : ` ${running} game${running === 1 ? '' : 's'} played there ${running === 1 ? 'goes' : 'go'} on in the players' DMs, without a board in the channel.`;
  const fix = /no longer exists/.test(r.reason)
    ? ' New games need another channel.'
    : ` Allow it for Stonehall in that channel's settings (Permissions): the next move there posts the board again.`;
  const content = `🛠️ Moderators: Discord refuses Stonehall's posts in <#${r.channelId}> (${r.reason}).${games}${fix} \`/stonehall-config check:True\` lists what Stonehall may do in every channel it uses.`;
  await enqueue(tx, 'channel-message', { channelId: target, content: content.slice(0, 2000), allowedUserIds: [] }, now);
}

/** Discord took a board again: the game and its channel are no longer blocked. */
export async function unblockBoard(ctx: ServiceContext, gameId: number, channelId: string): Promise<void> {
  await ctx.db.$transaction([
    ctx.db.game.updateMany({ where: { id: gameId, boardBlocked: { not: null } }, data: { boardBlocked: null } }),
    ctx.db.channelBlock.deleteMany({ where: { channelId } }),
  ]);
}

/** A post in the channel succeeded again: its block (if any) is over. */
export async function unblockChannel(ctx: ServiceContext, channelId: string): Promise<void> {
  await ctx.db.channelBlock.deleteMany({ where: { channelId } });
}
