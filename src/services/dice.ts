import { DIE_INFO, type DieItem } from '../games/knucklebones/engine/dice.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { getGame, playMove, type MoveResult } from './games.ts';
import { heldDice } from './inventory.ts';

/**
 * Using a dice item in Knucklebones: the service checks, in the move's transaction (the game row
 * locked), that the player holds the die in the cycle's inventory; the engine checks the rest
 * (their turn, once per game, one per turn) and applies the effect.
 */
export async function useDie(
  ctx: ServiceContext,
  input: { gameId: number; userId: string; guildId: string | null; die: DieItem; column?: 1 | 2 | 3; expectedVersion?: number },
): Promise<MoveResult> {
  return playMove(ctx, {
    gameId: input.gameId,
    userId: input.userId,
    guildId: input.guildId,
    move: { type: 'use-die', die: input.die, ...(input.column ? { column: input.column } : {}) },
    ...(input.expectedVersion !== undefined ? { expectedVersion: input.expectedVersion } : {}),
    guard: async (tx, game) => {
      if (game.kind !== 'knucklebones') throw new UserError('dice/wrong-game', 'Dice items are for Knucklebones.');
      const held = await heldDice(tx, game, input.userId);
      if (!held.includes(input.die)) {
        throw new UserError('dice/not-held', `You do not hold a ${DIE_INFO[input.die].name} in this cycle’s inventory. See yours with \`/inventory\`.`);
      }
    },
  });
}

/** Dice the player holds and has not used in this game yet (what the "Use a die…" menu offers). */
export async function usableDice(ctx: ServiceContext, input: { gameId: number; userId: string; guildId: string | null }): Promise<DieItem[]> {
  const { game, state } = await getGame(ctx, input.gameId, input.guildId);
  const held = await heldDice(ctx.db, game, input.userId);
  const used = ((state as { dice?: { used: Record<string, string[]> } }).dice?.used[input.userId] ?? []) as string[];
  return held.filter((d) => !used.includes(d));
}
