import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../../commands/index.ts';
import { startBot, type Bot } from '../../src/bot/index.ts';
import { games } from '../../src/games/index.ts';
import { silentLogger } from '../../src/log.ts';
import { button, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * A DM channel is opened once per player, not once per process: its id (stable for a bot and a
 * user) is stored on the player, so a second process (a worker, a restart, a swept cache) posts
 * straight to it. A stored id Discord no longer knows is forgotten and a new channel opened;
 * closed DMs still fall back to a mention in the game's channel. Through the real bot, a second
 * real bot process (a REST-only worker) and the emulator.
 */
let h: Harness;
let worker: Bot | null = null;
let gameChannelId = '';

beforeAll(async () => {
  h = await startHarness();
  const res = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'dave' } });
  const challenge = res.response!.message!;
  await h.api.click('dave', challenge.id, button(challenge, (b) => b.label === 'Accept').custom_id!);
  await h.settle();
  gameChannelId = (await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' } })).channelId;
  // The first process DMs both players (the game started: one has a turn DM already).
  for (const user of ['alice', 'dave'] as const) {
    await h.db.prisma.outbox.create({ data: { kind: 'text-dm', payload: { userId: h.emulator.users[user]!, fallbackChannelId: gameChannelId, content: `hello ${user}` } } });
  }
  await h.settle();
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
});

/** A new process's deliverer: nothing of the first bot's memory (its DM channels included). */
async function freshWorker(): Promise<Bot> {
  await worker?.stop();
  worker = await startBot({ ctx: { db: h.db.prisma, clock: h.clock, log: silentLogger }, games, commands, token: h.emulator.botToken, apiBase: h.emulator.apiBase, ticks: false, gateway: false });
  return worker;
}

/** Queues a plain DM to `user` and delivers it from a fresh process; what it cost in DM channel opens, and the row. */
async function textDmFromFreshProcess(user: 'alice' | 'dave', content: string) {
  const userId = h.emulator.users[user]!;
  const row = await h.db.prisma.outbox.create({ data: { kind: 'text-dm', payload: { userId, fallbackChannelId: gameChannelId, content } } });
  const w = await freshWorker();
  await h.api.resetRestStats();
  await w.settle();
  const stats = await h.api.restStats();
  return { opens: stats.routes['POST /users/@me/channels']?.requests ?? 0, row: await h.db.prisma.outbox.findUniqueOrThrow({ where: { id: row.id } }) };
}

describe('stored DM channels', () => {
  it('the first process stored both players’ DM channels: a DM from another process opens none', async () => {
    const aliceDms = await h.api.dms('alice');
    const alice = await h.db.prisma.player.findUniqueOrThrow({ where: { id: h.emulator.users.alice! } });
    expect(alice.dmChannelId).toBe(aliceDms.channel!.id);
    const { opens, row } = await textDmFromFreshProcess('alice', 'stored-channel check');
    expect(row.status).toBe('sent');
    expect(opens).toBe(0);
    const after = await h.api.dms('alice');
    expect(after.channel!.id).toBe(aliceDms.channel!.id);
    expect(after.messages.at(-1)!.content).toBe('stored-channel check');
  });

  it('a game’s turn DM from another process (its seat and stored channel read in one query) opens none', async () => {
    const turn = await h.db.prisma.outbox.findFirstOrThrow({ where: { kind: 'dm', status: 'sent', payload: { path: ['notification', 'type'], equals: 'turn' } } });
    const userId = (turn.payload as { userId: string }).userId;
    const before = (await h.api.messages('dm', Object.entries(h.emulator.users).find(([, id]) => id === userId)![0])).messages.length;
    const row = await h.db.prisma.outbox.create({ data: { kind: 'dm', payload: turn.payload as object } });
    const w = await freshWorker();
    await h.api.resetRestStats();
    await w.settle();
    const stats = await h.api.restStats();
    expect((await h.db.prisma.outbox.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('sent');
    expect(stats.routes['POST /users/@me/channels']?.requests ?? 0).toBe(0);
    expect(stats.routes['POST /channels/:channelId/messages']?.requests).toBe(1);
    const alias = Object.entries(h.emulator.users).find(([, id]) => id === userId)![0];
    expect((await h.api.messages('dm', alias)).messages.length).toBe(before + 1);
  });

  it('a stored id Discord does not know (10003) is forgotten, a channel opened once, stored, and the DM sent', async () => {
    const daveId = h.emulator.users.dave!;
    const real = (await h.api.dms('dave')).channel!.id;
    await h.db.prisma.player.update({ where: { id: daveId }, data: { dmChannelId: '1000000000000000001' } });
    const { opens, row } = await textDmFromFreshProcess('dave', 'stale-channel check');
    expect(row.status).toBe('sent');
    expect(row.result).not.toMatch(/^fallback/);
    expect(opens).toBe(1);
    expect((await h.db.prisma.player.findUniqueOrThrow({ where: { id: daveId } })).dmChannelId).toBe(real);
    expect((await h.api.dms('dave')).messages.at(-1)!.content).toBe('stale-channel check');
  });

  it('closed DMs with a stored channel still fall back to a mention in the game’s channel, and keep the stored id', async () => {
    const aliceId = h.emulator.users.alice!;
    const stored = (await h.db.prisma.player.findUniqueOrThrow({ where: { id: aliceId } })).dmChannelId;
    await h.api.setDmsOpen('alice', false);
    try {
      const { opens, row } = await textDmFromFreshProcess('alice', 'closed-dm check');
      expect(row.status).toBe('sent');
      expect(row.result).toMatch(/^fallback:/);
      expect(opens).toBe(0);
      const channel = await h.api.messages(gameChannelId);
      expect(channel.messages.at(-1)!.content).toBe(`<@${aliceId}> (your DMs are closed, so here it is) closed-dm check`);
      expect((await h.db.prisma.player.findUniqueOrThrow({ where: { id: aliceId } })).dmChannelId).toBe(stored);
    } finally {
      await h.api.setDmsOpen('alice', true);
    }
  });
});
