import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KrellstonesState } from '../../../src/games/krellstones/engine/index.ts';
import { testContext } from '../../helpers/context.ts';
import { button, buttons, EPHEMERAL, expectRefused, startHarness, text, type Harness } from '../../helpers/harness.ts';
import { ROUNDS, scriptSeed, simulate, STONES } from './fast-script.ts';
import { giveStones } from './owned.ts';

/**
 * A three-player Krellstones game through the emulator with the real discord.js client, as
 * people play it: Alice hosts on her mat, sets the rules (FAST, a sideboard of 1), Bob and Carol
 * join; everyone chooses stones (the Choose stones menu, a typed select by alias, or nothing) and is
 * ready; then the game runs by itself on its timers (the test advances the clock), with a yell
 * within the window and one after it, a secret reroll, a sideboard swap and a choice left to
 * expire, to the end. The seed is the script's (fast-script.ts): the simulation and the game agree.
 */
let h: Harness;
const SEED = scriptSeed();
beforeAll(async () => {
  // FAST windows last seconds: the clock moves only when the test moves it, so a loaded machine
  // cannot let a window lapse between two steps and take the game off the script's path.
  h = await startHarness({ seeds: () => SEED, frozenClock: true });
});
afterAll(async () => {
  await h?.close();
});

type Who = 'alice' | 'bob' | 'carol';
const id = (who: string) => h.emulator.users[who as Who]!;

async function state(gameId: number): Promise<KrellstonesState> {
  return (await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } })).state as unknown as KrellstonesState;
}

async function board(gameId: number, as = 'dave'): Promise<APIMessage> {
  const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  const found = (await h.api.messages('general', as, 100)).messages.find((m) => m.id === g.boardMessageId);
  if (!found) throw new Error('no board');
  return found;
}

function comps(m: APIMessage): Array<{ type: number; custom_id?: string; label?: string; options?: Array<{ value: string; label: string }> }> {
  return (m.components ?? []).flatMap((r) => (r as { components?: never[] }).components ?? []);
}

/** Every message in the channel as a spectator sees it (text, buttons, edited or not). */
async function publicMessages() {
  return (await h.api.messages('general', 'dave', 200)).messages.map((m) => ({ id: m.id, content: m.content, components: JSON.stringify(m.components ?? []), edited: m.edited_timestamp ?? null }));
}

const cmd = (user: string, options: Record<string, unknown>) => h.api.command({ user, channel: 'general', name: 'krellstones', options });

