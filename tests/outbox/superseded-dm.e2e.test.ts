import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { DiscordDeliverer } from '../../src/bot/deliver.ts';
import { games } from '../../src/games/index.ts';
import { acceptChallenge, challenge } from '../../src/services/challenges.ts';
import { playMove } from '../../src/services/games.ts';
import { testContext } from '../helpers/context.ts';
import { aliasOf, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * A turn DM whose player already has a newer turn of the same game queued (moves faster than the
 * outbox: a practice game, two players on the board at once, a backlog after an outage) is not
 * sent: that turn is over, and its ping would spend a rate-limited call and a slot of the DM
 * channel's 5 messages per 5 s on a turn the player can no longer play. The newer DM says what
 * happened since their last move. Through the real bot's deliverer and the emulator.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

// A service context that does not wake the bot's outbox: the moves queue their DMs until settle().
const quiet = () => testContext(h.db);

/** A Knucklebones game between two of the emulator's users, started and its first rows delivered. */
async function newGame(from: { alias: 'alice' | 'carol'; name: string }, to: { alias: 'bob' | 'dave'; name: string }) {
  const ctx = quiet();
  const guildId = h.emulator.guildId;
  const [a, b] = [h.emulator.users[from.alias]!, h.emulator.users[to.alias]!];
  const c = await challenge(ctx, { guildId, channelId: h.emulator.channels.knucklebones!, kind: 'knucklebones', from: { id: a, name: from.name, bot: false }, to: { id: b, name: to.name, bot: false } });
  const { game } = await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: b, guildId });
  await h.settle();
  return { game, players: [a, b] as const };
}

/** `n` moves of the game, each in its leftmost open column, through the service (the outbox not woken). */
async function play(gameId: number, n: number) {
  for (let k = 0; k < n; k++) {
    const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    const st = g.state as unknown as KnucklebonesState;
    const column = (st.grids[st.turn!]!.findIndex((col) => col.length < 3) + 1) as 1 | 2 | 3;
    await playMove(quiet(), { gameId, userId: st.turn!, guildId: h.emulator.guildId, kind: 'knucklebones', move: { type: 'place', column } });
  }
}

describe('turn DMs queued faster than they are delivered', () => {
  it('each player gets only the DM of their newest turn; the rows of the older turns are marked superseded', async () => {
    const { game, players } = await newGame({ alias: 'alice', name: 'Alice' }, { alias: 'bob', name: 'Bob' });
    const [alice, bob] = players;
    const dmsBefore = { alice: (await h.api.dms('alice')).messages.length, bob: (await h.api.dms('bob')).messages.length };

    await play(game.id, 4);
    const queued = await h.db.prisma.outbox.findMany({ where: { kind: 'dm', status: 'pending' }, orderBy: { id: 'asc' } });
    const turns = queued.filter((r) => (r.payload as { notification: { type: string } }).notification.type === 'turn');
    expect(turns).toHaveLength(4);
    await h.settle();

    const final = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    for (const who of [alice, bob]) {
      const name = aliasOf(h, who) as 'alice' | 'bob';
      const fresh = (await h.api.dms(name)).messages.slice(dmsBefore[name]);
      const turnDms = fresh.filter((m) => m.content.includes(`Knucklebones #${game.id}`) && /your turn/i.test(m.content));
      // Two turns each were queued; only the newest was sent.
      expect(turnDms).toHaveLength(1);
      const rows = turns.filter((r) => (r.payload as { userId: string }).userId === who);
      const sent = await h.db.prisma.outbox.findMany({ where: { id: { in: rows.map((r) => r.id) } }, orderBy: { id: 'asc' } });
      expect(sent.map((r) => [r.status, r.result?.startsWith('superseded') ?? false])).toEqual([
        ['sent', true],
        ['sent', false],
      ]);
      expect(sent[1]!.result).toBe(turnDms[0]!.id);
    }
    // The player whose turn it is now holds a DM for it, with the game's current version on its buttons.
    const now = (final.state as unknown as KnucklebonesState).turn!;
    const seat = await h.db.prisma.seat.findFirstOrThrow({ where: { gameId: game.id, playerId: now } });
    expect(seat.dmMessageId).not.toBeNull();
  });

  it('a newer turn DM written after the claim still supersedes the older one at its delivery, and nothing is sent', async () => {
    // The claim saw no newer DM (superseded: false); the player's next turn was queued since.
    const ctx = quiet();
    const { game } = await newGame({ alias: 'carol', name: 'Carol' }, { alias: 'dave', name: 'Dave' });
    // Three moves: the second player's turn DM, the first's, then the second's again (the newer one).
    await play(game.id, 3);
    const turns = (await h.db.prisma.outbox.findMany({ where: { kind: 'dm', status: 'pending' }, orderBy: { id: 'asc' } })).filter(
      (r) => (r.payload as { notification: { type: string } }).notification.type === 'turn',
    );
    expect(turns).toHaveLength(3);
    const older = turns[0]!;
    const who = aliasOf(h, (older.payload as { userId: string }).userId) as 'carol' | 'dave';
    expect((turns[2]!.payload as { userId: string }).userId).toBe((older.payload as { userId: string }).userId);
    const dmsBefore = (await h.api.dms(who)).messages.length;
    const deliverer = new DiscordDeliverer(h.bot.client, { ...ctx, games }, games);
    expect(await deliverer.deliver(older, { superseded: false })).toBe('superseded: a newer turn DM follows');
    expect((await h.api.dms(who)).messages.length).toBe(dmsBefore);
    // The rows left are delivered as usual (the older one superseded at the claim this time).
    await h.settle();
  });
});
