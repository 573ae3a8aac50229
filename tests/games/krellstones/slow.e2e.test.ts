import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { SEED_A, testContext } from '../../helpers/context.ts';
import { button, EPHEMERAL, expectRefused, startHarness, text, type Harness } from '../../helpers/harness.ts';
import { giveStones } from './owned.ts';

/**
 * A SLOW (play-by-post) game of two, advanced with the test clock: ten minutes between the
 * automatic rolls, reroll choices on the server's turn limit with turn DMs and reminders, a choice
 * made from the turn DM and one left to expire (no reroll, no forfeit); and the refusals around
 * it: not the host, not a player, not the time, a spectator who may only look.
 */
let h: Harness;
beforeAll(async () => {
  // A fixed seed: the same rolls every run.
  h = await startHarness({ seeds: () => SEED_A });
});
afterAll(async () => {
  await h?.close();
});

const MIN = 60_000;
const id = (who: 'alice' | 'bob' | 'carol' | 'dave') => h.emulator.users[who]!;
const cmd = (user: string, options: Record<string, unknown>) => h.api.command({ user, channel: 'general', name: 'krellstones', options });

async function state(gameId: number): Promise<KrellstonesState> {
  return (await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } })).state as unknown as KrellstonesState;
}
async function board(gameId: number): Promise<APIMessage> {
  const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  return (await h.api.messages('general', 'dave', 100)).messages.find((m) => m.id === g.boardMessageId)!;
}
const comps = (m: APIMessage) => (m.components ?? []).flatMap((r) => (r as { components?: Array<{ type: number; custom_id?: string; label?: string; options?: Array<{ value: string }> }> }).components ?? []);

