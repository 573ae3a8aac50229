import { beforeEach, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { CronExpressionParser } from 'cron-parser';
import cron from 'node-cron';
import { configureCycles, endCycle, endSeason, openPhase, postLeaderboard, startCycle, startSeason } from '../../src/services/cycles.ts';
import { lastFireBefore, PhaseSchedule } from '../../src/scheduler/phases.ts';
import { inTransaction, playMove, resign, startGame } from '../../src/services/games.ts';
import { stateIntent, withdrawIntents } from '../../src/services/intents.ts';
import { getInventory, grantItem, revokeItem } from '../../src/services/inventory.ts';
import { leaderboardText, standings } from '../../src/services/leaderboard.ts';
import { updateGuildSettings } from '../../src/services/settings.ts';
import { expectCode, SEED_A, testContext, withServiceDb } from '../helpers/context.ts';

const GUILD = '100000000000000001';
const COMMENCE = '100000000000000002';
const ANNOUNCE = '100000000000000003';
const BOARD = '100000000000000004';
const mod = { manageGuild: true, roleIds: [] };
const nobody = { manageGuild: false, roleIds: [] };
const p = (n: number, name: string) => ({ id: `20000000000000000${n}`, name, bot: false });
const alice = p(1, 'Alice');
const bob = p(2, 'Bob');
const carol = p(3, 'Carol');
const dave = p(4, 'Dave');

const db = withServiceDb({ poolSize: 12 });
beforeEach(async () => {
  await db.sql.exec(
    'TRUNCATE guilds, players, challenges, games, seats, moves, jobs, outbox, seasons, cycles, phases, intents, matches, inventory_items RESTART IDENTITY CASCADE',
  );
});

async function cycleInRest(ctx = testContext(db)) {
  await startSeason(ctx, { guildId: GUILD, member: mod, name: 'Season 4' });
  return startCycle(ctx, {
    guildId: GUILD,
    member: mod,
    name: 'Cycle 16',
    defaults: { commencementChannelId: COMMENCE, announcementChannelId: ANNOUNCE, leaderboardChannelId: BOARD },
  });
}

const intent = (ctx: ReturnType<typeof testContext>, from: typeof alice, opponents: (typeof alice)[], mode: 'any' | 'each' | null = null, channelId = COMMENCE) =>
  stateIntent(ctx, { guildId: GUILD, channelId, channelName: null, kind: 'knucklebones', from, opponents, mode });

const announcements = () => db.prisma.outbox.findMany({ where: { kind: 'channel-message' }, orderBy: { id: 'asc' } });
const textDms = async (userId: string) =>
  (await db.prisma.outbox.findMany({ where: { kind: 'text-dm' }, orderBy: { id: 'asc' } })).filter((r) => (r.payload as { userId: string }).userId === userId);

/** Uses a Knucklebones die item: a move that needs the die in the cycle's inventory. */
const useDie = (ctx: ReturnType<typeof testContext>, input: { gameId: number; userId: string; guildId: string; die: string }) =>
  playMove(ctx, { gameId: input.gameId, userId: input.userId, guildId: input.guildId, move: { type: 'use-die', die: input.die } });

/** The stored game row (raw state included): tests inspect the database directly. */
async function rawGame(gameId: number) {
  const game = await db.prisma.game.findUniqueOrThrow({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
  return { game, state: game.state as unknown };
}

describe('seasons, cycles and phases', () => {
  it('refuses non-moderators, a cycle without a season, and a second cycle', async () => {
    const ctx = testContext(db);
    await expectCode(startSeason(ctx, { guildId: GUILD, member: nobody, name: 'S' }), 'cycle/not-moderator');
    await expectCode(startCycle(ctx, { guildId: GUILD, member: mod, name: 'C', defaults: { announcementChannelId: ANNOUNCE } }), 'cycle/no-season');
    await startSeason(ctx, { guildId: GUILD, member: mod, name: 'Season 4' });
    await expectCode(startCycle(ctx, { guildId: GUILD, member: mod, name: 'C' }), 'cycle/no-announcements');
    await startCycle(ctx, { guildId: GUILD, member: mod, name: 'Cycle 16', defaults: { announcementChannelId: ANNOUNCE } });
    await expectCode(startCycle(ctx, { guildId: GUILD, member: mod, name: 'Cycle 17' }), 'cycle/still-running');
    await expectCode(openPhase(ctx, { guildId: GUILD, kind: 'battle', member: nobody }), 'cycle/not-moderator');
  });

  it('a season is started once at a time, under a name not used before, and its end is announced', async () => {
    const ctx = testContext(db);
    await startSeason(ctx, { guildId: GUILD, member: mod, name: 'Season 4' });
    await startCycle(ctx, { guildId: GUILD, member: mod, name: 'Cycle 1', defaults: { announcementChannelId: ANNOUNCE } });
    await endCycle(ctx, { guildId: GUILD, member: mod });
    // Another season while Season 4 runs: refused, nothing changes.
    await expectCode(startSeason(ctx, { guildId: GUILD, member: mod, name: 'Season 5' }), 'cycle/season-running');
    expect(await db.prisma.season.count()).toBe(1);
    await endSeason(ctx, { guildId: GUILD, member: mod });
    expect((await announcements()).map((r) => (r.payload as { content: string }).content).at(-1)).toMatch(/Season 4\*\* has ended/);
    // Not "… /krellstones join are plain challenges": a Krellstones join seats you at a host's table.
    expect((await announcements()).map((r) => (r.payload as { content: string }).content).at(-1)).toMatch(/Until the next season, games start the usual way again, not by intents: `\/knucklebones join`, `\/tellstones challenge`, .*`\/krellstones start`\.$/);
    // The same name again (in any case) is refused; a new one starts.
    await expectCode(startSeason(ctx, { guildId: GUILD, member: mod, name: 'season 4' }), 'cycle/season-name');
    await startSeason(ctx, { guildId: GUILD, member: mod, name: 'Season 5' });
    expect(await db.prisma.season.count({ where: { status: 'active' } })).toBe(1);
  });

  it('a cycle with no games ends without an empty leaderboard, and says so', async () => {
    const ctx = testContext(db);
    const { cycle } = await cycleInRest(ctx);
    await expectCode(postLeaderboard(ctx, { guildId: GUILD, member: mod, cycleId: cycle.id }), 'cycle/no-games');
    await endCycle(ctx, { guildId: GUILD, member: mod });
    expect(await db.prisma.outbox.count({ where: { kind: 'leaderboard' } })).toBe(0);
    expect((await announcements()).map((r) => (r.payload as { content: string }).content).at(-1)).toMatch(/No games were played in it, so there is no leaderboard/);
  });

  it('/cycle leaderboard posts a leaderboard for every game played in the cycle', async () => {
    const ctx = testContext(db);
    const { cycle } = await cycleInRest(ctx);
    for (const kind of ['knucklebones', 'tellstones']) {
      await inTransaction(ctx, (tx) => startGame(tx, ctx, { guildId: GUILD, channelId: COMMENCE, kind, players: [alice, bob], cycleId: cycle.id }));
    }
    await postLeaderboard(ctx, { guildId: GUILD, member: mod, cycleId: cycle.id });
    const posted = await db.prisma.outbox.findMany({ where: { kind: 'leaderboard' } });
    expect(posted.map((r) => (r.payload as { kind: string }).kind).sort()).toEqual(['knucklebones', 'tellstones']);
  });

  it('a phase change is idempotent: asking for the open phase changes nothing', async () => {
    const ctx = testContext(db);
    await cycleInRest(ctx);
    const again = await openPhase(ctx, { guildId: GUILD, kind: 'rest', member: mod });
    expect(again.changed).toBe(false);
    const battle = await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: null, source: 'schedule' });
    expect(battle.changed).toBe(true);
    expect((await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod })).changed).toBe(false);
    expect(await db.prisma.phase.count()).toBe(2);
    // Cycle start (with its Rest Phase) and one Battle Phase announcement, in the announcement channel.
    const rows = await announcements();
    expect(rows.map((r) => (r.payload as { content: string }).content)).toEqual([expect.stringMatching(/Cycle 16.*begins[\s\S]*Rest Phase/), expect.stringMatching(/Battle Phase/)]);
    expect(rows.every((r) => (r.payload as { channelId: string }).channelId === ANNOUNCE)).toBe(true);
  });

  it('a scheduled and a moderator Battle Phase at the same instant: one phase, one announcement, one set of games', async () => {
    const ctx = testContext(db);
    await cycleInRest(ctx);
    await intent(ctx, alice, [bob]);
    await intent(ctx, bob, [alice]);
    await intent(ctx, carol, [dave]);
    await intent(ctx, dave, [carol]);
    const before = (await announcements()).length;
    const results = await Promise.all([
      openPhase(ctx, { guildId: GUILD, kind: 'battle', member: null, source: 'schedule' }),
      openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod }),
      openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod }),
    ]);
    expect(results.filter((r) => r.changed)).toHaveLength(1);
    expect(await db.prisma.phase.count({ where: { kind: 'battle' } })).toBe(1);
    expect(await db.prisma.game.count()).toBe(2);
    expect((await announcements()).length).toBe(before + 1);
    const games = await db.prisma.game.findMany();
    expect(games.every((g) => g.cycleId !== null && g.channelId === COMMENCE)).toBe(true);
    // Both players of every game are told by DM.
    for (const u of [alice, bob, carol, dave]) expect((await textDms(u.id)).some((r) => /starts now/.test((r.payload as { content: string }).content))).toBe(true);
  });

  it('with game channels configured, the Battle Phase starts its games in them in turn, and each DM names its game\'s channel', async () => {
    const ctx = testContext(db);
    await cycleInRest(ctx);
    const [G1, G2] = ['100000000000000011', '100000000000000012'];
    for (const channel of [G1, G2]) await updateGuildSettings(ctx, { guildId: GUILD, member: mod, change: { allowGameChannel: channel } });
    const [erin, frank] = [p(5, 'Erin'), p(6, 'Frank')];
    for (const [a, b] of [[alice, bob], [carol, dave], [erin, frank]] as const) {
      await intent(ctx, a, [b]);
      await intent(ctx, b, [a]);
    }
    const battle = await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod });
    if (!battle.changed) throw new Error('the Battle Phase did not open');
    const games = await db.prisma.game.findMany({ where: { id: { in: battle.games } }, orderBy: { id: 'asc' } });
    expect(games.map((g) => g.channelId)).toEqual([G1, G2, G1]);
    // Each player's "starts now" DM points at the channel its board is in.
    for (const [u, channel] of [[alice, G1], [dave, G2], [frank, G1]] as const) {
      const dm = (await textDms(u.id)).map((r) => (r.payload as { content: string }).content).find((c) => /starts now/.test(c));
      expect(dm).toContain(`The board is in <#${channel}>`);
    }
    const announced = (await announcements()).at(-1)!.payload as { content: string };
    expect(announced.content).toContain(`in <#${G2}>`);
  });

  it('a new Rest Phase after a Battle Phase takes new intents; games are only for new matches', async () => {
    const ctx = testContext(db);
    await cycleInRest(ctx);
    await intent(ctx, alice, [bob]);
    await intent(ctx, bob, [alice]);
    await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod });
    await expectCode(intent(ctx, alice, [carol]), 'intent/not-rest');
    await openPhase(ctx, { guildId: GUILD, kind: 'rest', member: mod });
    await intent(ctx, alice, [bob]);
    await intent(ctx, bob, [alice]);
    await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod });
    expect(await db.prisma.game.count()).toBe(2);
    expect(await db.prisma.phase.count()).toBe(4);
  });
});

