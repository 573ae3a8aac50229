import { Client } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, silentLogger as emulatorSilent } from '@stonehall/discord-emulator';
import { DiscordDeliverer } from '../../src/bot/deliver.ts';
import { startDemoEmulator, type DemoEmulator } from '../../src/dev/demo-server.ts';
import { games } from '../../src/games/index.ts';
import { Dispatcher } from '../../src/outbox/dispatcher.ts';
import { enqueue } from '../../src/services/notifications.ts';
import { testContext } from '../helpers/context.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * A row waiting on a busy channel holds up only the rows that must follow it (the same channel,
 * game or recipient), not the rest of the outbox: with one message per channel per window, a
 * channel's second message waits for the window while the DMs claimed after it are delivered.
 * The real deliverer (discord.js, which waits out a bucket by its headers) against the emulator,
 * on real Postgres.
 */
let db: TestDatabase;
let emulator: DemoEmulator;
let client: Client;
beforeAll(async () => {
  db = await createTestDatabase();
  // One message per channel per 15 s: far longer than the DMs below take, whatever the load.
  emulator = await startDemoEmulator({ logger: emulatorSilent, rateLimits: { routes: [{ route: 'POST /channels/:channelId/messages', limit: 1, windowMs: 15_000 }] } });
  client = new Client({ intents: [], rest: { api: emulator.apiBase } });
  client.rest.setToken(emulator.botToken);
});
afterAll(async () => {
  await client?.destroy();
  await emulator?.close();
  await db?.drop();
});

describe('the dispatcher and a busy channel', () => {
  it('delivers the DMs claimed after a row waiting on its channel\'s bucket, and that channel\'s messages in order', async () => {
    const ctx = testContext(db);
    const channelId = emulator.channels.knucklebones;
    const players = Array.from({ length: 6 }, (_, i) => addMember(emulator.state, emulator.guildId, `busy${i}`));
    await db.prisma.$transaction(async (tx) => {
      for (const content of ['first', 'second']) await enqueue(tx, 'channel-message', { channelId, content, allowedUserIds: [] }, ctx.clock.now());
      for (const userId of players) await enqueue(tx, 'text-dm', { userId, fallbackChannelId: channelId, content: `hello ${userId}` }, ctx.clock.now());
    });
    // Batches of 2: the two channel messages are claimed first, the DMs after them.
    const dispatcher = new Dispatcher(ctx, new DiscordDeliverer(client, ctx, games), { batch: 2 });
    const draining = dispatcher.drain();
    const inChannel = () => emulator.state.messagesIn(channelId).filter((m) => m.authorId === emulator.botUserId).map((m) => m.content);
    const dmsDelivered = () => players.filter((id) => {
      const dm = emulator.state.dmChannelOf(id);
      return dm !== undefined && emulator.state.messagesIn(dm.id).length === 1;
    }).length;
    await emulator.client.waitFor(async () => dmsDelivered() === players.length, { timeoutMs: 60_000, what: 'the DMs' });
    // Every DM is out while the channel's second message still waits for its bucket.
    expect(inChannel()).toEqual(['first']);
    expect(await draining).toBe(8);
    expect(inChannel()).toEqual(['first', 'second']);
    expect(await db.prisma.outbox.count({ where: { status: 'sent' } })).toBe(8);
  });
});
