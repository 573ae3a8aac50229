import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, buttons, EPHEMERAL, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Open challenges: `/<game> join` without an opponent posts a challenge anyone here may accept
 * (not the challenger); the first Accept starts the game on that very message, later clicks are
 * told it is taken. In a server running cycles, `join` needs an opponent (an intent names one).
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

const open = (user: string, name = 'knucklebones', sub = 'join') => h.api.command({ user, channel: 'knucklebones', name, options: { subcommand: sub } });
const acceptOf = (m: { components?: unknown[] }) => button(m as never, (b) => b.label === 'Accept').custom_id!;

async function resign(gameId: number, user: string): Promise<void> {
  const f = await h.api.command({ user, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: gameId } });
  await h.api.click(user, f.response!.message!.id, button(f.response!.message!, (b) => b.label === 'Yes, forfeit').custom_id!);
  await h.settle();
}

describe('open challenges', () => {
  it('anyone but the challenger accepts; the first Accept starts the game on the challenge message; later clicks are told it is taken', async () => {
    const res = await open('alice');
    const msg = res.response!.message!;
    expect(msg.flags ?? 0).toBe(0);
    expect(msg.content).toBe(`⚔️ <@${ids.alice}> challenges anyone here to **Knucklebones**! The first to click **Accept** plays them. (Want someone in particular? \`/knucklebones join opponent:\`)`);
    expect(buttons(msg).map((b) => b.label)).toEqual(['Accept', 'Withdraw']);
    const ch = await h.db.prisma.challenge.findFirstOrThrow({ where: { challengerId: ids.alice } });
    expect(ch.opponentId).toBeNull();

    // A second open challenge of the same game is refused while this one waits.
    const again = await open('alice');
    expect(again.response?.message?.flags).toBe(EPHEMERAL);
    expect(again.response?.message?.content).toBe('⚠️ You already have an open Knucklebones challenge waiting for someone to accept. To take it back, click **Withdraw** on it.');

    // The challenger's own Accept, and someone else's Withdraw, are refused and change nothing.
    const own = await h.api.click('alice', msg.id, acceptOf(msg));
    expect(own.response?.message?.flags).toBe(EPHEMERAL);
    expect(own.response?.message?.content).toBe('⚠️ This is your own open challenge: it waits for someone else to accept. To take it back, click **Withdraw**.');
    const withdraw = await h.api.click('carol', msg.id, button(msg, (b) => b.label === 'Withdraw').custom_id!);
    expect(withdraw.response?.message?.flags).toBe(EPHEMERAL);
    expect(withdraw.response?.message?.content).toBe(`⚠️ This is <@${ids.alice}>’s open challenge: only they can withdraw it. Click **Accept** to play them, or just leave it.`);
    expect(await h.db.prisma.game.count()).toBe(0);

    // Bob and Carol click Accept at once: one game, on the challenge message; the other is told.
    const both = await Promise.all([h.api.click('bob', msg.id, acceptOf(msg)), h.api.click('carol', msg.id, acceptOf(msg))]);
    expect(both.map((r) => r.response?.type).sort()).toEqual([4, 7]);
    const late = both.find((r) => r.response?.type === 4)!;
    expect(late.response?.message?.flags).toBe(EPHEMERAL);
    const game = await h.db.prisma.game.findFirstOrThrow({ include: { seats: { orderBy: { seat: 'asc' } } } });
    expect(late.response?.message?.content).toBe(`⚠️ Someone was quicker: this challenge was taken (game #${game.id}). Open one yourself with \`/knucklebones join\`.`);
    expect(await h.db.prisma.game.count()).toBe(1);
    expect(game.boardMessageId).toBe(msg.id);
    const winner = both.find((r) => r.response?.type === 7)!;
    const accepter = game.seats[1]!.playerId;
    expect(game.seats[0]!.playerId).toBe(ids.alice);
    expect([ids.bob, ids.carol]).toContain(accepter);
    expect(await h.db.prisma.challenge.findUniqueOrThrow({ where: { id: ch.id } })).toMatchObject({ status: 'accepted', gameId: game.id, opponentId: null, messageId: msg.id });
    expect(buttons(winner.response!.message!).some((b) => b.custom_id?.startsWith(`kb:place:${game.id}:`))).toBe(true);
    await resign(game.id, 'alice');
  });

  it('a quick Accept, before the bot recorded the message, still turns the challenge message into the board', async () => {
    await h.api.addFault({ route: 'POST /interactions/:id/:token/callback', delayMs: 1500 });
    const res = await open('dave');
    const msg = res.response!.message!;
    expect((await h.db.prisma.challenge.findFirstOrThrow({ where: { challengerId: ids.dave, status: 'open' } })).messageId).toBeNull();
    const before = (await h.api.messages('knucklebones', 'carol')).messages.length;
    const acc = await h.api.click('bob', msg.id, acceptOf(msg));
    expect(acc.response?.type).toBe(7);
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' }, orderBy: { id: 'desc' } });
    expect(game.boardMessageId).toBe(msg.id);
    await h.bot.idle(); // the late answer arrives; the bot records the id
    await h.settle();
    expect((await h.api.messages('knucklebones', 'carol')).messages).toHaveLength(before);
    await resign(game.id, 'dave');
  });

  it('the challenger withdraws it; every two-player game has it', async () => {
    const res = await open('carol', 'tellstones', 'challenge');
    const msg = res.response!.message!;
    expect(msg.content).toMatch(/^⚔️ <@\d+> challenges anyone here to \*\*Tellstones\*\*!/);
    const w = await h.api.click('carol', msg.id, button(msg, (b) => b.label === 'Withdraw').custom_id!);
    expect(w.response?.type).toBe(7);
    expect(w.response?.message?.content).toBe(`↩️ <@${ids.carol}> withdrew their open challenge.`);
    expect(buttons(w.response!.message!)).toHaveLength(0);
    const late = await h.api.rawInteraction({ user: 'bob', channel: 'knucklebones', type: 3, data: { custom_id: acceptOf(msg), component_type: 2 }, message: msg.id });
    expect(late.response?.message?.content).toBe('⚠️ This challenge was already cancelled.');

    const crys = await open('carol', 'crystallia');
    expect(crys.response?.message?.content).toMatch(/challenges anyone here to \*\*Crystallia\*\*/);
    await h.api.click('carol', crys.response!.message!.id, button(crys.response!.message!, (b) => b.label === 'Withdraw').custom_id!);
  });

  it('in a server running cycles, join without an opponent says to name one and changes nothing', async () => {
    const start = await h.api.command({ user: 'moderator', channel: 'knucklebones', name: 'cycle', options: { subcommand: 'season-start', name: 'Season 1' } });
    expect(start.response?.message?.content).not.toMatch(/⚠️/);
    const before = await h.db.prisma.challenge.count();
    const r = await open('alice');
    expect(r.response?.message?.flags).toBe(EPHEMERAL);
    expect(r.response?.message?.content).toBe('⚠️ This server runs cycles: `/knucklebones join` states whom you intend to play in the next Battle Phase, so name them with `opponent`.');
    expect(await h.db.prisma.challenge.count()).toBe(before);
  });
});
