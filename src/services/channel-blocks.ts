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
 * A game that ended meanwhile has no next change: when Discord takes a post in its channel again,
 * its last board and its refused result are written again then (`reshowEnds`).
 */

/** How a post refused in a channel ends its outbox row (`last_error`): `reshowEnds` finds the refused results by its start. */
export const refusedPost = (channelId: string, reason: string) => `${refusedIn(channelId)}${reason}); the moderators were told`;
const refusedIn = (channelId: string) => `Discord refuses Stonehall's posts in <#${channelId}> (`;

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
 * with them; a game already over is only marked, so that its last board is shown once Discord takes
 * posts there again (nobody is told: the game-over DMs already went out). The first time for the
 * channel: the moderators are told. Repeating it tells nobody again.
 */
export async function blockBoard(ctx: ServiceContext, gameId: number, refusal: Omit<Refusal, 'guildId' | 'channelId'>): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.$transaction(async (tx) => {
    const game = await tx.game.findUnique({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
    if (!game) return;
    const marked = (await tx.game.updateMany({ where: { id: gameId, boardBlocked: null }, data: { boardBlocked: refusal.reason } })).count === 1;
    const first = marked && game.status === 'active';
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

/** Discord took a board again: the game and its channel are no longer blocked, and what ended there meanwhile is shown. */
export async function unblockBoard(ctx: ServiceContext, gameId: number, channelId: string): Promise<void> {
  const now = ctx.clock.now();
  const again = await ctx.db.$transaction(async (tx) => {
    await tx.game.updateMany({ where: { id: gameId, boardBlocked: { not: null } }, data: { boardBlocked: null } });
    await tx.channelBlock.deleteMany({ where: { channelId } });
    return reshowEnds(tx, ctx, channelId, now);
  });
  if (again) ctx.onOutbox?.();
}

/** A post in the channel succeeded again: its block (if any) is over, and what ended there meanwhile is shown. */
export async function unblockChannel(ctx: ServiceContext, channelId: string): Promise<void> {
  const now = ctx.clock.now();
  const again = await ctx.db.$transaction(async (tx) => {
    await tx.channelBlock.deleteMany({ where: { channelId } });
    return reshowEnds(tx, ctx, channelId, now);
  });
  if (again) ctx.onOutbox?.();
}

/**
 * Games of the channel that ended while Discord refused posts there: each last board refused is
 * rendered again (a board row; its mark is cleared, and set again if Discord refuses it again), and
 * each result refused there is delivered again (its failed row made pending, in place: one result
 * per game, whichever unblock comes first). What the gateway's cache knows is still missing for it
 * (a picture board without Attach Files, a post after only an edit was taken) waits for a later
 * unblock rather than being refused again. In the transaction that ends the block; returns the
 * rows written or made pending.
 */
async function reshowEnds(tx: Tx, ctx: ServiceContext, channelId: string, now: Date): Promise<number> {
  const lacks = (guildId: string, kind: string | null, edit: boolean) => (ctx.channels?.missing(guildId, channelId, kind, { edit })?.length ?? 0) > 0;
  const ended = await tx.game.findMany({
    where: { channelId, status: { not: 'active' }, boardBlocked: { not: null } },
    select: { id: true, guildId: true, kind: true, boardMessageId: true },
    orderBy: { id: 'asc' },
  });
  let boards = 0;
  for (const g of ended) {
    if (lacks(g.guildId, g.kind, g.boardMessageId !== null)) continue;
    // Cleared here, by one unblock only (another process's waits for this row and finds it cleared).
    if ((await tx.game.updateMany({ where: { id: g.id, boardBlocked: { not: null } }, data: { boardBlocked: null } })).count === 0) continue;
    await enqueue(tx, 'board', { gameId: g.id }, now);
    boards++;
  }
  const refused = await tx.$queryRaw<Array<{ id: bigint; guild_id: string }>>`
    SELECT o.id, g.guild_id FROM outbox o JOIN games g ON o.payload->>'gameId' = g.id::text
    WHERE o.status = 'failed' AND o.kind = 'result' AND g.channel_id = ${channelId} AND starts_with(o.last_error, ${refusedIn(channelId)})
    FOR UPDATE OF o`;
  const results = refused.filter((r) => !lacks(r.guild_id, null, false)).map((r) => r.id);
  if (results.length) {
    await tx.outbox.updateMany({ where: { id: { in: results }, status: 'failed' }, data: { status: 'pending', attempts: 0, availableAt: now, leaseUntil: null } });
  }
  return boards + results.length;
}
