import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, buttons, EPHEMERAL, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Untrusted input through the real client (issue 14's reliability defects): a malformed gateway
 * event, clicks carrying forged message ids, ids of the wrong game, menu values that are not the
 * menu's, options of the wrong type, server commands sent from DMs. Each is refused in words or
 * dropped; nothing is rewritten that the route does not own; the process lives on.
 */
let h: Harness;
beforeAll(async () => {
  // The harness's own answer window: on a loaded machine a refusal can take more than 2 s; only the
  // malformed event below, which must get no answer, stops waiting after 2 s (wait_ms).
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function kbGame(a: string, b: string): Promise<{ gameId: number; boardId: string }> {
  const res = await h.api.command({ user: a, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: b } });
  const msg = res.response!.message!;
  await h.api.click(b, msg.id, button(msg, (x) => x.label === 'Accept').custom_id!);
  await h.settle();
  const game = await h.db.prisma.game.findFirstOrThrow({ where: { boardMessageId: msg.id } });
  return { gameId: game.id, boardId: msg.id };
}

const refused = (r: { response?: { message?: { flags?: number; content?: string } } | null }, pattern: RegExp) => {
  expect(r.response?.message?.flags).toBe(EPHEMERAL);
  expect(r.response?.message?.content).toMatch(pattern);
  expect(r.response?.message?.content).not.toMatch(/Something went wrong/);
};

describe('untrusted input', () => {
  it('a malformed gateway event is dropped and the bot keeps answering', async () => {
    // A user command with no `resolved`: discord.js throws building it.
    const bad = await h.api.rawInteraction({ user: 'alice', channel: 'general', type: 2, data: { id: '1', name: 'knucklebones', type: 2, target_id: '123' }, wait_ms: 2000 });
    expect(bad.response).toBeNull();
    const ok = await h.api.command({ user: 'alice', channel: 'general', name: 'knucklebones', options: { subcommand: 'help' } });
    expect(ok.response?.message?.content).toMatch(/How to play Knucklebones/);
    // It ends with where the full rules are (tests/architecture/docs.test.ts: for every game).
    expect(ok.response?.message?.content).toMatch(/`docs\/rules\/knucklebones\.md` in Stonehall's repository\.$/);
  });

  it('a game button with a forged message id never rewrites the message it claims to come from', async () => {
    const a = await kbGame('alice', 'bob');
    const b = await kbGame('carol', 'dave');
    // Everything the two starts send has been delivered before the board is read.
    await h.settle();
    const before = (await h.api.messages('knucklebones', 'alice')).messages.find((m) => m.id === b.boardId)!;
    const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: a.gameId } });
    const mover = h.emulator.users.alice === (g.state as { turn: string }).turn ? 'alice' : 'bob';
    // A legal move of game A, sent as if clicked on game B's board: played, answered privately.
    const r = await h.api.rawInteraction({ user: mover, channel: 'knucklebones', type: 3, data: { custom_id: `kb:place:${a.gameId}:${g.version}:1`, component_type: 2 }, message: b.boardId });
    expect(r.response?.message?.flags).toBe(EPHEMERAL);
    // Nor later, when the move's deliveries are made.
    await h.settle();
    const after = (await h.api.messages('knucklebones', 'alice')).messages.find((m) => m.id === b.boardId)!;
    expect(after.embeds).toEqual(before.embeds);
    expect(buttons(after)).toEqual(buttons(before));
    // The platform's own buttons too: a forfeit's "Keep playing" or a challenge's Decline on a board.
    await h.api.rawInteraction({ user: 'carol', channel: 'knucklebones', type: 3, data: { custom_id: `g:resign-no:${b.gameId}`, component_type: 2 }, message: b.boardId });
    expect((await h.api.messages('knucklebones', 'alice')).messages.find((m) => m.id === b.boardId)!.embeds).toEqual(before.embeds);
  });

  it('a button of one game sent for another kind of game is refused in words', async () => {
    const a = await kbGame('alice', 'carol');
    refused(await h.api.rawInteraction({ user: 'alice', channel: 'knucklebones', type: 3, data: { custom_id: `ts:know:${a.gameId}`, component_type: 2 }, message: a.boardId }), /is a game of Knucklebones, not Tellstones/);
  });

  it('an integer option sent as text is refused in words, not with an error id', async () => {
    refused(await h.api.rawInteraction({ user: 'alice', channel: 'knucklebones', type: 2, data: { id: '1', name: 'knucklebones', type: 1, options: [{ type: 1, name: 'view', options: [{ type: 4, name: 'game', value: 'seven' }] }] } }), /missing or of the wrong kind|not of the kind the command takes/);
  });

  it('menu values that are not the menu’s are refused: an inherited key, a line the game does not have', async () => {
    const res = await h.api.command({ user: 'bob', channel: 'general', name: 'tellstones', options: { subcommand: 'challenge', opponent: 'dave' } });
    const msg = res.response!.message!;
    await h.api.click('dave', msg.id, button(msg, (x) => x.label === 'Accept').custom_id!);
    await h.settle();
    const g = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'tellstones', boardMessageId: msg.id } });
    const turn = (g.state as { turn: string }).turn;
    const mover = turn === h.emulator.users.bob ? 'bob' : 'dave';
    for (const value of ['0:constructor', '0:__proto__', '1:crown']) {
      const r = await h.api.rawInteraction({ user: mover, channel: 'general', type: 3, data: { custom_id: `ts:pl:${g.id}:${g.version}`, component_type: 3, values: [value] }, message: msg.id });
      refused(r, /not one of the menu’s/);
    }
    const place = await h.api.rawInteraction({ user: mover, channel: 'general', type: 3, data: { custom_id: `ts:place:${g.id}:${g.version}:1:crown:left`, component_type: 2 }, message: msg.id });
    refused(place, /not one of the menu’s/);
    expect((await h.db.prisma.game.findUniqueOrThrow({ where: { id: g.id } })).version).toBe(g.version);
  });

  it('a server command sent from DMs is refused and changes nothing', async () => {
    const before = await h.db.prisma.player.findUnique({ where: { id: h.emulator.users.dave } });
    const r = await h.api.rawInteraction({ user: 'dave', channel: 'dm', type: 2, data: { id: '1', name: 'stonehall', type: 1, options: [{ type: 1, name: 'reminders', options: [{ type: 5, name: 'enabled', value: false }] }] } });
    refused(r, /works in a server channel, not in DMs/);
    const after = await h.db.prisma.player.findUnique({ where: { id: h.emulator.users.dave } });
    expect(after?.remindersEnabled ?? true).toBe(before?.remindersEnabled ?? true);
  });
});
