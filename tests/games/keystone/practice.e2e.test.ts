import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyGame } from '../../../src/services/replay.ts';
import { games } from '../../../src/games/index.ts';
import { silentLogger } from '../../../src/log.ts';
import { buttons, EPHEMERAL, startHarness, text, type Harness } from '../../helpers/harness.ts';
import { awaited, board, placeCards, playCard } from './e2e.ts';

/** `/keystone practice`: a match against two autopilot seats, played to the end by clicking. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('a Keystone practice match', () => {
  it('against two autopilot seats: every turn is the player’s, by DM menus, My hand and the placement panel', { timeout: 240_000 }, async () => {
    // How to play says what the God card's ✨= is where it first shows it.
    const help = await h.api.command({ user: 'carol', channel: 'general', name: 'keystone', options: { subcommand: 'help' } });
    const helpText = help.response!.message!.content;
    expect(helpText).toContain('three God cards, shown ✨= (the = because on a line a God card equals the card below it)');
    expect(helpText.split('✨=')[0]).toMatch(/three God cards, shown $/);
    const res = await h.api.command({ user: 'carol', channel: 'general', name: 'keystone', options: { subcommand: 'practice' } });
    expect(res.response?.message?.flags).toBe(EPHEMERAL);
    expect(res.response?.message?.content).toMatch(/Practice Keystone #\d+ against the autopilot/);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { practice: true, kind: 'keystone' }, include: { seats: true } });
    expect(game.seats.filter((s) => s.autopilot)).toHaveLength(2);
    expect(text(await board(h, game.id, 'general', 'carol'))).toMatch(/🤖 Autopilot/);
    let plays = 0;
    let places = 0;
    for (let step = 0; ; step++) {
      expect(step).toBeLessThan(200);
      const { alias, phase } = await awaited(h, game.id);
      if (phase === 'over') break;
      // The autopilot never keeps the game waiting.
      expect(alias).toBe('carol');
      if (phase === 'play') await playCard(h, game.id, 'general', 'carol', plays++ % 3 === 0 ? 'hand' : 'dm', (v) => v[0]!);
      else await placeCards(h, game.id, 'general', 'carol', (['one', 'all', 'auto'] as const)[places++ % 3]!, places % 2 === 0 ? 'dm' : 'board');
    }
    expect(plays).toBe(24);
    const final = await board(h, game.id, 'general', 'carol');
    expect(text(final)).toMatch(/Match over/);
    expect(text(final)).toMatch(/wins|share the win/);
    expect(buttons(final).filter((b) => b.custom_id)).toHaveLength(0);
    const report = await verifyGame({ db: h.db.prisma, clock: h.clock, log: silentLogger, games }, game.id);
    expect(report.commitmentOk && report.stateOk).toBe(true);
    expect(await h.db.prisma.inventoryItem.count()).toBe(0);
    expect((await h.api.state()).rejections).toEqual([]);
  });
});