describe('intents and matching', () => {
  it('refuses outside the commencement channel, outside a cycle, self, bots, and several opponents without a mode', async () => {
    const ctx = testContext(db);
    await expectCode(intent(ctx, alice, [bob]), 'intent/no-cycle');
    await cycleInRest(ctx);
    await expectCode(intent(ctx, alice, [bob], null, '999'), 'intent/wrong-channel');
    await expectCode(intent(ctx, alice, [alice]), 'intent/self');
    await expectCode(intent(ctx, alice, [{ ...bob, bot: true }]), 'intent/bot');
    await expectCode(intent(ctx, alice, [bob, carol]), 'intent/mode');
    expect(await db.prisma.intent.count()).toBe(0);
  });

  it('the default channel is the one named battle-commencement', async () => {
    const ctx = testContext(db);
    await startSeason(ctx, { guildId: GUILD, member: mod, name: 'S' });
    await startCycle(ctx, { guildId: GUILD, member: mod, name: 'C', defaults: { announcementChannelId: ANNOUNCE } });
    await expectCode(stateIntent(ctx, { guildId: GUILD, channelId: '5', channelName: 'general', kind: 'knucklebones', from: alice, opponents: [bob], mode: null }), 'intent/wrong-channel');
    const r = await stateIntent(ctx, { guildId: GUILD, channelId: '5', channelName: 'battle-commencement', kind: 'knucklebones', from: alice, opponents: [bob], mode: null });
    expect(r.intents).toHaveLength(1);
  });

  it('mutual intents match once; naming again adds nothing', async () => {
    const ctx = testContext(db);
    await cycleInRest(ctx);
    const a = await intent(ctx, alice, [bob]);
    expect(a.matched).toHaveLength(0);
    const b = await intent(ctx, bob, [alice]);
    expect(b.matched).toHaveLength(1);
    const again = await intent(ctx, alice, [bob]);
    expect(again.repeated).toEqual([bob.id]);
    expect(again.matched).toHaveLength(0);
    expect(await db.prisma.match.count()).toBe(1);
  });

  it('two players naming each other at the same instant make exactly one match (repeated 20 times)', async () => {
    const ctx = testContext(db);
    await cycleInRest(ctx);
    for (let i = 0; i < 20; i++) {
      await db.sql.exec('TRUNCATE intents, matches RESTART IDENTITY CASCADE');
      const [x, y] = await Promise.all([intent(ctx, alice, [bob]), intent(ctx, bob, [alice])]);
      expect(x.matched.length + y.matched.length).toBe(1);
      expect(await db.prisma.match.count()).toBe(1);
      expect(await db.prisma.intent.count({ where: { status: 'matched' } })).toBe(2);
    }
  });

  it('`any` never makes two games, even when every named opponent answers at the same instant', async () => {
    const ctx = testContext(db);
    await cycleInRest(ctx);
    for (let i = 0; i < 10; i++) {
      await db.sql.exec('TRUNCATE intents, matches RESTART IDENTITY CASCADE');
      await intent(ctx, alice, [bob, carol, dave], 'any');
      await Promise.all([intent(ctx, bob, [alice]), intent(ctx, carol, [alice]), intent(ctx, dave, [alice])]);
      expect(await db.prisma.match.count()).toBe(1);
      expect(await db.prisma.intent.count({ where: { playerId: alice.id, status: 'void' } })).toBe(2);
    }
    await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod });
    expect(await db.prisma.game.count()).toBe(1);
  });

  it('`any` takes the earliest mutual intent by time; `each` matches every mutual one', async () => {
    const ctx = testContext(db);
    await cycleInRest(ctx);
    await intent(ctx, carol, [alice]);
    ctx.clock.advance(1000);
    await intent(ctx, bob, [alice]);
    ctx.clock.advance(1000);
    const r = await intent(ctx, alice, [bob, carol], 'any');
    expect(r.matched).toHaveLength(1);
    expect([r.matched[0]!.playerA, r.matched[0]!.playerB]).toContain(carol.id);
    // Dave names Bob and Carol with `each`; both name Dave back: two matches.
    await intent(ctx, dave, [bob, carol], 'each');
    await intent(ctx, bob, [dave]);
    const c = await intent(ctx, carol, [dave]);
    expect(c.allMatches).toHaveLength(2); // Carol: with Alice and with Dave
    expect(await db.prisma.match.count()).toBe(3);
  });

  it('a withdrawn intent does not match; unmatched intents lapse at the Battle Phase and owners are told', async () => {
    const ctx = testContext(db);
    await cycleInRest(ctx);
    await intent(ctx, alice, [bob]);
    await withdrawIntents(ctx, { guildId: GUILD, userId: alice.id, opponentId: bob.id });
    await expectCode(withdrawIntents(ctx, { guildId: GUILD, userId: alice.id, opponentId: bob.id }), 'intent/none-open');
    const r = await intent(ctx, bob, [alice]);
    expect(r.matched).toHaveLength(0);
    await intent(ctx, carol, [dave]);
    await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod });
    expect(await db.prisma.game.count()).toBe(0);
    expect(await db.prisma.intent.count({ where: { status: 'lapsed' } })).toBe(2);
    expect((await textDms(bob.id)).map((r) => (r.payload as { content: string }).content).join()).toMatch(/lapsed/);
    expect((await textDms(carol.id)).length).toBe(1);
    await expectCode(withdrawIntents(ctx, { guildId: GUILD, userId: carol.id, opponentId: null }), 'intent/not-rest');
  });
});

