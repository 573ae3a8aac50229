import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { autopilotStones } from '../../../src/games/krellstones/lobby.ts';
import { SEED_B, testContext } from '../../helpers/context.ts';
import { button, expectRefused, startHarness, text, type Harness } from '../../helpers/harness.ts';
import { giveStones } from './owned.ts';

/**
 * Practice against the autopilot: the player brings stones drawn from their collection, the two
 * autopilot seats stones generated from the game's seed (so anyone can re-derive them once it is
 * revealed); the autopilot rolls like anyone but never rerolls, swaps or yells. FAST pace, on the
 * test clock, to the end.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seeds: () => SEED_B });
});
afterAll(async () => {
  await h?.close();
});

describe('Krellstones practice', () => {
  it('needs the player’s stones, gives the autopilot generated ones, and plays to the end', { timeout: 300_000 }, async () => {
    await expectRefused(h.api.command({ user: 'alice', channel: 'general', name: 'krellstones', options: { subcommand: 'practice', bots: 2 } }), /You need more stones to play: 1 Pawn, 1 Dancer, 3 Krells, 1 Master missing/);
    const alice = h.emulator.users.alice!;
    await giveStones(testContext(h.db), { guildId: h.emulator.guildId, player: { id: alice, name: 'alice' }, seed: 'practice' });
    const r = await h.api.command({ user: 'alice', channel: 'general', name: 'krellstones', options: { subcommand: 'practice', bots: 2 } });
    expect(r.response?.message?.content).toMatch(/Practice Krellstones #\d+ against the autopilot/);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'krellstones' } });
    expect(game.practice).toBe(true);
    const s0 = game.state as unknown as KrellstonesState;
    expect(s0.pace).toBe('FAST');
    const bots = ['autopilot-1', 'autopilot-2'];
    const generated = autopilotStones(SEED_B, bots);
    for (const b of bots) expect(s0.seats[b]!.active.map((x) => x.sides.map((y) => y.value))).toEqual(generated[b]!.stones.map((x) => x.sides.map((y) => y.printed)));
    expect(await h.db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(6);

    for (let step = 0; step < 400; step++) {
      const s = (await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } })).state as unknown as KrellstonesState;
      if (s.outcome) break;
      if (s.seats[alice]!.choice === 'pending') {
        const b = (await h.api.messages('general', 'alice', 50)).messages.find((m) => m.id === game.boardMessageId)!;
        expect(text(b)).toMatch(/🤖 Autopilot/);
        expect((await h.api.click('alice', b.id, button(b, (x) => x.label === 'Ready').custom_id!)).response?.type).toBe(7);
        await h.settle();
        continue;
      }
      // The bots never keep the game waiting: it is either rolling, or waiting for Alice.
      expect(s.players.filter((p) => p !== alice && (s.seats[p]!.choice === 'pending' || s.windows.includes(p)))).toEqual([]);
      await h.api.advanceClock(2_000);
    }
    const final = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    expect(final.status).toBe('finished');
    // The autopilot's moves: confirming and letting Pup windows pass, never a reroll, a swap or a yell.
    const moves = await h.db.prisma.move.findMany({ where: { gameId: game.id, actorId: { in: bots } } });
    expect(moves.length).toBeGreaterThan(0);
    for (const m of moves) expect(['ready', 'timeout']).toContain((m.entry as { move: { type: string } }).move.type);
    expect(await h.db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(0);
  });

  it('abandon forfeits a running game after a confirmation; its stones are free again', async () => {
    const r = await h.api.command({ user: 'alice', channel: 'general', name: 'krellstones', options: { subcommand: 'practice', bots: 1 } });
    expect(r.response?.message?.content).toMatch(/Practice Krellstones #\d+/);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'krellstones', status: 'active' } });
    expect(await h.db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(6);
    await expectRefused(h.api.command({ user: 'bob', channel: 'general', name: 'krellstones', options: { subcommand: 'abandon' } }), /no Krellstones game in progress|not playing/);
    const ask = await h.api.command({ user: 'alice', channel: 'general', name: 'krellstones', options: { subcommand: 'abandon' } });
    expect(ask.response?.message?.content).toMatch(/Really forfeit game #\d+\?/);
    const yes = await h.api.click('alice', ask.response!.message!.id, button(ask.response!.message!, (b) => b.label === 'Yes, forfeit').custom_id!);
    expect(yes.response?.message?.content).toMatch(/forfeit/i);
    await h.settle();
    expect((await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } })).status).toBe('finished');
    expect(await h.db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(0);
  });
});
