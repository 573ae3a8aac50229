import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptChallenge, challenge } from '../../src/services/challenges.ts';
import { testContext } from '../helpers/context.ts';
import { EPHEMERAL, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Thousands of malformed and hostile interactions through the real gateway and router: wrong
 * option types, out-of-range values, unknown games, other users' and other servers' game ids,
 * customIds edited by hand, huge strings. Each must get a clear ephemeral refusal (or an empty
 * autocomplete), none may change the database, and the bot must keep running.
 */
let h: Harness;
let gameId: number;
let foreignGameId: number;
let boardId: string;
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);

beforeAll(async () => {
  h = await startHarness();
  const ctx = testContext(h.db, h.clock);
  const u = h.emulator.users;
  // A game between Alice and Bob in the demo server, and one in another server.
  const c = await challenge(ctx, { guildId: h.emulator.guildId, channelId: h.emulator.channels.knucklebones, kind: 'knucklebones', from: { id: u.alice, name: 'Alice', bot: false }, to: { id: u.bob, name: 'Bob', bot: false } });
  gameId = (await acceptChallenge(ctx, { challengeId: c.challenge.id, userId: u.bob, guildId: h.emulator.guildId })).game.id;
  const f = await challenge(ctx, { guildId: '999999999999999999', channelId: '1', kind: 'knucklebones', from: { id: u.carol, name: 'Carol', bot: false }, to: { id: u.dave, name: 'Dave', bot: false } });
  foreignGameId = (await acceptChallenge(ctx, { challengeId: f.challenge.id, userId: u.dave, guildId: '999999999999999999' })).game.id;
  await h.settle();
  boardId = (await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } })).boardMessageId!;
});
afterAll(async () => {
  await h?.close();
});

async function snapshot(): Promise<string> {
  const rows = await h.db.sql.query<{ t: string; h: string }>(`
    SELECT 'games' t, md5(coalesce(string_agg(g::text, '|' ORDER BY id), '')) h FROM games g
    UNION ALL SELECT 'moves', md5(coalesce(string_agg(m::text, '|' ORDER BY id), '')) FROM moves m
    UNION ALL SELECT 'seats', md5(coalesce(string_agg(s::text, '|' ORDER BY game_id, seat), '')) FROM seats s
    UNION ALL SELECT 'challenges', md5(coalesce(string_agg(c::text, '|' ORDER BY id), '')) FROM challenges c
    UNION ALL SELECT 'jobs', md5(coalesce(string_agg(j::text, '|' ORDER BY id), '')) FROM jobs j
    UNION ALL SELECT 'outbox', count(*)::text FROM outbox
    UNION ALL SELECT 'guilds', md5(coalesce(string_agg(x::text, '|' ORDER BY id), '')) FROM guilds x`);
  return JSON.stringify(rows);
}

const hostileNumber = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.constantFrom(0, -1, 4, 9, 99999, 2 ** 31, 2 ** 53, 1e300, 3.5, -0.0001),
  fc.string({ maxLength: 12 }),
  fc.constant(null),
  fc.boolean(),
);
const hugeString = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: 3000, maxLength: 6000 }), fc.constantFrom('', ' ', '\u0000', '💥'.repeat(500), '<@&1>', '@everyone'));

function customIds(): fc.Arbitrary<string> {
  const ids = () => fc.oneof(fc.constantFrom(String(gameId), String(foreignGameId), '0', '-1', '1e3', '99999999999', '007', ' 1'), fc.nat().map(String));
  return fc.oneof(
    // Ours, edited by hand: other games, other servers' games, versions and columns out of range.
    fc.tuple(fc.constantFrom('kb:place', 'g:resign', 'g:resign-yes', 'g:resign-no', 'g:nudge', 'ch:accept', 'ch:decline'), ids(), ids(), fc.oneof(ids(), fc.constantFrom('0', '4', '2'))).map(
      ([r, a, b, c]) => `${r}:${a}:${b}:${c}`,
    ),
    fc.tuple(fc.constantFrom('kb:place', 'g:resign-yes', 'g:nudge', 'ch:accept'), ids()).map(([r, a]) => `${r}:${a}`),
    // Not ours at all.
    fc.string({ maxLength: 120 }),
    fc.constantFrom('__proto__', 'constructor:x', 'toString', 'kb', 'kb:place:::', 'x'.repeat(100)),
  );
}

