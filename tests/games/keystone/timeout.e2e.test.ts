import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, buttons, startHarness, text, type Harness } from '../../helpers/harness.ts';
import { awaited, board, components, placeCards, playCard, state } from './e2e.ts';

/**
 * A table of four opened with `/keystone table`, filled with the Join button; Dave lets his turn
 * run out: he gets a reminder, then forfeits at the deadline, everyone is told, and the autopilot
 * plays his seat at once from then on, to the end of the match, where he ranks last.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const HOUR = 3_600_000;

describe('a 4-player Keystone match where one player times out', () => {
  it('the autopilot finishes the seat; the others play on to the end', { timeout: 300_000 }, async () => {
    const open = await h.api.command({ user: 'alice', channel: 'general', name: 'keystone', options: { subcommand: 'table' } });
    const table = open.response!.message!;
    expect(table.content).toMatch(/3 seats free: take one with \*\*Join\*\*/);
    for (const who of ['bob', 'carol']) expect((await h.api.click(who, table.id, button(table, (b) => b.label === 'Join').custom_id!)).response?.type).toBe(7);
    const r = await h.api.click('dave', table.id, button(table, (b) => b.label === 'Join').custom_id!);
    expect(r.response?.type).toBe(7);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'keystone' }, include: { seats: { orderBy: { seat: 'asc' } } } });
    // The table message became the board; seats in join order.
    expect(game.boardMessageId).toBe(table.id);
    expect(game.seats.map((s) => s.playerId)).toEqual((['alice', 'bob', 'carol', 'dave'] as const).map((a) => h.emulator.users[a]));
    expect(text(await board(h, game.id, 'general'))).toMatch(/Game 1 of 2 · trick 1 of 12/);

    const dave = h.emulator.users.dave!;
    let timedOut = false;
    let placements = 0;
    for (let step = 0; ; step++) {
      expect(step).toBeLessThan(300);
      const { alias, phase } = await awaited(h, game.id);
      if (phase === 'over') break;
      expect(alias).not.toBeNull();
      if (alias === 'dave') {
        // Only before he times out: afterwards the autopilot never keeps the game waiting for him.
        expect(timedOut).toBe(false);
        const b = text(await board(h, game.id, 'general'));
        expect(b).toMatch(new RegExp(`\\*\\*Deadline:\\*\\* <t:\\d+:f> \\(<t:\\d+:R>\\), then the autopilot plays <@${dave}>’s seat`));
        const before = (await h.api.dms('dave')).messages.length;
        await h.api.advanceClock(13 * HOUR);
        const reminder = (await h.api.dms('dave')).messages.slice(before).find((m) => /Reminder: your turn/.test(m.content));
        expect(reminder, 'a reminder with the hand and the menu').toBeDefined();
        expect(reminder!.content).toMatch(/Your hand:|Place the won cards/);
        expect(components(reminder!).length).toBeGreaterThan(0);
        await h.api.advanceClock(11 * HOUR + 60_000);
        timedOut = true;
        const after = await state(h, game.id);
        expect(after.out).toEqual([dave]);
        expect(after.players[after.turn]).not.toBe(dave);
        // Everyone still playing is told; so is Dave.
        for (const a of ['alice', 'bob', 'carol']) {
          expect((await h.api.dms(a)).messages.some((m) => m.content.includes(`<@${dave}> ran out of time in Keystone #${game.id}. The autopilot plays their seat`))).toBe(true);
        }
        expect((await h.api.dms('dave')).messages.at(-1)!.content).toMatch(/You ran out of time in Keystone #\d+\. The autopilot plays your seat from now on/);
        expect(text(await board(h, game.id, 'general'))).toMatch(new RegExp(`<@${dave}> \\(\\d+ cards?, 🏳️ autopilot\\)`));
        continue;
      }
      if (phase === 'play') await playCard(h, game.id, 'general', alias!, 'dm', (v) => v[0]!);
      else await placeCards(h, game.id, 'general', alias!, placements++ % 4 === 0 ? 'all' : 'auto', 'board');
    }
    expect(timedOut).toBe(true);

    const final = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id }, include: { seats: true } });
    expect(final.status).toBe('finished');
    const outcome = final.outcome as { winners: string[]; places: Record<string, number>; forfeits: string[] };
    expect(outcome.forfeits).toEqual([dave]);
    expect(outcome.places[dave]).toBe(4);
    expect(outcome.winners).not.toContain(dave);
    expect(final.seats.find((x) => x.playerId === dave)!.result).toBe('forfeit');
    // After the timeout, every move of Dave's seat is the autopilot's, and there were many.
    const log = await h.db.prisma.move.findMany({ where: { gameId: game.id }, orderBy: { seq: 'asc' } });
    const forfeitAt = log.findIndex((m) => (m.entry as { type: string }).type === 'forfeit');
    expect(log[forfeitAt]!.entry).toEqual({ type: 'forfeit', player: dave, reason: 'timeout' });
    const davesLater = log.slice(forfeitAt + 1).filter((m) => m.actorId === dave);
    expect(davesLater.length).toBeGreaterThan(10);
    expect(davesLater.every((m) => (m.entry as { auto?: boolean }).auto === true)).toBe(true);
    // Dave gets no turn DM after his timeout (only the end).
    const davesDms = (await h.api.dms('dave')).messages;
    const after = davesDms.slice(davesDms.findIndex((m) => /You ran out of time/.test(m.content)) + 1);
    expect(after.filter((m) => /Your turn|You won trick/.test(m.content))).toEqual([]);
    const end = await board(h, game.id, 'general');
    expect(text(end)).toMatch(/Match over/);
    expect(text(end)).toMatch(new RegExp(`4\\. <@${dave}> .*🏳️ ran out of time: ranks last`));
    expect(buttons(end).filter((b) => b.custom_id)).toHaveLength(0);
    expect((await h.api.state()).rejections).toEqual([]);
  });
});