describe('inventory, rewards, dice and the leaderboard', () => {
  async function battleGame(ctx: ReturnType<typeof testContext>) {
    await cycleInRest(ctx);
    await intent(ctx, alice, [bob]);
    await intent(ctx, bob, [alice]);
    await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod, seed: () => SEED_A });
    return (await db.prisma.game.findFirstOrThrow()).id;
  }

  it('grants and revokes per cycle; items do not carry over to the next cycle', async () => {
    const ctx = testContext(db);
    await expectCode(grantItem(ctx, { guildId: GUILD, member: mod, player: alice, item: 'chip', count: 1 }), 'inventory/no-cycle');
    await cycleInRest(ctx);
    await expectCode(grantItem(ctx, { guildId: GUILD, member: nobody, player: alice, item: 'chip', count: 1 }), 'inventory/not-moderator');
    await expectCode(grantItem(ctx, { guildId: GUILD, member: mod, player: alice, item: 'gold', count: 1 }), 'inventory/unknown-item');
    await grantItem(ctx, { guildId: GUILD, member: mod, player: alice, item: 'lucky-die', count: 2 });
    await grantItem(ctx, { guildId: GUILD, member: mod, player: alice, item: 'chip', count: 3 });
    await revokeItem(ctx, { guildId: GUILD, member: mod, player: alice, item: 'lucky-die', count: 1 });
    await expectCode(revokeItem(ctx, { guildId: GUILD, member: mod, player: alice, item: 'lucky-die', count: 5 }), 'inventory/not-enough');
    const inv = await getInventory(ctx, { guildId: GUILD, viewerId: alice.id, member: nobody, playerId: alice.id });
    expect(inv.items).toEqual([
      { item: 'chip', count: 3 },
      { item: 'lucky-die', count: 1 },
    ]);
    await expectCode(getInventory(ctx, { guildId: GUILD, viewerId: bob.id, member: nobody, playerId: alice.id }), 'inventory/not-moderator');
    await endCycle(ctx, { guildId: GUILD, member: mod });
    await startCycle(ctx, { guildId: GUILD, member: mod, name: 'Cycle 17' });
    expect((await getInventory(ctx, { guildId: GUILD, viewerId: alice.id, member: nobody, playerId: alice.id })).items).toEqual([]);
  });

  it('the winner of a cycle game gains a Handy Pack and a Chip (forfeit wins too) and is told; the leaderboard counts it', async () => {
    const ctx = testContext(db);
    const gameId = await battleGame(ctx);
    await resign(ctx, { gameId, userId: alice.id, guildId: GUILD });
    const inv = await getInventory(ctx, { guildId: GUILD, viewerId: bob.id, member: nobody, playerId: bob.id });
    expect(inv.items).toEqual([
      { item: 'handy-pack', count: 1 },
      { item: 'chip', count: 1 },
    ]);
    expect((await getInventory(ctx, { guildId: GUILD, viewerId: alice.id, member: nobody, playerId: alice.id })).items).toEqual([]);
    expect((await textDms(bob.id)).some((r) => /Handy Pack/.test((r.payload as { content: string }).content))).toBe(true);
    const cycle = await db.prisma.cycle.findFirstOrThrow();
    const rows = await standings(ctx, { cycleId: cycle.id, kind: 'knucklebones' });
    expect(rows.map((r) => [r.playerId, r.games, r.wins, r.losses, r.forfeits])).toEqual([
      [bob.id, 1, 1, 0, 0],
      [alice.id, 1, 0, 0, 1],
    ]);
    expect(rows[0]!.rating).toBeGreaterThan(1500);
    expect(rows[1]!.rating).toBeLessThan(1500);
    // Ending the cycle posts the leaderboard to the leaderboard channel.
    await endCycle(ctx, { guildId: GUILD, member: mod });
    const lb = await db.prisma.outbox.findFirstOrThrow({ where: { kind: 'leaderboard' } });
    expect(lb.payload).toEqual({ channelId: BOARD, cycleId: cycle.id, kind: 'knucklebones' });
  });

  it('the leaderboard adds up each player’s own final scores as points, and shows them', async () => {
    const ctx = testContext(db);
    const gameId = await battleGame(ctx);
    for (let guard = 0; guard < 40; guard++) {
      const { game, state } = await rawGame(gameId);
      const st = state as KnucklebonesState;
      if (game.status !== 'active') break;
      const column = ([1, 2, 3] as const).find((c) => st.grids[st.turn!]![c - 1]!.length < 3)!;
      await playMove(ctx, { gameId, userId: st.turn!, guildId: GUILD, move: { type: 'place', column } });
    }
    const final = await db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    const scores = (final.outcome as { scores: Record<string, number> }).scores;
    const cycle = await db.prisma.cycle.findFirstOrThrow({ include: { season: true } });
    const rows = await standings(ctx, { cycleId: cycle.id, kind: 'knucklebones' });
    expect(Object.fromEntries(rows.map((r) => [r.playerId, r.points]))).toEqual(scores);
    const text = leaderboardText(cycle, 'knucklebones', rows, { detailed: true });
    for (const r of rows) expect(text).toMatch(new RegExp(`<@${r.playerId}>: .* · ${r.points} pts`));
    // A game without scores (none here) would leave points null, and the line without "pts".
    expect(leaderboardText(cycle, 'knucklebones', rows.map((r) => ({ ...r, points: null })), { detailed: true })).not.toMatch(/\d pts/);
  });

  it('using a die item does not restart the turn clock: same deadline, same jobs, the turn DM edited in place', async () => {
    const ctx = testContext(db);
    const gameId = await battleGame(ctx);
    const mover = ((await rawGame(gameId)).state as KnucklebonesState).turn!;
    await grantItem(ctx, { guildId: GUILD, member: mod, player: mover === alice.id ? alice : bob, item: 'loaded-die', count: 1 });
    const seatOf = () => db.prisma.seat.findFirstOrThrow({ where: { gameId, playerId: mover } });
    const pendingJobs = () => db.prisma.job.findMany({ where: { gameId, status: 'pending' }, orderBy: { id: 'asc' } });
    const turnDms = async () =>
      (await db.prisma.outbox.findMany({ where: { kind: 'dm' }, orderBy: { id: 'asc' } }))
        .map((r) => r.payload as { userId: string; notification: { type: string; deadlineAt?: string } })
        .filter((p) => p.userId === mover && p.notification.type === 'turn');
    const before = { seat: await seatOf(), jobs: await pendingJobs(), dms: (await turnDms()).length };
    await ctx.clock.advance(5 * 3_600_000);
    await useDie(ctx, { gameId, userId: mover, guildId: GUILD, die: 'loaded' });
    await playMove(ctx, { gameId, userId: mover, guildId: GUILD, move: { type: 'keep', choice: 0 } });
    const during = await seatOf();
    expect(during.deadlineAt).toEqual(before.seat.deadlineAt);
    expect(during.turnVersion).toBe(before.seat.turnVersion);
    expect((await pendingJobs()).map((j) => j.id)).toEqual(before.jobs.map((j) => j.id));
    // One DM per turn: no new turn DM; the running one is refreshed in place, twice.
    expect(await turnDms()).toHaveLength(before.dms);
    const edits = (await db.prisma.outbox.findMany({ where: { kind: 'dm-edit' }, orderBy: { id: 'asc' } })).map((r) => r.payload as { userId: string; mode: string });
    expect(edits.filter((e) => e.userId === mover)).toEqual([expect.objectContaining({ mode: 'refresh' }), expect.objectContaining({ mode: 'refresh' })]);
    // Placing ends the turn: the mover's jobs go, the opponent's turn gets a deadline of its own.
    await playMove(ctx, { gameId, userId: mover, guildId: GUILD, move: { type: 'place', column: 1 } });
    expect((await seatOf()).deadlineAt).toBeNull();
    const other = await db.prisma.seat.findFirstOrThrow({ where: { gameId, playerId: { not: mover } } });
    expect(other.deadlineAt!.getTime()).toBeGreaterThan(before.seat.deadlineAt!.getTime());
    expect((await pendingJobs()).every((j) => (j.payload as { player: string }).player === other.playerId)).toBe(true);
  });

  it('a die item needs the die in the cycle inventory; each die once per game', async () => {
    const ctx = testContext(db);
    const gameId = await battleGame(ctx);
    const { state } = await rawGame(gameId);
    const mover = (state as KnucklebonesState).turn!;
    await expectCode(useDie(ctx, { gameId, userId: mover, guildId: GUILD, die: 'steady' }), 'inventory/not-held');
    await grantItem(ctx, { guildId: GUILD, member: mod, player: mover === alice.id ? alice : bob, item: 'steady-die', count: 1 });
    await useDie(ctx, { gameId, userId: mover, guildId: GUILD, die: 'steady' });
    const after = (await rawGame(gameId)).state as KnucklebonesState;
    expect(after.roll).toBe(3);
    await playMove(ctx, { gameId, userId: mover, guildId: GUILD, move: { type: 'place', column: 1 } });
    const other = mover === alice.id ? bob.id : alice.id;
    await playMove(ctx, { gameId, userId: other, guildId: GUILD, move: { type: 'place', column: 1 } });
    await expectCode(useDie(ctx, { gameId, userId: mover, guildId: GUILD, die: 'steady' }), 'knucklebones/die-used');
  });
});

