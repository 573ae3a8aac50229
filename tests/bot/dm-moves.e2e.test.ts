import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { aliasOf, button, buttons, EPHEMERAL, expectRefused, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Issue 14, goal 2: a turn DM offers the move buttons only to a player who moves from their DMs.
 * A player who moved on the board gets the same ping with the link to the board and one
 * always-valid **Play here** button, so their next move costs one rate-limited call (the next
 * player's DM) and no edit retiring old buttons. Through the emulator and the real discord.js
 * client; rate-limited calls are counted as the clicks bench counts them (every REST call but
 * interaction answers).
 */
let h: Harness;
let limitedCalls = 0;
const limited = (path: string) => !path.startsWith('/interactions') && !path.startsWith('/webhooks');

beforeAll(async () => {
  // Discord's rate limits on: the rate-limited calls a move costs are the subject.
  h = await startHarness({ rateLimits: true });
  h.bot.client.rest.on('response', (req) => {
    if (limited(String(req.path))) limitedCalls++;
  });
});
afterAll(async () => {
  await h?.close();
});

const alias = (userId: string) => aliasOf(h, userId);
const labels = (m: APIMessage) => buttons(m).map((b) => b.label);
const COLUMNS = ['Column 1', 'Column 2', 'Column 3'];

async function gameState(gameId: number) {
  const game = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId }, include: { seats: true } });
  return { game, state: game.state as unknown as KnucklebonesState };
}

async function board(gameId: number): Promise<APIMessage> {
  const { game } = await gameState(gameId);
  return (await h.api.messages(game.channelId, 'carol')).messages.find((m) => m.id === game.boardMessageId)!;
}

/** The user's latest turn DM of the game (ephemeral answers left out). */
async function turnDm(user: string): Promise<APIMessage> {
  const dm = (await h.api.dms(user)).messages.filter((m) => ((m.flags ?? 0) & EPHEMERAL) === 0 && /Your turn in/.test(m.content)).at(-1);
  if (!dm) throw new Error(`${user} has no turn DM`);
  return dm;
}

async function dmById(user: string, id: string): Promise<APIMessage> {
  const m = (await h.api.dms(user)).messages.find((x) => x.id === id);
  if (!m) throw new Error(`${user} has no DM ${id}`);
  return m;
}

async function seatOf(gameId: number, userId: string) {
  return h.db.prisma.seat.findUniqueOrThrow({ where: { gameId_playerId: { gameId, playerId: userId } } });
}

/** The player on turn, as an alias, and the other one. */
async function players(gameId: number): Promise<{ mover: string; other: string; moverId: string; otherId: string }> {
  const { state } = await gameState(gameId);
  const moverId = state.turn!;
  const otherId = state.players.find((p) => p !== moverId)!;
  return { mover: alias(moverId), other: alias(otherId), moverId, otherId };
}

/** An open column's button on `message` (the board or a DM). */
function openColumn(message: APIMessage): string {
  return button(message, (b) => (b.custom_id?.startsWith('kb:place:') ?? false) && !b.disabled).custom_id!;
}

/** Rate-limited calls the bot makes for `act` and everything it sends afterwards (the outbox drained). */
async function callsFor(act: () => Promise<void>): Promise<number> {
  await h.settle();
  const before = limitedCalls;
  await act();
  await h.settle();
  return limitedCalls - before;
}

/** `user` places on the board in an open column. */
async function moveOnBoard(gameId: number, user: string): Promise<void> {
  const b = await board(gameId);
  const res = await h.api.click(user, b.id, openColumn(b));
  expect(res.response?.type).toBe(7);
}

