import { SlashCommandBuilder } from '@discordjs/builders';
import { Events, GatewayIntentBits, type TextChannel } from 'discord.js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.client.application!.commands.set([new SlashCommandBuilder().setName('ping').setDescription('pong')]);
  h.onInteraction(async (i) => {
    if (i.isChatInputCommand()) await i.reply(`pong ${i.id}`);
  });
});

afterAll(async () => {
  await h?.stop();
});

const resumed = (h: Harness) => new Promise<number>((resolve) => h.client.once(Events.ShardResume, (_id, replayed) => resolve(replayed)));

describe('gateway', () => {
  it('reports the session through the test API', async () => {
    const { sessions } = await h.emu.gateway();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ connected: true, intents: GatewayIntentBits.Guilds | GatewayIntentBits.DirectMessages, shard: [0, 1] });
  });

  it('drops the connection; discord.js resumes and still receives interactions', async () => {
    const before = (await h.emu.gateway()).sessions[0]!;
    const resume = resumed(h);
    expect((await h.emu.disconnectGateway()).disconnected).toBe(1);
    await resume;
    const after = (await h.emu.gateway()).sessions;
    expect(after).toHaveLength(1);
    expect(after[0]!.id).toBe(before.id); // resumed, not re-identified
    const r = await h.emu.command({ user: 'alice', channel: 'general', name: 'ping' });
    expect(r.response?.message?.content).toBe(`pong ${r.interactionId}`);
  });

  it('replays interactions dispatched while the bot was disconnected', async () => {
    const resume = resumed(h);
    await h.emu.disconnectGateway({ mode: 'terminate' }); // the client sees 1006
    const r = await h.emu.command({ user: 'bob', channel: 'general', name: 'ping' });
    expect(await resume).toBeGreaterThanOrEqual(1);
    expect(r.error).toBeUndefined();
    expect(r.response?.message?.content).toBe(`pong ${r.interactionId}`);
  });

  it('op 7 RECONNECT makes the client resume', async () => {
    const resume = resumed(h);
    await h.emu.disconnectGateway({ mode: 'reconnect' });
    await resume;
    const r = await h.emu.command({ user: 'carol', channel: 'general', name: 'ping' });
    expect(r.response?.type).toBe(4);
  });

  it('dispatches MESSAGE_CREATE to a bot with the message intents', async () => {
    const other = await startHarness({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent, GatewayIntentBits.DirectMessages] });
    try {
      const got = new Promise<string>((resolve) => other.client.once(Events.MessageCreate, (m) => resolve(`${m.author.username}: ${m.content}`)));
      await other.emu.sendMessage({ user: 'dave', channel: 'general', content: 'anyone up for a game?' });
      expect(await got).toBe('dave: anyone up for a game?');
      const channel = (await other.client.channels.fetch(other.emulator.channels.general)) as TextChannel;
      expect(channel.messages.cache.size).toBeGreaterThan(0);
      const dm = new Promise<string>((resolve) => other.client.once(Events.MessageCreate, (m) => resolve(`${m.channel.isDMBased()}: ${m.content}`)));
      await other.emu.sendMessage({ user: 'alice', channel: 'dm', content: 'hello bot' });
      expect(await dm).toBe('true: hello bot');
    } finally {
      await other.stop();
    }
  });

  it('speaks the protocol to a raw client: bad token closes with 4004, unknown session gets op 9', async () => {
    const url = `${h.emulator.gatewayUrl}?v=10&encoding=json`;
    const open = async () => {
      const ws = new WebSocket(url);
      const messages: Array<{ op: number; d: unknown; t?: string | null }> = [];
      ws.on('message', (data) => messages.push(JSON.parse(String(data))));
      const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
      await new Promise((resolve) => ws.once('open', resolve));
      return { ws, messages, closed };
    };
    const a = await open();
    a.ws.send(JSON.stringify({ op: 2, d: { token: 'nope', intents: 1, properties: {} } }));
    expect(await a.closed).toBe(4004);
    expect(a.messages[0]).toMatchObject({ op: 10, d: { heartbeat_interval: 41250 } });

    const b = await open();
    b.ws.send(JSON.stringify({ op: 1, d: null }));
    b.ws.send(JSON.stringify({ op: 6, d: { token: h.emulator.botToken, session_id: 'unknown', seq: 3 } }));
    await new Promise((r) => setTimeout(r, 50));
    expect(b.messages.map((m) => m.op)).toEqual([10, 11, 9]);
    expect(b.messages[2]?.d).toBe(false);
    b.ws.close(1000);

    const c = await open();
    c.ws.send(JSON.stringify({ op: 2, d: { token: h.emulator.botToken, intents: 1, properties: {} } }));
    await new Promise((r) => setTimeout(r, 50));
    expect(c.messages.map((m) => m.t)).toEqual([undefined, 'READY', 'GUILD_CREATE'].map((t) => t ?? null));
    c.ws.close(1000);

    const v9 = new WebSocket(`${h.emulator.gatewayUrl}?v=6&encoding=json`);
    expect(await new Promise((resolve) => v9.on('close', resolve))).toBe(4012);
    const etf = new WebSocket(`${h.emulator.gatewayUrl}?v=10&encoding=etf`);
    expect(await new Promise((resolve) => etf.on('close', resolve))).toBe(4002);
  });
});
