import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { inTransaction, loadForUpdate } from './game-store.ts';
import { enqueue } from './notifications.ts';

/**
 * The Nudge button (issue 13, feature 3): a player waiting for an opponent DMs them a reminder,
 * through the outbox, at most once per turn of theirs (the seat remembers the turn it was nudged
 * for). Returns who was nudged.
 */
export async function nudge(ctx: ServiceContext, input: { gameId: number; guildId: string | null; userId: string }): Promise<string[]> {
  return inTransaction(ctx, async (tx) => {
    const game = await loadForUpdate(tx, ctx, input.gameId, input.guildId);
    const title = `${ctx.games.title(game.kind)} #${game.id}`;
    const me = game.seats.find((s) => s.playerId === input.userId && !s.autopilot);
    if (!me) throw new UserError('nudge/not-player', `Only the players of ${title} can nudge. Watch the board, or start your own game.`);
    if (game.status !== 'active') throw new UserError('game/over', `${title} is already over.`);
    const waitingOn = game.seats.filter((s) => s.playerId !== input.userId && !s.autopilot && s.deadlineAt !== null && s.turnVersion !== null);
    if (waitingOn.length === 0) {
      throw new UserError(
        'nudge/nobody',
        me.deadlineAt ? `It is your turn in ${title}: nobody to nudge. Make your move on the board or in your DM.` : `Nobody’s clock is running in ${title} right now, so there is nobody to nudge.`,
      );
    }
    const fresh = waitingOn.filter((s) => s.nudgedTurn !== s.turnVersion);
    if (fresh.length === 0) {
      const who = waitingOn.map((s) => `<@${s.playerId}>`).join(', ');
      throw new UserError('nudge/again', `${who} ${waitingOn.length === 1 ? 'was' : 'were'} already nudged this turn: one nudge per turn. Their deadline still stands.`);
    }
    const now = ctx.clock.now();
    const url = game.boardMessageId ? `https://discord.com/channels/${game.guildId}/${game.channelId}/${game.boardMessageId}` : null;
    for (const s of fresh) {
      await tx.seat.update({ where: { gameId_seat: { gameId: game.id, seat: s.seat } }, data: { nudgedTurn: s.turnVersion } });
      const deadline = Math.floor(s.deadlineAt!.getTime() / 1000);
      await enqueue(
        tx,
        'text-dm',
        {
          userId: s.playerId,
          fallbackChannelId: game.channelId,
          content: `👋 <@${input.userId}> is waiting for your move in ${title}. Your deadline: <t:${deadline}:f> (<t:${deadline}:R>).${url ? ` Board: ${url}` : ''}`,
        },
        now,
      );
    }
    return fresh.map((s) => s.playerId);
  });
}
