import { MessageFlags, type TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestExchange } from '../src/index.ts';
import { discordSpec, type Violation } from '../src/spec-check.ts';
import { startHarness, type Harness } from './helpers.ts';

/**
 * The emulator against Discord's published REST API (OpenAPI 3.1, pinned in spec/pin.json): every
 * route it serves is exercised here, with valid requests and refused ones (400 50035 with its
 * error tree, 404s, a 429), and every answer it gives is validated against the spec's schema for
 * that operation and status. Zero violations is the assertion; a route added without a request
 * here fails the coverage check.
 */
let h: Harness;
const exchanges: RestExchange[] = [];
let api: string;
let auth: Record<string, string>;

const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: res.status === 204 ? undefined : await res.json() };
};

beforeAll(async () => {
  h = await startHarness({
    onRestExchange: (e) => void exchanges.push(e),
    // One typing call per channel and window: the second is a real 429 to check. The test sends
    // more than 50 requests a second, which is not what it is about.
    rateLimits: { globalPerSecond: 10_000, routes: [{ route: 'POST /channels/:channelId/typing', limit: 1, windowMs: 600_000 }] },
  });
  api = `${h.emulator.apiBase}/v10`;
  auth = { authorization: `Bot ${h.emulator.botToken}` };
});
afterAll(async () => {
  await h?.stop();
});