describe('a FAST Krellstones game of three, hosted, joined and played to the end', () => {
  it('plays it with a reroll, a yell in time and one too late, a sideboard swap and an expired choice', { timeout: 300_000 }, async () => {
    const expected = simulate(SEED);
    const ctx = testContext(h.db);
    const G = h.emulator.guildId;
    for (const who of ['alice', 'bob', 'carol'] as const) {
      await giveStones(ctx, { guildId: G, player: { id: id(who), name: who }, ...STONES[who] });
    }
    // Dave has stones of his own (made after the others', so theirs keep the script's numbers); the moderator has none.
    await giveStones(ctx, { guildId: G, player: { id: id('dave'), name: 'dave' }, seed: 'dave' });

    // Hosting needs a mat (Dave has none); Alice hosts on hers, found by autocomplete.
    await expectRefused(cmd('dave', { subcommand: 'start' }), /A host needs a Modern Krellstones mat, and you have none/);
    const mats = await h.api.autocomplete({ user: 'alice', channel: 'general', name: 'krellstones', options: { subcommand: 'start', mat: 'mod' }, focused: 'mat' });
    expect(mats.choices).toEqual([{ name: 'Modern Krellstones (#8)', value: '8' }]);
    const opened = await cmd('alice', { subcommand: 'start', mat: '8', rounds: ROUNDS });
    const table = opened.response!.message!;
    expect(table.content).toMatch(/Krellstones\*\*: table #\d+, opened by/);
    expect(table.content).toMatch(/Rules: 3 rounds · rerolls on · no sideboard · SLOW pace/);
    await expectRefused(cmd('bob', { subcommand: 'rules', pace: 'FAST' }), /You are not at a Krellstones table/);
    await expectRefused(cmd('bob', { subcommand: 'join', host: 'carol' }), /is not hosting a Krellstones table/);
    // Someone without stones is refused at Join (the button or typed), with the fix: they could never be ready.
    const joinId = button(table, (b) => b.label === 'Join').custom_id!;
    await expectRefused(h.api.click('moderator', table.id, joinId), /You have no krellstones yet: every player brings 1 Pawn, 1 Dancer, 3 Krells, 1 Master\. Claim your free starter kit with `\/krellstone claim`/);
    await expectRefused(cmd('moderator', { subcommand: 'join', host: 'alice' }), /You have no krellstones yet.*`\/krellstone claim`/);
    for (const who of ['bob', 'carol', 'dave']) expect((await cmd(who, { subcommand: 'join', host: 'alice' })).response?.message?.content).toMatch(/joins .*Krellstones table/);
    await expectRefused(cmd('moderator', { subcommand: 'join', host: 'alice' }), /table is full \(4 players\)/);
    // A full table reads as full, not "0 seats free: take one with Join".
    await h.settle();
    const full = text((await h.api.messages('general', 'dave', 50)).messages.find((m) => m.id === table.id));
    expect(full).toContain('The table is full (4 of 4).');
    expect(full).not.toMatch(/0 seats free/);
    await expectRefused(cmd('bob', { subcommand: 'rules', pace: 'FAST' }), /Only the host, <@\d+>, sets the rules/);
    expect((await cmd('alice', { subcommand: 'rules', pace: 'FAST', sideboard: 1 })).response?.message?.content).toMatch(/now plays: 3 rounds · rerolls on · sideboard 1 · FAST pace/);
    expect((await cmd('dave', { subcommand: 'abandon' })).response?.message?.content).toMatch(/You left table #\d+/);
    // The table message follows typed joins and leaves: who sits, how many stones each has chosen (never which).
    await h.settle();
    const shown = (await h.api.messages('general', 'dave', 50)).messages.find((m) => m.id === table.id)!;
    expect(shown.content).toMatch(new RegExp(`<@${id('bob')}> ⏳ choosing: 0 of 6 stones chosen`));
    expect(shown.content).toMatch(new RegExp(`<@${id('carol')}> ⏳ choosing`));
    expect(shown.content).not.toContain(`<@${id('dave')}>`);
    expect(shown.content).toMatch(/Rules: 3 rounds · rerolls on · sideboard 1 · FAST pace/);
    expect(shown.content).toMatch(new RegExp(`<@${id('alice')}> ⏳ choosing 🎩: 0 of 6 stones chosen · on the Modern Krellstones mat \\(#8\\)`));

    // Alice chooses her second Krell in the Choose stones menu and puts her fourth on the sideboard.
    const panel = (await h.api.click('alice', table.id, button(table, (b) => b.label === 'Choose stones').custom_id!)).response!.message!;
    expect(panel.flags).toBe(EPHEMERAL);
    // With a sideboard the panel still has its Ready (the Pawn, Dancer and Master share a menu: Discord allows five rows).
    expect(panel.components!.length).toBeLessThanOrEqual(5);
    expect(buttons(panel).map((b) => b.label)).toContain('Ready');
    expect(comps(panel).find((c) => c.custom_id?.endsWith(':sideboard'))).toBeDefined();
    const krells = comps(panel).find((c) => c.custom_id?.endsWith(':krell'))!;
    expect(krells.options!.map((o) => o.value)).toEqual(['3', '4', '5', '7']);
    const picked = await h.api.select('alice', panel.id, krells.custom_id!, ['4']);
    expect(picked.response?.message?.content).toMatch(/Chosen \(1 of 6\): Krell #4/);
    await expectRefused(cmd('alice', { subcommand: 'sideboard', add: 'nothing' }), /You have no stone “nothing”/);
    expect((await cmd('alice', { subcommand: 'sideboard', add: '#7' })).response?.message?.content).toMatch(/Krell #7 is on your sideboard/);
    // Bob chooses by alias (autocomplete offers his stones); a stone of someone else's is refused.
    const offered = await h.api.autocomplete({ user: 'bob', channel: 'general', name: 'krellstones', options: { subcommand: 'select', stone: 'bo' }, focused: 'stone' });
    expect(offered.choices?.map((c) => c.value)).toEqual(['Boss']);
    await expectRefused(cmd('bob', { subcommand: 'select', stone: '4' }), /You have no stone “4”/);
    expect((await cmd('bob', { subcommand: 'select', stone: 'Boss' })).response?.message?.content).toMatch(/You bring your Master “Boss” #14/);
    // Sideboards stay hidden until the start.
    await expectRefused(cmd('carol', { subcommand: 'sideboard', player: 'alice' }), /sideboard stays hidden until their game starts/);
    await expectRefused(cmd('carol', { subcommand: 'select', stone: '3' }), /You have no stone “3”/);

    // Everyone ready: Alice and Carol with the table's button, Bob typed; the last starts the game.
    const readyId = button(table, (b) => b.label === 'Ready').custom_id!;
    expect((await h.api.click('alice', table.id, readyId)).response?.type).toBe(7);
    expect((await cmd('bob', { subcommand: 'ready' })).response?.message?.content).toMatch(/Ready at table #\d+: you bring Pawn #9, Dancer #10, Krell #11, Krell #12, Krell #13, Master “Boss” #14\. Waiting for <@\d+>/);
    expect(await h.db.prisma.game.count()).toBe(0);
    const started = await h.api.click('carol', table.id, readyId);
    expect(started.response?.type).toBe(7);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'krellstones' } });
    expect(game.boardMessageId).toBe(table.id);
    // The table's message became the board: it says which table the game was.
    const tableNo = /table #(\d+)/.exec(table.content)![1];
    expect(text(await board(game.id))).toContain(`**Krellstones #${game.id}** (was table #${tableNo})`);
    expect(await h.db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(6 * 3 + 1 + 1);
    // After the start, anyone may view Alice's sideboard.
    expect((await cmd('carol', { subcommand: 'sideboard', player: 'alice' })).response?.message?.content).toMatch(/sideboard in game #\d+: Krell #7/);

    // The game runs by itself. The test acts as the script says, reading the state only to know when.
    const pups: Array<{ round: number; player: string; yelled: boolean }> = [];
    let swapped = false;
    let expiredSeen = false;
    for (let step = 0; step < 400; step++) {
      const s = await state(game.id);
      if (s.outcome) break;
      if (s.phase === 'rolling') {
        const open = s.windows.find((p) => !pups.some((x) => x.round === s.round && x.player === p));
        if (open) {
          const who = Object.entries(h.emulator.users).find(([, u]) => u === open)![0];
          const b = await board(game.id);
          expect(text(b)).toMatch(new RegExp(`PUP IN THE HANGAR\\*\\*: <@${open}>, yell \`KRELLSTONES!\`.*: 8 s to yell, until <t:\\d+:T>`));
          const dm = (await h.api.dms(who)).messages.at(-1)!;
          expect(dm.content).toMatch(/PUP IN THE HANGAR\*\* in \*\*Krellstones #\d+\*\*/);
          // …and in the channel, a message of its own that mentions the owner (an edited board pings nobody).
          const ping = (await h.api.messages('general', 'dave', 20)).messages.find((m) => m.content.startsWith(`🐶 **PUP IN THE HANGAR** in Krellstones #${game.id}! <@${open}>`));
          expect(ping?.mentions?.map((u) => u.id)).toEqual([open]);
          if (pups.length === 0) {
            // A wrong yell counts for nothing; the right one, typed in the Yell! form, turns the Master.
            await expectRefused(cmd(who, { subcommand: 'yell', text: 'krellstones!' }), /Nothing happens: only the exact yell counts/);
            await expectRefused(cmd('dave', { subcommand: 'yell', text: 'KRELLSTONES!' }), /You have no Krellstones game in progress|You are not playing/);
            const form = await h.api.click(who, b.id, button(b, (x) => x.label === 'Yell!').custom_id!);
            expect(form.response?.type).toBe(9);
            const sent = await h.api.submitModal({ user: who, values: { text: 'KRELLSTONES!' } });
            expect(sent.response?.message?.content).toMatch(/CAPTAIN ON DECK/);
            await h.settle();
            const after = await state(game.id);
            const master = after.seats[open]!.active[5]!;
            expect(after.seats[open]!.stones[5]!.side).toBe(master.sides.reduce((best, x, i, all) => (x.value > all[best]!.value ? i : best), 0));
            expect(text(await board(game.id))).toMatch(/CAPTAIN ON DECK/);
            pups.push({ round: s.round, player: open, yelled: true });
          } else {
            // Too late: the window closes with the rolling phase; the exact yell then does nothing.
            for (let k = 0; k < 10 && (await state(game.id)).windows.includes(open); k++) await h.api.advanceClock(2_000);
            // Told it was late: when the window closed, and how long it was open.
            await expectRefused(cmd(who, { subcommand: 'yell', text: 'KRELLSTONES!' }), /Too late: your Pup in the Hangar window closed at <t:\d+:T> \(<t:\d+:R>\), after [1-8] s/);
            pups.push({ round: s.round, player: open, yelled: false });
          }
          continue;
        }
        // Nothing on the board speaks of a roll seconds away as "in 2 seconds" (it would soon read "2 seconds ago").
        expect(text(await board(game.id))).not.toMatch(/<t:\d+:R>/);
        await h.api.advanceClock(2_000);
        continue;
      }
      if (s.phase === 'rerolls') {
        const b = await board(game.id);
        expect(text(b)).toMatch(/Choosing rerolls\*\* \(secret; \d of \d ready\): 45 s to choose, until <t:\d+:T>/);
        if (s.seats[id('bob')]!.choice === 'pending') {
          const r = await h.api.click('bob', b.id, button(b, (x) => x.label === 'Ready').custom_id!);
          expect(r.response?.type).toBe(7);
          expect(text(r.response!.message!)).toMatch(new RegExp(`<@${id('bob')}>.*✅ ready`));
          await h.settle();
          continue;
        }
        if (s.seats[id('alice')]!.choice === 'pending') {
          // A secret selection moves no public message: every message in the channel is the same after it.
          const before = await publicMessages();
          expect(before.find((m) => m.id === b.id)?.content).toMatch(/\*\*Last move:\*\* \S+ is ready\./);
          const p = (await h.api.click('alice', b.id, button(b, (x) => x.label === 'Choose rerolls').custom_id!)).response!.message!;
          expect(p.flags).toBe(EPHEMERAL);
          const menu = comps(p).find((c) => c.type === 3)!;
          const first = menu.options![0]!.value;
          const chosen = (await h.api.select('alice', p.id, menu.custom_id!, [first])).response!.message!;
          expect(chosen.content).toMatch(/Selected to reroll: /);
          // The choice is secret: the board says nothing of it, not even after a refresh.
          await h.settle();
          const pub = text(await board(game.id));
          expect(pub).not.toMatch(/Selected|reroll:/);
          expect(await publicMessages()).toEqual(before);
          const ok = await h.api.click('alice', chosen.id, button(chosen, (x) => (x.label ?? '').startsWith('Ready')).custom_id!);
          expect(ok.response?.message?.content).toMatch(/You are ready \(1 stone to reroll, secret until the rerolls\)/);
          await h.settle();
          continue;
        }
        if (s.seats[id('carol')]!.choice === 'pending') {
          if (s.round === 1) {
            // Carol lets it run out: no reroll, no forfeit.
            await h.api.advanceClock(46_000);
            const after = await state(game.id);
            expect(after.seats[id('carol')]!.expiries).toBe(1);
            expect(after.out).toEqual([]);
            // Warned: the board says it next to her name.
            const warned = text(await board(game.id));
            expect(warned.slice(warned.indexOf(`<@${id('carol')}>`))).toMatch(/^[^\n]*\n[^\n]*\n(> [^\n]*\n)*?> ⚠️ 1 choice ran out: 2 more in a row forfeit the seat\./);
            expiredSeen = true;
          } else {
            const dm = (await h.api.dms('carol')).messages.filter((m) => m.content.includes('choose your rerolls')).at(-1)!;
            // Her next choice states the rule, and after round 1's run-out, how many are left.
            expect(dm.content).toContain('three choices in a row left to run out forfeit your seat');
            if (s.round === 2) expect(dm.content).toContain('⚠️ your last choice ran out: 2 more in a row forfeit your seat.');
            // A typed secret selection, taken back: still nothing public moves.
            const before = await publicMessages();
            const inPlay = s.seats[id('carol')]!.active.find((_, i) => s.seats[id('carol')]!.stones[i]!.status === 'in')!.id;
            expect((await cmd('carol', { subcommand: 'select', stone: `#${inPlay}` })).response?.message?.flags).toBe(EPHEMERAL);
            expect((await cmd('carol', { subcommand: 'unselect', stone: `#${inPlay}` })).response?.message?.flags).toBe(EPHEMERAL);
            await h.settle();
            expect(await publicMessages()).toEqual(before);
            const r = await h.api.click('carol', dm.id, button(dm, (x) => x.label === 'Ready').custom_id!);
            expect(r.response?.message?.content).toMatch(/you reroll nothing/);
            await h.settle();
          }
          continue;
        }
      }
      if (s.phase === 'swaps' && s.seats[id('alice')]!.choice === 'pending') {
        const b = await board(game.id);
        if (s.round === 1) {
          const p = (await h.api.click('alice', b.id, button(b, (x) => x.label === 'Sideboard swap').custom_id!)).response!.message!;
          const inMenu = comps(p).find((c) => c.custom_id?.startsWith(`kr:swin:${game.id}`))!;
          const next = (await h.api.select('alice', p.id, inMenu.custom_id!, ['7'])).response!.message!;
          expect(next.content).toMatch(/which Krell goes to the sideboard\?/);
          const outMenu = comps(next).find((c) => c.custom_id?.startsWith(`kr:swout:${game.id}`))!;
          expect(outMenu.options!.map((o) => o.value)).toEqual(['4', '3', '5']);
          const done = (await h.api.select('alice', next.id, outMenu.custom_id!, ['4'])).response!.message!;
          expect(done.content).toMatch(/Swapped #7 in for #4/);
          swapped = true;
          const ok = await h.api.click('alice', done.id, button(done, (x) => (x.label ?? '').startsWith('Ready')).custom_id!);
          expect(ok.response?.message?.content).toMatch(/no more swaps/);
        } else {
          // Typed, as the help file has it: `select` a sideboard stone; for a Krell it asks which one.
          const sb = s.seats[id('alice')]!.sideboard[0]!.id;
          const second = s.seats[id('alice')]!.active[3]!.id;
          const ask = await cmd('alice', { subcommand: 'select', stone: `#${sb}` });
          expect(ask.response?.message?.flags).toBe(EPHEMERAL);
          expect(ask.response?.message?.content).toMatch(/which Krell goes to the sideboard\?/);
          await expectRefused(cmd('alice', { subcommand: 'select', stone: '#999' }), /“#999” is not on your sideboard/);
          const swap = await cmd('alice', { subcommand: 'select', stone: `#${sb}`, replace: `#${second}` });
          expect(swap.response?.message?.content).toMatch(new RegExp(`Swapped Krell #${sb} in for Krell #${second}`));
          expect((await cmd('alice', { subcommand: 'ready' })).response?.message?.content).toMatch(/Ready in game #\d+: no more swaps/);
        }
        await h.settle();
        continue;
      }
      throw new Error(`unexpected step: ${s.phase}`);
    }

    const final = await state(game.id);
    expect(final.outcome).not.toBeNull();
    // The game went as the simulation said: same pups, rounds and result.
    const byAlias = (p: string) => Object.entries(h.emulator.users).find(([, u]) => u === p)![0];
    expect(pups.map((p) => ({ ...p, player: byAlias(p.player) }))).toEqual(expected.pups);
    expect(final.history.map((r) => (r.winner ? byAlias(r.winner) : null))).toEqual(expected.history.map((r) => r.winner));
    expect(final.history.some((r) => r.announcements.length > 0)).toBe(true);
    expect(swapped && expiredSeen).toBe(true);
    expect(final.seats[id('alice')]!.active.slice(2, 5).map((x) => x.id)).toEqual(['7', '4', '5']);
    await h.settle();
    const end = text(await board(game.id));
    expect(end).toMatch(/wins\*\*, rounds won \d–\d–\d|Game over\*\*: a draw/);
    expect(end).toContain(SEED);
    expect(buttons(await board(game.id))).toEqual([]);
    // The locks are released: the stones can be changed again.
    expect(await h.db.prisma.asset.count({ where: { lockedByGameId: game.id } })).toBe(0);
    // FAST pace: one DM per game edited round by round, a new one only for a Pup (it must ping) and at the end.
    for (const who of ['alice', 'bob', 'carol'] as const) {
      const posted = (await h.api.dms(who)).messages.length;
      const mine = pups.filter((p) => p.player === id(who)).length;
      expect(posted, who).toBeGreaterThanOrEqual(1 + mine);
      expect(posted, who).toBeLessThanOrEqual(2 + mine);
      const last = (await h.api.dms(who)).messages.at(-1)!;
      expect(last.content, who).toMatch(/is over/);
    }
    // Every message in the channel: no reroll selection was ever public.
    for (const m of (await h.api.messages('general', 'dave', 200)).messages) expect(m.content).not.toMatch(/Selected to reroll/);
  });
});