describe('a SLOW Krellstones game of two', () => {
  it('runs on the clock: rolls ten minutes apart, choices by turn DM within the turn limit, an expired choice rerolls nothing', { timeout: 300_000 }, async () => {
    const ctx = testContext(h.db);
    await giveStones(ctx, { guildId: h.emulator.guildId, player: { id: id('alice'), name: 'alice' }, seed: 'slow-a', mat: true });
    await giveStones(ctx, { guildId: h.emulator.guildId, player: { id: id('bob'), name: 'bob' }, seed: 'slow-b' });
    const table = (await cmd('alice', { subcommand: 'start', rounds: 2 })).response!.message!;
    await cmd('bob', { subcommand: 'join', host: 'alice' });
    // Alone at a table, ready is not enough: two players are needed.
    expect((await cmd('alice', { subcommand: 'ready' })).response?.message?.content).toMatch(/you bring .*Waiting for <@\d+>/);
    await expectRefused(cmd('alice', { subcommand: 'ready' }), /You are already ready/);
    expect((await h.api.click('bob', table.id, button(table, (b) => b.label === 'Ready').custom_id!)).response?.type).toBe(7);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'krellstones' } });
    let s = await state(game.id);
    expect(s.pace).toBe('SLOW');

    // Rolling: the next roll ten minutes away on the board; nothing happens before it.
    expect(text(await board(game.id))).toMatch(new RegExp(`Rolling\\*\\*: <@${s.order[0]}> rolls next <t:\\d+:R>`));
    await h.api.advanceClock(9 * MIN);
    expect((await state(game.id)).rolled).toBe(0);
    // Refusals: only the host changes the pace; a spectator cannot choose; nobody is waited on yet.
    await expectRefused(cmd('bob', { subcommand: 'pace', pace: 'FAST' }), /Only the host can change the pace/);
    await expectRefused(cmd('dave', { subcommand: 'pace', pace: 'FAST' }), /no Krellstones game in progress|not playing/);
    await expectRefused(cmd('bob', { subcommand: 'yell', text: 'KRELLSTONES!' }), /Nothing happens: you have no Pup in the Hangar/);
    const spectated = await cmd('dave', { subcommand: 'view', player: 'alice' });
    expect(spectated.response?.message?.flags).toBe(EPHEMERAL);
    expect(spectated.response?.message?.content).toMatch(/Krellstones #\d+/);
    await h.api.advanceClock(MIN);
    expect((await state(game.id)).rolled).toBe(1);
    // The host may change the pace at any time; the step already running keeps its deadline.
    await expectRefused(cmd('alice', { subcommand: 'pace', pace: 'SLOW' }), /The pace is already SLOW/);
    expect((await cmd('alice', { subcommand: 'pace', pace: 'NORMAL' })).response?.message?.content).toMatch(/now runs at \*\*NORMAL\*\* pace/);
    expect((await state(game.id)).pace).toBe('NORMAL');
    expect((await cmd('alice', { subcommand: 'pace', pace: 'SLOW' })).response?.message?.content).toMatch(/now runs at \*\*SLOW\*\* pace/);

    let reminded = false;
    let chose = 0;
    let expired = 0;
    for (let step = 0; step < 100; step++) {
      s = await state(game.id);
      if (s.outcome) break;
      if (s.phase === 'rolling') {
        await h.api.advanceClock(10 * MIN);
        continue;
      }
      expect(s.phase).toBe('rerolls');
      const b = await board(game.id);
      expect(text(b)).toMatch(/Choosing rerolls\*\* \(secret; \d of \d ready\) until <t:\d+:t>/);
      if (s.seats[id('alice')]!.choice === 'pending' && chose > 0) {
        // Typed, as the help file has it: select, unselect, ready.
        const inPlay = s.seats[id('alice')]!.active.filter((_, k) => s.seats[id('alice')]!.stones[k]!.status === 'in').map((x) => x.id);
        const offered = await h.api.autocomplete({ user: 'alice', channel: 'general', name: 'krellstones', options: { subcommand: 'select', stone: '' }, focused: 'stone' });
        expect(offered.choices?.map((c) => c.value).sort()).toEqual(inPlay.slice().sort());
        for (const st of inPlay.slice(0, 2)) expect((await cmd('alice', { subcommand: 'select', stone: `#${st}` })).response?.message?.content).toMatch(/To reroll in game #\d+ \(only you see this\)/);
        if (inPlay.length > 1) expect((await cmd('alice', { subcommand: 'unselect', stone: inPlay[1]! })).response?.message?.content).toMatch(/will not be rerolled/);
        await expectRefused(cmd('alice', { subcommand: 'select', stone: '#999' }), /You have no stone “#999” in this game/);
        expect(text(await board(game.id))).not.toMatch(/To reroll/);
        expect((await cmd('alice', { subcommand: 'ready' })).response?.message?.content).toMatch(/Ready in game #\d+: 1 stone to reroll, secret until the rerolls/);
        chose++;
        await h.settle();
        continue;
      }
      if (s.seats[id('alice')]!.choice === 'pending') {
        // Not a player: the board's buttons refuse Dave.
        await expectRefused(h.api.click('dave', b.id, button(b, (x) => x.label === 'Choose rerolls').custom_id!), /You are not playing in game #\d+/);
        // Alice chooses from her turn DM.
        const dm = (await h.api.dms('alice')).messages.filter((m) => m.content.includes('choose your rerolls')).at(-1)!;
        expect(dm.content).toMatch(/If time runs out you reroll nothing; three choices in a row left to run out forfeit your seat/);
        const panel = (await h.api.click('alice', dm.id, button(dm, (x) => x.label === 'Choose rerolls').custom_id!)).response!.message!;
        const menu = comps(panel).find((c) => c.type === 3)!;
        const values = menu.options!.map((o) => o.value).slice(0, 2);
        const chosen = (await h.api.select('alice', panel.id, menu.custom_id!, values)).response!.message!;
        expect(chosen.content).toMatch(/Selected to reroll: .+, .+/);
        // Bob, waited on too, sees nothing of it: not on the board, not in his DMs.
        await h.settle();
        expect(text(await board(game.id))).not.toMatch(/Selected/);
        for (const m of (await h.api.dms('bob')).messages) expect(m.content).not.toMatch(/Selected to reroll/);
        const ok = await h.api.click('alice', chosen.id, button(chosen, (x) => (x.label ?? '').startsWith('Ready')).custom_id!);
        expect(ok.response?.message?.content).toMatch(/You are ready \(2 stones to reroll/);
        // Ready twice: refused.
        await expectRefused(h.api.click('alice', b.id, button(b, (x) => x.label === 'Ready').custom_id!), /not your turn|already ready/);
        chose++;
        await h.settle();
        continue;
      }
      // Bob lets his choice run out: a reminder first, then no reroll, and no forfeit.
      const before = (await h.api.dms('bob')).messages.length;
      await h.api.advanceClock(13 * 60 * MIN);
      const reminder = (await h.api.dms('bob')).messages.slice(before).find((m) => /Reminder/.test(m.content));
      if (reminder) reminded = true;
      await h.api.advanceClock(11 * 60 * MIN + MIN);
      const after = await state(game.id);
      expect(after.out).toEqual([]);
      expired++;
    }
    expect(s.outcome).not.toBeNull();
    expect(s.outcome!.reason).toBe('rounds');
    expect(chose).toBe(2);
    expect(expired).toBeGreaterThan(0);
    expect(reminded).toBe(true);
    expect(s.history.length).toBe(2);
    await h.settle();
    // SLOW (play-by-post): every choice is a DM of its own, which notifies (fast paces edit one DM instead).
    expect((await h.api.dms('alice')).messages.filter((m) => m.content.includes('choose your rerolls')).length).toBe(2);
    expect(text(await board(game.id))).toMatch(/Fair dice: seed `[0-9a-f]{64}`/);
  });
});