const commandData = fc.oneof(
  fc.record({
    sub: fc.constantFrom('join', 'place', 'forfeit', 'view', 'nonsense', ''),
    name: fc.constantFrom('opponent', 'column', 'game', 'x'),
    type: fc.constantFrom(3, 4, 5, 6, 10),
    value: fc.oneof(hostileNumber, hugeString),
  }).map(({ sub, name, type, value }) => ({
    name: 'knucklebones',
    type: 1,
    // `join` with no opponent is a real command (an open challenge): its hostile input is a bad opponent.
    options: [{ name: sub, type: 1, options: [{ name: sub === 'join' ? 'opponent' : name, type, value }] }],
  })),
  fc.record({ name: fc.constantFrom('stonehall', 'nosuchcommand', ''), sub: fc.constantFrom('config', 'reminders', 'zzz'), value: fc.oneof(hostileNumber, hugeString) }).map(
    ({ name, sub, value }) => ({ name, type: 1, options: [{ name: sub, type: 1, options: [{ name: 'turn-hours', type: 10, value }, { name: 'reminders', type: 3, value }] }] }),
  ),
);

describe('fuzz: hostile interactions', () => {
  it(`${RUNS} of them: each refused ephemerally, nothing changes, the bot keeps running`, async () => {
    const before = await snapshot();
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('carol', 'dave'),
        fc.oneof(
          customIds().map((id) => ({ type: 3 as const, data: { custom_id: id, component_type: 2 } })),
          fc.tuple(customIds(), fc.array(hugeString, { maxLength: 30 })).map(([id, values]) => ({ type: 3 as const, data: { custom_id: id, component_type: 3, values } })),
          commandData.map((data) => ({ type: 2 as const, data })),
          commandData.map((data) => ({ type: 4 as const, data: { ...data, options: [{ ...data.options[0]!, options: data.options[0]!.options.map((o) => ({ ...o, focused: true })) }] } })),
        ),
        async (user, i) => {
          const res = await h.api.rawInteraction({ user, channel: 'knucklebones', type: i.type, data: i.data, ...(i.type === 3 ? { message: boardId } : {}) });
          expect(res.response, `no answer to ${JSON.stringify(i).slice(0, 300)}: ${res.error}`).not.toBeNull();
          if (i.type === 4) expect(res.response!.type).toBe(8);
          else {
            expect(res.response!.type).toBe(4);
            expect(res.response!.message!.flags! & EPHEMERAL).toBe(EPHEMERAL);
            expect(res.response!.message!.content.length).toBeGreaterThan(0);
          }
          answered++;
        },
      ),
      { numRuns: RUNS },
    );
    expect(answered).toBe(RUNS);
    expect(await snapshot()).toBe(before);
    // Still alive and well: a real command works.
    const ok = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'games' } });
    expect(ok.response?.message?.content).toContain(`#${gameId}`);
  }, 240_000);

  it('a user cannot read another server’s game, or act on it, by crafting ids', async () => {
    const view = await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'view', game: foreignGameId } });
    expect(view.response?.message?.flags).toBe(EPHEMERAL);
    expect(view.response?.message?.content).toMatch(new RegExp(`no game #${foreignGameId} in this server`));
    expect(view.response?.message?.embeds ?? []).toHaveLength(0);
    const resign = await h.api.rawInteraction({ user: 'carol', channel: 'knucklebones', type: 3, data: { custom_id: `g:resign-yes:${foreignGameId}:0`, component_type: 2 }, message: boardId });
    expect(resign.response?.message?.content).toMatch(/no game/);
    expect((await h.db.prisma.game.findUniqueOrThrow({ where: { id: foreignGameId } })).status).toBe('active');
  });
});
