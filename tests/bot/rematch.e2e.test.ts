import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, buttons, EPHEMERAL, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * When a game ends, a result message in its channel (an edited board notifies nobody): the winner
 * first with the score, the players mentioned, and a Rematch button that starts the same game
 * again once every seated person has clicked it, exactly once however they click.
 */
let h: Harness;
let ids: Harness['emulator']['users'];

beforeAll(async () => {
  h = await startHarness();
  ids = h.emulator.users;
});
afterAll(async () => {
  await h?.close();
});

async function newGame(a: string, b: string): Promise<number> {
  const res = await h.api.command({ user: a, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: b } });
  const msg = res.response!.message!;
  await h.api.click(b, msg.id, button(msg, (x) => x.label === 'Accept').custom_id!);
  await h.settle();
  return (await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' }, orderBy: { id: 'desc' } })).id;
}

async function forfeit(gameId: number, user: string): Promise<void> {
  const f = await h.api.command({ user, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: gameId } });
  await h.api.click(user, f.response!.message!.id, button(f.response!.message!, (b) => b.label === 'Yes, forfeit').custom_id!);
  await h.settle();
}

async function resultOf(gameId: number): Promise<APIMessage> {
  const msgs = (await h.api.messages('knucklebones', 'carol')).messages.filter((m) => m.content.startsWith(`🏁 **Knucklebones #${gameId}** is over.`));
  expect(msgs).toHaveLength(1);
  return msgs[0]!;
}

const rematchId = (m: APIMessage) => button(m, (b) => b.label === 'Rematch').custom_id!;

describe('the result message and its Rematch button', () => {
  it('says who won, first, with the score and mentions; the rematch waits for the other player, then starts once', async () => {
    const gameId = await newGame('alice', 'bob');
    await forfeit(gameId, 'bob');
    const game = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    const scores = (game.outcome as { scores?: Record<string, number> }).scores;
    const score = scores ? ` Score: <@${ids.alice}> ${scores[ids.alice!]} · <@${ids.bob}> ${scores[ids.bob!]}.` : '';
    const result = await resultOf(gameId);
    expect(result.content).toBe(
      [
        `🏁 **Knucklebones #${gameId}** is over.`,
        `🏆 <@${ids.alice}> wins: <@${ids.bob}> forfeited.${score}`,
        'Another one? **Rematch** starts the same game again once every player has clicked it.',
      ].join('\n'),
    );
    expect(buttons(result).map((b) => b.label)).toEqual(['Rematch', 'Open the board']);
    // Written in the transaction of the finishing move, once.
    expect(await h.db.prisma.outbox.count({ where: { kind: 'result', payload: { equals: { gameId } } } })).toBe(1);

    // A spectator cannot ask; nothing changes.
    const carol = await h.api.click('carol', result.id, rematchId(result));
    expect(carol.response?.message?.flags).toBe(EPHEMERAL);
    expect(carol.response?.message?.content).toMatch(/Only the players of game #\d+ can ask for its rematch/);
    expect(await h.db.prisma.rematch.count()).toBe(0);

    // Alice asks: Bob is pinged in the channel.
    const ask = await h.api.click('alice', result.id, rematchId(result));
    expect(ask.response?.type).toBe(4);
    expect(ask.response?.message?.flags ?? 0).toBe(0);
    expect(ask.response?.message?.content).toBe(`🔁 <@${ids.alice}> wants a rematch of Knucklebones #${gameId}. <@${ids.bob}>: click **Rematch** on the result to accept.`);
    // Asking twice changes nothing.
    const again = await h.api.click('alice', result.id, rematchId(result));
    expect(again.response?.message?.flags).toBe(EPHEMERAL);
    expect(again.response?.message?.content).toBe(`⚠️ You already asked for a rematch of game #${gameId}; it starts when <@${ids.bob}> clicks **Rematch** too.`);
    expect(await h.db.prisma.game.count({ where: { status: 'active' } })).toBe(0);

    // Bob accepts: the same players and options, a new board in the channel.
    const accept = await h.api.click('bob', result.id, rematchId(result));
    expect(accept.response?.type).toBe(7);
    const next = await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' }, include: { seats: { orderBy: { seat: 'asc' } } } });
    expect(accept.response?.message?.content).toContain(`🔁 Rematch: **Knucklebones #${next.id}** is on, with the same players; its board follows in this channel.`);
    expect(buttons(accept.response!.message!).map((b) => b.label)).toEqual(['Open the board']);
    expect(next.seats.map((s) => s.playerId)).toEqual([ids.alice, ids.bob]);
    expect(next.options).toEqual(game.options);
    await h.settle();
    expect((await h.db.prisma.game.findUniqueOrThrow({ where: { id: next.id } })).boardMessageId).not.toBeNull();
    // A late click (a client that still shows the button) is told where the rematch is.
    const late = await h.api.rawInteraction({ user: 'alice', channel: 'knucklebones', type: 3, data: { custom_id: rematchId(result), component_type: 2 }, message: result.id });
    expect(late.response?.message?.flags).toBe(EPHEMERAL);
    expect(late.response?.message?.content).toBe(`⚠️ The rematch of game #${gameId} has already started: it is game #${next.id}.`);
    await forfeit(next.id, 'alice');
  });

  it('both players clicking at once start one game; a double click by one asks once', async () => {
    const gameId = await newGame('carol', 'dave');
    await forfeit(gameId, 'dave');
    const result = await resultOf(gameId);
    const twice = await Promise.all([h.api.click('carol', result.id, rematchId(result)), h.api.click('carol', result.id, rematchId(result))]);
    expect(twice.map((r) => r.response?.message?.flags ?? 0).sort()).toEqual([0, EPHEMERAL]);
    expect(await h.db.prisma.game.count({ where: { status: 'active' } })).toBe(0);

    const other = await newGame('alice', 'dave');
    await forfeit(other, 'alice');
    const result2 = await resultOf(other);
    const before = await h.db.prisma.game.count();
    const both = await Promise.all([h.api.click('alice', result2.id, rematchId(result2)), h.api.click('dave', result2.id, rematchId(result2))]);
    expect(both.map((r) => r.response?.type).sort()).toEqual([4, 7]);
    expect(await h.db.prisma.game.count()).toBe(before + 1);
    const row = await h.db.prisma.rematch.findUniqueOrThrow({ where: { gameId: other } });
    expect([...(row.accepted ?? [])].sort()).toEqual([ids.alice, ids.dave].sort());
    expect(row.newGameId).not.toBeNull();
  });

  it('a practice game’s rematch starts at once: its one person is everyone who must ask', async () => {
    const r = await h.api.command({ user: 'bob', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'practice' } });
    expect(r.response?.message?.flags).toBe(EPHEMERAL);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { practice: true, status: 'active' } });
    await forfeit(game.id, 'bob');
    const result = await resultOf(game.id);
    expect(result.content).toContain(`🏆 🤖 Autopilot wins`);
    expect(result.content).toContain('Another one? **Rematch** starts the same game again.');
    const click = await h.api.click('bob', result.id, rematchId(result));
    expect(click.response?.type).toBe(7);
    const next = await h.db.prisma.game.findFirstOrThrow({ where: { practice: true, status: 'active' }, include: { seats: true } });
    expect(next.seats.filter((s) => s.autopilot)).toHaveLength(1);
    await forfeit(next.id, 'bob');
  });
});
