import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, EPHEMERAL, expectRefused, startHarness, type Harness } from '../helpers/harness.ts';

/** Issue 13, feature 5: `/stonehall profile [player]`, from games played through the emulator. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function casualGame(a: string, b: string, loser: string): Promise<number> {
  const res = await h.api.command({ user: a, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: b } });
  const msg = res.response!.message!;
  await h.api.click(b, msg.id, button(msg, (x) => x.label === 'Accept').custom_id!);
  await h.settle();
  const game = await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' }, orderBy: { id: 'desc' } });
  const forfeit = await h.api.command({ user: loser, channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: game.id } });
  await h.api.click(loser, forfeit.response!.message!.id, button(forfeit.response!.message!, (x) => x.label === 'Yes, forfeit').custom_id!);
  await h.settle();
  return game.id;
}

const profile = (user: string, player?: string) =>
  h.api.command({ user, channel: 'general', name: 'stonehall', options: { subcommand: 'profile', ...(player ? { player } : {}) } });

describe('/stonehall profile', () => {
  it('shows per game the rating, rank, record and recent results; practice does not count', async () => {
    const empty = await profile('alice');
    expect(empty.response?.message?.flags).toBe(EPHEMERAL);
    expect(empty.response?.message?.content).toMatch(/You have not finished a rated game here yet/);

    const first = await casualGame('alice', 'bob', 'bob');
    const second = await casualGame('carol', 'alice', 'alice');
    // A practice game, forfeited: not in the profile.
    await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'practice' } });
    await h.settle();
    const practice = await h.db.prisma.game.findFirstOrThrow({ where: { practice: true } });
    const forfeit = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: practice.id } });
    await h.api.click('alice', forfeit.response!.message!.id, button(forfeit.response!.message!, (x) => x.label === 'Yes, forfeit').custom_id!);
    await h.settle();

    const mine = await profile('alice');
    const text = mine.response!.message!.content;
    expect(mine.response?.message?.flags).toBe(EPHEMERAL);
    expect(text).toMatch(/Your all-time record here/);
    expect(text).toMatch(/\*\*Knucklebones\*\* · rating \*\*\d+\*\* \(#\d of 3\) · 2 games, 1 win \(1–1\)/);
    const ids = h.emulator.users;
    expect(text).toContain(`Recent: 🏳️ F #${second} vs <@${ids.carol}> · ✅ W #${first} vs <@${ids.bob}>`);
    expect(text).not.toContain(`#${practice.id} `);

    // Someone else's, asked by a third player.
    const bobs = await profile('dave', 'bob');
    expect(bobs.response?.message?.content).toMatch(new RegExp(`<@${ids.bob}>’s all-time record here[\\s\\S]*\\(#3 of 3\\) · 1 game, 0 wins \\(0–1\\)`));
    // Without cycles, /leaderboard shows the all-time standings, compact: Carol and Alice above Bob.
    const lb = await h.api.command({ user: 'dave', channel: 'general', name: 'leaderboard', options: {} });
    const lines = lb.response!.message!.content.split('\n');
    expect(lines[0]).toBe('🏆 **Knucklebones leaderboard: all time**');
    expect(lines.slice(1, 4).map((l) => l.replace(/\*\*\d+\*\*/, 'R'))).toEqual(
      expect.arrayContaining([`1. <@${ids.carol}> 1–0 · R`, `3. <@${ids.bob}> 0–1 · R`]),
    );
    expect(lines[2]).toMatch(new RegExp(`^2\\. <@${ids.alice}> 1–1 · `));
    await expectRefused(h.api.command({ user: 'dave', channel: 'general', name: 'leaderboard', options: { 'all-time': true, cycle: 'Cycle 1' } }), /either a `cycle` or `all-time`/);

    const daves = await profile('carol', 'dave');
    expect(daves.response?.message?.content).toMatch(new RegExp(`<@${ids.dave}> has not finished a rated game here yet`));
  });
});
