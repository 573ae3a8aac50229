import { beforeEach, describe, expect, it } from 'vitest';
import { knucklebones, replay, type KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { Scheduler } from '../../src/scheduler/index.ts';
import { challenge } from '../../src/services/challenges.ts';
import { UserError } from '../../src/services/errors.ts';
import { getGame as getGame, moveLog, playMove, resign } from '../../src/services/games.ts';
import { verifyGame } from '../../src/services/replay.ts';
import { connectPostgres } from '../../src/db/client.ts';
import { alice, bob, CHANNEL, expectCode, GUILD, SEED_A, testContext, twoPlayerGame, withServiceDb } from '../helpers/context.ts';

const carol = { id: '200000000000000003', name: 'Carol', bot: false };
const robot = { id: '200000000000000009', name: 'Robo', bot: true };
const HOUR = 3_600_000;

const db = withServiceDb();

async function reset() {
  await db.sql.exec('TRUNCATE guilds, players, challenges, games, seats, moves, jobs, outbox RESTART IDENTITY CASCADE');
}
beforeEach(reset);

function state(gameRow: { state: unknown }) {
  return knucklebones.stateSchema.parse(gameRow.state) as KnucklebonesState;
}

async function playToEnd(ctx: ReturnType<typeof testContext>, gameId: number) {
  let moves = 0;
  for (;;) {
    const { game, state: s } = await rawGame(gameId);
    if (game.status !== 'active') return moves;
    const st = s as KnucklebonesState;
    const col = st.grids[st.turn!]!.findIndex((c) => c.length < 3) + 1;
    await playMove(ctx, { gameId, userId: st.turn!, guildId: GUILD, move: { type: 'place', column: col }, expectedVersion: game.version });
    moves++;
  }
}

/** The stored game row (raw state included): tests inspect the database directly. */
async function rawGame(gameId: number) {
  const game = await db.prisma.game.findUniqueOrThrow({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
  return { game, state: game.state as unknown };
}

describe('a full game through the services', () => {
  it('plays to the end, records every move and notification, and replays from the seed', async () => {
    const ctx = testContext(db);
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    const moves = await playToEnd(ctx, game.id);
    const { game: final, state: s } = await rawGame(game.id);
    const st = s as KnucklebonesState;
    expect(final.status).toBe('finished');
    expect(final.version).toBe(moves);
    expect(st.outcome).not.toBeNull();
    // Every move is in the log exactly once, and the log replays to the stored state.
    const log = await moveLog(ctx, game.id);
    expect(log.map((l) => l.seq)).toEqual(Array.from({ length: moves }, (_, i) => i + 1));
    const report = await verifyGame(ctx, game.id);
    expect(report).toMatchObject({ commitmentOk: true, stateOk: true, moves });
    expect(report.states.at(-1)).toEqual(st);
    // The engine's own replay agrees (the log holds the actor and the move of every placement).
    const entries = log.map((l) => ({ actor: l.actorId, move: (l.entry as { type: 'move'; move: { type: 'place'; column: 1 | 2 | 3 } }).move }));
    expect(replay(final.seed, st.players, entries)).toEqual(st);
    // One turn DM per turn (the first turn plus one after every move but the last), two game-over DMs.
    const dms = await db.prisma.outbox.findMany({ where: { kind: 'dm' }, orderBy: { id: 'asc' } });
    const types = dms.map((d) => (d.payload as { notification: { type: string } }).notification.type);
    expect(types.filter((t) => t === 'turn')).toHaveLength(moves);
    expect(types.filter((t) => t === 'game-over')).toHaveLength(2);
    // Seat results agree with the outcome; no job is left pending.
    const seats = await db.prisma.seat.findMany({ where: { gameId: game.id } });
    for (const seat of seats) {
      const expected = st.outcome!.winners.length === 0 ? 'draw' : st.outcome!.winners.includes(seat.playerId) ? 'win' : 'loss';
      expect(seat.result).toBe(expected);
      expect(seat.deadlineAt).toBeNull();
    }
    expect(await db.prisma.job.count({ where: { status: 'pending' } })).toBe(0);
    expect(final.seedCommitment).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses moves by outsiders, out of turn, into a full column, and on finished games, changing nothing', async () => {
    const ctx = testContext(db);
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    const st = state(game);
    const waiting = st.players.find((p) => p !== st.turn)!;
    await expectCode(playMove(ctx, { gameId: game.id, userId: carol.id, guildId: GUILD, move: { type: 'place', column: 1 } }), 'game/not-participant');
    await expectCode(playMove(ctx, { gameId: game.id, userId: waiting, guildId: GUILD, move: { type: 'place', column: 1 } }), 'knucklebones/not-your-turn');
    await expectCode(playMove(ctx, { gameId: game.id, userId: st.turn!, guildId: GUILD, move: { type: 'place', column: 4 } }), 'knucklebones/bad-move');
    await expectCode(playMove(ctx, { gameId: 9999, userId: st.turn!, guildId: GUILD, move: { type: 'place', column: 1 } }), 'game/unknown');
    await expectCode(playMove(ctx, { gameId: game.id, userId: st.turn!, guildId: '999', move: { type: 'place', column: 1 } }), 'game/unknown');
    const after = await rawGame(game.id);
    expect(after.game.version).toBe(0);
    expect(await db.prisma.move.count()).toBe(0);
    // Fill column 1 of the player to move, then try it again.
    let g = after.game;
    let current = state(g);
    const target = current.turn!;
    while (state(g).grids[target]![0]!.length < 3) {
      current = state(g);
      const col = current.turn === target ? 1 : 3;
      await playMove(ctx, { gameId: game.id, userId: current.turn!, guildId: GUILD, move: { type: 'place', column: col } });
      g = (await rawGame(game.id)).game;
    }
    while (state(g).turn !== target) {
      await playMove(ctx, { gameId: game.id, userId: state(g).turn!, guildId: GUILD, move: { type: 'place', column: 2 } });
      g = (await rawGame(game.id)).game;
    }
    const versionBefore = g.version;
    await expectCode(playMove(ctx, { gameId: game.id, userId: target, guildId: GUILD, move: { type: 'place', column: 1 } }), 'knucklebones/column-full');
    expect((await rawGame(game.id)).game.version).toBe(versionBefore);
    await resign(ctx, { gameId: game.id, userId: target, guildId: GUILD });
    await expectCode(playMove(ctx, { gameId: game.id, userId: target, guildId: GUILD, move: { type: 'place', column: 2 } }), 'game/over');
  });
});

describe('challenges', () => {
  it('refuses self-challenges, bots, a second open game and a repeated challenge', async () => {
    const ctx = testContext(db);
    await expectCode(challenge(ctx, { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', from: alice, to: alice }), 'challenge/self');
    await expectCode(challenge(ctx, { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', from: alice, to: robot }), 'challenge/bot');
    await challenge(ctx, { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', from: alice, to: bob });
    await expectCode(challenge(ctx, { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', from: alice, to: bob }), 'challenge/already-open');
    // Bob naming Alice back accepts: the game starts at once.
    const started = await challenge(ctx, { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', from: bob, to: alice });
    expect(started.type).toBe('started');
    await expectCode(challenge(ctx, { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', from: alice, to: bob }), 'challenge/already-playing');
    await expectCode(challenge(ctx, { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', from: bob, to: alice }), 'challenge/already-playing');
    expect(await db.prisma.game.count()).toBe(1);
  });

  it('two players challenging each other at the same instant produce exactly one game', async () => {
    const ctx = testContext(db);
    const results = await Promise.all([
      challenge(ctx, { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', from: alice, to: bob }),
      challenge(ctx, { guildId: GUILD, channelId: CHANNEL, kind: 'knucklebones', from: bob, to: alice }),
    ]);
    expect(results.map((r) => r.type).sort()).toEqual(['challenge', 'started']);
    expect(await db.prisma.game.count()).toBe(1);
  });
});

describe('concurrency and double clicks', () => {
  it('two concurrent placements for the same turn: exactly one wins', async () => {
    const ctx = testContext(db);
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    const mover = state(game).turn!;
    const results = await Promise.allSettled([1, 2].map((col) => playMove(ctx, { gameId: game.id, userId: mover, guildId: GUILD, move: { type: 'place', column: col }, expectedVersion: 0 })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(UserError);
    expect(['game/stale', 'knucklebones/not-your-turn']).toContain((rejected.reason as UserError).code);
    expect(await db.prisma.move.count({ where: { gameId: game.id } })).toBe(1);
    expect((await rawGame(game.id)).game.version).toBe(1);
  });

  it('a double click on the same button is rejected the second time and nothing is duplicated', async () => {
    const ctx = testContext(db);
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    const mover = state(game).turn!;
    const click = () => playMove(ctx, { gameId: game.id, userId: mover, guildId: GUILD, move: { type: 'place', column: 2 }, expectedVersion: 0 });
    await click();
    const outboxBefore = await db.prisma.outbox.count();
    await expectCode(click(), 'game/stale');
    expect(await db.prisma.move.count({ where: { gameId: game.id } })).toBe(1);
    expect(await db.prisma.outbox.count()).toBe(outboxBefore);
  });
});

describe('deadlines and reminders', () => {
  it('reminds at 12 h, 4 h and 1 h, then forfeits after 24 h; the opponent wins', async () => {
    const ctx = testContext(db);
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    const idle = state(game).turn!;
    const other = state(game).players.find((p) => p !== idle)!;
    const scheduler = new Scheduler(ctx);
    const reminders = async () =>
      (await db.prisma.outbox.findMany({ where: { kind: 'dm' } })).filter((r) => (r.payload as { notification: { type: string } }).notification.type === 'reminder').length;
    await ctx.clock.advance(11 * HOUR);
    expect(await scheduler.sweep()).toBe(0);
    await ctx.clock.advance(1 * HOUR + 1000);
    expect(await scheduler.sweep()).toBe(1);
    expect(await reminders()).toBe(1);
    await ctx.clock.advance(8 * HOUR);
    expect(await scheduler.sweep()).toBe(1);
    expect(await reminders()).toBe(2);
    await ctx.clock.advance(3 * HOUR);
    expect(await scheduler.sweep()).toBe(1);
    expect(await reminders()).toBe(3);
    expect((await rawGame(game.id)).game.status).toBe('active');
    await ctx.clock.advance(HOUR);
    expect(await scheduler.sweep()).toBe(1);
    const { game: final, state: s } = await rawGame(game.id);
    expect(final.status).toBe('finished');
    expect((s as KnucklebonesState).outcome).toMatchObject({ winners: [other], reason: 'forfeit', forfeited: idle });
    const seats = await db.prisma.seat.findMany({ where: { gameId: game.id } });
    expect(seats.find((x) => x.playerId === idle)?.result).toBe('forfeit');
    expect(seats.find((x) => x.playerId === other)?.result).toBe('win');
    expect(await scheduler.sweep()).toBe(0);
    const log = await moveLog(ctx, game.id);
    expect(log).toEqual([{ seq: 1, actorId: 'system', entry: { type: 'forfeit', player: idle, reason: 'timeout' } }]);
  });

  it('a late sweep sends only the most urgent reminder, and none once the deadline has passed', async () => {
    const ctx = testContext(db);
    const scheduler = new Scheduler(ctx);
    const reminderRows = async (gameId: number) =>
      (await db.prisma.outbox.findMany({ where: { kind: 'dm' }, orderBy: { id: 'asc' } }))
        .map((r) => (r.payload as { notification: { type: string; gameId: number } }).notification)
        .filter((n) => n.type === 'reminder' && n.gameId === gameId);
    // Nobody swept for 21 h: the 12 h and 4 h reminders are both due; only the 4 h one goes out.
    const late = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    await ctx.clock.advance(21 * HOUR);
    expect(await scheduler.sweep()).toBe(2);
    expect(await reminderRows(late.id)).toHaveLength(1);
    const jobs = await db.prisma.job.findMany({ where: { gameId: late.id, kind: 'timer-reminder' }, orderBy: { dueAt: 'asc' } });
    expect(jobs.map((j) => j.status)).toEqual(['done', 'done', 'pending']);
    await ctx.clock.advance(2 * HOUR + 1000);
    await scheduler.sweep();
    expect(await reminderRows(late.id)).toHaveLength(2);
    await resign(ctx, { gameId: late.id, userId: state(late).turn!, guildId: GUILD });

    // Nobody swept for 25 h: the forfeit, and no reminder for a turn that is already lost.
    const lost = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    await ctx.clock.advance(25 * HOUR);
    await scheduler.sweep();
    expect((await rawGame(lost.id)).game.status).toBe('finished');
    expect(await reminderRows(lost.id)).toHaveLength(0);
  });

  it('a move resets the clock: the old deadline does not fire', async () => {
    const ctx = testContext(db);
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    const scheduler = new Scheduler(ctx);
    await ctx.clock.advance(23 * HOUR);
    await scheduler.sweep();
    const mover = state(game).turn!;
    await playMove(ctx, { gameId: game.id, userId: mover, guildId: GUILD, move: { type: 'place', column: 1 } });
    await ctx.clock.advance(2 * HOUR);
    await scheduler.sweep();
    expect((await rawGame(game.id)).game.status).toBe('active');
  });

  it('players who turned reminders off get none', async () => {
    const ctx = testContext(db);
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    await db.prisma.player.updateMany({ data: { remindersEnabled: false } });
    const scheduler = new Scheduler(ctx);
    await ctx.clock.advance(23.5 * HOUR);
    expect(await scheduler.sweep()).toBe(3);
    const reminders = (await db.prisma.outbox.findMany({ where: { kind: 'dm' } })).filter(
      (r) => (r.payload as { notification: { type: string } }).notification.type === 'reminder',
    );
    expect(reminders).toHaveLength(0);
    expect(game.id).toBeGreaterThan(0);
  });

  it('a deadline that fell due while the bot was down fires once after a restart, even with two schedulers racing', async () => {
    const ctx = testContext(db);
    const game = await twoPlayerGame(ctx, 'knucklebones', { seed: SEED_A });
    await db.prisma.player.updateMany({ data: { remindersEnabled: false } });
    await db.prisma.job.deleteMany({ where: { kind: 'timer-reminder' } });
    // The "old process" saw nothing; time passes while no scheduler runs.
    await ctx.clock.advance(25 * HOUR);
    // Two "restarted processes", each with its own connection pool, sweep at once.
    const other = await connectPostgres(db.url, { poolSize: 4 });
    try {
      const a = new Scheduler(ctx);
      const b = new Scheduler({ ...ctx, db: other.prisma });
      const fired = await Promise.all([a.sweep(), b.sweep()]);
      expect(fired[0] + fired[1]).toBe(1);
      expect(await a.sweep()).toBe(0);
    } finally {
      await other.close();
    }
    const { game: final } = await rawGame(game.id);
    expect(final.status).toBe('finished');
    expect(await db.prisma.move.count({ where: { gameId: game.id } })).toBe(1);
    const gameOver = (await db.prisma.outbox.findMany({ where: { kind: 'dm' } })).filter(
      (r) => (r.payload as { notification: { type: string } }).notification.type === 'game-over',
    );
    expect(gameOver).toHaveLength(2);
  });
});
