import { SYSTEM, type TimerSpec } from '../kernel/types.ts';
import type { Tx } from '../db/client.ts';
import { commitChange, dmMeta, timerId, type ChangeBatch, type TimerJob } from './changes.ts';
import type { ServiceContext } from './context.ts';
import { definitionOf, lockGame, parseState, type GameRow, type LockedGame } from './game-store.ts';
import { enqueue } from './notifications.ts';

/**
 * Timers fall due (called by the scheduler inside the job's claiming transaction). A timer fires
 * only if the game still runs it: the same identity in the timers of the state as it is now; a
 * move since then that ended it makes the job moot. Its expiry forfeits the player, applies the
 * default move for them, or advances the game by itself (SYSTEM).
 */

const minutes = (m: number) => m * 60_000;

function parseJob(p: unknown): TimerJob {
  const o = p as Record<string, unknown>;
  if (typeof o?.timer !== 'string' || typeof o.key !== 'string' || typeof o.version !== 'number') throw new Error('bad timer job payload');
  return {
    timer: o.timer,
    key: o.key,
    version: o.version,
    ...(typeof o.player === 'string' ? { player: o.player } : {}),
    ...(typeof o.minutesLeft === 'number' ? { minutesLeft: o.minutesLeft } : {}),
  };
}

/** The timer the job stands for, if the game still runs it. */
function runningTimer(ctx: ServiceContext, game: GameRow, job: Pick<TimerJob, 'timer'>): { timer: TimerSpec<unknown>; state: unknown } | null {
  if (game.status !== 'active') return null;
  const def = definitionOf(ctx, game.kind);
  const state = parseState(def, game);
  const timer = (def.engine.timers(state) as TimerSpec<unknown>[]).find((t) => timerId(t) === job.timer);
  return timer ? { timer, state } : null;
}

/**
 * `opts.game`: the game, already locked and read by the caller (the batched sweep); `opts.batch`:
 * gather the change's writes there instead of writing them now.
 */
export async function expireTimer(
  tx: Tx,
  ctx: ServiceContext,
  gameId: number,
  payload: unknown,
  opts: { game?: LockedGame | null; batch?: ChangeBatch } = {},
): Promise<'forfeited' | 'moved' | 'moot'> {
  const job = parseJob(payload);
  const game = opts.game !== undefined ? opts.game : await lockGame(tx, gameId);
  const running = game && runningTimer(ctx, game, job);
  if (!game || !running) return 'moot';
  const def = definitionOf(ctx, game.kind);
  const { timer, state } = running;
  if (timer.onExpiry.type === 'forfeit') {
    if (timer.player === undefined) throw new Error(`game ${gameId}: timer ${timer.key} forfeits nobody`);
    const next = def.engine.forfeit(state, timer.player);
    await commitChange(tx, ctx, game, def, state, next, [{ actor: SYSTEM, entry: { type: 'forfeit', player: timer.player, reason: 'timeout' } }], batchOpt(opts));
    return 'forfeited';
  }
  const actor = timer.player ?? SYSTEM;
  const next = def.engine.apply(state, actor, timer.onExpiry.move);
  await commitChange(tx, ctx, game, def, state, next, [{ actor, entry: { type: 'move', move: timer.onExpiry.move, timer: timer.key } }], batchOpt(opts));
  return 'moved';
}

const batchOpt = (opts: { batch?: ChangeBatch }) => (opts.batch ? { batch: opts.batch } : {});

/**
 * A reminder fell due: DM the player unless the timer stopped or they turned reminders off. A
 * reminder that is late (no bot ran when it fell due) is dropped when the deadline has passed too,
 * or when a later reminder of the same timer is also due: one reminder, the most urgent, not a burst.
 */
export async function sendTimerReminder(tx: Tx, ctx: ServiceContext, gameId: number, payload: unknown): Promise<'sent' | 'moot' | 'muted' | 'superseded'> {
  const job = parseJob(payload);
  const game = await tx.game.findUnique({ where: { id: gameId }, include: { seats: true } });
  const running = game && runningTimer(ctx, game, job);
  if (!game || !running || job.player === undefined) return 'moot';
  const seat = game.seats.find((s) => s.playerId === job.player);
  if (!seat?.deadlineAt) return 'moot';
  const now = ctx.clock.now();
  if (seat.deadlineAt <= now) return 'superseded';
  if (job.minutesLeft !== undefined) {
    const dueAt = new Date(seat.deadlineAt.getTime() - minutes(job.minutesLeft));
    const later = await tx.job.count({
      where: { gameId, kind: 'timer-reminder', status: 'pending', dueAt: { gt: dueAt, lte: now }, payload: { path: ['timer'], equals: job.timer } },
    });
    if (later > 0) return 'superseded';
  }
  const player = await tx.player.findUnique({ where: { id: job.player } });
  if (player && !player.remindersEnabled) return 'muted';
  const def = definitionOf(ctx, game.kind);
  await enqueue(
    tx,
    'dm',
    {
      userId: job.player,
      fallbackChannelId: game.channelId,
      notification: { type: 'reminder', gameId: game.id, kind: game.kind, view: def.engine.view(running.state, job.player), deadlineAt: seat.deadlineAt.toISOString() },
      meta: dmMeta(game, true),
    },
    now,
  );
  return 'sent';
}

/**
 * Jobs written before timers were data ('turn-deadline', 'turn-reminder' with { player,
 * turnVersion }): still about the player's current turn when the seat's turn_version matches;
 * then they stand for that player's running turn timer.
 */
async function legacyTimer(tx: Tx, ctx: ServiceContext, gameId: number, payload: unknown): Promise<{ timer: string; minutesLeft?: number } | null> {
  const o = payload as { player?: unknown; turnVersion?: unknown; minutesLeft?: unknown };
  if (typeof o?.player !== 'string' || typeof o.turnVersion !== 'number') throw new Error('bad turn job payload');
  const game = await tx.game.findUnique({ where: { id: gameId }, include: { seats: true } });
  const seat = game?.seats.find((s) => s.playerId === o.player);
  if (!game || game.status !== 'active' || seat?.turnVersion !== o.turnVersion) return null;
  const def = definitionOf(ctx, game.kind);
  const timer = (def.engine.timers(parseState(def, game)) as TimerSpec<unknown>[]).find((t) => t.player === o.player && t.turn !== false);
  return timer ? { timer: timerId(timer), ...(typeof o.minutesLeft === 'number' ? { minutesLeft: o.minutesLeft } : {}) } : null;
}

export async function expireLegacyTurn(tx: Tx, ctx: ServiceContext, gameId: number, payload: unknown): Promise<string> {
  const t = await legacyTimer(tx, ctx, gameId, payload);
  return t ? expireTimer(tx, ctx, gameId, { ...t, key: t.timer.split('|')[0], version: 0 }) : 'moot';
}

export async function sendLegacyReminder(tx: Tx, ctx: ServiceContext, gameId: number, payload: unknown): Promise<string> {
  const t = await legacyTimer(tx, ctx, gameId, payload);
  return t ? sendTimerReminder(tx, ctx, gameId, { ...t, key: t.timer.split('|')[0], version: 0, player: (payload as { player: string }).player }) : 'moot';
}
