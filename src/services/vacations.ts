import type { Tx } from '../db/client.ts';
import type { Vacation } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { inTransaction, lockGame } from './game-store.ts';
import { BOARD_REDRAW } from './board-marks.ts';
import { enqueue } from './notifications.ts';
import { ensureGuild, ensurePlayers } from './settings.ts';

/**
 * Vacations (issue 13, feature 3): a player pauses all their clocks in a server for some days. In
 * one transaction: their running deadlines and the jobs behind them (expiry, reminders) move back
 * by the vacation, every game's seat remembers it (turns that begin during it start their clock
 * when it ends, see changes.ts; the board shows it), opponents are told by DM, and a job ends it.
 * Days are counted per season (per calendar year when no season runs), up to the server's limit.
 */

const DAY = 86_400_000;
const ts = (d: Date, style = 'f') => `<t:${Math.floor(d.getTime() / 1000)}:${style}>`;

export interface VacationResult {
  vacation: Vacation;
  /** Days left in this period after this one. */
  left: number;
  /** The player's running games whose clocks it paused. */
  games: number[];
}

/** The period vacation days are counted in: the running season, else the calendar year (UTC). */
async function currentPeriod(tx: Tx, guildId: string, now: Date): Promise<{ key: string; label: string }> {
  const season = await tx.season.findFirst({ where: { guildId, status: 'active' }, orderBy: { id: 'desc' } });
  return season ? { key: `season:${season.id}`, label: `in ${season.name}` } : { key: `year:${now.getUTCFullYear()}`, label: `in ${now.getUTCFullYear()}` };
}

export async function takeVacation(
  ctx: ServiceContext,
  input: { guildId: string; guildName?: string; player: { id: string; name: string }; days: number },
): Promise<VacationResult> {
  if (!Number.isInteger(input.days) || input.days < 1) throw new UserError('vacation/days', 'Give a whole number of days, 1 or more.');
  return inTransaction(ctx, async (tx) => {
    // One player's vacations are decided one at a time. No lock on the server row: a game that ends
    // locks its game row, then the server's (cycle rewards); this locks games, so it must not hold that one.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`vacation:${input.guildId}:${input.player.id}`}))`;
    const guild = (await tx.guild.findUnique({ where: { id: input.guildId } })) ?? (await ensureGuild(tx, input.guildId, input.guildName));
    await ensurePlayers(tx, [input.player]);
    const now = ctx.clock.now();
    if (guild.vacationDays === 0) throw new UserError('vacation/off', 'This server does not allow vacations. Ask a moderator if you need your clocks paused.');
    const running = await tx.vacation.findFirst({ where: { guildId: input.guildId, playerId: input.player.id, endsAt: { gt: now } }, orderBy: { endsAt: 'desc' } });
    if (running) {
      throw new UserError('vacation/running', `You are already on vacation until ${ts(running.endsAt)} (${ts(running.endsAt, 'R')}). Take more days once it has ended.`);
    }
    const period = await currentPeriod(tx, input.guildId, now);
    const used = (await tx.vacation.aggregate({ where: { guildId: input.guildId, playerId: input.player.id, period: period.key }, _sum: { days: true } }))._sum.days ?? 0;
    const left = guild.vacationDays - used;
    if (input.days > left) {
      throw new UserError(
        'vacation/allowance',
        left > 0
          ? `You have ${left} vacation day${left === 1 ? '' : 's'} left ${period.label} (of ${guild.vacationDays}). Take ${left} or fewer.`
          : `You have used all ${guild.vacationDays} vacation days ${period.label}.`,
      );
    }
    const ms = input.days * DAY;
    const endsAt = new Date(now.getTime() + ms);
    const vacation = await tx.vacation.create({ data: { guildId: input.guildId, playerId: input.player.id, period: period.key, days: input.days, startsAt: now, endsAt, createdAt: now } });

    const ids = (
      await tx.game.findMany({
        where: { guildId: input.guildId, status: 'active', seats: { some: { playerId: input.player.id, autopilot: false } } },
        select: { id: true },
        orderBy: { id: 'asc' },
      })
    ).map((g) => g.id);
    const told = new Map<string, { channelId: string; games: string[] }>();
    for (const id of ids) {
      const game = await lockGame(tx, id);
      if (!game || game.status !== 'active') continue;
      const seat = game.seats.find((s) => s.playerId === input.player.id)!;
      const deadline = seat.deadlineAt ? new Date(seat.deadlineAt.getTime() + ms) : null;
      await tx.seat.update({ where: { gameId_seat: { gameId: id, seat: seat.seat } }, data: { vacationUntil: endsAt, deadlineAt: deadline } });
      // Every clock of theirs in this game: the expiry and its reminders keep their distance to the deadline.
      await tx.$executeRaw`
        UPDATE jobs SET due_at = due_at + make_interval(secs => ${ms / 1000})
        WHERE game_id = ${id} AND status = 'pending' AND kind IN ('timer', 'timer-reminder') AND payload->>'player' = ${input.player.id}`;
      // The board shows the vacation: render it again although no move was made (and no click's
      // late mark may say it is drawn, src/services/board-marks.ts).
      await tx.game.update({ where: { id }, data: { boardVersion: BOARD_REDRAW } });
      await enqueue(tx, 'board', { gameId: id }, now);
      if (deadline) await enqueue(tx, 'dm-edit', { gameId: id, userId: input.player.id, mode: 'refresh', version: game.version }, now);
      const title = `${ctx.games.title(game.kind)} #${id}`;
      for (const other of game.seats) {
        if (other.playerId === input.player.id || other.autopilot) continue;
        const entry = told.get(other.playerId) ?? { channelId: game.channelId, games: [] };
        entry.games.push(title);
        told.set(other.playerId, entry);
      }
    }
    for (const [userId, { channelId, games }] of told) {
      await enqueue(
        tx,
        'text-dm',
        {
          userId,
          fallbackChannelId: channelId,
          content: `⏸️ <@${input.player.id}> is on vacation until ${ts(endsAt)} (${ts(endsAt, 'R')}). Their clock is paused in ${games.join(', ')}: their deadlines there move back ${input.days} day${input.days === 1 ? '' : 's'}, yours are unchanged.`.slice(0, 1800),
        },
        now,
      );
    }
    await tx.job.create({ data: { kind: 'vacation-end', dueAt: endsAt, payload: { vacationId: vacation.id }, createdAt: now } });
    return { vacation, left: left - input.days, games: ids };
  });
}

