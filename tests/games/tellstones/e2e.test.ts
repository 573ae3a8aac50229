import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYMBOL_NAME } from '../../../src/games/tellstones/present.ts';
import { SYMBOLS, type TellstonesState, type TellstonesSymbol } from '../../../src/games/tellstones/engine/index.ts';
import { aliasOf, button, buttons, EPHEMERAL, startHarness, text, type Harness } from '../../helpers/harness.ts';

/**
 * Tellstones through the emulator and the real discord.js client: slash commands, board buttons,
 * ephemeral menus and DMs, with Postgres behind. The tests read the stored state to decide their
 * moves (as a player would read the board and remember), and check what each person can see.
 */
let h: Harness;
let ids: Harness['emulator']['users'];
const CHANNEL = 'general';

beforeAll(async () => {
  h = await startHarness();
  ids = h.emulator.users;
});
afterAll(async () => {
  await h?.close();
});

type Select = { type: number; custom_id: string; options: Array<{ value: string; label: string }> };

function selects(m: APIMessage): Select[] {
  return (m.components ?? []).flatMap((r) => ((r as { components?: Select[] }).components ?? []).filter((c) => c.type === 3));
}
const alias = (userId: string) => aliasOf(h, userId);
const all = (m: APIMessage) => `${text(m)}\n${JSON.stringify(m.components ?? [])}`;

async function load(gameId: number) {
  const game = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId }, include: { seats: { orderBy: { seat: 'asc' } } } });
  return { game, state: game.state as unknown as TellstonesState };
}

async function board(gameId: number, as = 'moderator'): Promise<APIMessage> {
  const { game } = await load(gameId);
  const m = (await h.api.messages(CHANNEL, as)).messages.find((x) => x.id === game.boardMessageId);
  if (!m) throw new Error('no board');
  return m;
}

/** Clicks a board button (by customId prefix) as `user`; returns the interaction response. */
async function clickBoard(gameId: number, user: string, prefix: string) {
  const b = await board(gameId);
  const target = button(b, (x) => x.custom_id?.startsWith(prefix) ?? false);
  return h.api.click(user, b.id, target.custom_id!);
}

/** Opens an action's ephemeral menu from the board and picks `values` in its first (or `which`) select. */
async function menu(gameId: number, user: string, action: string, values: string[], which = 0) {
  const { game } = await load(gameId);
  const opened = await clickBoard(gameId, user, `ts:act:${gameId}:${game.version}:${action}`);
  expect(opened.response?.type, JSON.stringify(opened.response?.message?.content)).toBe(4);
  const eph = opened.response!.message!;
  expect(eph.flags).toBe(EPHEMERAL);
  const sel = selects(eph)[which]!;
  const picked = await h.api.select(user, eph.id, sel.custom_id, values);
  return { eph, picked };
}

const pos = (line: number, p: number) => `${line}:${p}`;
const faceDown = (s: TellstonesState) => s.lines[0]!.flatMap((x, i) => (x.faceUp ? [] : [i]));
const faceUp = (s: TellstonesState) => s.lines[0]!.flatMap((x, i) => (x.faceUp ? [i] : []));

async function place(gameId: number, user: string): Promise<void> {
  const { picked } = await menu(gameId, user, 'place', [`0:${(await load(gameId)).state.pools[0]![0]}`]);
  expect(picked.response?.type).toBe(7);
  const left = button(picked.response!.message!, (b) => b.label === 'Left end');
  const placed = await h.api.click(user, picked.response!.message!.id, left.custom_id!);
  expect(placed.response?.message?.content).toMatch(/You placed .* at the left end/);
  await h.settle();
}

async function hide(gameId: number, user: string, p: number): Promise<void> {
  const { picked } = await menu(gameId, user, 'hide', [pos(0, p)]);
  expect(picked.response?.message?.content).toMatch(/You hid the stone at position/);
  await h.settle();
}

async function challengeStone(gameId: number, user: string, p: number): Promise<void> {
  const { picked } = await menu(gameId, user, 'challenge', [pos(0, p)]);
  expect(picked.response?.message?.content).toMatch(/You challenged/);
  await h.settle();
}

