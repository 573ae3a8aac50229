import { isDeepStrictEqual } from 'node:util';
import { replayWith } from '../kernel/replay.ts';
import type { ServiceContext } from './context.ts';
import { seedCommitment, type LogEntry } from './game-store.ts';
import type { GameRegistry } from './registry.ts';

export interface ReplayReport {
  gameId: number;
  kind: string;
  commitmentOk: boolean;
  /** Replaying setup(seed) + the move log gives exactly the stored state. */
  stateOk: boolean;
  moves: number;
  /** Each step's state, for printing rolls (engine-specific). */
  states: unknown[];
}

/** Pure replay of a stored log (setup from the seed, then every entry in order); every state. */
export function replayLog(
  games: GameRegistry,
  kind: string,
  seed: string,
  players: string[],
  options: unknown,
  log: Array<{ actorId: string; entry: LogEntry }>,
  playerData?: Record<string, unknown> | null,
): unknown[] {
  const def = games.get(kind);
  if (!def) throw new Error(`unknown game kind ${kind}`);
  const { engine } = def;
  const entries = log.map(({ actorId, entry }) =>
    entry.type === 'move' ? { actor: actorId, move: entry.move } : { actor: entry.player, forfeit: true as const },
  );
  return replayWith(engine, seed, players, engine.optionsSchema.parse(options ?? {}), entries, playerData ?? undefined);
}

/** Checks a stored game against its seed commitment and its move log. */
export async function verifyGame(ctx: ServiceContext, gameId: number): Promise<ReplayReport> {
  const game = await ctx.db.game.findUniqueOrThrow({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } }, moves: { orderBy: { seq: 'asc' } } } });
  const states = replayLog(
    ctx.games,
    game.kind,
    game.seed,
    game.seats.map((s) => s.playerId),
    game.options,
    game.moves.map((m) => ({ actorId: m.actorId, entry: m.entry as LogEntry })),
    game.playerData as Record<string, unknown> | null,
  );
  return {
    gameId,
    kind: game.kind,
    commitmentOk: seedCommitment(game.seed) === game.seedCommitment,
    // jsonb does not keep key order, so compare structurally.
    stateOk: isDeepStrictEqual(JSON.parse(JSON.stringify(states.at(-1))), game.state),
    moves: game.moves.length,
    states,
  };
}
