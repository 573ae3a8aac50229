import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canPlace, card, type CardId, type KeystoneState } from '../../../src/games/keystone/engine/index.ts';
import { inTransaction, startGame } from '../../../src/services/games.ts';
import { testContext } from '../../helpers/context.ts';
import { EPHEMERAL, startHarness, type Harness } from '../../helpers/harness.ts';
import { awaited, board, components, playCard, state, turnDm, version } from './e2e.ts';

/**
 * What Keystone refuses, through the emulator: each refusal is an ephemeral message that says what
 * to do, and changes nothing (the game's version stays). Menus never offer what would be refused;
 * typed commands and hand-made interactions (a buggy or hostile client) reach the rules anyway.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const SEED = '2'.repeat(64);
const ALIASES = ['alice', 'bob', 'carol'] as const;

/** Runs `act`, expects an ephemeral refusal matching `pattern`, and that the game did not change. */
async function refused(gameId: number, act: () => Promise<{ response: { type: number; message?: APIMessage | null } | null }>, pattern: RegExp): Promise<void> {
  const before = await version(h, gameId);
  const r = await act();
  expect(r.response?.message?.flags, JSON.stringify(r.response)).toBe(EPHEMERAL);
  expect(r.response?.message?.content).toMatch(pattern);
  await h.settle();
  expect(await version(h, gameId)).toBe(before);
}

const aliasOfSeat = (s: KeystoneState, seat: number) => ALIASES[['alice', 'bob', 'carol'].findIndex((a) => h.emulator.users[a as (typeof ALIASES)[number]] === s.players[seat])]!;