describe('Tellstones through the emulator and the real discord.js client', () => {
  it('a full two-player game: place, hide, a private peek, a challenge, a doubted boast proven', async () => {
    const res = await h.api.command({ user: 'alice', channel: CHANNEL, name: 'tellstones', options: { subcommand: 'challenge', opponent: 'bob', 'first-stone': 'scales' } });
    const challengeMsg = res.response!.message!;
    expect(challengeMsg.content).toMatch(/challenges you to \*\*Tellstones \(first stone: Scales\)\*\*/);
    const acc = await h.api.click('bob', challengeMsg.id, button(challengeMsg, (b) => b.label === 'Accept').custom_id!);
    expect(acc.response?.type).toBe(7);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'tellstones' }, orderBy: { id: 'desc' } })).id;
    let { state } = await load(gameId);
    expect(state.lines[0]).toEqual([{ symbol: 'scales', faceUp: true }]);
    const T = alias(state.turn!);
    const O = T === 'alice' ? 'bob' : 'alice';
    let b = await board(gameId);
    expect(text(b)).toContain('`1` ⚖️ Scales');
    expect(text(b)).toMatch(/<t:\d+:R>/);
    expect((await h.api.dms(T)).messages.at(-1)!.content).toMatch(/Your turn in \*\*Tellstones/);

    // Only the actions legal now are enabled: nothing is face down yet.
    const enabled = buttons(b).filter((x) => !x.disabled).map((x) => x.label);
    expect(enabled).toEqual(['Place', 'Hide', 'What do I know?', 'Forfeit…', 'Nudge']);
    // Refusals are ephemeral: the waiting player, an outsider.
    const early = await clickBoard(gameId, O, `ts:act:${gameId}:0:place`);
    expect(early.response?.message?.flags).toBe(EPHEMERAL);
    expect(early.response?.message?.content).toMatch(/not your turn/);
    const outsider = await clickBoard(gameId, 'carol', `ts:act:${gameId}:0:place`);
    expect(outsider.response?.message?.flags).toBe(EPHEMERAL);
    expect(outsider.response?.message?.content).toMatch(/not playing in game/);

    // 1. T places a stone at the left end, with a Hide menu left open from before.
    const leftOpen = (await clickBoard(gameId, T, `ts:act:${gameId}:0:hide`)).response!.message!;
    await place(gameId, T);
    ({ state } = await load(gameId));
    expect(state.lines[0]).toHaveLength(2);
    // The menu opened at the old version is stale now, and the turn has passed: refused, nothing changes.
    const stale = await h.api.select(T, leftOpen.id, selects(leftOpen)[0]!.custom_id, [pos(0, 0)]);
    expect(stale.response?.message?.flags).toBe(EPHEMERAL);
    expect(stale.response?.message?.content).toMatch(/not your turn/);
    expect((await load(gameId)).game.version).toBe(1);

    // 2. O hides the stone T placed (position 1).
    await hide(gameId, O, 0);
    ({ state } = await load(gameId));
    const hidden = state.lines[0]![0]!.symbol;
    expect(state.lines[0]![0]!.faceUp).toBe(false);
    b = await board(gameId);
    expect(text(b)).toContain('`1` ⬛ face down');
    expect(all(b)).not.toContain(SYMBOL_NAME[hidden]);

    // 3. T peeks at it: the symbol is shown to T alone, ephemerally.
    const { picked: peek } = await menu(gameId, T, 'peek', [pos(0, 0)]);
    expect(peek.response?.type).toBe(7);
    expect(peek.response?.message?.flags).toBe(EPHEMERAL);
    expect(peek.response?.message?.content).toContain(`position 1: **`);
    expect(peek.response?.message?.content).toContain(SYMBOL_NAME[hidden]);
    await h.settle();
    for (const other of [O, 'carol', 'dave']) {
      const seen = (await h.api.messages(CHANNEL, other)).messages;
      expect(seen.some((m) => /Only you can see this/.test(m.content))).toBe(false);
      expect(seen.filter((m) => all(m).includes(SYMBOL_NAME[hidden]))).toEqual([]);
      const dms = (await h.api.dms(other)).messages;
      expect(dms.filter((m) => all(m).includes(SYMBOL_NAME[hidden]))).toEqual([]);
    }
    expect((await h.api.messages(CHANNEL)).messages.filter((m) => all(m).includes(SYMBOL_NAME[hidden]))).toEqual([]);
    expect(text(await board(gameId))).toMatch(new RegExp(`<@${ids[T as 'alice']}> peeked at position 1\\.`));
    // "What do I know?" re-renders it from the database, for T only.
    const tKnows = await clickBoard(gameId, T, `ts:know:${gameId}`);
    expect(tKnows.response?.message?.flags).toBe(EPHEMERAL);
    expect(tKnows.response?.message?.content).toContain('position 1: ');
    expect(tKnows.response?.message?.content).toContain(SYMBOL_NAME[hidden]);
    const oKnows = await clickBoard(gameId, O, `ts:know:${gameId}`);
    expect(oKnows.response?.message?.content).toMatch(/you know no face-down stone/);
    expect(oKnows.response?.message?.content).not.toContain(SYMBOL_NAME[hidden]);
    const carolKnows = await clickBoard(gameId, 'carol', `ts:know:${gameId}`);
    expect(carolKnows.response?.message?.content).toMatch(/not playing in game/);
    const typed = await h.api.command({ user: T, channel: CHANNEL, name: 'tellstones', options: { subcommand: 'know' } });
    expect(typed.response?.message?.flags).toBe(EPHEMERAL);
    expect(typed.response?.message?.content).toContain(SYMBOL_NAME[hidden]);

    // 4. O challenges that stone; T must answer (a turn with its own DM and deadline).
    await challengeStone(gameId, O, 0);
    expect((await h.api.dms(T)).messages.at(-1)!.content).toMatch(/challenges you: name the stone at position 1/);
    const tSeat = await h.db.prisma.seat.findFirstOrThrow({ where: { gameId, playerId: ids[T as 'alice'] } });
    expect(tSeat.deadlineAt).not.toBeNull();
    b = await board(gameId);
    expect(text(b)).toMatch(/challenges .* to name the stone at position 1/);
    expect(buttons(b).filter((x) => x.custom_id?.startsWith('ts:ans:'))).toHaveLength(7);
    const wrongUser = await clickBoard(gameId, O, `ts:ans:${gameId}`);
    expect(wrongUser.response?.message?.flags).toBe(EPHEMERAL);
    expect(wrongUser.response?.message?.content).toMatch(/not your turn: the game waits for <@/);
    const answered = await clickBoard(gameId, T, `ts:ans:${gameId}:${(await load(gameId)).game.version}:${hidden}`);
    expect(answered.response?.type).toBe(7); // the board, edited in place
    await h.settle();
    ({ state } = await load(gameId));
    expect(state.lines[0]![0]).toEqual({ symbol: hidden, faceUp: true });
    b = await board(gameId);
    expect(text(b)).toContain(SYMBOL_NAME[hidden]);
    expect(text(b)).toMatch(new RegExp(`Right! <@${ids[T as 'alice']}> scores`));
    expect(state.points[state.seats.indexOf(ids[T as 'alice'])]).toBe(1);
    // The turn passes clockwise from the challenger: back to T.
    expect(state.turn).toBe(ids[T as 'alice']);

    // 5. T hides a stone; 6. O boasts, T doubts, O proves every face-down stone.
    await hide(gameId, T, 1);
    const boast = await clickBoard(gameId, O, `ts:boast:${gameId}`);
    expect(boast.response?.type).toBe(7);
    await h.settle();
    b = await board(gameId);
    expect(buttons(b).map((x) => x.label)).toEqual(expect.arrayContaining(['Believe', 'Doubt', 'Counter-boast']));
    const doubt = await clickBoard(gameId, T, `ts:boa:${gameId}:${(await load(gameId)).game.version}:doubt`);
    expect(doubt.response?.type).toBe(7);
    await h.settle();
    for (;;) {
      ({ state } = await load(gameId));
      if (state.outcome) break;
      const p = faceDown(state)[0]!;
      b = await board(gameId);
      const sel = selects(b)[0]!;
      expect(sel.custom_id).toMatch(/^ts:prvp:/);
      const opened = await h.api.select(O, b.id, sel.custom_id, [pos(0, p)]);
      expect(opened.response?.message?.flags).toBe(EPHEMERAL);
      const symbol = state.lines[0]![p]!.symbol;
      const named = await h.api.click(O, opened.response!.message!.id, button(opened.response!.message!, (x) => x.label === SYMBOL_NAME[symbol]).custom_id!);
      expect(named.response?.message?.content).toMatch(/You named/);
      await h.settle();
    }
    expect(state.outcome).toMatchObject({ reason: 'boast-proven', winners: [ids[O as 'alice']] });
    b = await board(gameId);
    expect(text(b)).toMatch(new RegExp(`🏆 <@${ids[O as 'alice']}> wins: the boast was proven\\. Score: <@${ids[O as 'alice']}> \\d+ · <@\\d+> \\d+\\.`));
    expect(buttons(b)).toHaveLength(0);
    const seats = await h.db.prisma.seat.findMany({ where: { gameId }, orderBy: { seat: 'asc' } });
    expect(Object.fromEntries(seats.map((s) => [alias(s.playerId), s.result]))).toEqual({ [O]: 'win', [T]: 'loss' });
    for (const u of [T, O]) expect((await h.api.dms(u)).messages.at(-1)!.content).toMatch(/is over\. 🏆 <@\d+> wins: the boast was proven\. Score: /);
    expect(await h.api.state().then((s) => s.rejections.length)).toBe(0);
  });

  it('a King’s Circle table of four: joined by buttons, a partner peek, team points to a finish', async () => {
    const opened = await h.api.command({ user: 'alice', channel: CHANNEL, name: 'tellstones', options: { subcommand: 'circle' } });
    const tableMsg = opened.response!.message!;
    expect(tableMsg.flags ?? 0).toBe(0);
    expect(tableMsg.content).toMatch(/King’s Circle/);
    const join = button(tableMsg, (b) => b.label === 'Join').custom_id!;
    const again = await h.api.click('alice', tableMsg.id, join);
    expect(again.response?.message?.flags).toBe(EPHEMERAL);
    expect(again.response?.message?.content).toMatch(/already have a seat/);
    for (const u of ['bob', 'carol']) {
      const r = await h.api.click(u, tableMsg.id, join);
      expect(r.response?.type).toBe(7);
      expect(r.response?.message?.content).toContain(`<@${ids[u as 'bob']}>`);
    }
    const last = await h.api.click('dave', tableMsg.id, join);
    expect(last.response?.type).toBe(7);
    expect(last.response?.message?.embeds?.[0]?.title).toMatch(/King’s Circle #\d+/);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'tellstones' }, orderBy: { id: 'desc' } })).id;
    let { state, game } = await load(gameId);
    expect(game.boardMessageId).toBe(tableMsg.id);
    expect(state.seats).toEqual([ids.alice, ids.bob, ids.carol, ids.dave]);
    expect(text(await board(gameId))).toMatch(new RegExp(`Team A \\(<@${ids.alice}> & <@${ids.carol}>\\) vs Team B \\(<@${ids.bob}> & <@${ids.dave}>\\)`));
    const late = await h.api.click('moderator', tableMsg.id, join).catch((e: Error) => e);
    expect(late instanceof Error || late.response?.message?.flags === EPHEMERAL).toBe(true); // the Join button is gone

    let step = 0;
    let counterChecked = false;
    let splitChecked = false;
    let partnerPeekChecked = false;
    for (let guard = 0; guard < 60; guard++) {
      ({ state, game } = await load(gameId));
      if (state.outcome) break;
      const p = state.pending;
      if (p?.kind === 'challenge') {
        const actual = state.lines[0]![p.position]!.symbol;
        const wrong = SYMBOLS.find((s) => s !== actual)!;
        const r = await clickBoard(gameId, alias(p.answerer), `ts:ans:${gameId}:${game.version}:${wrong}`);
        expect(r.response?.type).toBe(7);
        await h.settle();
        continue;
      }
      if (p?.kind === 'boast') {
        if (!p.countered && !counterChecked) {
          // A counter-boast is answered by the opponent to the counter-boaster's left, not by the
          // original boaster (RULINGS, King's Circle).
          const r = await clickBoard(gameId, alias(p.answerer), `ts:boa:${gameId}:${game.version}:counter`);
          expect(r.response?.type).toBe(7);
          await h.settle();
          const after = (await load(gameId)).state.pending!;
          expect(after).toMatchObject({ kind: 'boast', countered: true, boaster: p.answerer });
          const left = state.seats[(state.seats.indexOf(p.answerer) + 1) % 4]!;
          expect((after as { answerer: string }).answerer).toBe(left);
          expect(left).not.toBe(p.boaster);
          const wrong = await clickBoard(gameId, alias(p.boaster), `ts:boa:${gameId}`);
          expect(wrong.response?.message?.content).toMatch(/not your turn/);
          counterChecked = true;
          continue;
        }
        const r = await clickBoard(gameId, alias(p.answerer), `ts:boa:${gameId}:${game.version}:believe`);
        expect(r.response?.type).toBe(7);
        await h.settle();
        continue;
      }
      const mover = alias(state.turn!);
      const down = faceDown(state);
      if (step <= 1) await place(gameId, mover);
      else if (step <= 4 || down.length === 0) await hide(gameId, mover, faceUp(state)[0]!);
      else if (step === 5) {
        // Hand the peek to the partner: the mover never sees it, the partner keeps it.
        const partnerId = state.seats[(state.seats.indexOf(state.turn!) + 2) % 4]!;
        const partner = alias(partnerId);
        const symbol = state.lines[0]![down[0]!]!.symbol as TellstonesSymbol;
        const { picked } = await menu(gameId, mover, 'peek', [pos(0, down[0]!)], 1);
        expect(picked.response?.message?.content).toMatch(new RegExp(`handed a peek .* to <@${partnerId}>`));
        expect(picked.response?.message?.content).not.toContain(SYMBOL_NAME[symbol]);
        await h.settle();
        const dm = (await h.api.dms(partner)).messages.at(-1)!;
        expect(dm.content).toMatch(/handed you a peek/);
        expect(dm.content).not.toContain(SYMBOL_NAME[symbol]);
        const knows = await clickBoard(gameId, partner, `ts:know:${gameId}`);
        expect(knows.response?.message?.content).toContain(SYMBOL_NAME[symbol]);
        for (const other of ['alice', 'bob', 'carol', 'dave'].filter((u) => u !== partner)) {
          const k = await clickBoard(gameId, other, `ts:know:${gameId}`);
          expect(k.response?.message?.content).not.toContain(SYMBOL_NAME[symbol]);
        }
        partnerPeekChecked = true;
      } else if (step === 6) await challengeStone(gameId, mover, down[0]!);
      else if (!splitChecked && down.length >= 2 && (await load(gameId)).state.recentTurns.some((t) => t.gained.length > 0 && !t.gained.includes((state.seats.indexOf(state.turn!) % 2) as 0 | 1))) {
        // A peek of three, split: the mover keeps one stone, the partner sees the other (RULINGS).
        const partnerId = state.seats[(state.seats.indexOf(state.turn!) + 2) % 4]!;
        const [mine, theirs] = [down[0]!, down[1]!];
        const { picked } = await menu(gameId, mover, 'peek', [pos(0, mine), pos(0, theirs)], 2);
        expect(picked.response?.message?.content).toMatch(/Which of these does <@\d+> see/);
        const share = await h.api.select(mover, picked.response!.message!.id, selects(picked.response!.message!)[0]!.custom_id, [pos(0, theirs)]);
        const mineSymbol = SYMBOL_NAME[state.lines[0]![mine]!.symbol as TellstonesSymbol];
        const theirSymbol = SYMBOL_NAME[state.lines[0]![theirs]!.symbol as TellstonesSymbol];
        expect(share.response?.message?.content).toContain(mineSymbol);
        expect(share.response?.message?.content).not.toContain(theirSymbol);
        await h.settle();
        const know = (user: string) => clickBoard(gameId, user, `ts:know:${gameId}`).then((k) => k.response?.message?.content ?? '');
        expect(await know(alias(partnerId))).toContain(theirSymbol);
        for (const other of ['alice', 'bob', 'carol', 'dave'].filter((u) => u !== alias(partnerId) && u !== mover)) {
          const k = await know(other);
          if (mineSymbol !== theirSymbol) expect(k).not.toContain(theirSymbol);
        }
        splitChecked = true;
      } else {
        const r = await clickBoard(gameId, mover, `ts:boast:${gameId}`);
        expect(r.response?.type).toBe(7);
        await h.settle();
      }
      step++;
    }
    ({ state } = await load(gameId));
    expect(partnerPeekChecked).toBe(true);
    expect(counterChecked).toBe(true);
    expect(splitChecked).toBe(true);
    expect(state.outcome?.reason).toBe('points');
    expect(state.outcome?.winners).toHaveLength(2);
    const winSide = state.seats.indexOf(state.outcome!.winners[0]!) % 2;
    expect(state.points[winSide]).toBe(3);
    const seats = await h.db.prisma.seat.findMany({ where: { gameId }, orderBy: { seat: 'asc' } });
    expect(seats.map((s) => s.result)).toEqual([0, 1, 2, 3].map((i) => (i % 2 === winSide ? 'win' : 'loss')));
    const final = text(await board(gameId));
    // How it ended, then the score with the teams' names: the winning team first.
    const [win, lose] = [winSide, 1 - winSide].map((side) => state.seats.filter((_, i) => i % 2 === side).map((p) => `<@${p}>`).join(' and '));
    const result = `🏆 ${win} win. Score: ${win} 3 · ${lose} ${state.points[1 - winSide]}.`;
    expect(final).toContain(result);
    const posted = (await h.api.messages(CHANNEL, 'alice', 200)).messages.filter((m) => m.content.startsWith(`🏁 **King’s Circle #${gameId}**`) || m.content.startsWith(`🏁 **Tellstones #${gameId}**`));
    expect(posted.map((m) => m.content.split('\n')[1])).toEqual([result]);
    // The history names the two teams, not four players each for themselves.
    const history = await h.api.command({ user: 'alice', channel: CHANNEL, name: 'tellstones', options: { subcommand: 'history', game: gameId } });
    expect(history.response?.message?.content.split('\n')[0]).toMatch(new RegExp(`^📜 \\*\\*Tellstones #${gameId}\\*\\* \\(you and Carol vs Bob and Dave, over\\): \\d+ moves`));
    expect(final).toMatch(/Points:\*\* Team A \(Alice & Carol\): \*\*\d\*\* · Team B \(Bob & Dave\): \*\*\d\*\*/);
    expect(await h.api.state().then((s) => s.rejections.length)).toBe(0);
  });

  it('Fearless Vanguard: two lines, moves name their line; a forfeit ends it for the forfeiting side', async () => {
    const res = await h.api.command({ user: 'carol', channel: CHANNEL, name: 'tellstones', options: { subcommand: 'challenge', opponent: 'dave', variant: 'fearless-vanguard' } });
    const msg = res.response!.message!;
    expect(msg.content).toMatch(/Fearless Vanguard/);
    await h.api.click('dave', msg.id, button(msg, (b) => b.label === 'Accept').custom_id!);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'tellstones' }, orderBy: { id: 'desc' } })).id;
    let { state } = await load(gameId);
    expect(state.lines).toHaveLength(2);
    const b = await board(gameId);
    expect(b.embeds?.[0]?.fields?.map((f) => f.name.replace(/ \(.*/, ''))).toEqual(['Line 1', 'Line 2', 'Fair setup']);
    const T = alias(state.turn!);
    const O = T === 'carol' ? 'dave' : 'carol';
    // Place on line 2: the menu lists both pools.
    const { eph, picked } = await menu(gameId, T, 'place', [`1:${state.pools[1]![0]}`]);
    expect(selects(eph)[0]!.options.some((o) => o.label.startsWith('Line 2: '))).toBe(true);
    await h.api.click(T, picked.response!.message!.id, button(picked.response!.message!, (x) => x.label === 'Right end').custom_id!);
    await h.settle();
    ({ state } = await load(gameId));
    expect(state.lines[1]).toHaveLength(2);
    const { picked: hid } = await menu(gameId, O, 'hide', ['1:1']);
    expect(hid.response?.message?.content).toMatch(/line 2, position 2/);
    await h.settle();
    const { picked: peek } = await menu(gameId, T, 'peek', ['1:1']);
    ({ state } = await load(gameId));
    expect(peek.response?.message?.content).toMatch(new RegExp(`line 2, position 2: \\*\\*\\S+ ${SYMBOL_NAME[state.lines[1]![1]!.symbol]}\\*\\*`));
    await h.settle();
    const forfeit = await h.api.command({ user: O, channel: CHANNEL, name: 'tellstones', options: { subcommand: 'forfeit' } });
    expect(forfeit.response?.message?.flags).toBe(EPHEMERAL);
    await h.api.click(O, forfeit.response!.message!.id, button(forfeit.response!.message!, (x) => x.label === 'Yes, forfeit').custom_id!);
    await h.settle();
    const seats = await h.db.prisma.seat.findMany({ where: { gameId } });
    expect(Object.fromEntries(seats.map((s) => [alias(s.playerId), s.result]))).toEqual({ [O]: 'forfeit', [T]: 'win' });
    expect(text(await board(gameId))).toMatch(/forfeited/);
    expect(await h.api.state().then((s) => s.rejections.length)).toBe(0);
  });

  it('a table filled before the bot has recorded its message still becomes the one board', async () => {
    await h.api.addFault({ route: 'POST /interactions/:id/:token/callback', delayMs: 2500 });
    const opened = await h.api.command({ user: 'alice', channel: CHANNEL, name: 'tellstones', options: { subcommand: 'circle' } });
    const tableMsg = opened.response!.message!;
    const join = button(tableMsg, (b) => b.label === 'Join').custom_id!;
    const before = (await h.api.messages(CHANNEL, 'moderator')).messages.length;
    for (const u of ['bob', 'carol', 'dave']) expect((await h.api.click(u, tableMsg.id, join)).response?.type).toBe(7);
    const table = await h.db.prisma.gameTable.findFirstOrThrow({ where: { hostId: ids.alice }, orderBy: { id: 'desc' } });
    expect(table.status).toBe('started');
    const game = await h.db.prisma.game.findUniqueOrThrow({ where: { id: table.gameId! } });
    expect(game.boardMessageId).toBe(tableMsg.id);
    await h.bot.idle(); // the late answer arrives; the bot records the table's message
    await h.settle();
    expect((await h.api.messages(CHANNEL, 'moderator')).messages).toHaveLength(before);
    expect((await board(game.id)).id).toBe(tableMsg.id);
    const forfeit = await h.api.command({ user: 'alice', channel: CHANNEL, name: 'tellstones', options: { subcommand: 'forfeit', game: game.id } });
    await h.api.click('alice', forfeit.response!.message!.id, button(forfeit.response!.message!, (b) => b.label === 'Yes, forfeit').custom_id!);
    await h.settle();
  });

  it('a table that does not fill in time closes: its message says so, the seated players are told', async () => {
    // /stonehall-config is hidden from players (default member permissions: Manage Server).
    await expect(h.api.command({ user: 'bob', channel: CHANNEL, name: 'stonehall-config', options: { 'table-hours': 6 } })).rejects.toThrow(/lacks the permissions/);
    const set = await h.api.command({ user: 'moderator', channel: CHANNEL, name: 'stonehall-config', options: { 'table-hours': 6 } });
    expect(set.response?.message?.content).toMatch(/Tables wait 6 h for their seats to fill/);

    const opened = await h.api.command({ user: 'carol', channel: CHANNEL, name: 'tellstones', options: { subcommand: 'circle' } });
    const tableMsg = opened.response!.message!;
    const closesAt = Math.floor((h.clock.now().getTime() + 6 * 3_600_000) / 1000);
    expect(tableMsg.content).toMatch(new RegExp(`If it is not full <t:(${closesAt}|${closesAt - 1}|${closesAt + 1}):R>, it closes`));
    await h.api.click('dave', tableMsg.id, button(tableMsg, (b) => b.label === 'Join').custom_id!);
    const dmsBefore = { carol: (await h.api.dms('carol')).messages.length, dave: (await h.api.dms('dave')).messages.length, alice: (await h.api.dms('alice')).messages.length };

    await h.api.advanceClock(6 * 3_600_000 + 2000);
    await h.settle();
    const now = (await h.api.messages(CHANNEL, 'alice')).messages.find((m) => m.id === tableMsg.id)!;
    expect(now.content).toMatch(/This table closed <t:\d+:f>: its seats were not all taken in time/);
    expect(now.content).toContain(`<@${ids.dave}>`);
    expect(buttons(now)).toHaveLength(0);
    for (const u of ['carol', 'dave'] as const) {
      const dms = (await h.api.dms(u)).messages;
      expect(dms).toHaveLength(dmsBefore[u] + 1);
      expect(dms.at(-1)!.content).toMatch(/Table #\d+ \(Tellstones\) closed: only 2 of 4 seats were taken in time/);
    }
    expect((await h.api.dms('alice')).messages).toHaveLength(dmsBefore.alice);
    // The old Join button, clicked from a stale client, is refused ephemerally.
    const stale = await h.api.click('alice', tableMsg.id, button(tableMsg, (b) => b.label === 'Join').custom_id!).catch((e: Error) => e);
    expect(stale instanceof Error || (stale.response?.message?.flags === EPHEMERAL && /closed because its seats were not all taken/.test(stale.response.message.content ?? ''))).toBe(true);
    expect(await h.api.state().then((s) => s.rejections.length)).toBe(0);
  });
});

