import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, EPHEMERAL, expectRefused, startHarness, text, type Harness } from '../../helpers/harness.ts';
import { crystallia, neighbour, squareName, type CrystalliaMove } from '../../../src/games/crystallia/engine/index.ts';
import { games } from '../../../src/games/index.ts';
import { silentLogger } from '../../../src/log.ts';
import { verifyGame } from '../../../src/services/replay.ts';
import { boardMessage, lcg, load, playTurn, selects, whoseTurn } from './driver.ts';

/**
 * Crystallia through the emulator with more than two, and the refusals: a table of three named
 * players where one runs out of time and the autopilot plays their seat to the end; a move out of
 * turn, an illegal placement typed, and a talisman right after the previous player used one, each
 * refused with an ephemeral message that changes nothing.
 */
let h: Harness;
const CHANNEL = 'general';
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function startTwoPlayer(a: string, b: string): Promise<number> {
  const c = await h.api.command({ user: a, channel: CHANNEL, name: 'crystallia', options: { subcommand: 'join', opponent: b } });
  const cm = c.response!.message!;
  await h.api.click(b, cm.id, buttons(cm).find((x) => x.label === 'Accept')!.custom_id!);
  await h.settle();
  const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia', seats: { some: { playerId: h.emulator.users[a as 'alice'] } } }, orderBy: { id: 'desc' } });
  return game.id;
}