/** A vacation's end (a job): the boards stop showing it. Deadlines were moved when it began. */
export async function endVacation(tx: Tx, ctx: ServiceContext, payload: unknown): Promise<string> {
  const id = (payload as { vacationId?: unknown })?.vacationId;
  if (typeof id !== 'number') throw new Error('bad vacation-end payload');
  const vacation = await tx.vacation.findUnique({ where: { id } });
  if (!vacation) return 'gone';
  const now = ctx.clock.now();
  const seats = await tx.$queryRaw<Array<{ game_id: number }>>`
    UPDATE seats SET vacation_until = NULL
    FROM games g
    WHERE seats.game_id = g.id AND g.guild_id = ${vacation.guildId} AND seats.player_id = ${vacation.playerId}
      AND seats.vacation_until IS NOT NULL AND seats.vacation_until <= ${now}
    RETURNING seats.game_id`;
  for (const { game_id } of seats) {
    await tx.$executeRaw`UPDATE games SET board_version = ${BOARD_REDRAW} WHERE id = ${game_id} AND status = 'active'`;
    await enqueue(tx, 'board', { gameId: game_id }, now);
  }
  return `ended:${seats.length}`;
}

/** The player's vacation now, if any, and the days left in this period. */
export async function vacationStatus(ctx: ServiceContext, input: { guildId: string; playerId: string }): Promise<{ until: Date | null; left: number; of: number; label: string }> {
  return ctx.db.$transaction(async (tx) => {
    const now = ctx.clock.now();
    const guild = await tx.guild.findUnique({ where: { id: input.guildId } });
    const of = guild?.vacationDays ?? 14;
    const period = await currentPeriod(tx, input.guildId, now);
    const used = (await tx.vacation.aggregate({ where: { guildId: input.guildId, playerId: input.playerId, period: period.key }, _sum: { days: true } }))._sum.days ?? 0;
    const running = await tx.vacation.findFirst({ where: { guildId: input.guildId, playerId: input.playerId, endsAt: { gt: now } }, orderBy: { endsAt: 'desc' } });
    return { until: running?.endsAt ?? null, left: Math.max(0, of - used), of, label: period.label };
  });
}
