import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePayload } from '../../../src/bot/game-module.ts';
import { games } from '../../../src/games/index.ts';
import { card } from '../../../src/games/keystone/engine/index.ts';
import { inTransaction, startGame } from '../../../src/services/games.ts';
import { verifyGame } from '../../../src/services/replay.ts';
import { testContext } from '../../helpers/context.ts';
import { startHarness, text, type Harness } from '../../helpers/harness.ts';
import { awaited, board, placeCards, playCard, state } from './e2e.ts';
import { expectNoLeak } from './render-checks.ts';

/**
 * A whole 3-player match through the emulator with the real discord.js client, every move a click:
 * cards from the turn DMs' menus and from My hand, placements one at a time, all at once and by
 * Auto-place, a God card winning its trick, game 2 led by the winner of game 1's last trick, and
 * the end. The seed is fixed so that God cards are dealt in game 1 (checked below); after every
 * step the board and the players' DMs of the running game name no card of another player's hand.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const SEED = '1'.repeat(64);
const asPayload = (m: APIMessage) => m as unknown as MessagePayload;

describe('a 3-player Keystone match, clicked to the end', () => {
  it('hands, plays, placements, a God card, game 2, the end; nothing hidden ever shown', { timeout: 300_000 }, async () => {
    const ctx = testContext(h.db, h.clock);
    const u = h.emulator.users;
    const players = [
      { id: u.alice, name: 'Alice' },
      { id: u.bob, name: 'Bob' },
      { id: u.carol, name: 'Carol' },
    ];
    const created = await inTransaction(ctx, (tx) => startGame(tx, ctx, { guildId: h.emulator.guildId, channelId: h.emulator.channels.general!, kind: 'keystone', players, seed: SEED }));
    await h.settle();
    const gameId = created.id;
    const first = await state(h, gameId);
    // The seed deals God cards in game 1 (to Bob and Carol).
    expect(first.hands.map((hand) => hand.filter((id) => card(id).god).length)).toEqual([0, 1, 2]);
    const opening = await board(h, gameId, 'general');
    expect(text(opening)).toMatch(/Game 1 of 2 · trick 1 of 12/);
    expect(text(opening)).toMatch(/Commitment \(SHA-256 of the secret seed\)/);

    const aliases = ['alice', 'bob', 'carol'];
    let plays = 0;
    let placements = 0;
    let godWins = 0;
    let game2Checked = false;
    let lastWinnerOfGame1: number | null = null;
    /** DMs of each player since the deal of the running game (game 2 deals the same cards again). */
    const dmsSince: Record<string, number> = { alice: 0, bob: 0, carol: 0 };
    for (let step = 0; ; step++) {
      expect(step).toBeLessThan(400);
      const { alias, phase, s } = await awaited(h, gameId);
      // Hidden information, as people see it: the board, and each player's DMs of this game.
      expectNoLeak(s, asPayload(await board(h, gameId, 'general')), null, `step ${step} board`);
      if (step % 10 === 0 || phase === 'over') {
        for (const [i, a] of aliases.entries()) {
          const mine = (await h.api.dms(a)).messages.slice(dmsSince[a]);
          for (const m of mine) expectNoLeak(s, asPayload(m), players[i]!.id, `step ${step} DM to ${a}`, true);
        }
      }
      if (phase === 'over') break;
      if (s.game === 1 && s.trick === 12 && phase === 'place') lastWinnerOfGame1 = s.turn;
      if (s.game === 2 && !game2Checked) {
        game2Checked = true;
        expect(s.trick).toBe(1);
        expect(s.leader).toBe(lastWinnerOfGame1);
        // Game 2 is led by the winner of game 1's last trick; the board shows game 1's result.
        const b = text(await board(h, gameId, 'general'));
        expect(b).toMatch(/Game 2 of 2 · trick 1 of 12/);
        expect(b).toMatch(/After game 1:/);
        expect(b).toMatch(/Game 1 of 2: final scoring/);
        for (const a of aliases) dmsSince[a] = (await h.api.dms(a)).messages.length;
      }
      if (phase === 'play') {
        // Play a God card whenever one may be played (it wins unless one came earlier), else the first card offered.
        await playCard(h, gameId, 'general', alias!, plays++ % 2 ? 'hand' : 'dm', (values) => values.find((v) => v.startsWith('god')) ?? values[0]!);
        const after = await state(h, gameId);
        if (after.phase === 'place' || after.trick !== s.trick || after.game !== s.game) {
          const t = after.lastTrick;
          if (t && t.trick === s.trick && t.game === s.game) {
            const god = t.cards.findIndex((id) => card(id).god);
            if (god >= 0) {
              expect(t.winner).toBe((t.leader + god) % after.players.length);
              godWins++;
            }
          }
        }
      } else {
        const style = (['one', 'all', 'auto'] as const)[placements % 3]!;
        await placeCards(h, gameId, 'general', alias!, style, placements % 2 ? 'dm' : 'board');
        placements++;
      }
    }
    expect(plays).toBe(72);
    expect(godWins).toBeGreaterThanOrEqual(1);
    expect(game2Checked).toBe(true);

    const final = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId }, include: { seats: true } });
    expect(final.status).toBe('finished');
    const end = text(await board(h, gameId, 'general'));
    expect(end).toMatch(/Match over/);
    expect(end).toMatch(/Sun: keystones not scored, -3/);
    expect(end).toContain(SEED);
    const outcome = final.outcome as { winners: string[] };
    for (const w of outcome.winners) expect(final.seats.find((x) => x.playerId === w)!.result).toBe('win');
    // Everyone is told how it ended.
    for (const a of aliases) expect((await h.api.dms(a)).messages.at(-1)!.content).toMatch(new RegExp(`Keystone #${gameId}\\*\\* is over`));
    const report = await verifyGame({ ...ctx, games }, gameId);
    expect(report.commitmentOk && report.stateOk).toBe(true);
    expect((await h.api.state()).rejections).toEqual([]);
  });
});
