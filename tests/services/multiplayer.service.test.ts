import { describe, expect, it } from 'vitest';
import { games } from '../../src/games/index.ts';
import { Scheduler } from '../../src/scheduler/index.ts';
import { assetsOf } from '../../src/services/assets.ts';
import { UserError } from '../../src/services/errors.ts';
import { getGame, inTransaction, playMove, resign, startGame, startPractice } from '../../src/services/games.ts';
import { GameRegistry } from '../../src/services/registry.ts';
import { verifyGame } from '../../src/services/replay.ts';
import { testContext, withServiceDb } from '../helpers/context.ts';
import { trioDefinition } from '../support/trio.ts';

/**
 * Games of three or more who each play for themselves (RULINGS, All games): a forfeit by choice or
 * by timeout does not end the game; the autopilot plays the seat from then on, in the same
 * transaction, logged like any move; the seat ranks last and gains nothing; everyone is told.
 * Proven with Trio (tests/support/trio.ts), on real Postgres.
 */
const GUILD = '710000000000000001';
const ann = { id: '711000000000000001', name: 'Ann' };
const ben = { id: '711000000000000002', name: 'Ben' };
const cat = { id: '711000000000000003', name: 'Cat' };
const HOUR = 3_600_000;

const db = withServiceDb();

const context = () => ({ ...testContext(db), games: new GameRegistry([...games.all, trioDefinition]) });
type Ctx = ReturnType<typeof context>;

async function start(ctx: Ctx, seed: string) {
  return inTransaction(ctx, (tx) => startGame(tx, ctx, { guildId: GUILD, channelId: '1', kind: 'trio', players: [ann, ben, cat], seed }));
}

const view = async (ctx: Ctx, id: number) => (await getGame(ctx, id, GUILD)).view(null) as { counts: Record<string, number>; turn: string | null; out: string[]; outcome: { winners: string[]; places: Record<string, number>; forfeits?: string[] } | null };

async function textDms(userId: string): Promise<string[]> {
  const rows = await db.prisma.outbox.findMany({ where: { kind: 'text-dm' }, orderBy: { id: 'asc' } });
  return rows.map((r) => r.payload as { userId: string; content: string }).filter((p) => p.userId === userId).map((p) => p.content);
}

