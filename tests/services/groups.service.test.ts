import { beforeEach, describe, expect, it } from 'vitest';
import { games } from '../../src/games/index.ts';
import { openPhase, startCycle, startSeason } from '../../src/services/cycles.ts';
import { stateIntent, withdrawIntents } from '../../src/services/intents.ts';
import { GameRegistry } from '../../src/services/registry.ts';
import { declineTable, joinTable, openTable, startTableNow } from '../../src/services/tables.ts';
import { testContext, userError, withServiceDb } from '../helpers/context.ts';
import { trioDefinition } from '../support/trio.ts';

/**
 * Games for more than two, arranged three ways, for any game (Trio stands in, 3-4 players): intents
 * of a whole table (`together`: it matches when everyone names the same table), a challenge of
 * several named players (a table that starts when all accept), and an open table the host may
 * start early once its minimum is seated.
 */
const GUILD = '720000000000000001';
const COMMENCE = '720000000000000002';
const mod = { manageGuild: true, roleIds: [] };
const p = (n: number, name: string) => ({ id: `72100000000000000${n}`, name, bot: false });
const [a, b, c, d] = [p(1, 'Ann'), p(2, 'Ben'), p(3, 'Cat'), p(4, 'Dan')] as const;

const db = withServiceDb();
beforeEach(async () => {
  await db.sql.exec('TRUNCATE guilds, players, games, seats, moves, jobs, outbox, seasons, cycles, phases, intents, matches, game_tables, table_seats RESTART IDENTITY CASCADE');
});

const context = () => ({ ...testContext(db), games: new GameRegistry([...games.all, trioDefinition]) });
type Ctx = ReturnType<typeof context>;
const intent = (ctx: Ctx, from: typeof a, opponents: Array<typeof a>, kind = 'trio', mode: 'any' | 'each' | 'together' | null = null) =>
  stateIntent(ctx, { guildId: GUILD, channelId: COMMENCE, channelName: null, kind, from, opponents, mode });

async function restPhase(ctx: Ctx) {
  await startSeason(ctx, { guildId: GUILD, member: mod, name: 'Season 1' });
  await startCycle(ctx, { guildId: GUILD, member: mod, name: 'Cycle 1', defaults: { commencementChannelId: COMMENCE, announcementChannelId: COMMENCE, leaderboardChannelId: COMMENCE } });
}

describe('intents for a table of three or four', () => {
  it('match when every member names the same table, and the Battle Phase starts one game for all of them', async () => {
    const ctx = context();
    await restPhase(ctx);
    const r1 = await intent(ctx, a, [b, c]);
    expect(r1.mode).toBe('together');
    expect(r1.matched).toEqual([]);
    // Ben names a different table (with Dan): no match for Ann's table.
    expect((await intent(ctx, b, [a, d])).matched).toEqual([]);
    expect((await intent(ctx, b, [a, c])).matched).toEqual([]);
    // The last member of Ann's table names it: one match of three.
    const r3 = await intent(ctx, c, [b, a]);
    expect(r3.matched).toHaveLength(1);
    expect(r3.matched[0]!.players).toEqual([a.id, b.id, c.id]);
    // Naming it again changes nothing.
    expect((await intent(ctx, a, [c, b])).repeated).toHaveLength(2);
    // Ben's other table lapses at the Battle Phase; Ann's table plays.
    const phase = await openPhase(ctx, { guildId: GUILD, kind: 'battle', member: mod });
    expect(phase.changed && phase.games).toHaveLength(1);
    const game = await db.prisma.game.findFirstOrThrow({ where: { kind: 'trio' }, include: { seats: true } });
    expect(game.seats.map((s) => s.playerId).sort()).toEqual([a.id, b.id, c.id]);
    const dm = (await db.prisma.outbox.findMany({ where: { kind: 'text-dm' } })).map((r) => r.payload as { userId: string; content: string }).find((x) => x.userId === a.id && /Battle Phase/.test(x.content));
    expect(dm!.content).toMatch(new RegExp(`against <@${b.id}> and <@${c.id}>`));
  });

  it('refuse a table of the wrong size, and a withdrawn member withdraws the whole table', async () => {
    const ctx = context();
    await restPhase(ctx);
    await expect(intent(ctx, a, [b])).rejects.toSatisfy(userError('intent/group-size'));
    await expect(intent(ctx, a, [b, c, d, p(5, 'Eve')])).rejects.toSatisfy(userError('intent/group-size'));
    await expect(intent(ctx, a, [b, c], 'trio', 'any')).rejects.toSatisfy(userError('intent/mode'));
    // A two-player game has no tables.
    await expect(intent(ctx, a, [b, c], 'knucklebones', 'together')).rejects.toSatisfy(userError('intent/mode'));
    await intent(ctx, a, [b, c, d]);
    const gone = await withdrawIntents(ctx, { guildId: GUILD, userId: a.id, opponentId: c.id });
    expect(gone.map((i) => i.opponentId).sort()).toEqual([b.id, c.id, d.id].sort());
  });
});

