import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { testContext } from '../../helpers/context.ts';
import { expectRefused, startHarness, type Harness } from '../../helpers/harness.ts';
import { giveStones } from './owned.ts';

/**
 * Krellstones in a Rest Phase through the emulator: `/krellstones join` states an intent for one
 * table with everyone named; the first to state hosts, so a player without a mat is told at once
 * that they cannot be first; the Battle Phase starts the game on the host's mat with everyone's
 * stones.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const cmd = (user: string, channel: string, name: string, options: Record<string, unknown>) => h.api.command({ user, channel, name, options });

describe('Krellstones intents', () => {
  it('a host needs a mat, said when the intent is stated; the match starts on the first stater’s mat', { timeout: 120_000 }, async () => {
    await cmd('moderator', 'general', 'cycle', { subcommand: 'season-start', name: 'Season 1' });
    await cmd('moderator', 'general', 'cycle', { subcommand: 'start', name: 'Cycle 1' });
    await h.settle();
    const ctx = testContext(h.db);
    const u = h.emulator.users;
    await giveStones(ctx, { guildId: h.emulator.guildId, player: { id: u.alice, name: 'alice' }, seed: 'i-a' });
    await giveStones(ctx, { guildId: h.emulator.guildId, player: { id: u.bob, name: 'bob' }, seed: 'i-b', mat: true });
    await giveStones(ctx, { guildId: h.emulator.guildId, player: { id: u.carol, name: 'carol' }, seed: 'i-c' });

    await expectRefused(cmd('dave', 'battle-commencement', 'krellstones', { subcommand: 'join', host: 'alice', player2: 'bob' }), /You need 1 Pawn, 1 Dancer, 3 Krells, 1 Master free to play Krellstones/);
    await expectRefused(cmd('alice', 'battle-commencement', 'krellstones', { subcommand: 'join', host: 'bob', player2: 'carol' }), /You state this intent first, so you would host the game, and a host needs a Modern Krellstones mat/);
    const first = await cmd('bob', 'battle-commencement', 'krellstones', { subcommand: 'join', host: 'alice', player2: 'carol' });
    expect(first.response?.message?.flags ?? 0).toBe(0);
    await cmd('alice', 'battle-commencement', 'krellstones', { subcommand: 'join', host: 'bob', player2: 'carol' });
    const last = await cmd('carol', 'battle-commencement', 'krellstones', { subcommand: 'join', host: 'alice', player2: 'bob' });
    expect(last.response?.message?.content).toMatch(/Match/);

    await cmd('moderator', 'general', 'cycle', { subcommand: 'phase', kind: 'battle' });
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'krellstones' }, include: { seats: { orderBy: { seat: 'asc' } } } });
    expect(game.cycleId).not.toBeNull();
    expect((game.state as unknown as KrellstonesState).host).toBe(u.bob);
    expect(game.seats[0]!.playerId).toBe(u.bob);
    expect(await h.db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(3 * 6 + 1);
    // Everyone is told by DM; the board is in the commencement channel.
    for (const who of ['alice', 'bob', 'carol']) expect((await h.api.dms(who)).messages.some((m) => m.content.includes(`Krellstones game #${game.id}`))).toBe(true);
  });
});
