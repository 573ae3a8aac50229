import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../../src/games/knucklebones/engine/index.ts';
import { buttons, EPHEMERAL, startHarness, text, type Harness } from '../../helpers/harness.ts';

/** `/knucklebones practice`: a game against the autopilot, played to the end by clicking the board. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('a practice game against the autopilot', () => {
  it('is played to the end by clicking; the autopilot answers at once, and the game counts nowhere', async () => {
    const res = await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'practice' } });
    expect(res.response?.message?.flags).toBe(EPHEMERAL);
    expect(res.response?.message?.content).toMatch(/Practice Knucklebones #\d+ against the autopilot/);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { practice: true }, include: { seats: true } });
    expect(game.seats.map((s) => s.autopilot).sort()).toEqual([false, true]);
    const board = async (): Promise<APIMessage> => {
      const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      return (await h.api.messages('knucklebones', 'carol')).messages.find((m) => m.id === g.boardMessageId)!;
    };
    expect(text(await board())).toMatch(/🤖 Autopilot/);
    let clicks = 0;
    for (;;) {
      const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      const st = g.state as unknown as KnucklebonesState;
      if (st.outcome) break;
      // The autopilot never keeps the game waiting: it is always Carol's turn.
      expect(st.turn).toBe(h.emulator.users.carol);
      const b = await board();
      const open = buttons(b).filter((x) => x.custom_id?.startsWith('kb:place') && !x.disabled);
      const click = await h.api.click('carol', b.id, open[0]!.custom_id!);
      expect(click.response?.type).toBe(7);
      await h.settle();
      expect(++clicks).toBeLessThan(20);
    }
    const final = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id }, include: { seats: true } });
    expect(final.status).toBe('finished');
    expect(text(await board())).toMatch(/wins|A draw/);
    // Every autopilot move is in the log, marked as the autopilot's.
    const moves = await h.db.prisma.move.findMany({ where: { gameId: game.id } });
    const bot = final.seats.find((s) => s.autopilot)!.playerId;
    expect(moves.filter((m) => m.actorId === bot).every((m) => (m.entry as { auto?: boolean }).auto === true)).toBe(true);
    expect(moves.filter((m) => m.actorId === bot).length).toBeGreaterThan(3);
    // Carol's DMs came; nothing was sent to the autopilot; no rewards.
    expect((await h.api.dms('carol')).messages.some((m) => new RegExp(`Knucklebones #${game.id}`).test(m.content))).toBe(true);
    expect(await h.db.prisma.inventoryItem.count()).toBe(0);
    expect(await h.api.state().then((s) => s.rejections.length)).toBe(0);
    // The board offers no "Use a die…" and no button is left.
    expect(buttons(await board()).filter((x) => x.custom_id)).toHaveLength(0);
  });
});