describe('a forfeit in a game of three goes on under the autopilot', () => {
  it('by choice and by timeout: the game continues, the seats are autoplayed, rank last and gain nothing; everyone is told', async () => {
    const ctx = context();
    const game = await start(ctx, '1'.repeat(64));
    let v = await view(ctx, game.id);
    const first = v.turn!;
    const others = [ann, ben, cat].map((p) => p.id).filter((p) => p !== first);
    // The first player moves, then the next one gives up on their own turn.
    await playMove(ctx, { gameId: game.id, userId: first, guildId: GUILD, move: { type: 'add', n: 3 } });
    v = await view(ctx, game.id);
    const quitter = v.turn!;
    const r = await resign(ctx, { gameId: game.id, userId: quitter, guildId: GUILD });
    expect(r.outcome).toBeNull();
    v = await view(ctx, game.id);
    expect(v.out).toEqual([quitter]);
    // The autopilot played the quitter's turn at once: it is the third player's turn now.
    const third = others.find((p) => p !== quitter)!;
    expect(v.turn).toBe(third);
    expect(v.counts[quitter]).toBe(1);
    const log = await db.prisma.move.findMany({ where: { gameId: game.id }, orderBy: { seq: 'asc' } });
    expect(log.map((m) => [m.actorId, (m.entry as { type: string; auto?: boolean }).type, (m.entry as { auto?: boolean }).auto ?? false])).toEqual([
      [first, 'move', false],
      [quitter, 'forfeit', false],
      [quitter, 'move', true],
    ]);
    // Everyone still playing is told; so is the quitter.
    for (const p of [first, third]) expect((await textDms(p)).at(-1)).toMatch(new RegExp(`<@${quitter}> gave up in Trio #${game.id}\\. The autopilot plays their seat`));
    expect((await textDms(quitter)).at(-1)).toMatch(/You left in Trio #\d+\. The autopilot plays your seat from now on; you rank last/);
    // The quitter's clicks are refused from now on.
    await expect(playMove(ctx, { gameId: game.id, userId: quitter, guildId: GUILD, move: { type: 'add', n: 1 } })).rejects.toSatisfy((e) => e instanceof UserError);
    // No deadline for the quitter; the third player has one.
    const seats = await db.prisma.seat.findMany({ where: { gameId: game.id } });
    expect(seats.find((s) => s.playerId === quitter)!.deadlineAt).toBeNull();
    expect(seats.find((s) => s.playerId === third)!.deadlineAt).not.toBeNull();

    // The third player lets their turn run out: they are out too, and the first player is the last one standing.
    await ctx.clock.advance(25 * HOUR);
    expect(await new Scheduler(ctx).sweep()).toBeGreaterThanOrEqual(1);
    v = await view(ctx, game.id);
    expect(v.outcome).not.toBeNull();
    expect(v.outcome!.winners).toEqual([first]);
    expect(v.outcome!.forfeits).toEqual([quitter, third]);
    // Latest out ranks highest among those out.
    expect(v.outcome!.places).toEqual({ [first]: 1, [third]: 2, [quitter]: 3 });
    const results = Object.fromEntries((await db.prisma.seat.findMany({ where: { gameId: game.id } })).map((s) => [s.playerId, s.result]));
    expect(results).toEqual({ [first]: 'win', [quitter]: 'forfeit', [third]: 'forfeit' });
    expect(await verifyGame(ctx, game.id)).toMatchObject({ commitmentOk: true, stateOk: true });
  });

  it('a seat that left is autoplayed to the end while the others play on; it cannot win even with the best count', async () => {
    const ctx = context();
    const game = await start(ctx, '2'.repeat(64));
    let v = await view(ctx, game.id);
    const leaver = v.turn!;
    // The leaver races ahead, then leaves.
    await playMove(ctx, { gameId: game.id, userId: leaver, guildId: GUILD, move: { type: 'add', n: 3 } });
    await resign(ctx, { gameId: game.id, userId: leaver, guildId: GUILD });
    for (let i = 0; i < 30; i++) {
      v = await view(ctx, game.id);
      if (v.outcome) break;
      expect(v.turn).not.toBe(leaver);
      await playMove(ctx, { gameId: game.id, userId: v.turn!, guildId: GUILD, move: { type: 'add', n: 1 } });
    }
    expect(v.outcome).not.toBeNull();
    expect(v.outcome!.winners).not.toContain(leaver);
    expect(v.outcome!.places[leaver]).toBe(3);
    expect(await verifyGame(ctx, game.id)).toMatchObject({ stateOk: true });
  });
});

describe('the stored outcome of a game that went on', () => {
  it('names a seat whose turn ran out early among those who timed out, though the game ended later by play', async () => {
    const ctx = context();
    const game = await start(ctx, '4'.repeat(64));
    let v = await view(ctx, game.id);
    const late = v.turn!;
    await ctx.clock.advance(25 * HOUR);
    expect(await new Scheduler(ctx).sweep()).toBeGreaterThanOrEqual(1);
    v = await view(ctx, game.id);
    expect(v.out).toEqual([late]);
    for (let i = 0; i < 30 && !v.outcome; i++) {
      await playMove(ctx, { gameId: game.id, userId: v.turn!, guildId: GUILD, move: { type: 'add', n: 3 } });
      v = await view(ctx, game.id);
    }
    const row = await db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    expect((row.outcome as { timedOut?: string[] }).timedOut).toEqual([late]);
    const over = (await db.prisma.outbox.findMany({ where: { kind: 'dm' } }))
      .map((r) => (r.payload as { notification: { type: string; gameId: number; timedOut?: string[] } }).notification)
      .find((n) => n.type === 'game-over' && n.gameId === game.id);
    expect(over?.timedOut).toEqual([late]);
  });
});

describe('practice games', () => {
  it('seat the autopilot, which answers at once; no leaderboard, no rewards', async () => {
    const ctx = context();
    const game = await startPractice(ctx, { guildId: GUILD, channelId: '1', kind: 'trio', player: ann, bots: 2, seed: '3'.repeat(64) });
    expect(game.practice).toBe(true);
    let v = await view(ctx, game.id);
    expect(v.turn).toBe(ann.id); // the bots before Ann in seat order have already moved
    for (let i = 0; i < 30 && !v.outcome; i++) {
      await playMove(ctx, { gameId: game.id, userId: ann.id, guildId: GUILD, move: { type: 'add', n: 3 } });
      v = await view(ctx, game.id);
    }
    expect(v.outcome!.winners).toEqual([ann.id]);
    const dms = await db.prisma.outbox.findMany({ where: { kind: 'dm' } });
    expect(dms.every((d) => !(d.payload as { userId: string }).userId.startsWith('autopilot-'))).toBe(true);
    await expect(startPractice(ctx, { guildId: GUILD, channelId: '1', kind: 'trio', player: ann, bots: 1 })).rejects.toSatisfy(
      (e) => e instanceof UserError && e.code === 'practice/seats',
    );
  });
});

describe('owned assets', () => {
  it('are validated by their game, locked by a running game, and released when it ends', async () => {
    const ctx = context();
    const store = assetsOf(ctx, 'trio');
    const token = await inTransaction(ctx, async (tx) => {
      await tx.player.upsert({ where: { id: ann.id }, create: { id: ann.id, name: ann.name }, update: {} });
      return store.create(tx, { guildId: GUILD, playerId: ann.id, type: 'token', data: { label: 'lucky', shine: 3 } });
    });
    await expect(inTransaction(ctx, (tx) => store.create(tx, { guildId: GUILD, playerId: ann.id, type: 'token', data: { label: '', shine: 12 } }))).rejects.toThrow();
    const game = await start(ctx, '4'.repeat(64));
    await inTransaction(ctx, async (tx) => store.lockFor(tx, await store.lockRows(tx, { guildId: GUILD, playerId: ann.id, ids: [token.id] }), game.id));
    // In use: no change, no removal, and no second game may take it.
    const change = inTransaction(ctx, async (tx) => {
      const [t] = await store.lockRows(tx, { guildId: GUILD, playerId: ann.id, ids: [token.id] });
      await store.update(tx, t!, { label: 'polished', shine: 4 }, 'The lucky token');
    });
    await expect(change).rejects.toSatisfy((e) => e instanceof UserError && e.code === 'asset/in-use' && /in use in game #\d+/.test(e.message));
    await expect(inTransaction(ctx, async (tx) => store.lockFor(tx, await store.list(tx, { guildId: GUILD, playerId: ann.id }), game.id + 1000))).rejects.toSatisfy(
      (e) => e instanceof UserError && e.code === 'asset/in-use',
    );
    // Somebody else's id is refused.
    await expect(inTransaction(ctx, (tx) => store.lockRows(tx, { guildId: GUILD, playerId: ben.id, ids: [token.id] }))).rejects.toSatisfy(
      (e) => e instanceof UserError && e.code === 'asset/unknown',
    );
    // The game ends (everyone but one leaves): the lock is released and the token can change.
    const v = await view(ctx, game.id);
    const [x, y] = [ann, ben, cat].map((p) => p.id).filter((p) => p !== v.turn);
    await resign(ctx, { gameId: game.id, userId: x!, guildId: GUILD });
    await resign(ctx, { gameId: game.id, userId: y!, guildId: GUILD });
    expect((await getGame(ctx, game.id, GUILD)).game.status).toBe('finished');
    await inTransaction(ctx, async (tx) => {
      const [t] = await store.lockRows(tx, { guildId: GUILD, playerId: ann.id, ids: [token.id] });
      expect(t!.lockedByGameId).toBeNull();
      await store.update(tx, t!, { label: 'polished', shine: 4 });
    });
    const [after] = await inTransaction(ctx, (tx) => store.list<{ label: string; shine: number }>(tx, { guildId: GUILD, playerId: ann.id }));
    expect(after!.data).toEqual({ label: 'polished', shine: 4 });
  });
});
