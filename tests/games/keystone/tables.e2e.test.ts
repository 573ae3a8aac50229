import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, EPHEMERAL, expectRefused, startHarness, text, type Harness } from '../../helpers/harness.ts';
import { board } from './e2e.ts';

/**
 * How a Keystone match starts in a server without cycles: `/keystone join` names 2 or 3 players
 * (they accept with the button, the game starts when all have); `/keystone table` opens 4 seats
 * that the host may start with 3; `/keystone practice` takes 2 or 3 autopilot seats.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('starting Keystone', () => {
  it('/keystone join names two or three players: the game starts when all accept', async () => {
    await expectRefused(
      h.api.command({ user: 'alice', channel: 'general', name: 'keystone', options: { subcommand: 'join', opponent: 'bob', opponent2: 'bob' } }),
      /You named someone twice/,
    );
    const r = await h.api.command({ user: 'alice', channel: 'general', name: 'keystone', options: { subcommand: 'join', opponent: 'bob', opponent2: 'carol' } });
    const invite = r.response!.message!;
    expect(invite.content).toMatch(new RegExp(`<@${h.emulator.users.bob}> <@${h.emulator.users.carol}>, <@${h.emulator.users.alice}> invites you to a table`));
    const u = h.emulator.users;
    // Each seat shows the player it is held for, not "— free —".
    expect(invite.content).toContain(`**Seat 1** <@${u.alice}> · **Seat 2** <@${u.bob}> ⏳ invited · **Seat 3** <@${u.carol}> ⏳ invited`);
    const accept = button(invite, (b) => b.label === 'Accept').custom_id!;
    await expectRefused(h.api.click('dave', invite.id, accept), /This table is for/);
    const carolIn = await h.api.click('carol', invite.id, accept);
    expect(carolIn.response?.type).toBe(7);
    expect(carolIn.response?.message?.content).toContain(`**Seat 1** <@${u.alice}> · **Seat 2** <@${u.bob}> ⏳ invited · **Seat 3** <@${u.carol}> ✅`);
    expect(await h.db.prisma.game.count({ where: { kind: 'keystone' } })).toBe(0);
    expect((await h.api.click('bob', invite.id, accept)).response?.type).toBe(7);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'keystone' }, include: { seats: { orderBy: { seat: 'asc' } } } });
    // Seats in the order named, as the table showed them (Carol accepted first).
    expect(game.seats.map((s) => s.playerId)).toEqual([h.emulator.users.alice, h.emulator.users.bob, h.emulator.users.carol]);
    expect(game.boardMessageId).toBe(invite.id);
    const b = await board(h, game.id, 'general');
    expect(text(b)).toMatch(/Order of play:/);
    // Each player's first turn DM or My hand shows twelve cards.
    const hand = await h.api.click('bob', b.id, `ks:hand:${game.id}`);
    expect(hand.response?.message?.flags).toBe(EPHEMERAL);
    expect(hand.response?.message?.content).toMatch(/Your hand\*\* in Keystone #\d+ \(12 cards\)/);

    // Bob gives up with the board's Forfeit…: the autopilot takes his seat, everyone is told, the match goes on.
    const ask = await h.api.click('bob', b.id, button(b, (x) => x.label === 'Forfeit…').custom_id!);
    expect(ask.response?.message?.content).toMatch(/autopilot plays your seat for the rest of the game, and you rank last/);
    const yes = await h.api.click('bob', ask.response!.message!.id, button(ask.response!.message!, (x) => x.label === 'Yes, forfeit').custom_id!);
    expect(yes.response?.message?.content).toMatch(/You left game #\d+: the autopilot plays your seat from now on/);
    await h.settle();
    const after = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    expect(after.status).toBe('active');
    expect((after.state as { out: string[] }).out).toEqual([h.emulator.users.bob]);
    for (const a of ['alice', 'carol'] as const) {
      expect((await h.api.dms(a)).messages.some((m) => m.content.includes(`<@${h.emulator.users.bob}> gave up in Keystone #${game.id}. The autopilot plays their seat`))).toBe(true);
    }
    expect(text(await board(h, game.id, 'general'))).toMatch(new RegExp(`<@${h.emulator.users.bob}> \\(\\d+ cards?, 🏳️ autopilot\\)`));
  });

  it('a Decline clicked before the bot has recorded the invitation still closes that message', async () => {
    await h.api.addFault({ route: 'POST /interactions/:id/:token/callback', delayMs: 1500 });
    const r = await h.api.command({ user: 'dave', channel: 'general', name: 'keystone', options: { subcommand: 'join', opponent: 'bob', opponent2: 'carol' } });
    const invite = r.response!.message!;
    const table = await h.db.prisma.gameTable.findFirstOrThrow({ where: { hostId: h.emulator.users.dave }, orderBy: { id: 'desc' } });
    expect(table.messageId).toBeNull();
    expect((await h.api.click('carol', invite.id, button(invite, (b) => b.label === 'Decline').custom_id!)).response?.type).toBe(7);
    await h.bot.idle(); // the late answer arrives; the bot records the invitation's id
    await h.settle();
    const now = (await h.api.messages('general', 'moderator')).messages.find((m) => m.id === invite.id)!;
    expect(now.content).toMatch(/declined: no game starts/);
    expect(now.components ?? []).toHaveLength(0);
    expect((await h.db.prisma.gameTable.findUniqueOrThrow({ where: { id: table.id } })).messageId).toBe(invite.id);
  });

  it('/keystone table: four seats, the host starts with three; nobody else can start it', async () => {
    const r = await h.api.command({ user: 'dave', channel: 'general', name: 'keystone', options: { subcommand: 'table' } });
    let table = r.response!.message!;
    const start = () => button(table, (b) => b.label?.startsWith('Start') ?? false);
    // Start is offered once three are seated.
    expect(start().disabled).toBe(true);
    for (const who of ['alice', 'bob']) table = (await h.api.click(who, table.id, button(table, (b) => b.label === 'Join').custom_id!)).response!.message!;
    expect(start().disabled ?? false).toBe(false);
    expect(start().label).toBe('Start (3)');
    await expectRefused(h.api.click('alice', table.id, start().custom_id!), /Only the host, <@\d+>, can start this table early/);
    expect((await h.api.click('dave', table.id, start().custom_id!)).response?.type).toBe(7);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'keystone', boardMessageId: table.id }, include: { seats: true } });
    expect(game.seats).toHaveLength(3);
    expect(text(await board(h, game.id, 'general'))).toMatch(/Game 1 of 2 · trick 1 of 12/);
  });

  it('/keystone practice takes 2 or 3 autopilot seats', async () => {
    const r = await h.api.command({ user: 'carol', channel: 'general', name: 'keystone', options: { subcommand: 'practice', bots: 3 } });
    expect(r.response?.message?.content).toMatch(/Practice Keystone #\d+/);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'keystone', practice: true }, include: { seats: true } });
    expect(game.seats.filter((s) => s.autopilot)).toHaveLength(3);
    // The autopilot plays at once: the game waits for Carol.
    const st = game.state as { players: string[]; turn: number };
    expect(st.players[st.turn]).toBe(h.emulator.users.carol);
  });
});
