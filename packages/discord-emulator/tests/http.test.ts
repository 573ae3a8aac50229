import { SlashCommandBuilder } from '@discordjs/builders';
import { HTTPError, RESTEvents, Routes, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.ts';

let h: Harness;
let api: string;
let auth: Record<string, string>;

beforeAll(async () => {
  h = await startHarness();
  api = `${h.emulator.apiBase}/v10`;
  auth = { authorization: `Bot ${h.emulator.botToken}` };
  await h.client.application!.commands.set([new SlashCommandBuilder().setName('ping').setDescription('pong')]);
});

afterAll(async () => {
  await h?.stop();
});

describe('REST surface', () => {
  it('routes a literal segment before a parameter: GET …/guilds/:guild/commands/permissions is a list (issue 16, defect 1)', async () => {
    const res = await fetch(`${api}/applications/${h.emulator.applicationId}/guilds/${h.emulator.guildId}/commands/permissions`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    // The command route next to it still takes a command id.
    const unknown = await fetch(`${api}/applications/${h.emulator.applicationId}/guilds/${h.emulator.guildId}/commands/123456789012345678`, { headers: auth });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: number }).code).toBe(10063);
  });

  it("gives the application object every field Discord's spec requires (issue 16, defect 2)", async () => {
    for (const route of ['/applications/@me', '/oauth2/applications/@me']) {
      const app = (await (await fetch(`${api}${route}`, { headers: auth })).json()) as Record<string, unknown>;
      expect(app).toMatchObject({
        id: h.emulator.applicationId,
        flags_new: expect.stringMatching(/^\d+$/),
        approximate_user_authorization_count: 0,
        explicit_content_filter: 0,
        eligible_oauth2_scopes: expect.arrayContaining(['bot', 'applications.commands']),
      });
      expect(String(app.flags)).toBe(app.flags_new);
    }
  });

  it('gives the guild object home_header and region (issue 16, defect 3)', async () => {
    for (const query of ['', '?with_counts=true']) {
      const guild = (await (await fetch(`${api}/guilds/${h.emulator.guildId}${query}`, { headers: auth })).json()) as Record<string, unknown>;
      expect(guild).toHaveProperty('home_header', null);
      expect(typeof guild.region).toBe('string');
    }
  });

  it('requires the bot token on bot routes', async () => {
    const res = await fetch(`${api}/users/@me`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    const ok = await fetch(`${api}/users/@me`, { headers: auth });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: h.emulator.botUserId, bot: true, username: 'EmulatorBot' });
  });

  it('serves the gateway URL under v10, v9 and unversioned paths', async () => {
    for (const base of [`${h.emulator.apiBase}/v10`, `${h.emulator.apiBase}/v9`, h.emulator.apiBase]) {
      const body = await (await fetch(`${base}/gateway/bot`, { headers: auth })).json();
      expect(body).toMatchObject({ url: h.emulator.gatewayUrl, shards: 1, session_start_limit: { max_concurrency: 1 } });
    }
  });

  it('answers unknown routes and objects with Discord errors', async () => {
    const notFound = await fetch(`${api}/nope/nothing`, { headers: auth });
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toEqual({ message: '404: Not Found', code: 0 });
    const cases: Array<[string, number]> = [
      [`/channels/123456789012345678`, 10003],
      [`/users/123456789012345678`, 10013],
      [`/guilds/123456789012345678`, 10004],
      [`/channels/${h.emulator.channels.general}/messages/123456789012345678`, 10008],
    ];
    for (const [path, code] of cases) {
      const res = await fetch(`${api}${path}`, { headers: auth });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: number }).code).toBe(code);
    }
    const bad = await fetch(`${api}/channels/general`, { headers: auth });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { channel_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "general" is not snowflake.' }] } },
    });
    const unknownInteraction = await fetch(`${api}/interactions/123456789012345678/token/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 4, data: { content: 'x' } }),
    });
    expect(unknownInteraction.status).toBe(404);
    expect(((await unknownInteraction.json()) as { code: number }).code).toBe(10062);
  });

  it('interaction callbacks: 204 without body or content type; with_response returns the callback object', async () => {
    const seen: Array<{ status: number; type: string | null; body: string } | unknown> = [];
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      const res = await fetch(`${api}/interactions/${i.id}/${i.token}/callback?with_response=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 4, data: { content: 'raw reply' } }),
      });
      seen.push(await res.json());
      const follow = await fetch(`${api}/webhooks/${i.applicationId}/${i.token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'no wait' }),
      });
      seen.push({ status: follow.status, type: follow.headers.get('content-type'), body: await follow.text() });
    });
    const r = await h.emu.command({ user: 'alice', channel: 'general', name: 'ping' });
    await h.emu.waitFor(async () => seen.length === 2);
    expect(seen[0]).toMatchObject({
      interaction: { id: r.interactionId, type: 2, response_message_id: r.response?.message?.id, response_message_loading: false, response_message_ephemeral: false },
      resource: { type: 4, message: { content: 'raw reply', webhook_id: h.emulator.applicationId } },
    });
    expect(seen[1]).toEqual({ status: 204, type: null, body: '' });
  });

  it('injects 429s with Discord headers; discord.js waits and retries', async () => {
    const channel = (await h.client.channels.fetch(h.emulator.channels.general)) as TextChannel;
    await h.emu.addFault({ route: 'POST /channels/:id/messages', status: 429, retryAfter: 0.1 });
    const raw = await fetch(`${api}/channels/${h.emulator.channels.general}/messages`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'raw' }),
    });
    expect(raw.status).toBe(429);
    expect(await raw.json()).toEqual({ message: 'You are being rate limited.', retry_after: 0.1, global: false });
    expect(raw.headers.get('retry-after')).toBe('0.1');
    expect(raw.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(raw.headers.get('x-ratelimit-scope')).toBe('user');

    await h.emu.addFault({ route: 'POST /channels/:id/messages', status: 429, retryAfter: 0.1 });
    let limited = 0;
    const onLimit = () => limited++;
    h.client.rest.on(RESTEvents.RateLimited, onLimit);
    const started = Date.now();
    const m = await channel.send('after the limit');
    h.client.rest.off(RESTEvents.RateLimited, onLimit);
    expect(m.content).toBe('after the limit');
    expect(limited).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect((await h.emu.faults()).faults).toEqual([]);
  });

  it('injects 500s: retried by discord.js, surfaced once retries run out', async () => {
    const channel = (await h.client.channels.fetch(h.emulator.channels.general)) as TextChannel;
    await h.emu.addFault({ route: 'POST /channels/:id/messages', status: 500 });
    expect((await channel.send('survives one 500')).content).toBe('survives one 500');
    await h.emu.addFault({ route: 'POST /channels/:id/messages', status: 500, count: 10 });
    const err = await channel.send('fails').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HTTPError);
    expect((err as HTTPError).status).toBe(500);
    await h.emu.clearFaults();
  });

  it('a request that arrives late is handled when it arrives: a later one overtakes it; delays and errors are one of a kind', async () => {
    const channel = (await h.client.channels.fetch(h.emulator.channels.general)) as TextChannel;
    const m = await channel.send('first text');
    await h.emu.addFault({ route: `PATCH /channels/:id/messages/${m.id}`, arriveAfterMs: 400 });
    const late = fetch(`${api}/channels/${m.channelId}/messages/${m.id}`, { method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'sent first' }) });
    await expect.poll(async () => (await h.emu.faults()).faults.length, { interval: 10 }).toBe(0);
    const overtaking = await fetch(`${api}/channels/${m.channelId}/messages/${m.id}`, { method: 'PATCH', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ content: 'sent second' }) });
    expect(overtaking.status).toBe(200);
    expect(h.emulator.state.messages.get(m.id)?.content).toBe('sent second');
    expect((await late).status).toBe(200);
    expect(h.emulator.state.messages.get(m.id)?.content).toBe('sent first');
    const both = await fetch(`${h.emulator.url}/_test/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ route: '*', delayMs: 10, arriveAfterMs: 10 }) });
    expect(both.status).toBe(400);
    expect(await both.text()).toMatch(/one of status/);
  });

  it('accepts file uploads and serves them back', async () => {
    const channel = (await h.client.channels.fetch(h.emulator.channels.general)) as TextChannel;
    const m = await channel.send({ content: 'the board', files: [{ attachment: Buffer.from('hello board'), name: 'board.txt' }] });
    const a = m.attachments.first()!;
    expect(a.name).toBe('board.txt');
    expect(a.size).toBe(11);
    const res = await fetch(a.url);
    expect(await res.text()).toBe('hello board');
    const edited = await m.edit({ content: 'no file', attachments: [] });
    expect(edited.attachments.size).toBe(0);
  });

  it("holds uploads to Discord's limits: 10 attachments a message, 10 MiB a file", async () => {
    const channel = (await h.client.channels.fetch(h.emulator.channels.games)) as TextChannel;
    const file = (i: number, bytes = 4) => ({ attachment: Buffer.alloc(bytes, i), name: `f${i}.png` });
    const ten = await channel.send({ files: Array.from({ length: 10 }, (_, i) => file(i)) });
    expect(ten.attachments.size).toBe(10);
    const eleven = await channel.send({ files: Array.from({ length: 11 }, (_, i) => file(i)) }).catch((e: unknown) => e);
    expect(eleven).toMatchObject({ status: 400, code: 50035, rawError: { errors: { attachments: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH' }] } } } });
    // An edit may not bring a message past ten either.
    const more = await ten.edit({ files: [file(11)], attachments: [...ten.attachments.values()] }).catch((e: unknown) => e);
    expect(more).toMatchObject({ status: 400, code: 50035 });
    const big = await channel.send({ files: [file(0, 10 * 1024 * 1024 + 1)] }).catch((e: unknown) => e);
    expect(big).toMatchObject({ status: 413, code: 40005 });
    expect((await channel.send({ files: [file(0, 10 * 1024 * 1024)] })).attachments.first()!.size).toBe(10 * 1024 * 1024);
  });

  it('guild routes: members, roles, channels, commands CRUD', async () => {
    const guild = h.client.guilds.cache.get(h.emulator.guildId)!;
    const alice = await guild.members.fetch({ user: h.emulator.users.alice, force: true });
    expect(alice.user.globalName).toBe('Alice');
    const roles = await guild.roles.fetch();
    expect(roles.map((r) => r.name).sort()).toEqual(['@everyone', 'EmulatorBot', 'Moderator']);
    const channels = await guild.channels.fetch();
    expect(channels.size).toBe(5);
    const list = await h.client.rest.get(Routes.guildMembers(guild.id), { query: new URLSearchParams({ limit: '3' }) });
    expect(list).toHaveLength(3);
    const created = await guild.commands.create({ name: 'temp', description: 'temporary' });
    const edited = await guild.commands.edit(created.id, { description: 'edited' });
    expect(edited.description).toBe('edited');
    expect(edited.id).toBe(created.id);
    await guild.commands.delete(created.id);
    expect((await guild.commands.fetch()).size).toBe(0);
  });
});

describe('test API', () => {
  it('explains bad input', async () => {
    await expect(h.emu.command({ user: 'zed', channel: 'general', name: 'ping' })).rejects.toThrow(/unknown user "zed"/);
    await expect(h.emu.command({ user: 'alice', channel: 'nowhere', name: 'ping' })).rejects.toThrow(/unknown channel "nowhere"/);
    const res = await fetch(`${h.emulator.url}/_test/commands`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"user":1}' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/invalid request/);
  });

  it('lists the demo server in /_test/state', async () => {
    const state = await h.emu.state();
    expect(state.guild.name).toBe('Emulator Test Server');
    expect(state.channels.map((c) => c.name)).toEqual(['general', 'challenges', 'games', 'announcements', 'leaderboard']);
    const aliases = state.users.filter((u) => u.alias).map((u) => u.alias);
    expect(aliases).toEqual(expect.arrayContaining(['alice', 'bob', 'carol', 'dave', 'moderator']));
    expect(state.users.find((u) => u.alias === 'moderator')?.permissions).toBe((BigInt(state.guild.roles.find((r) => r.name === '@everyone')!.permissions) | 0x20n).toString());
  });

  it('streams changes as Server-Sent Events', async () => {
    const controller = new AbortController();
    const res = await fetch(`${h.emulator.url}/_test/events`, { signal: controller.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    await h.emu.sendMessage({ user: 'bob', channel: 'general', content: 'sse hello' });
    let text = '';
    while (!text.includes('sse hello')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain('event: message.create');
  });

  it('serves the web page', async () => {
    const res = await fetch(h.emulator.url);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toMatch(/src="[^"]*app\.js"/);
    const app = await fetch(new URL('/page/app.js', h.emulator.url));
    expect(app.status).toBe(200);
    expect(await app.text()).toContain('/_test/events');
  });
});