describe('turn DMs follow where the player moves', () => {
  it('board movers get Play here and cost one call per move; Play here and DM moves bring the buttons back', async () => {
    const challenge = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } });
    const accept = await h.api.click('bob', challenge.response!.message!.id, button(challenge.response!.message!, (b) => b.label === 'Accept').custom_id!);
    expect(accept.response?.type).toBe(7);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' }, orderBy: { id: 'desc' } })).id;
    const { mover: first, other: second, moverId: firstId, otherId: secondId } = await players(gameId);
    const boardUrl = `/channels/${h.emulator.guildId}/${h.emulator.channels.knucklebones}/${(await gameState(gameId)).game.boardMessageId}`;

    // Nobody has moved yet: the first turn DM offers the move buttons, as always.
    const firstDm = await turnDm(first);
    expect(labels(firstDm)).toEqual([...COLUMNS, 'Open the board']);
    expect((await seatOf(gameId, firstId)).dmMoves).toBe(true);
    const staleFromDm = openColumn(firstDm);

    // The first player moves on the board: their DM loses its buttons (the one switch from DM to
    // board), and their seat remembers the board.
    await moveOnBoard(gameId, first);
    await h.settle();
    expect(labels(await dmById(first, firstDm.id))).toEqual(['Open the board']);
    expect((await seatOf(gameId, firstId)).dmMoves).toBe(false);
    expect((await seatOf(gameId, firstId)).dmLive).toBe(false);

    // The second player still gets move buttons (they have not moved); they move on the board too.
    expect(labels(await turnDm(second))).toEqual([...COLUMNS, 'Open the board']);
    await moveOnBoard(gameId, second);
    await h.settle();

    // The first player's next turn DM: the same ping and text, the link to the board and Play
    // here, no move buttons, and a line saying why.
    let dm = await turnDm(first);
    expect(dm.id).not.toBe(firstDm.id);
    expect(labels(dm)).toEqual(['Play here', 'Open the board']);
    expect(dm.content).toMatch(/Your turn in \*\*Knucklebones #\d+\*\*/);
    expect(dm.content).toContain(boardUrl);
    expect(dm.content).toContain('You played on the board last time: tap **Play here** to play from this DM.');
    expect((await seatOf(gameId, firstId)).dmLive).toBe(false);
    const oldPlayHere = dm;

    // Steady state: a move on the board costs exactly one rate-limited call, the next player's DM
    // (the board is edited through the click's answer, and no old DM needs its buttons removed).
    expect(await callsFor(() => moveOnBoard(gameId, first))).toBe(1);
    expect(await callsFor(() => moveOnBoard(gameId, second))).toBe(1);
    expect(labels(await turnDm(second))).toEqual(['Play here', 'Open the board']);

    // An old Play here when it is not their turn: that DM shows the game as it is and whose turn it
    // is, keeps Play here, and nothing changes.
    const { game: beforePeek } = await gameState(gameId);
    const peeked = await turnDm(second);
    const peek = await h.api.click(second, peeked.id, button(peeked, (b) => b.label === 'Play here').custom_id!);
    expect(peek.response?.type).toBe(7);
    // (It is the first player's turn now: the second player's newest DM is from their last turn.)
    expect((await players(gameId)).mover).toBe(first);
    expect(peek.response?.message?.content).toMatch(/It is not your turn: \*\*Knucklebones #\d+\*\* waits for <@\d+>/);
    expect(peek.response?.message?.content).toContain(`<@${firstId}>`);
    expect(labels(peek.response!.message!)).toEqual(['Play here', 'Open the board']);
    // The board as everyone sees it (its picture or embed), without its buttons.
    expect(peek.response?.message?.embeds?.length ?? 0).toBeGreaterThan(0);
    await h.settle();
    expect((await gameState(gameId)).game.version).toBe(beforePeek.version);

    // Play here on their turn: that DM becomes the turn's move buttons, through the click's answer.
    dm = await turnDm(first);
    expect(labels(dm)).toEqual(['Play here', 'Open the board']);
    const here = await h.api.click(first, dm.id, button(dm, (b) => b.label === 'Play here').custom_id!);
    expect(here.response?.type).toBe(7);
    expect(labels(here.response!.message!)).toEqual([...COLUMNS, 'Open the board']);
    expect(here.response?.message?.content).toMatch(/Your turn in \*\*Knucklebones #\d+\*\*/);
    expect(here.response?.message?.content).not.toContain('Play here');
    expect((await seatOf(gameId, firstId)).dmLive).toBe(true);
    dm = await dmById(first, dm.id);
    expect(labels(dm)).toEqual([...COLUMNS, 'Open the board']);

    // A stale move button from an older DM is still refused.
    await expectRefused(h.api.rawInteraction({ user: first, channel: 'dm', type: 3, data: { custom_id: staleFromDm, component_type: 2 }, message: firstDm.id }), /older board/);

    // Playing from it works (the board follows) and returns the seat to DM moves: a DM move costs
    // the board's edit and the next player's DM, and no retire.
    const fromDm = await callsFor(async () => {
      const r = await h.api.click(first, dm.id, openColumn(dm));
      expect(r.response?.type).toBe(7);
      expect(r.response?.message?.components ?? []).toEqual([]);
    });
    expect(fromDm).toBe(2);
    const { game } = await gameState(gameId);
    expect(game.boardVersion).toBe(game.version);
    expect((await seatOf(gameId, firstId)).dmMoves).toBe(true);
    expect((await seatOf(gameId, firstId)).dmLive).toBe(false);

    // So their next turn DM has the move buttons again, while the board mover's still has Play here.
    expect(labels(await turnDm(second))).toEqual(['Play here', 'Open the board']);
    // The second player taps Play here on the older DM they peeked with: on their turn it becomes
    // the turn's buttons (nothing left of the board it showed) and their newest DM of the game.
    const late = await h.api.click(second, peeked.id, button(peeked, (b) => b.label === 'Play here').custom_id!);
    expect(labels(late.response!.message!)).toEqual([...COLUMNS, 'Open the board']);
    expect(late.response?.message?.embeds ?? []).toEqual([]);
    expect((await seatOf(gameId, secondId)).dmMessageId).toBe(peeked.id);
    expect((await seatOf(gameId, secondId)).dmLive).toBe(true);
    // They move on the board after all: those buttons are retired (one call) besides the next DM.
    expect(await callsFor(() => moveOnBoard(gameId, second))).toBe(2);
    expect(labels(await dmById(second, peeked.id))).toEqual(['Open the board']);
    expect((await seatOf(gameId, secondId)).dmLive).toBe(false);
    expect(labels(await turnDm(first))).toEqual([...COLUMNS, 'Open the board']);

    // An older Play here DM, clicked on their turn while the newest DM shows the buttons: it shows
    // the game and points to the newest DM, which stays the one to play from.
    const old = await h.api.click(first, oldPlayHere.id, button(oldPlayHere, (b) => b.label === 'Play here').custom_id!);
    expect(old.response?.type).toBe(7);
    expect(old.response?.message?.content).toMatch(/Your newest DM of this game has the move buttons/);
    expect(labels(old.response!.message!)).toEqual(['Play here', 'Open the board']);
    expect((await seatOf(gameId, firstId)).dmMessageId).toBe((await turnDm(first)).id);

    // Someone outside the game, and a click from the server, are refused and change nothing.
    const playHereId = button(oldPlayHere, (b) => b.label === 'Play here').custom_id!;
    await expectRefused(h.api.rawInteraction({ user: 'carol', channel: 'dm', type: 3, data: { custom_id: playHereId, component_type: 2 }, message: oldPlayHere.id }), /not playing in game/);
    await expectRefused(h.api.rawInteraction({ user: first, channel: 'knucklebones', type: 3, data: { custom_id: playHereId, component_type: 2 }, message: game.boardMessageId! }), /works in your DMs/);
    expect((await gameState(gameId)).game.version).toBe(game.version + 1);

    // Once the game is over, an old Play here shows the final board with its link, and nothing to play.
    const forfeit = await h.api.command({ user: second, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: gameId } });
    await h.api.click(second, forfeit.response!.message!.id, button(forfeit.response!.message!, (b) => b.label === 'Yes, forfeit').custom_id!);
    await h.settle();
    expect((await gameState(gameId)).game.status).toBe('finished');
    const over = await h.api.click(first, oldPlayHere.id, playHereId);
    expect(over.response?.type).toBe(7);
    expect(over.response?.message?.content).toMatch(/\*\*Knucklebones #\d+\*\* is over/);
    expect(labels(over.response!.message!)).toEqual(['Open the board']);
  });

  it('practice on the board: after the first move, each move costs one rate-limited call (its turn DM, with Play here)', async () => {
    const res = await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'practice' } });
    expect(res.response?.type).toBe(4);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { practice: true, status: 'active' }, orderBy: { id: 'desc' } });
    const daveId = h.emulator.users.dave!;
    const dmsOfGame = async () => (await h.api.dms('dave')).messages.filter((m) => m.content.includes(`Knucklebones #${game.id}**`));
    const [first] = await dmsOfGame();
    expect(labels(first!)).toEqual([...COLUMNS, 'Open the board']);
    // His first move on the board: the autopilot answers at once and his next turn DM comes with
    // Play here; the first DM's buttons are retired (the one switch from DM to board).
    expect(await callsFor(() => moveOnBoard(game.id, 'dave'))).toBe(2);
    expect(labels(await dmById('dave', first!.id))).toEqual(['Open the board']);
    expect(await seatOf(game.id, daveId)).toMatchObject({ dmMoves: false, dmLive: false });
    // Then each move on the board costs its turn DM only.
    for (let i = 0; i < 2; i++) expect(await callsFor(() => moveOnBoard(game.id, 'dave'))).toBe(1);
    const dms = await dmsOfGame();
    expect(dms).toHaveLength(4);
    for (const m of dms.slice(1)) expect(labels(m)).toEqual(['Play here', 'Open the board']);
    // Play here shows the turn as it is now: his die and the columns.
    const last = dms.at(-1)!;
    const here = await h.api.click('dave', last.id, button(last, (b) => b.label === 'Play here').custom_id!);
    expect(labels(here.response!.message!)).toEqual([...COLUMNS, 'Open the board']);
    expect(here.response?.message?.content).toContain(`**${(await gameState(game.id)).state.roll}**`);
  });

  it('a die item used on the board: the turn goes on, and its DM turns into Play here once (no move buttons left to go stale)', async () => {
    const cmd = (user: string, channel: string, name: string, options: Record<string, unknown>) => h.api.command({ user, channel, name, options });
    await cmd('moderator', 'general', 'cycle', { subcommand: 'season-start', name: 'Season 1' });
    await cmd('moderator', 'general', 'cycle', { subcommand: 'start', name: 'Cycle 1' });
    await cmd('carol', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'alice' });
    await cmd('alice', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'carol' });
    expect((await cmd('moderator', 'general', 'cycle', { subcommand: 'phase', kind: 'battle' })).response?.message?.content).toMatch(/1 game started/);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'knucklebones', status: 'active', cycleId: { not: null } } })).id;
    const { mover, moverId, other } = await players(gameId);
    expect((await cmd('moderator', 'general', 'cycle', { subcommand: 'grant', player: mover, item: 'loaded-die' })).response?.message?.content).toMatch(/Granted 1 ×/);
    const dm = await turnDm(mover);
    expect(labels(dm)).toEqual([...COLUMNS, 'Use a die…', 'Open the board']);

    // The mover uses the Loaded Die from the board (a menu there): their turn goes on, and their
    // turn DM, edited in place, now says so with Play here instead of the two Keep buttons.
    let b = await board(gameId);
    const calls = await callsFor(async () => {
      const menu = await h.api.click(mover, b.id, button(b, (x) => x.label === 'Use a die…').custom_id!);
      expect(menu.response?.message?.flags).toBe(EPHEMERAL);
      const m = menu.response!.message!;
      const select = (m.components![0] as { components: Array<{ custom_id: string }> }).components[0]!;
      expect((await h.api.select(mover, m.id, select.custom_id, ['loaded'])).response?.type).toBe(7);
    });
    // The board's edit (the answer went to the menu) and the DM's, once.
    expect(calls).toBe(2);
    const { state } = await gameState(gameId);
    const choices = state.dice!.turn!.choices!;
    let now = await dmById(mover, dm.id);
    expect(now.content).toMatch(/you used the Loaded Die and rolled/);
    expect(labels(now)).toEqual(['Play here', 'Open the board']);
    expect(await seatOf(gameId, moverId)).toMatchObject({ dmMoves: false, dmLive: false });

    // Play here offers the two Keep buttons of the turn as it is now.
    const here = await h.api.click(mover, now.id, button(now, (x) => x.label === 'Play here').custom_id!);
    expect(labels(here.response!.message!)).toEqual([`Keep ${choices[0]}`, `Keep ${choices[1]}`, 'Open the board']);
    expect((await seatOf(gameId, moverId)).dmLive).toBe(true);
    // They keep one on the board after all (their turn goes on: now to place it): that DM's Keep
    // buttons give way to Play here again, in one edit.
    b = await board(gameId);
    expect(await callsFor(async () => {
      expect((await h.api.click(mover, b.id, button(b, (x) => x.label === `Keep ${choices[0]}`).custom_id!)).response?.type).toBe(7);
    })).toBe(1);
    now = await dmById(mover, dm.id);
    expect(labels(now)).toEqual(['Play here', 'Open the board']);
    expect((await seatOf(gameId, moverId)).dmLive).toBe(false);
    // And placing it on the board costs the next player's DM only.
    expect(await callsFor(() => moveOnBoard(gameId, mover))).toBe(1);
    expect(labels(await dmById(mover, dm.id))).toEqual(['Play here', 'Open the board']);
    expect(labels(await turnDm(other))).toEqual([...COLUMNS, 'Use a die…', 'Open the board']);
  });
});
