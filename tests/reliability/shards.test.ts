import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger, startEmulator, type Emulator } from '@stonehall/discord-emulator';
import { deployCommands } from '../../commands/deploy.ts';
import type { BotProcess } from '../helpers/bot-process.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { button, buttons } from '../helpers/harness.ts';
import { botProcess, until } from './support.ts';

/**
 * Sharding as Discord requires past 2,500 servers: two Stonehall processes with two shards each
 * (SHARD_COUNT=4, SHARD_IDS=0,1 and 2,3) on one database, over four servers. The emulator routes
 * each server's events to the shard Discord would, (guild_id >> 22) % 4, and DMs to shard 0; each
 * server's commands are answered once, by the process that holds its shard, and the deadlines of
 * every game fire once whichever process sweeps them.
 */
const server = {
  bot: { username: 'Stonehall' },
  users: [
    { alias: 'owner', username: 'owner', globalName: 'Owner' },
    { alias: 'alice', username: 'alice', globalName: 'Alice' },
    { alias: 'bob', username: 'bob', globalName: 'Bob' },
  ],
  guilds: [
    { name: 'North', owner: 'owner', channels: [{ name: 'games' }] },
    { name: 'East', owner: 'owner', channels: [{ name: 'games' }] },
    { name: 'South', owner: 'owner', channels: [{ name: 'games' }] },
    { name: 'West', owner: 'owner', channels: [{ name: 'games' }] },
  ],
} as const;

let db: TestDatabase;
let emulator: Emulator<typeof server>;
const procs: BotProcess[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  // Without rate limits (see tests/helpers/harness.ts): this is about which shard answers, and
  // nothing here is about rate limits.
  emulator = await startEmulator({ server, logger: silentLogger, interactionTimeoutMs: 10_000, recommendedShards: 4, rateLimits: false });
  // Global commands: every server has them.
  await deployCommands({ token: emulator.botToken, applicationId: emulator.applicationId, apiBase: emulator.apiBase });
});
afterAll(async () => {
  for (const p of procs) await p.stop();
  await emulator?.close();
  await db?.drop();
});

function bot(shardIds: string): BotProcess {
  const p = botProcess(emulator, db, { SHARD_COUNT: '4', SHARD_IDS: shardIds, LOG_LEVEL: 'debug' });
  procs.push(p);
  return p;
}

const handled = (p: BotProcess, interactionId: string) => p.log.some((l) => l.includes('"interaction handled"') && l.includes(`"interaction":"${interactionId}"`));

describe('two processes, two shards each, four servers', () => {
  it('answer each server from the process holding its shard, and fire each deadline once', async () => {
    const gatewayBot = await fetch(`${emulator.apiBase}/v10/gateway/bot`, { headers: { authorization: `Bot ${emulator.botToken}` } }).then((r) => r.json() as Promise<{ shards: number }>);
    expect(gatewayBot.shards).toBe(4);
    const [a, b] = [bot('0,1'), bot('2,3')];
    await Promise.all([a.start(), b.start()]);
    const sessions = (await emulator.client.gateway()).sessions.filter((s) => s.connected);
    expect(sessions.map((s) => s.shard).sort()).toEqual([[0, 4], [1, 4], [2, 4], [3, 4]]);

    const games: number[] = [];
    for (const [k, guild] of emulator.guilds.entries()) {
      const shard = Number((BigInt(guild.id) >> 22n) % 4n);
      expect(shard).toBe(k);
      const owner = shard < 2 ? a : b;
      const other = shard < 2 ? b : a;
      const challenge = await emulator.client.command({ user: 'alice', channel: guild.channels.games, name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } });
      expect(challenge.response?.type).toBe(4);
      await until(async () => handled(owner, challenge.interactionId), `${guild.name}'s command in the log`, 10_000);
      expect(handled(other, challenge.interactionId)).toBe(false);
      const msg = challenge.response!.message! as APIMessage;
      const accept = await emulator.client.click('bob', msg.id, button(msg, (x) => x.label === 'Accept').custom_id!);
      expect(accept.response?.type).toBe(7);
      const game = await db.prisma.game.findFirstOrThrow({ where: { guildId: guild.id }, orderBy: { id: 'desc' } });
      games.push(game.id);
    }

    // A turn DM's button: DMs are on shard 0, the first process.
    const firstGame = await db.prisma.game.findUniqueOrThrow({ where: { id: games[0]! } });
    const onTurn = (firstGame.state as { turn: string }).turn === emulator.users.alice ? 'alice' : 'bob';
    let dm: APIMessage | undefined;
    await until(async () => {
      dm = (await emulator.client.dms(onTurn)).messages.findLast((m) => buttons(m).some((x) => x.custom_id?.startsWith(`kb:place:${games[0]}:`)));
      return dm !== undefined;
    }, 'the turn DM');
    const col = buttons(dm!).find((x) => x.custom_id?.startsWith('kb:place:') && !x.disabled)!;
    const click = await emulator.client.click(onTurn, dm!.id, col.custom_id!);
    await until(async () => handled(a, click.interactionId), 'the DM click in shard 0\'s log', 10_000);
    expect(handled(b, click.interactionId)).toBe(false);

    // A day later every game's idle player forfeits: each deadline fires once across the processes.
    await emulator.client.advanceClock(25 * 3_600_000);
    await until(async () => (await db.prisma.game.count({ where: { id: { in: games }, status: 'active' } })) === 0, 'every deadline', 30_000);
    await until(async () => (await db.prisma.outbox.count({ where: { status: 'pending' } })) === 0, 'the outbox to drain');
    const fired = (p: BotProcess) => p.log.filter((l) => l.includes('"job fired"')).length;
    const jobs = await db.prisma.job.count({ where: { gameId: { in: games }, status: 'done' } });
    expect(fired(a) + fired(b)).toBe(jobs);
    const forfeits = await db.prisma.move.count({ where: { gameId: { in: games }, actorId: 'system' } });
    expect(forfeits).toBe(games.length);
    expect((await emulator.client.rejections()).rejections).toEqual([]);
  }, 120_000);
});