describe('practice', () => {
  it('/tellstones practice: the autopilot answers each move at once, and a forfeit ends it', async () => {
    const res = await h.api.command({ user: 'dave', channel: CHANNEL, name: 'tellstones', options: { subcommand: 'practice' } });
    expect(res.response?.message?.flags).toBe(EPHEMERAL);
    expect(res.response?.message?.content).toMatch(/Practice Tellstones.* #\d+ against the autopilot/);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { practice: true, kind: 'tellstones' }, include: { seats: true }, orderBy: { id: 'desc' } });
    expect(game.seats.map((s) => s.autopilot).sort()).toEqual([false, true]);
    expect(text(await board(game.id))).toMatch(/🤖 Autopilot/);
    for (let k = 0; k < 3; k++) {
      const { state } = await load(game.id);
      // The autopilot never keeps the game waiting: after its seat moved, it is Dave's turn.
      expect(state.turn).toBe(ids.dave);
      await place(game.id, 'dave');
    }
    const moves = await h.db.prisma.move.findMany({ where: { gameId: game.id }, orderBy: { seq: 'asc' } });
    expect(moves.filter((m) => m.actorId === ids.dave)).toHaveLength(3);
    expect(moves.filter((m) => m.actorId !== ids.dave).length).toBeGreaterThanOrEqual(2);
    const forfeit = await h.api.command({ user: 'dave', channel: CHANNEL, name: 'tellstones', options: { subcommand: 'forfeit', game: game.id } });
    await h.api.click('dave', forfeit.response!.message!.id, button(forfeit.response!.message!, (b) => b.label === 'Yes, forfeit').custom_id!);
    await h.settle();
    expect((await load(game.id)).game.status).toBe('finished');
  });
});