describe('three players: one times out and the autopilot takes the seat', () => {
  it('an invited table, a timeout, the autopilot playing at once, and the forfeited seat last', async () => {
    const opened = await h.api.command({ user: 'alice', channel: CHANNEL, name: 'crystallia', options: { subcommand: 'join', opponent: 'bob', opponent2: 'carol' } });
    const table = opened.response!.message!;
    expect(table.content).toMatch(/invites you to a table/);
    for (const who of ['bob', 'carol']) {
      const r = await h.api.click(who, table.id, buttons(table).find((x) => x.label === 'Accept')!.custom_id!);
      expect(r.response?.type).toBe(7);
    }
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia' }, include: { seats: true }, orderBy: { id: 'desc' } });
    expect(game.seats).toHaveLength(3);
    const gameId = game.id;
    const r = lcg(99);

    // Play by clicking until it is Carol's turn, then let her time run out.
    for (let k = 0; (await whoseTurn(h, gameId)) !== 'carol'; k++) {
      expect(k).toBeLessThan(6);
      await playTurn(h, CHANNEL, gameId, (await whoseTurn(h, gameId))!, r);
    }
    // Carol's turn DM says what the others did before her turn, in words, right under its first line.
    const turns = (await h.db.prisma.move.findMany({ where: { gameId } })).length;
    if (turns > 0) {
      const dm = (await h.api.dms('carol')).messages.filter((m) => m.content.includes(`Crystallia #${gameId}`)).at(-1)!;
      expect(dm.content.split('\n')[1]).toMatch(/^\*\*(Last move:\*\* (Alice|Bob) |Since your last move:\*\*$)/);
    }
    const before = await load(h, gameId);
    const seat = before.game.seats.find((s) => s.playerId === h.emulator.users.carol)!;
    expect(seat.deadlineAt).not.toBeNull();
    await h.api.advanceClock(DAY + 60_000);
    await h.settle();

    const after = await load(h, gameId);
    expect(after.state.forfeits).toEqual([h.emulator.users.carol]);
    // The autopilot moved for her at once, in the same transaction: the game waits for someone else.
    expect(after.state.outcome).toBeNull();
    expect(await whoseTurn(h, gameId)).not.toBe('carol');
    const auto = await h.db.prisma.move.findMany({ where: { gameId, actorId: h.emulator.users.carol } });
    expect(auto.some((m) => (m.entry as { auto?: boolean }).auto === true)).toBe(true);
    const timeout = await h.db.prisma.move.findMany({ where: { gameId, actorId: 'system' } });
    expect(timeout.map((m) => m.entry)).toEqual([{ type: 'forfeit', player: h.emulator.users.carol, reason: 'timeout' }]);
    // Everyone is told; the board says so.
    expect((await h.api.dms('alice')).messages.some((m) => /ran out of time in Crystallia #\d+\. The autopilot plays their seat/.test(m.content))).toBe(true);
    expect((await h.api.dms('carol')).messages.some((m) => /You ran out of time in Crystallia/.test(m.content))).toBe(true);
    expect(text(await boardMessage(h, CHANNEL, gameId))).toMatch(/Carol -?\d+ \(forfeited\)/);
    // Carol's buttons no longer work for her.
    const board = await boardMessage(h, CHANNEL, gameId);
    const play = buttons(board).find((b) => b.custom_id?.startsWith('cr:play'))!;
    await expectRefused(h.api.click('carol', board.id, play.custom_id!), /not your turn|not playing/);

    // Alice and Bob play on to the end; Carol's seat never keeps them waiting.
    for (let k = 0, who = await whoseTurn(h, gameId); who !== null; who = await whoseTurn(h, gameId), k++) {
      expect(who).not.toBe('carol');
      expect(k).toBeLessThan(40);
      await playTurn(h, CHANNEL, gameId, who, r);
    }
    const final = await load(h, gameId);
    expect(final.game.status).toBe('finished');
    expect(final.state.outcome!.places![h.emulator.users.carol]).toBe(3);
    expect(final.state.outcome!.winners).not.toContain(h.emulator.users.carol);
    expect(final.game.seats.find((s) => s.playerId === h.emulator.users.carol)!.result).toBe('forfeit');
    const carolMoves = await h.db.prisma.move.count({ where: { gameId, actorId: h.emulator.users.carol } });
    expect(carolMoves).toBeGreaterThan(auto.length);
    expect((await h.api.rejections()).rejections).toEqual([]);
  }, 300_000);
});

describe('an open table', () => {
  it('three seats that may start with two: Dave joins, the host starts, and the table becomes the board', async () => {
    const opened = await h.api.command({ user: 'alice', channel: CHANNEL, name: 'crystallia', options: { subcommand: 'table', seats: 3, 'min-seats': 2, advanced: true } });
    const table = opened.response!.message!;
    expect(table.content).toMatch(/Crystallia \(Advanced Mode\)\*\*: table #\d+/);
    expect(table.content).toContain('The first player is drawn at random; turns then follow the seats.');
    const join = await h.api.click('dave', table.id, buttons(table).find((b) => b.label === 'Join')!.custom_id!);
    const start = buttons(join.response!.message!).find((b) => b.label?.startsWith('Start'))!;
    expect(start.disabled).toBe(false);
    const started = await h.api.click('alice', table.id, start.custom_id!);
    expect(started.response?.type).toBe(7);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia', boardMessageId: table.id }, include: { seats: true } });
    expect(game.seats.map((s) => s.playerId).sort()).toEqual([h.emulator.users.alice, h.emulator.users.dave].sort());
    expect(game.options).toEqual({ advanced: true });
    const board = await boardMessage(h, CHANNEL, game.id);
    expect(board.attachments).toHaveLength(1);
    expect(buttons(board).map((b) => b.label)).toEqual(['Choose my flips', 'Forfeit…', 'Nudge']);
  });
});

describe('practice', () => {
  it('against two autopilot seats: they answer at once, so it is always the player\'s turn', async () => {
    const res = await h.api.command({ user: 'carol', channel: CHANNEL, name: 'crystallia', options: { subcommand: 'practice', bots: 2 } });
    expect(res.response?.message?.content).toMatch(/Practice Crystallia #\d+ against the autopilot/);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia', practice: true }, include: { seats: true } });
    expect(game.seats.filter((s) => s.autopilot)).toHaveLength(2);
    const r = lcg(5);
    for (let k = 0; k < 3; k++) {
      expect(await whoseTurn(h, game.id)).toBe('carol');
      await playTurn(h, CHANNEL, game.id, 'carol', r);
    }
    const bots = await h.db.prisma.move.findMany({ where: { gameId: game.id, actorId: { startsWith: 'autopilot-' } } });
    expect(bots.length).toBeGreaterThanOrEqual(4);
    expect(bots.every((m) => (m.entry as { auto?: boolean }).auto === true)).toBe(true);
    const head = text(await boardMessage(h, CHANNEL, game.id)).split('\n')[0]!;
    expect(head).toMatch(/^\*\*Crystallia #\d+\*\* \(practice\): /);
    for (const who of ['🤖 Autopilot', '🤖 Autopilot 2', `<@${h.emulator.users.carol}>`]) expect(head).toContain(who);
  }, 120_000);
});

describe('refusals: each an ephemeral message that says what to do, and nothing changes', () => {
  it('a move out of turn, an illegal placement typed, a talisman right after the previous player used one', async () => {
    const gameId = await startTwoPlayer('dave', 'bob');
    const first = (await whoseTurn(h, gameId))!;
    const second = first === 'dave' ? 'bob' : 'dave';
    const v0 = (await load(h, gameId)).game.version;
    const board = await boardMessage(h, CHANNEL, gameId);
    const count = (await h.api.messages(CHANNEL, 'moderator')).messages.length;

    // Out of turn: the board's button and the typed command.
    const play = buttons(board).find((b) => b.custom_id?.startsWith('cr:play'))!;
    await expectRefused(h.api.click(second, board.id, play.custom_id!), new RegExp(`It is not your turn: the game waits for <@${h.emulator.users[first as 'dave']}>`));
    const { state } = await load(h, gameId);
    const available = state.pyramid[2].find((x) => x !== null)!;
    await expectRefused(
      h.api.command({ user: second, channel: CHANNEL, name: 'crystallia', options: { subcommand: 'place', stone: available + 1, at: 'C4', dir: 'right', game: gameId } }),
      /It is not your turn in game #\d+: the game waits for/,
    );

    // Illegal placements, typed: off the board, not a square, a covered stone.
    await expectRefused(
      h.api.command({ user: first, channel: CHANNEL, name: 'crystallia', options: { subcommand: 'place', stone: available + 1, at: 'C9', dir: 'right', game: gameId } }),
      /From C9 the stone would leave the board going right\. Nothing was played: try another/,
    );
    await expectRefused(h.api.command({ user: first, channel: CHANNEL, name: 'crystallia', options: { subcommand: 'place', stone: available + 1, at: 'K4', dir: 'right', game: gameId } }), /"K4" is not a square: give a row letter A-F and a column 1-9/);
    const covered = state.pyramid[0][0]!;
    await expectRefused(
      h.api.command({ user: first, channel: CHANNEL, name: 'crystallia', options: { subcommand: 'place', stone: covered + 1, at: 'C4', dir: 'right', game: gameId } }),
      /That stone is covered: take a stone that no other card covers/,
    );
    expect((await load(h, gameId)).game.version).toBe(v0);

    // A legal typed placement leads to the same panel: its preview, then Confirm.
    const typed = await h.api.command({ user: first, channel: CHANNEL, name: 'crystallia', options: { subcommand: 'place', stone: available + 1, at: 'C4', dir: 'right', game: gameId } });
    expect(typed.response?.message?.flags).toBe(EPHEMERAL);
    let panel = typed.response!.message!;
    for (let k = 0; !buttons(panel).some((b) => b.label === 'Confirm'); k++) {
      expect(k).toBeLessThan(5);
      const next = buttons(panel).find((b) => b.custom_id?.startsWith('cr:skip') || b.custom_id?.startsWith('cr:iso'))!;
      panel = (await h.api.click(first, panel.id, next.custom_id!)).response!.message!;
    }
    expect(panel.content).toMatch(/Preview, not played yet.*placed .* on C4–C5/s);
    expect((await load(h, gameId)).game.version).toBe(v0);
    await h.api.click(first, panel.id, buttons(panel).find((b) => b.label === 'Confirm')!.custom_id!);
    await h.settle();
    expect((await load(h, gameId)).game.version).toBeGreaterThan(v0);

    // Whoever plays next uses a talisman through the panel...
    const t1 = (await whoseTurn(h, gameId))!;
    await playTurn(h, CHANNEL, gameId, t1, lcg(1), (p) => {
      const tal = selects(p).find((s) => s.custom_id.startsWith('cr:tal'));
      return tal ? { customId: tal.custom_id, values: ['green'] } : null;
    });
    expect((await load(h, gameId)).state.talismans).toEqual([{ player: h.emulator.users[t1 as 'dave'], colour: 'green' }]);
    // ...so the next player may not: the typed command is refused, and the panel offers none.
    const t2 = (await whoseTurn(h, gameId))!;
    expect(t2).not.toBe(t1);
    const v1 = (await load(h, gameId)).game.version;
    await expectRefused(
      h.api.command({ user: t2, channel: CHANNEL, name: 'crystallia', options: { subcommand: 'talisman', colour: 'blue', game: gameId } }),
      /The turn just before yours used a talisman: you cannot use one now\. Nothing was played/,
    );
    const b2 = await boardMessage(h, CHANNEL, gameId);
    const opened = (await h.api.click(t2, b2.id, buttons(b2).find((b) => b.custom_id?.startsWith('cr:play'))!.custom_id!)).response!.message!;
    expect(selects(opened).map((s) => s.custom_id.split(':')[1])).toEqual(['stone']);
    expect(opened.content).toMatch(/No talisman this turn: the turn just before yours used one\./);
    expect((await load(h, gameId)).game.version).toBe(v1);
    // Refusals and panels are ephemeral: the channel holds no new message but for the board edits.
    expect((await h.api.messages(CHANNEL, 'moderator')).messages.length).toBe(count);
  }, 120_000);
});

describe('a double typed either way (issue 24)', () => {
  it('`/crystallia place ... dir:left` (or up) for a double previews and stores the placement the board would send, and the game replays to its stored state', async () => {
    const gameId = await startTwoPlayer('carol', 'dave');
    const r = lcg(24);
    // Play on until the player to move may place a double.
    let found: { who: string; move: Extract<CrystalliaMove, { type: 'place' }> } | null = null;
    for (let k = 0; !found; k++) {
      expect(k).toBeLessThan(12);
      const { state } = await load(h, gameId);
      const who = (await whoseTurn(h, gameId))!;
      const listed = crystallia.legalMoves(state, state.turn!.player).filter((m): m is Extract<CrystalliaMove, { type: 'place' }> => m.type === 'place' && state.stones[m.stone]![0] === state.stones[m.stone]![1]);
      if (listed.length) found = { who, move: listed[Math.floor(r() * listed.length)]! };
      else await playTurn(h, CHANNEL, gameId, who, r);
    }
    const { who, move } = found;
    const other = neighbour(move.square, move.dir);
    const typedDir = move.dir === 'right' ? 'left' : 'up';
    const v0 = (await load(h, gameId)).game.version;
    const typed = await h.api.command({ user: who, channel: CHANNEL, name: 'crystallia', options: { subcommand: 'place', stone: move.stone + 1, at: squareName(other), dir: typedDir, game: gameId } });
    let panel = typed.response!.message!;
    expect(panel.flags).toBe(EPHEMERAL);
    for (let k = 0; !buttons(panel).some((b) => b.label === 'Confirm'); k++) {
      expect(k).toBeLessThan(5);
      const next = buttons(panel).find((b) => b.custom_id?.startsWith('cr:skip') || b.custom_id?.startsWith('cr:iso'))!;
      panel = (await h.api.click(who, panel.id, next.custom_id!)).response!.message!;
    }
    // The preview names the squares first half first: the left (or upper) one.
    expect(panel.content).toContain(`on ${squareName(move.square)}–${squareName(other)}`);
    await h.api.click(who, panel.id, buttons(panel).find((b) => b.label === 'Confirm')!.custom_id!);
    await h.settle();
    expect((await load(h, gameId)).game.version).toBeGreaterThan(v0);
    // The log holds the listed spelling, as a click on the board would have stored it.
    const log = await h.db.prisma.move.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
    const placed = log.map((m) => m.entry as { type: string; move?: CrystalliaMove }).filter((e) => e.move?.type === 'place').at(-1)!.move;
    expect(placed).toEqual(move);
    const { state } = await load(h, gameId);
    expect(state.positions[move.stone]).toEqual([move.square, other]);
    // Replaying the stored log gives the stored state.
    const report = await verifyGame({ db: h.db.prisma, clock: h.clock, log: silentLogger, games }, gameId);
    expect(report.stateOk).toBe(true);
  }, 120_000);
});