describe('Keystone refuses, clearly and without effect', () => {
  it('a spectator opening My hand, playing out of turn, not following colour, placing against a line’s direction', { timeout: 300_000 }, async () => {
    const ctx = testContext(h.db, h.clock);
    const u = h.emulator.users;
    const players = ALIASES.map((a) => ({ id: u[a], name: a }));
    const gameId = (await inTransaction(ctx, (tx) => startGame(tx, ctx, { guildId: h.emulator.guildId, channelId: h.emulator.channels.general!, kind: 'keystone', players, seed: SEED }))).id;
    await h.settle();
    const b = await board(h, gameId, 'general');

    // A spectator: hands are private.
    await refused(gameId, () => h.api.click('moderator', b.id, `ks:hand:${gameId}`), /You are watching game #\d+: only its players have hands/);
    await refused(gameId, () => h.api.command({ user: 'moderator', channel: 'general', name: 'keystone', options: { subcommand: 'hand', game: gameId } }), /You are not playing in game #\d+/);

    // Out of turn: typed, and a hand-made menu choice on the board.
    let s = await state(h, gameId);
    const idle = aliasOfSeat(s, (s.turn + 1) % 3);
    const idleCard = s.hands[(s.turn + 1) % 3]![0]!;
    await refused(gameId, () => h.api.command({ user: idle, channel: 'general', name: 'keystone', options: { subcommand: 'play', card: idleCard } }), /It is not your turn/);
    const v = await version(h, gameId);
    await refused(
      gameId,
      () => h.api.rawInteraction({ user: idle, channel: 'general', type: 3, data: { custom_id: `ks:card:${gameId}:${v}`, component_type: 3, values: [idleCard] }, message: b.id }),
      /It is not your turn: the game waits for <@\d+>/,
    );
    // My hand out of turn shows the hand, and no menu.
    const idleHand = await h.api.click(idle, b.id, `ks:hand:${gameId}`);
    expect(idleHand.response?.message?.flags).toBe(EPHEMERAL);
    expect(idleHand.response?.message?.content).toMatch(/Your hand.*\n.*It is <@\d+>’s turn/);
    expect(components(idleHand.response!.message!)).toEqual([]);
    // A card that is not in the hand, typed.
    await refused(gameId, () => h.api.command({ user: aliasOfSeat(s, s.turn), channel: 'general', name: 'keystone', options: { subcommand: 'play', card: 'purple-11' } }), /You hold no card “purple-11”. Your hand: /);

    // Play on (placing each won card on the first line it fits, so lines get directions) until
    // someone must follow a colour while holding another, and until a won card fits against a line.
    let followed = false;
    let againstDirection = false;
    for (let step = 0; !(followed && againstDirection); step++) {
      expect(step, 'the situations came up').toBeLessThan(150);
      const a = await awaited(h, gameId);
      s = a.s;
      const alias = a.alias!;
      if (a.phase === 'over') throw new Error('the match ended first');
      if (a.phase === 'play') {
        const hand = s.hands[s.turn]!;
        const led = s.played[0] ? card(s.played[0]).colour : null;
        const other = hand.find((id) => !card(id).god && led !== null && card(id).colour !== led);
        if (!followed && led && other && hand.some((id) => card(id).colour === led)) {
          followed = true;
          // The menu offers only the led colour (and God cards).
          const dm = await turnDm(h, alias, gameId);
          const menu = components(dm).find((c) => c.type === 3)!;
          expect(menu.options!.every((o) => o.value.startsWith('god') || card(o.value as CardId).colour === led)).toBe(true);
          await refused(gameId, () => h.api.command({ user: alias, channel: 'general', name: 'keystone', options: { subcommand: 'play', card: other } }), new RegExp(`You must follow the led colour \\(${led}\\) while you hold a card of it`));
          await refused(
            gameId,
            () => h.api.rawInteraction({ user: alias, channel: 'dm', type: 3, data: { custom_id: menu.custom_id, component_type: 3, values: [other] }, message: dm.id }),
            /You must follow the led colour/,
          );
        }
        await playCard(h, gameId, 'general', alias, 'dm', (values) => values[0]!);
        continue;
      }
      const lines = s.lines[s.turn]!;
      const misfit = s.pending
        .map((id) => ({ id, line: lines.findIndex((l) => !canPlace(l, id)) }))
        .find((x) => x.line >= 0);
      if (!againstDirection && misfit) {
        againstDirection = true;
        const cur = await version(h, gameId);
        // The panel does not offer that line for that card.
        const panel = (await h.api.click(alias, (await board(h, gameId, 'general')).id, `ks:place:${gameId}:${cur}`)).response!.message!;
        const i = s.pending.indexOf(misfit.id);
        const menu = components(panel).find((c) => c.type === 3 && c.custom_id === `ks:tg:${gameId}:${cur}::${i}`)!;
        expect(menu.options!.map((o) => o.value)).not.toContain(String(misfit.line));
        await refused(
          gameId,
          () => h.api.command({ user: alias, channel: 'general', name: 'keystone', options: { subcommand: 'place', card: misfit.id, line: String(misfit.line + 1) } }),
          /does not fit on top of that line: a line runs ascending or descending/,
        );
        await refused(
          gameId,
          () => h.api.rawInteraction({ user: alias, channel: 'general', type: 3, data: { custom_id: menu.custom_id, component_type: 3, values: [String(misfit.line)] }, message: panel.id }),
          /does not fit on top of that line/,
        );
      }
      // Place by typing, each card on the first line it fits, else a new line.
      for (const id of s.pending) {
        const now = (await state(h, gameId)).lines[s.turn]!;
        const fits = now.findIndex((l) => canPlace(l, id));
        const r = await h.api.command({ user: alias, channel: 'general', name: 'keystone', options: { subcommand: 'place', card: id, line: fits >= 0 ? String(fits + 1) : 'new' } });
        expect(r.response?.message?.content).toMatch(/You placed/);
        await h.settle();
      }
    }
    // A menu of an older version (a DM that was not refreshed, a double click): refused as stale.
    const cur = await awaited(h, gameId);
    const stale = `ks:card:${gameId}:${(await version(h, gameId)) - 1}`;
    await refused(gameId, () => h.api.rawInteraction({ user: cur.alias!, channel: 'general', type: 3, data: { custom_id: stale, component_type: 3, values: [cur.s.hands[cur.s.turn]![0]!] }, message: b.id }), /older board: the game has moved on/);
    expect((await h.api.state()).rejections).toEqual([]);
  });
});
