import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { inTransaction, startGame } from './games.ts';
import { definitionOf, type GameRow } from './game-store.ts';

export type RematchResult =
  | { type: 'asked'; gameId: number; kind: string; asked: string[]; waiting: string[] }
  | { type: 'started'; gameId: number; kind: string; game: GameRow };

/**
 * A seated person asks for a rematch of a finished game (the Rematch button of its result
 * message). The rematch starts, with the same players, seats and options, in the transaction of
 * the click that completes the set of seated people who asked; until then it waits. One row per
 * game, locked for the decision: a double click, or both players at once, start one game.
 */
export async function askRematch(ctx: ServiceContext, input: { gameId: number; userId: string; guildId: string }): Promise<RematchResult> {
  return inTransaction(ctx, async (tx) => {
    const game = await tx.game.findUnique({ where: { id: input.gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
    if (!game || game.guildId !== input.guildId) throw new UserError('game/unknown', `There is no game #${input.gameId} in this server.`);
    const def = definitionOf(ctx, game.kind);
    const humans = game.seats.filter((s) => !s.autopilot).map((s) => s.playerId);
    if (!humans.includes(input.userId)) {
      throw new UserError('rematch/not-player', `Only the players of game #${game.id} can ask for its rematch. Start your own game with \`/${game.kind} ${def.startSubcommand ?? def.joinSubcommand}\`.`);
    }
    if (game.status !== 'finished') throw new UserError('rematch/not-over', `Game #${game.id} is not over yet: finish it first.`);
    if (game.cycleId !== null) {
      throw new UserError('rematch/cycle', `Game #${game.id} was arranged by a cycle: games of a cycle come from intents. Name your opponent again with \`/${game.kind} ${def.joinSubcommand}\` in the Rest Phase.`);
    }
    if (def.assets) throw new UserError('rematch/assets', `${def.title} games start with what each player brings: start the next one with \`/${game.kind} ${def.startSubcommand ?? def.joinSubcommand}\`.`);
    const now = ctx.clock.now();
    await tx.$executeRaw`INSERT INTO rematches (game_id, accepted, created_at, updated_at) VALUES (${game.id}, ARRAY[]::text[], ${now}, ${now}) ON CONFLICT (game_id) DO NOTHING`;
    const [row] = await tx.$queryRaw<Array<{ accepted: string[] | null; new_game_id: number | null }>>`
      SELECT accepted, new_game_id FROM rematches WHERE game_id = ${game.id} FOR UPDATE`;
    if (row!.new_game_id !== null) {
      throw new UserError('rematch/started', `The rematch of game #${game.id} has already started: it is game #${row!.new_game_id}.`);
    }
    const asked = row!.accepted ?? [];
    if (asked.includes(input.userId)) {
      const waiting = humans.filter((p) => !asked.includes(p));
      throw new UserError('rematch/already-asked', `You already asked for a rematch of game #${game.id}; it starts when ${waiting.map((p) => `<@${p}>`).join(', ')} ${waiting.length === 1 ? 'clicks' : 'click'} **Rematch** too.`);
    }
    const now2 = [...asked, input.userId];
    const waiting = humans.filter((p) => !now2.includes(p));
    if (waiting.length > 0) {
      await tx.rematch.update({ where: { gameId: game.id }, data: { accepted: now2, updatedAt: now } });
      return { type: 'asked', gameId: game.id, kind: game.kind, asked: now2, waiting };
    }
    // Everyone asked: one game of theirs at a time, as with challenges.
    if (humans.length > 1) {
      const busy = await tx.game.findFirst({
        where: { guildId: game.guildId, kind: game.kind, status: 'active', AND: humans.map((p) => ({ seats: { some: { playerId: p } } })) },
        select: { id: true },
      });
      if (busy) throw new UserError('challenge/already-playing', `You already have a game in progress together (#${busy.id}). Finish it first: \`/${game.kind} games\`.`);
    }
    const players = await tx.player.findMany({ where: { id: { in: game.seats.map((s) => s.playerId) } } });
    const name = (id: string) => players.find((p) => p.id === id)?.name ?? id;
    const next = await startGame(tx, ctx, {
      guildId: game.guildId,
      channelId: game.channelId,
      kind: game.kind,
      players: game.seats.map((s) => ({ id: s.playerId, name: name(s.playerId) })),
      options: game.options,
      // The same time per move as the game it replays (null: the server's turn limit).
      turnLimitMinutes: game.turnLimitMinutes,
      autopilot: game.seats.filter((s) => s.autopilot).map((s) => s.playerId),
    });
    await tx.rematch.update({ where: { gameId: game.id }, data: { accepted: now2, newGameId: next.id, updatedAt: now } });
    return { type: 'started', gameId: game.id, kind: game.kind, game: next };
  });
}