describe('tables of several', () => {
  it('a challenge of named players starts when all of them accept; others cannot sit', async () => {
    const ctx = context();
    const t = await openTable(ctx, { guildId: GUILD, channelId: '1', kind: 'trio', seatCount: 3, invited: [b, c], host: a });
    await expect(joinTable(ctx, { tableId: t.id, guildId: GUILD, user: d })).rejects.toSatisfy(userError('table/not-invited'));
    expect((await joinTable(ctx, { tableId: t.id, guildId: GUILD, user: c })).game).toBeNull();
    const r = await joinTable(ctx, { tableId: t.id, guildId: GUILD, user: b });
    // Seats in the order named (the table showed each seat held for its player), not the order of acceptance.
    expect(r.game!.seats.map((s) => s.playerId)).toEqual([a.id, b.id, c.id]);
  });

  it('a named player may decline: the table closes and everyone at it is told', async () => {
    const ctx = context();
    const t = await openTable(ctx, { guildId: GUILD, channelId: '1', kind: 'trio', seatCount: 3, invited: [b, c], host: a });
    await expect(declineTable(ctx, { tableId: t.id, guildId: GUILD, userId: d.id })).rejects.toSatisfy(userError('table/not-invited'));
    const closed = await declineTable(ctx, { tableId: t.id, guildId: GUILD, userId: c.id });
    expect(closed.status).toBe('declined');
    await expect(joinTable(ctx, { tableId: t.id, guildId: GUILD, user: b })).rejects.toSatisfy(userError('table/declined'));
    const told = (await db.prisma.outbox.findMany({ where: { kind: 'text-dm' } })).map((r) => (r.payload as { userId: string }).userId);
    expect(told).toEqual([a.id]);
  });

  it('an open table of up to four may be started by its host with three seated, not before, and not by others', async () => {
    const ctx = context();
    const t = await openTable(ctx, { guildId: GUILD, channelId: '1', kind: 'trio', seatCount: 4, minSeats: 3, host: a });
    await joinTable(ctx, { tableId: t.id, guildId: GUILD, user: b });
    await expect(startTableNow(ctx, { tableId: t.id, guildId: GUILD, userId: a.id })).rejects.toSatisfy(userError('table/too-few'));
    await joinTable(ctx, { tableId: t.id, guildId: GUILD, user: c });
    await expect(startTableNow(ctx, { tableId: t.id, guildId: GUILD, userId: b.id })).rejects.toSatisfy(userError('table/not-host'));
    const r = await startTableNow(ctx, { tableId: t.id, guildId: GUILD, userId: a.id });
    expect(r.game!.seats).toHaveLength(3);
    await expect(joinTable(ctx, { tableId: t.id, guildId: GUILD, user: d })).rejects.toSatisfy(userError('table/started'));
  });
});
