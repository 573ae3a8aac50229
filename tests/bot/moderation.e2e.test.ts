import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EPHEMERAL, expectRefused, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Issue 13, feature 6: moderator commands are hidden from players by Discord's default member
 * permissions (Manage Server) and still checked by the handler; moderators limit where games may
 * be started; players see the season with `/stonehall cycle`.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const MANAGE_GUILD = String(1n << 5n);

describe('moderator commands', () => {
  it('are registered with Manage Server as default member permissions; player commands are not', async () => {
    const registered = (await h.api.state()).commands;
    const perms = Object.fromEntries(registered.map((c) => [c.name, (c as { default_member_permissions?: string | null }).default_member_permissions ?? null]));
    expect(perms['cycle']).toBe(MANAGE_GUILD);
    expect(perms['stonehall-config']).toBe(MANAGE_GUILD);
    expect(perms['krellstone-grant']).toBe(MANAGE_GUILD);
    for (const name of ['stonehall', 'leaderboard', 'inventory', 'intents', 'knucklebones', 'tellstones', 'krellstone', 'krellstones']) expect(perms[name]).toBeNull();
    // No player command keeps a moderator subcommand.
    const subs = (name: string) => ((registered.find((c) => c.name === name) as { options?: Array<{ name: string }> }).options ?? []).map((o) => o.name);
    expect(subs('stonehall')).not.toContain('config');
    expect(subs('inventory')).toEqual(['show']);
    expect(subs('krellstone')).not.toContain('grant');
  });

  it('a player cannot run them; the handler refuses too when a server shows them to players', async () => {
    await expect(h.api.command({ user: 'alice', channel: 'general', name: 'stonehall-config', options: { 'turn-hours': 2 } })).rejects.toThrow(/lacks the permissions/);
    await expect(h.api.command({ user: 'alice', channel: 'general', name: 'cycle', options: { subcommand: 'status' } })).rejects.toThrow(/lacks the permissions/);
    const raw = await h.api.rawInteraction({
      user: 'alice',
      channel: 'general',
      type: 2,
      data: { id: '1', name: 'stonehall-config', type: 1, options: [{ type: 10, name: 'turn-hours', value: 2 }] },
    });
    expect(raw.response?.message?.flags).toBe(EPHEMERAL);
    expect(raw.response?.message?.content).toMatch(/Only moderators/);
    const g = await h.db.prisma.guild.findUnique({ where: { id: h.emulator.guildId } });
    expect(g?.turnLimitMinutes ?? 1440).toBe(1440);
    const status = await h.api.rawInteraction({ user: 'alice', channel: 'general', type: 2, data: { id: '2', name: 'cycle', type: 1, options: [{ type: 1, name: 'status', options: [] }] } });
    expect(status.response?.message?.flags).toBe(EPHEMERAL);
    expect(status.response?.message?.content).toMatch(/Only moderators .* See the current one with `\/stonehall cycle`/);
  });

  it('players see the season with /stonehall cycle', async () => {
    const r = await h.api.command({ user: 'alice', channel: 'general', name: 'stonehall', options: { subcommand: 'cycle' } });
    expect(r.response?.message?.flags).toBe(EPHEMERAL);
    expect(r.response?.message?.content).toMatch(/No cycle is running/);
    await h.api.command({ user: 'moderator', channel: 'general', name: 'cycle', options: { subcommand: 'season-start', name: 'Season 1' } });
    await h.api.command({ user: 'moderator', channel: 'general', name: 'cycle', options: { subcommand: 'start', name: 'Cycle 1' } });
    const r2 = await h.api.command({ user: 'bob', channel: 'general', name: 'stonehall', options: { subcommand: 'cycle' } });
    expect(r2.response?.message?.content).toMatch(/Season 1 \/ Cycle 1\*\*: 🌙 Rest Phase/);
    // Intents make games of the server's turn limit: a chosen time per move is refused.
    await expectRefused(
      h.api.command({ user: 'alice', channel: 'battle-commencement', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob', 'days-per-move': 3 } }),
      /Games arranged in a cycle use the server's turn limit/,
    );
    expect(await h.db.prisma.intent.count()).toBe(0);
    await h.api.command({ user: 'moderator', channel: 'general', name: 'cycle', options: { subcommand: 'end' } });
    await h.api.command({ user: 'moderator', channel: 'general', name: 'cycle', options: { subcommand: 'season-end' } });
    await h.settle();
  });
});

describe('where games may be started', () => {
  it('a moderator limits it to listed channels; elsewhere a start is refused, naming them, and nothing changes', async () => {
    const ch = h.emulator.channels;
    const set = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'allow-channel': ch.knucklebones } });
    expect(set.response?.message?.content).toMatch(new RegExp(`Games may be started in: <#${ch.knucklebones}>`));
    const both = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'allow-channel': ch['battle-commencement'] } });
    expect(both.response?.message?.content).toMatch(new RegExp(`<#${ch.knucklebones}>, <#${ch['battle-commencement']}>`));

    await expectRefused(
      h.api.command({ user: 'alice', channel: 'general', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } }),
      new RegExp(`Games are not started in this channel\\. Start it in one of <#${ch.knucklebones}>, <#${ch['battle-commencement']}>`),
    );
    await expectRefused(h.api.command({ user: 'alice', channel: 'general', name: 'knucklebones', options: { subcommand: 'practice' } }), /Games are not started in this channel/);
    await expectRefused(h.api.command({ user: 'alice', channel: 'general', name: 'tellstones', options: { subcommand: 'circle' } }), /Games are not started in this channel/);
    expect(await h.db.prisma.challenge.count()).toBe(0);
    expect(await h.db.prisma.game.count()).toBe(0);
    expect(await h.db.prisma.gameTable.count()).toBe(0);

    // In a listed channel it works; answering a challenge from elsewhere starts the game where it was made.
    const ok = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } });
    expect(ok.response?.message?.flags ?? 0).toBe(0);
    const back = await h.api.command({ user: 'bob', channel: 'general', name: 'knucklebones', options: { subcommand: 'join', opponent: 'alice' } });
    expect(back.response?.message?.content).toMatch(/is on/);
    const game = await h.db.prisma.game.findFirstOrThrow();
    expect(game.channelId).toBe(ch.knucklebones);

    // Removing one, then every limit.
    const less = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'disallow-channel': ch.knucklebones } });
    expect(less.response?.message?.content).toMatch(new RegExp(`Games may be started in: <#${ch['battle-commencement']}>$`, 'm'));
    await expectRefused(h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'practice' } }), new RegExp(`Start it in <#${ch['battle-commencement']}>\\.`));
    const any = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'any-channel': true } });
    expect(any.response?.message?.content).toMatch(/Games may be started in: any channel/);
    const practice = await h.api.command({ user: 'carol', channel: 'general', name: 'knucklebones', options: { subcommand: 'practice' } });
    expect(practice.response?.message?.content).toMatch(/Practice Knucklebones/);
    await h.settle();
  });
});
