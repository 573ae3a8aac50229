import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { aliasOf, button, buttons, EPHEMERAL, expectRefused, startHarness, text, type Harness } from '../helpers/harness.ts';

/**
 * Issue 13, feature 3, through the emulator: a time per move chosen by the challenger within the
 * moderators' limits; `/stonehall vacation` pausing a player's clocks (opponents told, boards
 * showing it); the Nudge button, once per turn.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function gameRow(id: number) {
  return h.db.prisma.game.findUniqueOrThrow({ where: { id }, include: { seats: { orderBy: { seat: 'asc' } } } });
}
async function board(id: number): Promise<APIMessage> {
  const g = await gameRow(id);
  return (await h.api.messages('knucklebones', 'carol')).messages.find((m) => m.id === g.boardMessageId)!;
}
async function challengeAndAccept(a: string, b: string, options: Record<string, unknown> = {}): Promise<{ id: number; challenge: APIMessage }> {
  const res = await h.api.command({ user: a, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: b, ...options } });
  const msg = res.response!.message!;
  if (!msg.components?.length) throw new Error(`no challenge: ${msg.content}`);
  await h.api.click(b, msg.id, button(msg, (x) => x.label === 'Accept').custom_id!);
  await h.settle();
  const game = await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' }, orderBy: { id: 'desc' } });
  return { id: game.id, challenge: msg };
}
async function placeFromBoard(id: number): Promise<void> {
  const g = await gameRow(id);
  const mover = (g.state as unknown as KnucklebonesState).turn!;
  const b = await board(id);
  const col = buttons(b).find((x) => x.custom_id?.startsWith('kb:place') && !x.disabled)!;
  await h.api.click(aliasOf(h, mover), b.id, col.custom_id!);
  await h.settle();
}
const turnOf = async (id: number) => (await gameRow(id)).seats.find((s) => s.deadlineAt !== null)!;
async function finish(id: number): Promise<void> {
  const g = await gameRow(id);
  if (g.status !== 'active') return;
  const who = aliasOf(h, g.seats[0]!.playerId);
  const forfeit = await h.api.command({ user: who, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: id } });
  await h.api.click(who, forfeit.response!.message!.id, button(forfeit.response!.message!, (x) => x.label === 'Yes, forfeit').custom_id!);
  await h.settle();
}

describe('time per move', () => {
  it('the challenger chooses it within the moderators’ limits; deadlines follow it', async () => {
    const set = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'min-move-days': 1, 'max-move-days': 3 } });
    expect(set.response?.message?.content).toMatch(/Time per move a challenger may choose: 1 day to 3 days/);
    await expectRefused(h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'min-move-days': 5 } }), /cannot be longer than the longest/);

    await expectRefused(
      h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob', 'days-per-move': 7 } }),
      /This server allows 1 day to 3 days per move\. Choose `days-per-move` within that, or leave it out for the server's 1 day\./,
    );
    expect(await h.db.prisma.challenge.count()).toBe(0);

    // A table of several, or an intent in a cycle, uses the server's turn limit: refused, nothing made.
    await expectRefused(
      h.api.command({ user: 'alice', channel: 'knucklebones', name: 'crystallia', options: { subcommand: 'join', opponent: 'bob', opponent2: 'carol', 'days-per-move': 2 } }),
      /`days-per-move` is for a challenge of one opponent; a table of Crystallia uses the server's turn limit/,
    );
    expect(await h.db.prisma.gameTable.count()).toBe(0);

    const { id, challenge } = await challengeAndAccept('alice', 'bob', { 'days-per-move': 3 });
    expect(challenge.content).toMatch(/challenges you to \*\*Knucklebones\*\* \(3 days per move\)!/);
    expect((await gameRow(id)).turnLimitMinutes).toBe(3 * 1440);
    expect(text(await board(id))).toContain('⏱️ 3 days per move.');
    let seat = await turnOf(id);
    expect(seat.deadlineAt!.getTime() - seat.turnStartedAt!.getTime()).toBe(3 * DAY);
    // Each new turn gets three days too.
    await placeFromBoard(id);
    seat = await turnOf(id);
    expect(seat.deadlineAt!.getTime() - seat.turnStartedAt!.getTime()).toBe(3 * DAY);
    // Two days of silence (the server's own limit is one): still running; past three, the turn runs out.
    await h.api.advanceClock(2 * DAY);
    expect((await gameRow(id)).status).toBe('active');
    await h.api.advanceClock(DAY + 1000);
    const done = await gameRow(id);
    expect(done.status).toBe('finished');
    expect(done.seats.find((s) => s.playerId === seat.playerId)!.result).toBe('forfeit');
  });
});

describe('Nudge', () => {
  it('the waiting player DMs the player on turn, once per turn; others are refused', async () => {
    const { id } = await challengeAndAccept('carol', 'dave');
    const on = aliasOf(h, (await turnOf(id)).playerId);
    const waiting = on === 'carol' ? 'dave' : 'carol';
    const b = await board(id);
    const nudgeId = button(b, (x) => x.label === 'Nudge').custom_id!;

    await expectRefused(h.api.click(on, b.id, nudgeId), /It is your turn in Knucklebones #\d+: nobody to nudge/);
    await expectRefused(h.api.click('alice', b.id, nudgeId), /Only the players of Knucklebones #\d+ can nudge/);
    const before = (await h.api.dms(on)).messages.length;
    const ok = await h.api.click(waiting, b.id, nudgeId);
    expect(ok.response?.message?.flags).toBe(EPHEMERAL);
    expect(ok.response?.message?.content).toMatch(/Nudged <@\d+>/);
    await h.settle();
    const dms = (await h.api.dms(on)).messages;
    expect(dms.length).toBe(before + 1);
    expect(dms.at(-1)!.content).toMatch(new RegExp(`👋 <@${h.emulator.users[waiting as 'carol']}> is waiting for your move in Knucklebones #${id}\\. Your deadline: <t:\\d+:f>`));
    await expectRefused(h.api.click(waiting, b.id, nudgeId), /already nudged this turn: one nudge per turn/);
    expect((await h.api.dms(on)).messages.length).toBe(before + 1);

    // After a move (the next turn, and the one after it), a nudge is allowed again.
    await placeFromBoard(id);
    await placeFromBoard(id);
    const again = await h.api.click(waiting, (await board(id)).id, nudgeId);
    expect(again.response?.message?.content).toMatch(/Nudged/);
    await h.settle();
    await finish(id);
    // A finished game's board offers no Nudge.
    expect(buttons(await board(id)).some((x) => x.label === 'Nudge')).toBe(false);
  });
});

describe('vacation', () => {
  it('pauses all of a player’s clocks: deadlines pushed back, opponents DMed, boards show it, new turns wait', async () => {
    await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'vacation-days': 5 } });
    const g1 = await challengeAndAccept('alice', 'bob');
    const g2 = await challengeAndAccept('alice', 'carol');
    const aliceId = h.emulator.users.alice;
    // Before the vacation: Alice is to move in g1, her opponent in g2.
    if ((await turnOf(g1.id)).playerId !== aliceId) await placeFromBoard(g1.id);
    if ((await turnOf(g2.id)).playerId === aliceId) await placeFromBoard(g2.id);
    const before1 = await gameRow(g1.id);
    const before2 = await gameRow(g2.id);
    const deadline = (g: Awaited<ReturnType<typeof gameRow>>, p: string) => g.seats.find((s) => s.playerId === p)!.deadlineAt;
    expect(deadline(before1, aliceId)).not.toBeNull();
    expect(deadline(before2, aliceId)).toBeNull();

    await expectRefused(h.api.command({ user: 'alice', channel: 'general', name: 'stonehall', options: { subcommand: 'vacation', days: 6 } }), /You have 5 vacation days left in 2\d{3} \(of 5\)\. Take 5 or fewer\./);
    const r = await h.api.command({ user: 'alice', channel: 'general', name: 'stonehall', options: { subcommand: 'vacation', days: 3 } });
    expect(r.response?.message?.flags).toBe(EPHEMERAL);
    expect(r.response?.message?.content).toMatch(new RegExp(`On vacation until <t:\\d+:f>.*paused in 2 games \\(#${g1.id}, #${g2.id}\\).*2 vacation days left`));
    await h.settle();

    const after1 = await gameRow(g1.id);
    const after2 = await gameRow(g2.id);
    // Her running deadline moved back three days, and so did the job behind it; her opponents' did not move.
    expect(deadline(after1, aliceId)!.getTime() - deadline(before1, aliceId)!.getTime()).toBe(3 * DAY);
    const expiry = await h.db.prisma.job.findFirstOrThrow({ where: { gameId: g1.id, kind: 'timer', status: 'pending' } });
    expect(expiry.dueAt.getTime()).toBe(deadline(after1, aliceId)!.getTime());
    // Her turn DM is edited in place to show the new deadline.
    const newDeadline = Math.floor(deadline(after1, aliceId)!.getTime() / 1000);
    expect((await h.api.dms('alice')).messages.some((m) => m.content.includes(`#${g1.id}`) && m.content.includes(`<t:${newDeadline}:`))).toBe(true);
    const bobId = h.emulator.users.bob;
    const carolId = h.emulator.users.carol;
    expect(deadline(after2, carolId)!.getTime()).toBe(deadline(before2, carolId)!.getTime());
    expect(deadline(after1, bobId)).toBeNull();
    for (const af of [after1, after2]) {
      expect(af.seats.find((s) => s.playerId === aliceId)!.vacationUntil).not.toBeNull();
      // The board says so.
      expect(text(await board(af.id))).toMatch(new RegExp(`⏸️ <@${aliceId}> is on vacation until <t:\\d+:f>: their clock is paused`));
    }
    // Opponents are told, once each, naming the game.
    expect((await h.api.dms('bob')).messages.at(-1)!.content).toMatch(new RegExp(`<@${aliceId}> is on vacation until .* paused in Knucklebones #${g1.id}:`));
    expect((await h.api.dms('carol')).messages.at(-1)!.content).toMatch(new RegExp(`paused in Knucklebones #${g2.id}:`));
    await expectRefused(h.api.command({ user: 'alice', channel: 'general', name: 'stonehall', options: { subcommand: 'vacation', days: 1 } }), /already on vacation until/);

    // A turn of Alice's that begins during the vacation starts its clock when the vacation ends.
    await placeFromBoard(g2.id);
    const seat = (await gameRow(g2.id)).seats.find((s) => s.playerId === aliceId)!;
    expect(seat.deadlineAt!.getTime()).toBe(seat.vacationUntil!.getTime() + DAY);
    await h.api.advanceClock(2 * DAY);
    expect((await gameRow(g1.id)).status).toBe('active');
    expect((await gameRow(g2.id)).status).toBe('active');

    // The vacation ends: the boards stop showing it; the status shows the days left.
    await h.api.advanceClock(DAY + 1000);
    for (const id of [g1.id, g2.id]) {
      const row = await gameRow(id);
      expect(row.status).toBe('active');
      expect(row.seats.find((s) => s.playerId === aliceId)!.vacationUntil).toBeNull();
      expect(text(await board(id))).not.toMatch(/on vacation/);
    }
    const status = await h.api.command({ user: 'alice', channel: 'general', name: 'stonehall', options: { subcommand: 'vacation' } });
    expect(status.response?.message?.content).toMatch(/You have 2 of 5 vacation days left/);
    await finish(g1.id);
    await finish(g2.id);
  });
});
