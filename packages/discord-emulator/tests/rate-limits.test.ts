import type { TextChannel } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, RateLimiter } from '../src/index.ts';
import type { RequestContext, RouteMatch } from '../src/http.ts';
import { startHarness, type Harness } from './helpers.ts';

/** A route match as the REST router makes it, for the limiter alone. */
const match = (pattern: string, params: Record<string, string>): RouteMatch<RequestContext> =>
  ({ route: { method: 'GET', pattern, segments: [], handler: () => null, meta: {} }, params }) as unknown as RouteMatch<RequestContext>;

describe('the rate limiter (Discord figures, a clock of its own)', () => {
  it('allows 50 requests a second per bot, then answers a global 429; interaction endpoints do not count', () => {
    let now = 1_000_000;
    const limiter = new RateLimiter({}, () => now);
    for (let i = 0; i < 50; i++) expect(limiter.take('GET', match('/users/:userId', { userId: String(1000 + i) })).ok).toBe(true);
    const refused = limiter.take('GET', match('/guilds/:guildId', { guildId: '1' }));
    expect(refused).toMatchObject({ ok: false, status: 429, body: { message: 'You are being rate limited.', global: true } });
    if (refused.ok) throw new Error('unreachable');
    expect(refused.headers).toMatchObject({ 'X-RateLimit-Global': 'true', 'X-RateLimit-Scope': 'global', 'Retry-After': '1' });
    expect(refused.body).not.toHaveProperty('code'); // real 429 bodies carry none
    // An interaction's callback and its webhook are outside the global budget.
    expect(limiter.take('POST', match('/interactions/:interactionId/:token/callback', { interactionId: '9', token: 't' })).ok).toBe(true);
    expect(limiter.take('PATCH', match('/webhooks/:applicationId/:token/messages/:messageId', { applicationId: '1', token: 't', messageId: '@original' })).ok).toBe(true);
    now += 1_000;
    expect(limiter.take('GET', match('/guilds/:guildId', { guildId: '1' })).ok).toBe(true);
    expect(limiter.counts).toEqual({ global: 1, route: 0 });
  });

  it('keeps a bucket per route and major parameter: 5 messages per 5 s in one channel, another channel unaffected', () => {
    let now = 5_000_000;
    const limiter = new RateLimiter({}, () => now);
    const post = (channelId: string) => limiter.take('POST', match('/channels/:channelId/messages', { channelId }));
    const first = post('1');
    expect(first).toMatchObject({ ok: true, headers: { 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '4', 'X-RateLimit-Reset-After': '5.000' } });
    for (let i = 0; i < 4; i++) expect(post('1').ok).toBe(true);
    now += 1_500;
    const sixth = post('1');
    expect(sixth).toMatchObject({ ok: false, body: { global: false, retry_after: 3.5 }, headers: { 'X-RateLimit-Scope': 'user', 'X-RateLimit-Remaining': '0', 'Retry-After': '4' } });
    expect(post('2').ok).toBe(true);
    // The same bucket (hash) for every channel: Discord shares the hash, the major parameter splits it.
    expect(first.headers['X-RateLimit-Bucket']).toBe(post('3').headers['X-RateLimit-Bucket']);
    now += 3_500;
    expect(post('1').ok).toBe(true);
  });
});

describe('rate limits over HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    // A window far longer than the test: the figures are exact whatever the machine's speed.
    h = await startHarness({ rateLimits: { routes: [{ route: 'POST /channels/:channelId/messages', limit: 2, windowMs: 600_000 }] } });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('sends X-RateLimit-* headers on every answer and Discord\'s 429 once a bucket is empty', async () => {
    const post = (channel: string) =>
      fetch(`${h.emulator.apiBase}/v10/channels/${channel}/messages`, {
        method: 'POST',
        headers: { authorization: `Bot ${h.emulator.botToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'hi' }),
      });
    const a = await post(h.emulator.channels.general);
    expect(a.status).toBe(200);
    expect(a.headers.get('x-ratelimit-limit')).toBe('2');
    expect(a.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(a.headers.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
    expect(Number(a.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    expect((await post(h.emulator.channels.general)).status).toBe(200);
    const refused = await post(h.emulator.channels.general);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-scope')).toBe('user');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ message: 'You are being rate limited.', global: false });
    expect(typeof body.retry_after).toBe('number');
    expect((await post(h.emulator.channels.games)).status).toBe(200);
    // A refused message was not created.
    expect((await h.emu.messages('general')).messages).toHaveLength(2);
  });

  it('counts the bot\'s requests per route over the test API: answered, rate limited, refused; and lists its messages', async () => {
    // After the test above: 2 messages created in #general, 1 refused with a 429, 1 in #games.
    const stats = await h.emu.restStats();
    expect(stats.routes['POST /channels/:channelId/messages']).toEqual({ requests: 4, ok: 3, limited: 1, failed: 0 });
    expect(stats.rateLimited).toEqual({ global: 0, route: 1 });
    const missing = await fetch(`${h.emulator.apiBase}/v10/channels/123/messages/456`, { headers: { authorization: `Bot ${h.emulator.botToken}` } });
    expect(missing.status).toBe(404);
    const after = await h.emu.restStats();
    expect(after.routes['GET /channels/:channelId/messages/:messageId']).toEqual({ requests: 1, ok: 0, limited: 0, failed: 1 });
    // The total adds up every route (the client's login asked for its gateway too).
    expect(after.total).toMatchObject({ limited: 1, failed: 1 });
    expect(after.total.requests).toBe(Object.values(after.routes).reduce((n, r) => n + r.requests, 0));
    const mine = (await h.emu.messagesBy('bot')).messages;
    expect(mine.map((m) => [m.channelId, m.content, m.dmRecipientId])).toEqual([
      [h.emulator.channels.general, 'hi', null],
      [h.emulator.channels.general, 'hi', null],
      [h.emulator.channels.games, 'hi', null],
    ]);
    await expect(h.emu.messagesBy('nobody-here')).rejects.toThrow(/nobody-here/);
    await h.emu.resetRestStats();
    expect((await h.emu.restStats()).total).toEqual({ requests: 0, ok: 0, limited: 0, failed: 0 });
  });
});

describe('a discord.js bot under the default limits', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('gets every board posted in one channel, in order, by following the headers', async () => {
    const channel = (await h.client.channels.fetch(h.emulator.channels.games)) as TextChannel;
    const sent = await Promise.all(Array.from({ length: 8 }, (_, i) => channel.send(`board ${i}`)));
    expect(sent).toHaveLength(8);
    expect((await h.emu.messages('games')).messages.map((m) => m.content)).toEqual(Array.from({ length: 8 }, (_, i) => `board ${i}`));
  });

  it('gets a DM to each of 70 players through: more than the global budget of a second', async () => {
    const ids = Array.from({ length: 70 }, (_, i) => addMember(h.emulator.state, h.emulator.guildId, `player${i}`));
    await Promise.all(ids.map(async (id, i) => (await h.client.users.fetch(id)).send(`your game ${i} starts`)));
    const dms = [...h.emulator.state.channels.values()].filter((c) => c.type === 1 && ids.includes(c.recipientId ?? ''));
    expect(dms).toHaveLength(70);
    for (const c of dms) expect(h.emulator.state.messagesIn(c.id)).toHaveLength(1);
  });
});