describe("the emulator's answers against Discord's spec", () => {
  it('drives every route, valid and refused', async () => {
    const { emulator } = h;
    const app = emulator.applicationId;
    const guild = emulator.guildId;
    const general = emulator.channels.general;
    const unknownId = '123456789012345678';

    // gateway, users, application
    await call('GET', '/gateway');
    await call('GET', '/gateway/bot');
    await call('GET', '/users/@me');
    await call('GET', '/users/@me/guilds');
    await call('GET', `/users/${emulator.users.alice}`);
    expect((await call('GET', `/users/${unknownId}`)).status).toBe(404);
    expect((await call('POST', '/users/@me/channels', { recipient_id: emulator.users.bob })).status).toBe(200);
    expect((await call('POST', '/users/@me/channels', {})).status).toBe(400);
    await call('GET', '/applications/@me');
    await call('GET', '/oauth2/applications/@me');

    // commands, global and per guild
    for (const base of [`/applications/${app}/commands`, `/applications/${app}/guilds/${guild}/commands`]) {
      expect((await call('PUT', base, [{ name: 'ping', description: 'Replies' }])).status).toBe(200);
      const created = await call('POST', base, { name: 'other', description: 'Another' });
      expect(created.status).toBe(201);
      const id = (created.body as { id: string }).id;
      await call('GET', base);
      await call('GET', `${base}/${id}`);
      await call('PATCH', `${base}/${id}`, { description: 'Changed' });
      expect((await call('DELETE', `${base}/${id}`)).status).toBe(204);
      expect((await call('GET', `${base}/${unknownId}`)).status).toBe(404);
      expect((await call('POST', base, { name: 'Bad Name', description: '' })).status).toBe(400);
    }
    expect((await call('GET', `/applications/${app}/guilds/${guild}/commands/permissions`)).status).toBe(200);
    const pingId = ((await call('GET', `/applications/${app}/guilds/${guild}/commands`)).body as Array<{ id: string }>)[0]!.id;
    expect((await call('GET', `/applications/${app}/guilds/${guild}/commands/${pingId}/permissions`)).status).toBe(404);

    // channels and messages
    await call('GET', `/channels/${general}`);
    expect((await call('GET', `/channels/${unknownId}`)).status).toBe(404);
    expect((await call('POST', `/channels/${general}/typing`)).status).toBe(204);
    expect((await call('POST', `/channels/${general}/typing`)).status).toBe(429);
    const sent = await call('POST', `/channels/${general}/messages`, { content: 'hello', embeds: [{ title: 'An embed', description: 'text' }] });
    expect(sent.status).toBe(200);
    const messageId = (sent.body as { id: string }).id;
    expect((await call('POST', `/channels/${emulator.channels.games}/messages`, { content: 'x'.repeat(2001) })).status).toBe(400);
    expect((await call('POST', `/channels/${emulator.channels.games}/messages`, {})).status).toBe(400);
    await call('GET', `/channels/${general}/messages?limit=5`);
    await call('GET', `/channels/${general}/messages/${messageId}`);
    expect((await call('GET', `/channels/${general}/messages/${unknownId}`)).status).toBe(404);
    await call('PATCH', `/channels/${general}/messages/${messageId}`, { content: 'edited' });
    // threads: from a message (once), on their own, refused without a name
    expect((await call('POST', `/channels/${general}/messages/${messageId}/threads`, { name: 'a thread', auto_archive_duration: 1440 })).status).toBe(201);
    expect((await call('POST', `/channels/${general}/messages/${messageId}/threads`, { name: 'again' })).status).toBe(400);
    const own = await call('POST', `/channels/${general}/threads`, { name: 'own thread', type: 11 });
    expect(own.status).toBe(201);
    expect((await call('POST', `/channels/${general}/threads`, { type: 12 })).status).toBe(400);
    expect((await call('POST', `/channels/${(own.body as { id: string }).id}/messages`, { content: 'in the thread' })).status).toBe(200);
    expect((await call('DELETE', `/channels/${general}/messages/${messageId}`)).status).toBe(204);

    // permissions: Discord's refusals (50001 unseen, 50013 not allowed, 10003 deleted), embeds dropped
    await h.emu.setOverwrite({ channel: 'leaderboard', user: 'bot', deny: ['VIEW_CHANNEL'] });
    await h.emu.setOverwrite({ channel: 'challenges', role: '@everyone', deny: ['SEND_MESSAGES'] });
    await h.emu.setOverwrite({ channel: 'games', user: 'bot', deny: ['EMBED_LINKS', 'READ_MESSAGE_HISTORY'] });
    const refused = (r: { status: number; body: unknown }) => [r.status, (r.body as { code: number }).code];
    expect(refused(await call('GET', `/channels/${emulator.channels.leaderboard}`))).toEqual([403, 50001]);
    expect(refused(await call('POST', `/channels/${emulator.channels.leaderboard}/messages`, { content: 'hi' }))).toEqual([403, 50001]);
    expect(refused(await call('POST', `/channels/${emulator.channels.challenges}/messages`, { content: 'hi' }))).toEqual([403, 50013]);
    const noEmbeds = await call('POST', `/channels/${emulator.channels.games}/messages`, { content: 'board', embeds: [{ title: 'dropped' }] });
    expect((noEmbeds.body as { embeds: unknown[] }).embeds).toEqual([]);
    expect(refused(await call('GET', `/channels/${emulator.channels.games}/messages/${(noEmbeds.body as { id: string }).id}`))).toEqual([403, 50001]);
    await h.emu.deleteChannel({ channel: 'leaderboard' });
    expect(refused(await call('POST', `/channels/${emulator.channels.leaderboard}/messages`, { content: 'hi' }))).toEqual([404, 10003]);

    // guilds
    await call('GET', `/guilds/${guild}`);
    await call('GET', `/guilds/${guild}?with_counts=true`);
    expect((await call('GET', `/guilds/${unknownId}`)).status).toBe(404);
    await call('GET', `/guilds/${guild}/channels`);
    await call('GET', `/guilds/${guild}/roles`);
    await call('GET', `/guilds/${guild}/members?limit=3`);
    await call('GET', `/guilds/${guild}/members/${emulator.users.alice}`);
    expect((await call('GET', `/guilds/${guild}/members/${unknownId}`)).status).toBe(404);

    // interactions and their webhooks, through discord.js as a bot sends them
    h.onInteraction(async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply();
      await i.editReply({ content: 'done' });
      await i.fetchReply();
      const f = await i.followUp({ content: 'a followup', flags: MessageFlags.Ephemeral });
      await i.webhook.editMessage(f.id, { content: 'followup edited' });
      await i.webhook.fetchMessage(f.id);
      await i.webhook.deleteMessage(f.id);
      await i.deleteReply();
    });
    const r = await h.emu.command({ user: 'alice', channel: 'general', name: 'ping' });
    expect(r.response?.type).toBe(5);
    await h.emu.waitFor(async () => exchanges.some((e) => e.method === 'DELETE' && decodeURIComponent(e.path).endsWith('/messages/@original')));
    const channel = (await h.client.channels.fetch(emulator.channels.announcements)) as TextChannel;
    await channel.send({ content: 'with a file', files: [{ attachment: Buffer.from('hello'), name: 'hello.txt' }] });
  });

  it('finds no violation, and every route it serves is in the spec and was exercised', () => {
    const spec = discordSpec();
    // Answers always; requests too when the emulator accepted them (what it takes, Discord must take).
    const violations: Violation[] = exchanges.flatMap((e) =>
      spec.check({ method: e.method, path: e.path, requestBody: e.status < 300 ? e.requestBody : undefined, status: e.status, responseBody: e.responseBody }),
    );
    expect(violations).toEqual([]);

    const served = h.emulator.restRoutes.map((r) => {
      const sample = r.pattern.replace(/:[a-zA-Z]+/g, (p) => (p === ':token' ? 'token' : '123456789012345678'));
      return { route: `${r.method} ${r.pattern}`, op: spec.find(r.method, sample)?.operationId ?? null };
    });
    const outside = served.filter((s) => s.op === null).map((s) => s.route);
    expect(outside).toEqual([]);
    const exercised = new Set(exchanges.map((e) => spec.find(e.method, e.path)?.operationId));
    expect(served.filter((s) => !exercised.has(s.op!)).map((s) => s.route)).toEqual([]);
    const ops = new Set(served.map((s) => s.op));
    console.log(`emulator vs Discord's spec: ${ops.size} of ${spec.operations.length} operations served, ${exchanges.length} exchanges checked, ${violations.length} violations`);
  });
});
