import type { APIMessage } from 'discord.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KnucklebonesState } from '../../../src/games/knucklebones/engine/index.ts';
import { BOARD_BY_REPLY_GRACE_MS } from '../../../src/services/changes.ts';
import { button, buttons, EPHEMERAL, startHarness, text, type Harness } from '../../helpers/harness.ts';

/**
 * Knucklebones through the same path a user takes: slash commands and button clicks on the
 * emulator, the real discord.js client, the services and Postgres, and back.
 */
let h: Harness;
let ids: Harness['emulator']['users'];
const HOUR = 3_600_000;

beforeAll(async () => {
  h = await startHarness();
  ids = h.emulator.users;
});
afterAll(async () => {
  await h?.close();
});

async function gameState(gameId: number) {
  const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  return { game: g, state: g.state as unknown as KnucklebonesState };
}

async function boardMessage(gameId: number, as = 'carol'): Promise<APIMessage> {
  const { game } = await gameState(gameId);
  const msgs = await h.api.messages('knucklebones', as);
  const m = msgs.messages.find((x) => x.id === game.boardMessageId);
  if (!m) throw new Error('board message not found');
  return m;
}

function alias(userId: string): string {
  return Object.entries(ids).find(([, id]) => id === userId)![0];
}

async function challengeAndAccept(a: string, b: string): Promise<{ gameId: number; board: APIMessage }> {
  const res = await h.api.command({ user: a, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: b } });
  expect(res.response?.type).toBe(4);
  const challengeMsg = res.response!.message!;
  expect(challengeMsg.flags ?? 0).toBe(0);
  const accept = button(challengeMsg, (x) => x.label === 'Accept');
  const acc = await h.api.click(b, challengeMsg.id, accept.custom_id!);
  expect(acc.response?.type).toBe(7);
  await h.settle();
  const game = await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' }, orderBy: { id: 'desc' } });
  expect(game.boardMessageId).toBe(challengeMsg.id);
  return { gameId: game.id, board: await boardMessage(game.id) };
}

/** `user` forfeits the game through the command and its confirmation button. */
async function resignGame(gameId: number, user: string): Promise<void> {
  const forfeit = await h.api.command({ user, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: gameId } });
  const confirm = button(forfeit.response!.message!, (b) => b.label === 'Yes, forfeit');
  await h.api.click(user, forfeit.response!.message!.id, confirm.custom_id!);
  await h.settle();
  expect((await gameState(gameId)).game.status).toBe('finished');
}

