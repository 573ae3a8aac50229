import { describe, expect, it } from 'vitest';
import { endSeason, startSeason } from '../../src/services/cycles.ts';
import { endVacation, takeVacation, vacationStatus } from '../../src/services/vacations.ts';
import { alice, bob, GUILD, testContext, twoPlayerGame, userError, withServiceDb } from '../helpers/context.ts';

/** Vacations on real Postgres: the allowance per season (per year outside seasons), and what a vacation moves. */
const mod = { manageGuild: true, roleIds: [] };
const DAY = 86_400_000;

const db = withServiceDb();

describe('vacations', () => {
  it('count against the season’s allowance; a new season gives it afresh', async () => {
    const ctx = testContext(db);
    await startSeason(ctx, { guildId: GUILD, member: mod, name: 'Season 1' });
    await db.prisma.guild.update({ where: { id: GUILD }, data: { vacationDays: 4 } });
    const v = await takeVacation(ctx, { guildId: GUILD, player: alice, days: 3 });
    expect(v.left).toBe(1);
    expect(v.vacation.endsAt.getTime() - v.vacation.startsAt.getTime()).toBe(3 * DAY);
    await ctx.clock.advance(3 * DAY + 1);
    await expect(takeVacation(ctx, { guildId: GUILD, player: alice, days: 2 })).rejects.toSatisfy(userError('vacation/allowance'));
    expect((await vacationStatus(ctx, { guildId: GUILD, playerId: alice.id })).left).toBe(1);
    await endSeason(ctx, { guildId: GUILD, member: mod });
    await startSeason(ctx, { guildId: GUILD, member: mod, name: 'Season 2' });
    const again = await takeVacation(ctx, { guildId: GUILD, player: alice, days: 4 });
    expect(again.left).toBe(0);
    // Moderators may switch vacations off.
    await db.prisma.guild.update({ where: { id: GUILD }, data: { vacationDays: 0 } });
    await expect(takeVacation(ctx, { guildId: GUILD, player: bob, days: 1 })).rejects.toSatisfy(userError('vacation/off'));
  });

  it('moves the player’s deadline and every pending job of theirs, not the opponent’s; the end job clears the seat', async () => {
    const ctx = testContext(db);
    const guildId = '100000000000000005';
    const game = await twoPlayerGame(ctx, 'knucklebones', { guildId });
    const onTurn = game.seats.find((s) => s.deadlineAt !== null)!;
    const player = onTurn.playerId === alice.id ? alice : bob;
    const jobsBefore = await db.prisma.job.findMany({ where: { gameId: game.id, status: 'pending' }, orderBy: { id: 'asc' } });
    expect(jobsBefore.length).toBeGreaterThan(1); // the expiry and its reminders
    const v = await takeVacation(ctx, { guildId, player, days: 2 });
    expect(v.games).toEqual([game.id]);
    const jobsAfter = await db.prisma.job.findMany({ where: { gameId: game.id, status: 'pending' }, orderBy: { id: 'asc' } });
    expect(jobsAfter.map((j) => j.dueAt.getTime() - 2 * DAY)).toEqual(jobsBefore.map((j) => j.dueAt.getTime()));
    const seats = await db.prisma.seat.findMany({ where: { gameId: game.id } });
    expect(seats.find((s) => s.playerId === player.id)!.deadlineAt!.getTime()).toBe(onTurn.deadlineAt!.getTime() + 2 * DAY);
    expect(seats.find((s) => s.playerId !== player.id)!.vacationUntil).toBeNull();
    // One DM to the opponent, one board refresh.
    const outbox = await db.prisma.outbox.findMany({ where: { kind: 'text-dm' } });
    expect(outbox.filter((o) => (o.payload as { content: string }).content.includes(`#${game.id}`))).toHaveLength(1);

    // The end job: before its time it clears nothing; after, the seat's mark is gone.
    const job = await db.prisma.job.findFirstOrThrow({ where: { kind: 'vacation-end', payload: { path: ['vacationId'], equals: v.vacation.id } } });
    expect(job.dueAt.getTime()).toBe(v.vacation.endsAt.getTime());
    expect(await db.prisma.$transaction((tx) => endVacation(tx, ctx, job.payload))).toBe('ended:0');
    await ctx.clock.advance(2 * DAY);
    expect(await db.prisma.$transaction((tx) => endVacation(tx, ctx, job.payload))).toBe('ended:1');
    expect((await db.prisma.seat.findMany({ where: { gameId: game.id, vacationUntil: { not: null } } })).length).toBe(0);
  });
});
