import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { acceptChallenge, challenge } from '../../src/services/challenges.ts';
import { playMove } from '../../src/services/games.ts';
import { testContext } from '../helpers/context.ts';
import { buttons, EPHEMERAL, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Interactions first (src/bot/priority.ts): while clicks are being answered the outbox starts its
 * deliveries at a slower pace, so a click does not queue behind DMs being rendered and sent. Slowed,
 * never stopped: under clicks that never pause, the next player's turn DM and the board still go
 * out. Through the real bot, its deliverer and the emulator.
 */
let h: Harness;
beforeAll(async () => {
  // Five deliveries a second while busy: slow enough that the rows below must wait their turn.
  h = await startHarness({ outboxBusyRate: 5 });
});
afterAll(async () => {
  await h?.close();
});

async function knucklebones(from: 'alice' | 'carol', to: 'bob' | 'dave') {
  const ctx = testContext(h.db);
  const guildId = h.emulator.guildId;
  const [a, b] = [h.emulator.users[from]!, h.emulator.users[to]!];
  const c = await challenge(ctx, { guildId, channelId: h.emulator.channels.knucklebones!, kind: 'knucklebones', from: { id: a, name: from, bot: false }, to: { id: b, name: to, bot: false } });
  const { game } = await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: b, guildId });
  return game;
}

describe('the outbox gives way to interactions', () => {
  it('under clicks that never pause, the next turn DMs and boards are still delivered, each waiting its turn', async () => {
    const ctx = testContext(h.db);
    const guildId = h.emulator.guildId;
    const game = await knucklebones('alice', 'bob');
    const watched = await knucklebones('carol', 'dave');
    await h.settle();
    const board = await h.db.prisma.game.findUniqueOrThrow({ where: { id: watched.id } });
    const onBoard = (await h.api.messages('knucklebones')).messages.find((m) => m.id === board.boardMessageId)!;
    const column = buttons(onBoard).find((b) => b.label === 'Column 1')!;
    expect(column?.custom_id).toBeTruthy();

    // Clicks that never pause: four players click a board they do not play on, each as soon as
    // the last answer is back (real interactions, each read and refused by the bot). One more
    // interaction is held open throughout, so the count of interactions in flight never reaches zero.
    h.bot.priority.enter();
    let clicking = true;
    let answered = 0;
    const clickers = ['alice', 'bob', 'owner', 'moderator'].map(async (user) => {
      while (clicking) {
        const r = await h.api.click(user, onBoard.id, column.custom_id!);
        expect(r.response?.message?.flags).toBe(EPHEMERAL);
        answered++;
      }
    });
    let waited = 0;
    const watch = setInterval(() => (waited = Math.max(waited, h.bot.priority.queued)), 2);
    try {
      const dmsBefore = (await h.api.dms('bob')).messages.length;
      // Three moves (alice, bob, alice) through a context that does not wake the outbox: their turn DMs,
      // retire edits and boards queue until settle().
      for (let k = 0; k < 3; k++) {
        const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
        const st = g.state as unknown as KnucklebonesState;
        const col = (st.grids[st.turn!]!.findIndex((c) => c.length < 3) + 1) as 1 | 2 | 3;
        await playMove(ctx, { gameId: game.id, userId: st.turn!, guildId, kind: 'knucklebones', move: { type: 'place', column: col } });
      }
      const queued = await h.db.prisma.outbox.count({ where: { status: 'pending' } });
      expect(queued).toBeGreaterThan(2);
      const clicksBefore = answered;
      await h.settle();

      // Everything went out while interactions were in flight the whole time.
      expect(h.bot.priority.interactions).toBeGreaterThan(0);
      expect(await h.db.prisma.outbox.count({ where: { status: 'pending' } })).toBe(0);
      expect(await h.db.prisma.outbox.count({ where: { status: 'failed' } })).toBe(0);
      const bobDms = (await h.api.dms('bob')).messages.slice(dmsBefore);
      expect(bobDms.some((m) => m.content.includes(`#${game.id}`))).toBe(true);
      const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      expect(g.boardVersion).toBe(g.version);
      // The deliveries did wait their turn, and clicks kept being answered meanwhile.
      expect(waited).toBeGreaterThan(0);
      expect(answered).toBeGreaterThan(clicksBefore);
    } finally {
      clearInterval(watch);
      clicking = false;
      await Promise.all(clickers);
      h.bot.priority.leave();
    }
  });
});