describe('Knucklebones through the emulator and the real discord.js client', () => {
  it('challenge: refusals are ephemeral and change nothing', async () => {
    const self = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'alice' } });
    expect(self.response?.message?.flags).toBe(EPHEMERAL);
    expect(self.response?.message?.content).toMatch(/cannot challenge yourself/);

    const bot = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: h.emulator.botUserId } });
    expect(bot.response?.message?.flags).toBe(EPHEMERAL);
    expect(bot.response?.message?.content).toMatch(/is a bot/);

    const first = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } });
    expect(first.response?.message?.content).toMatch(new RegExp(`<@${ids.bob}>.*challenges you`));
    const again = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } });
    expect(again.response?.message?.flags).toBe(EPHEMERAL);
    expect(again.response?.message?.content).toMatch(/already challenged/);

    // Carol cannot accept a challenge addressed to Bob; Bob only sees Carol's refusal if he is Carol.
    const carol = await h.api.click('carol', first.response!.message!.id, button(first.response!.message!, (b) => b.label === 'Accept').custom_id!);
    expect(carol.response?.message?.flags).toBe(EPHEMERAL);
    expect(carol.response?.message?.content).toMatch(/not addressed to you/);
    const bobView = await h.api.messages('knucklebones', 'bob');
    expect(bobView.messages.some((m) => /not addressed to you/.test(m.content))).toBe(false);

    // Alice clicks her own Accept: told it is her own challenge and how to take it back.
    const own = await h.api.click('alice', first.response!.message!.id, button(first.response!.message!, (b) => b.label === 'Accept').custom_id!);
    expect(own.response?.message?.flags).toBe(EPHEMERAL);
    expect(own.response?.message?.content).toMatch(/This is your own challenge: it waits for <@\d+> to accept\. To take it back, click \*\*Decline\*\*/);

    // Alice withdraws it.
    const decline = await h.api.click('alice', first.response!.message!.id, button(first.response!.message!, (b) => b.label === 'Decline').custom_id!);
    expect(decline.response?.type).toBe(7);
    expect(decline.response?.message?.content).toMatch(/withdrew/);
    expect(await h.db.prisma.game.count()).toBe(0);
  });

  it('a full game by button clicks, with DMs carrying the die and a link to the board', async () => {
    const { gameId, board } = await challengeAndAccept('alice', 'bob');
    expect(text(board)).toMatch(/Commitment \(SHA-256 of the secret seed\): `[0-9a-f]{64}`/);

    // A second game between the same pair is refused while this one runs.
    const dup = await h.api.command({ user: 'bob', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'alice' } });
    expect(dup.response?.message?.flags).toBe(EPHEMERAL);
    expect(dup.response?.message?.content).toMatch(/already have a game/);

    // An outsider and the waiting player are refused, ephemerally.
    let { state } = await gameState(gameId);
    const waiting = state.players.find((p) => p !== state.turn)!;
    const col1 = button(board, (b) => b.custom_id?.startsWith('kb:place') ?? false).custom_id!;
    const outsider = await h.api.click('carol', board.id, col1);
    expect(outsider.response?.message?.flags).toBe(EPHEMERAL);
    expect(outsider.response?.message?.content).toMatch(/not playing in game/);
    const early = await h.api.click(alias(waiting), board.id, col1);
    expect(early.response?.message?.flags).toBe(EPHEMERAL);
    expect(early.response?.message?.content).toMatch(/not .*turn/i);

    let moves = 0;
    let staleDm: { user: string; message: APIMessage } | null = null;
    for (;;) {
      ({ state } = await gameState(gameId));
      if (state.outcome) break;
      const mover = state.turn!;
      // The mover's latest DM names their die and links to the board.
      const dms = await h.api.dms(alias(mover));
      const last = dms.messages.at(-1)!;
      expect(last.content).toContain(`**${state.roll}**`);
      expect(last.content).toContain(`/channels/${h.emulator.guildId}/${h.emulator.channels.knucklebones}/${board.id}`);
      staleDm ??= { user: alias(mover), message: last };
      const current = await boardMessage(gameId);
      expect(text(current)).toContain(`rolled`);
      expect(text(current)).toMatch(/<t:\d+:R>/);
      // Full columns' buttons are disabled, open ones enabled.
      const cols = buttons(current).filter((b) => b.custom_id?.startsWith('kb:place'));
      expect(cols.map((b) => !!b.disabled)).toEqual(state.grids[mover]!.map((c) => c.length >= 3));
      const open = cols.filter((b) => !b.disabled);
      const pick = open[moves % open.length]!;
      if (moves === 0) {
        // A double click: two clicks on the same button before the board changes. One moves,
        // the other is refused ephemerally, and only one move is recorded.
        const both = await Promise.all([h.api.click(alias(mover), current.id, pick.custom_id!), h.api.click(alias(mover), current.id, pick.custom_id!)]);
        expect(both.map((r) => r.response?.type).sort()).toEqual([4, 7]);
        const refused = both.find((r) => r.response?.type === 4)!;
        expect(refused.response?.message?.flags).toBe(EPHEMERAL);
        expect(refused.response?.message?.content).toMatch(/older board|not your turn/i);
        expect(await h.db.prisma.move.count({ where: { gameId } })).toBe(1);
      } else {
        const res = await h.api.click(alias(mover), current.id, pick.custom_id!);
        expect(res.response?.type).toBe(7); // the board is edited in place
      }
      moves++;
      await h.settle();
    }
    // Only a player's newest DM of the game offers moves: older ones keep their text and the link
    // to the board. The first lost its move buttons when its player moved on the board; the later
    // ones, sent to a player who moves on the board, offer Play here (never stale) instead of move
    // buttons. A click on an old button (from a client that still shows it) is refused.
    for (const u of ['alice', 'bob']) {
      const dms = (await h.api.dms(u)).messages.filter((m) => m.content.includes(`Knucklebones #${gameId}`));
      expect(buttons(dms[0]!).map((b) => b.label)).toEqual(['Open the board']);
      for (const m of dms.slice(1, -1)) expect(buttons(m).map((b) => b.label)).toEqual(['Play here', 'Open the board']);
    }
    const oldButton = button(staleDm!.message, (b) => b.custom_id?.startsWith('kb:place') ?? false);
    const stale = await h.api.rawInteraction({ user: staleDm!.user, channel: 'dm', type: 3, data: { custom_id: oldButton.custom_id!, component_type: 2 }, message: staleDm!.message.id });
    expect(stale.response?.message?.flags).toBe(EPHEMERAL);
    expect(stale.response?.message?.content).toMatch(/older board|already over/);
    const final = await boardMessage(gameId);
    const { game } = await gameState(gameId);
    expect(text(final)).toMatch(/wins|Draw/);
    expect(text(final)).toContain(game.seed);
    expect(buttons(final)).toHaveLength(0);
    for (const u of ['alice', 'bob']) {
      const dms = await h.api.dms(u);
      expect(dms.messages.filter((m) => /is over|ended in a draw/.test(m.content))).toHaveLength(1);
    }
    // The channel holds one board, edited in place: no spam.
    const channel = await h.api.messages('knucklebones', 'carol');
    expect(channel.messages.filter((m) => m.embeds?.[0]?.title === `Knucklebones #${gameId}`)).toHaveLength(1);
    expect(moves).toBeGreaterThanOrEqual(9);
  });

  it('a column click is played without reading its game first: its checks run in the move’s own locked read', async () => {
    const { gameId } = await challengeAndAccept('carol', 'dave');
    const { state } = await gameState(gameId);
    const board = await boardMessage(gameId);
    const place = button(board, (b) => b.custom_id?.startsWith('kb:place') ?? false).custom_id!;
    // Every statement the process sends while the bot takes the click (node-postgres's Client.query).
    const sent = vi.spyOn(pg.Client.prototype, 'query');
    let texts: string[];
    let res: Awaited<ReturnType<Harness['api']['click']>>;
    try {
      res = await h.api.click(alias(state.turn!), board.id, place);
    } finally {
      texts = sent.mock.calls.map((c) => (typeof c[0] === 'string' ? c[0] : ((c[0] as { name?: string; text: string }).name ?? (c[0] as { text: string }).text)));
      sent.mockRestore();
    }
    expect(res.response?.type).toBe(7);
    expect(await h.db.prisma.move.count({ where: { gameId } })).toBe(1);
    // No read of the game before the move (a route that shows something, My hand or a menu, reads
    // it: the direct route does not), and one lock: BEGIN and the locked read in one round trip.
    expect(texts.filter((t) => t === 'stonehall-read-game')).toEqual([]);
    expect(texts.filter((t) => t.startsWith('BEGIN;'))).toHaveLength(1);
    // The checks still refuse, each with its own words, and write nothing: an outsider, the waiting
    // player, and the button of the board before this move.
    const { state: now, game } = await gameState(gameId);
    const waiting = now.players.find((p) => p !== now.turn)!;
    const current = place.replace(/:\d+:(\d)$/, `:${game.version}:$1`);
    expect(current).not.toBe(place);
    const refusals = [
      [await h.api.click('alice', board.id, current), /not playing in game/],
      [await h.api.click(alias(waiting), board.id, current), /not your turn/i],
      // (A client that still shows the old board sends its button: the emulator's click API only clicks what a message shows.)
      [await h.api.rawInteraction({ user: alias(now.turn!), channel: 'knucklebones', type: 3, data: { custom_id: place, component_type: 2 }, message: board.id }), /older board/],
    ] as const;
    for (const [r, words] of refusals) {
      expect(r.response?.message?.flags).toBe(EPHEMERAL);
      expect(r.response?.message?.content).toMatch(words);
    }
    expect(await h.db.prisma.move.count({ where: { gameId } })).toBe(1);
    await h.settle();
    await resignGame(gameId, 'dave');
  });

  it('an Accept clicked before the bot has recorded the challenge message still turns that message into the one board', async () => {
    // The bot hears back about its challenge reply 1.5 s late (latency), while Carol already sees it.
    await h.api.addFault({ route: 'POST /interactions/:id/:token/callback', delayMs: 1500 });
    const res = await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'carol' } });
    const challengeMsg = res.response!.message!;
    const recorded = await h.db.prisma.challenge.findFirstOrThrow({ where: { challengerId: ids.dave, status: 'open' } });
    expect(recorded.messageId).toBeNull(); // the window is open
    const before = (await h.api.messages('knucklebones', 'carol')).messages.length;
    const acc = await h.api.click('carol', challengeMsg.id, button(challengeMsg, (x) => x.label === 'Accept').custom_id!);
    expect(acc.response?.type).toBe(7);
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active', seats: { some: { playerId: ids.dave } } } });
    expect(game.boardMessageId).toBe(challengeMsg.id);
    await h.bot.idle(); // the late answer arrives; the bot records the id
    await h.settle();
    const after = (await h.api.messages('knucklebones', 'carol')).messages;
    expect(after).toHaveLength(before); // no second board was posted
    const board = after.find((m) => m.id === challengeMsg.id)!;
    expect(buttons(board).some((b) => b.custom_id?.startsWith('kb:place'))).toBe(true);
    expect((await h.db.prisma.challenge.findUniqueOrThrow({ where: { id: recorded.id } })).messageId).toBe(challengeMsg.id);
    await resignGame(game.id, 'dave');
  });

  it('a challenge answered by challenging back before its message was recorded loses its buttons, and the game has one board', async () => {
    await h.api.addFault({ route: 'POST /interactions/:id/:token/callback', delayMs: 1500 });
    const res = await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'carol' } });
    const challengeMsg = res.response!.message!;
    const back = await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'dave' } });
    expect(back.response?.message?.content).toMatch(/accepted/);
    await h.bot.idle(); // the late answer arrives; the bot records the id and strips the buttons
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active', seats: { some: { playerId: ids.dave } } } });
    const msgs = (await h.api.messages('knucklebones', 'carol')).messages;
    const old = msgs.find((m) => m.id === challengeMsg.id)!;
    expect(buttons(old)).toHaveLength(0);
    expect(old.content).toMatch(new RegExp(`#${game.id} is on`));
    const boards = msgs.filter((m) => buttons(m).some((b) => b.custom_id?.startsWith(`kb:place:${game.id}:`)));
    expect(boards.map((m) => m.id)).toEqual([game.boardMessageId]);
    await resignGame(game.id, 'dave');
  });

  it('an edit of the board that reaches Discord after a newer click’s answer is followed by another: the board ends showing the game', async () => {
    const { gameId, board } = await challengeAndAccept('carol', 'dave');
    const { game: g0 } = await gameState(gameId);
    // The version each edit of the board shows, in the order the emulator applied them (its buttons carry it).
    const shown: number[] = [];
    const unfollow = h.emulator.state.on((e) => {
      if (e.type !== 'message.update' || e.message.id !== board.id) return;
      const id = buttons(e.message as never).find((b) => b.custom_id?.startsWith(`kb:place:${gameId}:`))?.custom_id;
      if (id) shown.push(Number(id.split(':')[3]));
    });
    try {
      // 1. A click whose answer reaches the bot 4 s late: the players see the new board at once, the
      //    bot has not recorded it yet, so the move's board row stays due once its grace is over.
      await h.api.addFault({ route: 'POST /interactions/:id/:token/callback', delayMs: 4000 });
      let { state } = await gameState(gameId);
      const first = await h.api.click(alias(state.turn!), board.id, button(board, (b) => b.custom_id?.startsWith('kb:place') ?? false).custom_id!);
      expect(first.response?.type).toBe(7);
      // 2. The grace lapses: the outbox edits the board (as the first move left it), and that edit
      //    reaches Discord 2.5 s after it was sent.
      await h.api.addFault({ route: `PATCH /channels/${board.channel_id}/messages/${board.id}`, arriveAfterMs: 2500 });
      const outbox = h.clock.advance(BOARD_BY_REPLY_GRACE_MS + 500);
      await expect.poll(async () => (await h.api.faults()).faults.length, { timeout: 10_000, interval: 20 }).toBe(0);
      // 3. Meanwhile the other player clicks the board: their answer edits it first.
      ({ state } = await gameState(gameId));
      const now = await boardMessage(gameId);
      const second = await h.api.click(alias(state.turn!), now.id, button(now, (b) => b.custom_id?.startsWith(`kb:place:${gameId}:${g0.version + 1}:`) ?? false).custom_id!);
      expect(second.response?.type).toBe(7);
      await outbox;
      await h.bot.idle();
      await h.settle();
    } finally {
      unfollow();
    }
    const { game } = await gameState(gameId);
    expect(game.version).toBe(g0.version + 2);
    // The late edit did land over the newer board (the race this test is about)...
    const newer = shown.indexOf(game.version);
    expect(newer, `edits applied: ${shown.join(', ')}`).toBeGreaterThanOrEqual(0);
    expect(shown.slice(newer + 1), `edits applied: ${shown.join(', ')}`).toContain(game.version - 1);
    // ...and the board shows the game as it is: the outbox edited it again.
    expect(shown.at(-1), `edits applied: ${shown.join(', ')}`).toBe(game.version);
    const final = await boardMessage(gameId);
    expect(buttons(final).filter((b) => b.custom_id?.startsWith('kb:place')).every((b) => b.custom_id!.startsWith(`kb:place:${gameId}:${game.version}:`))).toBe(true);
    await resignGame(gameId, 'dave');
  });

  it('a retried board row edits the board even when the board is marked current: the attempt before may have left an older edit on it', async () => {
    const { gameId, board } = await challengeAndAccept('carol', 'dave');
    const { state } = await gameState(gameId);
    const before = await boardMessage(gameId);
    const res = await h.api.click(alias(state.turn!), board.id, button(board, (b) => b.custom_id?.startsWith('kb:place') ?? false).custom_id!);
    expect(res.response?.type).toBe(7);
    await h.bot.idle();
    await h.settle();
    const { game } = await gameState(gameId);
    expect(game.boardVersion).toBe(game.version); // the click's answer showed the move and recorded it
    // What a killed process leaves: its edit of the board as it was before the move, landed after the
    // click's answer, and its board row leased once and never marked sent.
    await h.bot.client.rest.patch(`/channels/${before.channel_id}/messages/${before.id}`, { body: { content: before.content, embeds: before.embeds, components: before.components } });
    expect(buttons(await boardMessage(gameId)).find((b) => b.custom_id?.startsWith('kb:place'))?.custom_id).toMatch(new RegExp(`^kb:place:${gameId}:${game.version - 1}:`));
    await h.db.prisma.outbox.create({ data: { kind: 'board', payload: { gameId }, attempts: 1, availableAt: h.clock.now() } });
    await h.settle();
    const ids = buttons(await boardMessage(gameId)).filter((b) => b.custom_id?.startsWith('kb:place')).map((b) => b.custom_id!);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((id) => id.startsWith(`kb:place:${gameId}:${game.version}:`)), ids.join(' ')).toBe(true);
    await resignGame(gameId, 'dave');
  });

  it('typed moves, games, view, forfeit with confirmation', async () => {
    const { gameId } = await challengeAndAccept('carol', 'dave');
    let { state } = await gameState(gameId);
    const mover = alias(state.turn!);
    const rolled = state.roll!;
    const placed = await h.api.command({ user: mover, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'place', column: 3 } });
    expect(placed.response?.message?.flags).toBe(EPHEMERAL);
    expect(placed.response?.message?.content).toContain(`placed your ${rolled} in column 3 of game #${gameId}`);
    await h.settle();
    ({ state } = await gameState(gameId));
    expect(state.grids[ids[mover as 'carol']]![2]).toEqual([rolled]);
    expect(text(await boardMessage(gameId))).toMatch(/Turn 2/);

    const unknown = await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'place', column: 1, game: 99999 } });
    expect(unknown.response?.message?.flags).toBe(EPHEMERAL);
    expect(unknown.response?.message?.content).toMatch(/no game #99999/);

    const games = await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'games' } });
    expect(games.response?.message?.flags).toBe(EPHEMERAL);
    expect(games.response?.message?.content).toMatch(new RegExp(`#${gameId} vs Dave`));
    expect(games.response?.message?.content).toMatch(/<t:\d+:R>/);

    const view = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'view', game: gameId } });
    expect(view.response?.message?.embeds?.[0]?.title).toBe(`Knucklebones #${gameId}`);

    const ac = await h.api.autocomplete({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: '' }, focused: 'game' });
    expect(ac.choices?.map((c) => c.value)).toContain(gameId);

    const forfeit = await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: gameId } });
    expect(forfeit.response?.message?.flags).toBe(EPHEMERAL);
    const confirm = button(forfeit.response!.message!, (b) => b.label === 'Yes, forfeit');
    const done = await h.api.click('dave', forfeit.response!.message!.id, confirm.custom_id!);
    expect(done.response?.message?.content).toMatch(/You forfeited/);
    await h.settle();
    const final = await gameState(gameId);
    expect(final.state.outcome).toMatchObject({ reason: 'forfeit', forfeited: ids.dave, winners: [ids.carol] });
    // Anyone can check the dice of a finished game in Discord: the seed against its commitment, every move replayed.
    const verify = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'stonehall', options: { subcommand: 'verify', game: gameId } });
    expect(verify.response?.message?.flags).toBe(EPHEMERAL);
    expect(verify.response?.message?.content).toMatch(new RegExp(`✅ \\*\\*Knucklebones #${gameId}\\*\\*: fair: every random draw`));
    expect(verify.response?.message?.content).toMatch(/matches the commitment[\s\S]*gives exactly the final position/);
    expect(text(await boardMessage(gameId))).toContain(`/stonehall verify game:${gameId}`);
    expect(text(await boardMessage(gameId))).toMatch(new RegExp(`<@${ids.dave}> forfeited`));
  });

  it('24 hours of silence forfeits after 12 h, 4 h and 1 h reminders; closed DMs fall back to a channel mention', async () => {
    const { gameId } = await challengeAndAccept('alice', 'dave');
    const { state } = await gameState(gameId);
    const idle = alias(state.turn!);
    const other = alias(state.players.find((p) => p !== state.turn)!);
    await h.api.setDmsOpen(idle, false);
    const before = (await h.api.messages('knucklebones', 'carol')).messages.length;
    await h.api.advanceClock(12 * HOUR + 1000);
    await h.api.advanceClock(8 * HOUR);
    await h.api.advanceClock(3 * HOUR);
    let { game } = await gameState(gameId);
    expect(game.status).toBe('active');
    await h.api.advanceClock(HOUR);
    ({ game } = await gameState(gameId));
    expect(game.status).toBe('finished');
    // The idle player's reminders and game-over note came as mentions in the channel.
    const channel = (await h.api.messages('knucklebones', 'carol')).messages.slice(before);
    const mentions = channel.filter((m) => m.content.startsWith(`<@${ids[idle as 'alice']}>`));
    expect(mentions.filter((m) => /Reminder/.test(m.content))).toHaveLength(3);
    // A turn that ran out is said so (not called a resignation), once: in the result message,
    // which pings the players (a game-over mention besides would say it twice).
    expect(mentions.some((m) => /turn ran out/.test(m.content))).toBe(false);
    const result = channel.filter((m) => m.content.startsWith('🏁') && m.content.includes(`Knucklebones #${gameId}`));
    expect(result).toHaveLength(1);
    // How it was won first, then the score with names (the winner on time may have fewer points).
    const final = (await gameState(gameId)).game.outcome as { scores: Record<string, number> };
    const [win, lose] = [ids[other as 'alice'], ids[idle as 'alice']];
    expect(result[0]!.content.split('\n')[1]).toBe(`🏆 <@${win}> wins on time: <@${lose}>’s turn ran out. Score: <@${win}> ${final.scores[win!]} · <@${lose}> ${final.scores[lose!]}.`);
    const otherDms = await h.api.dms(other);
    expect(otherDms.messages.at(-1)!.content).toMatch(new RegExp(`<@${ids[idle as 'alice']}>’s turn ran out`));
    expect(text(await boardMessage(gameId))).toMatch(/turn ran out/);
    const delivered = await h.db.prisma.outbox.findMany({ where: { status: { not: 'sent' } } });
    expect(delivered).toEqual([]);
    await h.api.setDmsOpen(idle, true);
  });

  it('settings: only moderators configure; players switch their reminders', async () => {
    // /stonehall-config is hidden from players (default member permissions: Manage Server).
    await expect(h.api.command({ user: 'bob', channel: 'general', name: 'stonehall-config', options: { 'turn-hours': 12 } })).rejects.toThrow(/lacks the permissions/);
    const ok = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'turn-hours': 12, reminders: '2, 1' } });
    expect(ok.response?.message?.flags).toBe(EPHEMERAL);
    expect(ok.response?.message?.content).toMatch(/Turn limit: 12 h/);
    expect(ok.response?.message?.content).toMatch(/Reminders: 2 h, 1 h/);
    const bad = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { reminders: 'soon' } });
    expect(bad.response?.message?.flags).toBe(EPHEMERAL);
    expect(bad.response?.message?.content).toMatch(/12, 4, 1/);
    const g = await h.db.prisma.guild.findUniqueOrThrow({ where: { id: h.emulator.guildId } });
    expect(g.turnLimitMinutes).toBe(720);
    expect(g.reminderMinutes).toEqual([120, 60]);

    const role = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'moderator-role': h.emulator.moderatorRoleId } });
    expect(role.response?.message?.content).toMatch(/Moderator role: <@&/);
    const off = await h.api.command({ user: 'bob', channel: 'general', name: 'stonehall', options: { subcommand: 'reminders', enabled: false } });
    expect(off.response?.message?.content).toMatch(/Reminders are off/);
    expect((await h.db.prisma.player.findUniqueOrThrow({ where: { id: ids.bob } })).remindersEnabled).toBe(false);

    // A new game uses the new turn limit: 12 h.
    const { gameId } = await challengeAndAccept('carol', 'bob');
    const seat = await h.db.prisma.seat.findFirstOrThrow({ where: { gameId, deadlineAt: { not: null } } });
    expect(seat.deadlineAt!.getTime() - seat.turnStartedAt!.getTime()).toBe(12 * HOUR);
  });
});