describe('the phase schedule catches up a change missed while no bot ran', () => {
  const HOUR = 3_600_000;
  const BATTLE = '0 18 * * 5'; // Fridays 18:00
  const REST = '0 6 * * 1'; // Mondays 06:00
  const TZ = 'Europe/Berlin';
  const next = (expr: string, after: Date) => CronExpressionParser.parse(expr, { currentDate: after, tz: TZ }).next().toDate();

  it('finds the latest scheduled time in the server’s time zone, including the very instant', () => {
    expect(lastFireBefore(BATTLE, TZ, new Date('2026-11-22T07:00:00Z'))?.toISOString()).toBe('2026-11-20T17:00:00.000Z');
    expect(lastFireBefore(BATTLE, TZ, new Date('2026-11-20T17:00:00Z'))?.toISOString()).toBe('2026-11-20T17:00:00.000Z');
    expect(lastFireBefore(BATTLE, 'America/New_York', new Date('2026-11-22T07:00:00Z'))?.toISOString()).toBe('2026-11-20T23:00:00.000Z');
  });

  it('opens the missed phase once, leaves a moderator’s later hand change alone, and follows the schedule after', async () => {
    const ctx = testContext(db);
    await configureCycles(ctx, { guildId: GUILD, member: mod, change: { battleCron: BATTLE, restCron: REST, timeZone: TZ }, validateCron: (e) => cron.validate(e) });
    await cycleInRest(ctx);
    await intent(ctx, alice, [bob]);
    await intent(ctx, bob, [alice]);
    const schedule = new PhaseSchedule(ctx);
    // The cycle began after the schedule's latest change: nothing to catch up.
    expect(await schedule.catchUp()).toEqual([]);

    // No bot ran across Friday 18:00; an hour later one starts.
    const friday = next(BATTLE, ctx.clock.now());
    await ctx.clock.advance(friday.getTime() + HOUR - ctx.clock.now().getTime());
    const [caught, again] = await Promise.all([schedule.catchUp(), schedule.catchUp()]);
    expect([...caught, ...again]).toEqual([GUILD]);
    const cycle = await db.prisma.cycle.findFirstOrThrow({ where: { guildId: GUILD, status: 'active' } });
    expect(cycle.phase).toBe('battle');
    const phases = await db.prisma.phase.findMany({ where: { cycleId: cycle.id }, orderBy: { seq: 'asc' } });
    expect(phases.map((ph) => [ph.kind, ph.source])).toEqual([
      ['rest', 'command'],
      ['battle', 'schedule'],
    ]);
    expect(await db.prisma.game.count({ where: { cycleId: cycle.id } })).toBe(1);
    expect((await announcements()).filter((a) => /Battle Phase\*\* of/.test((a.payload as { content: string }).content))).toHaveLength(1);
    expect(await schedule.catchUp()).toEqual([]);

    // A moderator opens Rest by hand on Saturday: the schedule does not undo it.
    await ctx.clock.advance(20 * HOUR);
    await openPhase(ctx, { guildId: GUILD, kind: 'rest', member: mod });
    expect(await schedule.catchUp()).toEqual([]);
    // Monday's Rest is the phase already open; the next Friday's Battle, missed too, is caught up.
    const monday = next(REST, ctx.clock.now());
    await ctx.clock.advance(monday.getTime() + HOUR - ctx.clock.now().getTime());
    expect(await schedule.catchUp()).toEqual([]);
    const friday2 = next(BATTLE, ctx.clock.now());
    await ctx.clock.advance(friday2.getTime() + 5 * 60_000 - ctx.clock.now().getTime());
    expect(await schedule.catchUp()).toEqual([GUILD]);
    expect((await db.prisma.cycle.findFirstOrThrow({ where: { id: cycle.id } })).phase).toBe('battle');
  });
});
