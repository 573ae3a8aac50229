import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, buttons, EPHEMERAL, seedSequence, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * What a moderator and players tripped on when using the features together (the QA walkthrough),
 * through the real client: each test failed before its fix.
 */
let h: Harness;
beforeAll(async () => {
  // Fixed seeds: the autopilot's moves in the practice games below are the same on every run.
  h = await startHarness({ seeds: seedSequence('qa-walkthrough') });
});
afterAll(async () => {
  await h?.close();
});

async function practice(user: string, game: string, bots?: number): Promise<number> {
  const r = await h.api.command({ user, channel: 'general', name: game, options: { subcommand: 'practice', ...(bots ? { bots } : {}) } });
  expect(r.response?.message?.content).toMatch(/Practice/);
  await h.settle();
  const g = await h.db.prisma.game.findFirstOrThrow({ where: { kind: game, status: 'active', seats: { some: { playerId: h.emulator.users[user as 'alice'] } } }, orderBy: { id: 'desc' } });
  return g.id;
}

describe('the QA walkthrough', () => {
  it('/krellstones help answers with the rules, as every other game’s help does', async () => {
    const r = await h.api.command({ user: 'alice', channel: 'general', name: 'krellstones', options: { subcommand: 'help' } });
    expect(r.response?.message?.flags).toBe(EPHEMERAL);
    expect(r.response?.message?.content).toMatch(/How to play Krellstones/);
  });

  it('Krellstones points to /krellstones start to start a game of one’s own (its join needs a host)', async () => {
    const r = await h.api.command({ user: 'alice', channel: 'general', name: 'krellstones', options: { subcommand: 'abandon' } });
    expect(r.response?.message?.flags).toBe(EPHEMERAL);
    expect(r.response?.message?.content).toBe('⚠️ You have no Krellstones game in progress here. Start one with `/krellstones start`.');
  });

  it('a forfeit’s confirmation says what it does in this game, not in every kind of game', async () => {
    const circle = await practice('dave', 'tellstones', 3);
    const team = await h.api.command({ user: 'dave', channel: 'general', name: 'tellstones', options: { subcommand: 'forfeit', game: circle } });
    expect(team.response?.message?.flags).toBe(EPHEMERAL);
    expect(team.response?.message?.content).toBe(`Really forfeit game #${circle}? Your whole team loses. This cannot be undone.`);
    const table = await practice('carol', 'keystone', 2);
    const own = await h.api.command({ user: 'carol', channel: 'general', name: 'keystone', options: { subcommand: 'forfeit', game: table } });
    expect(own.response?.message?.content).toBe(`Really forfeit game #${table}? The autopilot plays your seat for the rest of the game, and you rank last. This cannot be undone.`);
  });

  it('a player whose DMs are closed hears of the game’s end once in the channel: the result message, not also a mention', async () => {
    await h.api.setDmsOpen('bob', false);
    try {
      const id = await practice('bob', 'knucklebones');
      const ask = await h.api.command({ user: 'bob', channel: 'general', name: 'knucklebones', options: { subcommand: 'forfeit', game: id } });
      await h.api.click('bob', ask.response!.message!.id, button(ask.response!.message!, (b) => b.label === 'Yes, forfeit').custom_id!);
      await h.settle();
      const said = (await h.api.messages('general', 'carol')).messages.filter((m) => (m.content ?? '').includes(`Knucklebones #${id}** is over`));
      expect(said.map((m) => m.content)).toHaveLength(1);
      expect(said[0]!.content).toMatch(/^🏁/);
    } finally {
      await h.api.setDmsOpen('bob', true);
    }
  });

  it('a peek handed to an autopilot partner in practice is played without a DM to the autopilot (it failed for good, logged as an error)', async () => {
    const id = await practice('dave', 'tellstones', 3);
    const select = async (reply: Awaited<ReturnType<Harness['api']['click']>>, pick: (ids: string[]) => string | undefined) => {
      const msg = reply.response!.message!;
      const menus = (msg.components ?? []).flatMap((r) => (r as { components: { custom_id: string; options?: { value: string }[] }[] }).components);
      const menu = menus.find((m) => pick([m.custom_id]) !== undefined)!;
      expect(menu, JSON.stringify(msg)).toBeDefined();
      return h.api.select('dave', msg.id, menu.custom_id, [menu.options![0]!.value]);
    };
    let handed = false;
    for (let turn = 0; turn < 12 && !handed; turn++) {
      await h.settle();
      const game = await h.db.prisma.game.findUniqueOrThrow({ where: { id } });
      if (game.status !== 'active') break;
      const board = (await h.api.messages('general', 'dave')).messages.find((m) => m.id === game.boardMessageId)!;
      const enabled = (label: string) => buttons(board).some((b) => b.label === label && !b.disabled);
      if (enabled('Peek')) {
        const peek = await h.api.click('dave', board.id, `ts:act:${id}:${game.version}:peek`);
        const r = await select(peek, ([c]) => (c!.startsWith(`ts:peek:${id}:`) && c!.split(':')[4] === '1' ? c : undefined));
        expect(r.response?.message?.content).toMatch(/You handed a peek/);
        handed = true;
      } else if (!enabled('Hide')) {
        // The autopilot challenged or boasted: answer it (any answer) and go on.
        const answer = buttons(board).find((b) => !b.disabled && /^ts:(ans|boa):/.test(b.custom_id ?? '') && b.label !== 'Doubt');
        expect(answer, JSON.stringify(buttons(board))).toBeDefined();
        await h.api.click('dave', board.id, answer!.custom_id!);
      } else {
        const hide = await h.api.click('dave', game.boardMessageId!, `ts:act:${id}:${game.version}:hide`);
        await select(hide, ([c]) => (c!.startsWith(`ts:hide:${id}:`) ? c : undefined));
      }
    }
    expect(handed).toBe(true);
    await h.settle();
    const rows = await h.db.prisma.outbox.findMany({ where: { kind: 'dm' } });
    const toBots = rows.filter((r) => !/^\d+$/.test((r.payload as { userId: string }).userId));
    expect(toBots.map((r) => r.payload)).toEqual([]);
    expect(await h.db.prisma.outbox.findMany({ where: { status: { not: 'sent' } } })).toEqual([]);
  });

  it('a turn mention for a player whose DMs are closed carries no game buttons that would stay live after the turn, only the way to the board', async () => {
    await h.api.setDmsOpen('dave', false);
    try {
      const res = await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'dave' } });
      const msg = res.response!.message!;
      await h.api.click('dave', msg.id, button(msg, (b) => b.label === 'Accept').custom_id!);
      await h.settle();
      const game = await h.db.prisma.game.findFirstOrThrow({ where: { boardMessageId: msg.id } });
      if ((game.state as { turn: string }).turn !== h.emulator.users.dave) {
        await h.api.click('carol', msg.id, `kb:place:${game.id}:${game.version}:1`);
        await h.settle();
      }
      const mentions = (await h.api.messages('knucklebones', 'carol')).messages.filter((m) => m.content.startsWith(`<@${h.emulator.users.dave}> (your DMs are closed`));
      expect(mentions.length).toBeGreaterThan(0);
      for (const m of mentions) {
        expect(m.content).toMatch(/Your turn in \*\*Knucklebones/);
        expect(buttons(m).map((b) => b.label)).toEqual(['Open the board']);
      }
    } finally {
      await h.api.setDmsOpen('dave', true);
    }
  });
});
