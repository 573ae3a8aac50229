import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { aliasOf, button, EPHEMERAL, expectRefused, runCommand, startHarness, text, type Harness } from '../helpers/harness.ts';

/**
 * A whole cycle through the emulator and the real discord.js client: season and cycle, Rest Phase
 * intents with `any` and `each`, the Battle Phase starting the matched games, a game won with a
 * die item used, rewards, the cycle ended and its leaderboard posted; every refusal ephemeral.
 */
let h: Harness;
let ids: Harness['emulator']['users'];

beforeAll(async () => {
  h = await startHarness();
  ids = h.emulator.users;
});
afterAll(async () => {
  await h?.close();
});

const alias = (userId: string) => aliasOf(h, userId);
const cmd = (user: string, channel: string, name: string, options: Record<string, unknown>) => runCommand(h, user, channel, name, options);

const refused = expectRefused;

/** /cycle is hidden from players: Discord (the emulator) does not let a member without Manage Server run it. */
async function hidden(p: Promise<unknown>): Promise<void> {
  await expect(p).rejects.toThrow(/lacks the permissions \/cycle requires/);
}

async function channelText(channel: string): Promise<string[]> {
  return (await h.api.messages(channel, 'carol')).messages.map((m) => text(m));
}

async function board(gameId: number): Promise<APIMessage> {
  const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  const msgs = await h.api.messages('battle-commencement', 'carol');
  return msgs.messages.find((m) => m.id === g.boardMessageId)!;
}

describe('a whole cycle through the emulator', () => {
  it('Rest, intents (any, each), Battle, a die used, a win rewarded, the cycle ended and its leaderboard posted', async () => {
    // Moderators only, refused ephemerally.
    await hidden(cmd('alice', 'general', 'cycle', { subcommand: 'season-start', name: 'Season 4' }));
    // A server may override who sees /cycle: the handler checks the member itself.
    const raw = await h.api.rawInteraction({
      user: 'alice',
      channel: 'general',
      type: 2,
      data: { id: '1', name: 'cycle', type: 1, options: [{ type: 1, name: 'season-start', options: [{ type: 3, name: 'name', value: 'Season 4' }] }] },
    });
    expect(raw.response?.message?.flags).toBe(EPHEMERAL);
    expect(raw.response?.message?.content).toMatch(/Only moderators/);
    expect(await h.db.prisma.season.count()).toBe(0);
    await refused(cmd('moderator', 'general', 'cycle', { subcommand: 'start', name: 'Cycle 16' }), /Start a season first/);
    expect((await cmd('moderator', 'general', 'cycle', { subcommand: 'season-start', name: 'Season 4' })).response?.message?.flags).toBe(EPHEMERAL);
    const start = await cmd('moderator', 'general', 'cycle', { subcommand: 'start', name: 'Cycle 16' });
    expect(start.response?.message?.content).toMatch(/Season 4 \/ Cycle 16/);
    await h.settle();
    expect((await channelText('announcements')).join('\n')).toMatch(/Cycle 16\*\* begins[\s\S]*Rest Phase/);

    // Refusals while intents are taken.
    await refused(cmd('alice', 'knucklebones', 'knucklebones', { subcommand: 'join', opponent: 'bob' }), /Intents are taken in <#\d+> during a Rest Phase/);
    await refused(cmd('alice', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'bob', opponent2: 'carol' }), /mode: any/);
    await refused(cmd('alice', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'alice' }), /cannot name yourself/);
    await refused(cmd('alice', 'battle-commencement', 'intents', { subcommand: 'withdraw' }), /no open intent/);

    // Alice: any of Bob and Carol. Bob names Alice first: the match is Alice–Bob; Carol's comes too late.
    const a = await cmd('alice', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'bob', opponent2: 'carol', mode: 'any' });
    expect(a.response?.message?.flags ?? 0).toBe(0);
    expect(a.response?.message?.content).toMatch(/\*\*any\*\*/);
    const b = await cmd('bob', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'alice' });
    expect(b.response?.message?.content).toMatch(new RegExp(`Match!.*<@${ids.alice}>`));
    const c = await cmd('carol', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'alice' });
    expect(c.response?.message?.content).toMatch(/No mutual intents yet/);
    // Naming Alice again changes nothing: the answer is Carol's alone, not the channel's.
    const again1 = await cmd('carol', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'alice' });
    expect(again1.response?.message?.flags).toBe(EPHEMERAL);
    expect(again1.response?.message?.content).toMatch(/You already named <@\d+> in this Rest Phase/);
    // Dave: each of Bob and Carol; both name him back: two matches.
    await cmd('dave', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'bob', opponent2: 'carol', mode: 'each' });
    await cmd('bob', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'dave' });
    const c2 = await cmd('carol', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'dave' });
    expect(c2.response?.message?.content).toMatch(/Match!/);
    const list = await cmd('carol', 'general', 'intents', { subcommand: 'list' });
    expect(list.response?.message?.flags).toBe(EPHEMERAL);
    expect(list.response?.message?.content).toMatch(/waiting[\s\S]*matched|matched[\s\S]*waiting/);
    const matches = await cmd('alice', 'general', 'intents', { subcommand: 'matches' });
    expect(matches.response?.message?.content).toMatch(/\(3\)/);

    // Battle Phase: three games start, both players DMed; Carol's intent to Alice lapses.
    await hidden(cmd('alice', 'general', 'cycle', { subcommand: 'phase', kind: 'battle' }));
    const battle = await cmd('moderator', 'general', 'cycle', { subcommand: 'phase', kind: 'battle' });
    expect(battle.response?.message?.content).toMatch(/3 games started/);
    const again = await cmd('moderator', 'general', 'cycle', { subcommand: 'phase', kind: 'battle' });
    expect(again.response?.message?.content).toMatch(/already open/);
    await h.settle();
    const games = await h.db.prisma.game.findMany({ include: { seats: true }, orderBy: { id: 'asc' } });
    expect(games).toHaveLength(3);
    const ann = (await channelText('announcements')).filter((t) => /Battle Phase\*\* of/.test(t));
    expect(ann).toHaveLength(1);
    for (const g of games) for (const s of g.seats) expect(ann[0]).toContain(`<@${s.playerId}>`);
    for (const u of ['alice', 'bob', 'carol', 'dave']) {
      expect((await h.api.dms(u)).messages.some((m) => /starts now/.test(m.content))).toBe(true);
    }
    expect((await h.api.dms('carol')).messages.some((m) => /lapsed/.test(m.content))).toBe(true);
    await refused(cmd('alice', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'carol' }), /Battle Phase.*next Rest Phase/);

    // Inventory: the first mover of Alice–Bob gets a Steady Die.
    const ab = games.find((g) => g.seats.some((s) => s.playerId === ids.alice))!;
    let st = ab.state as unknown as KnucklebonesState;
    const mover = st.turn!;
    const other = st.players.find((p) => p !== mover)!;
    await hidden(cmd('alice', 'general', 'cycle', { subcommand: 'grant', player: alias(mover), item: 'steady-die' }));
    const grant = await cmd('moderator', 'general', 'cycle', { subcommand: 'grant', player: alias(mover), item: 'steady-die' });
    expect(grant.response?.message?.content).toMatch(/Granted 1 × Steady Die/);
    const inv = await cmd(alias(mover), 'general', 'inventory', { subcommand: 'show' });
    expect(inv.response?.message?.content).toMatch(/Steady Die\*\* × 1[\s\S]*shows 3/);

    // The opponent cannot use a die on the mover's turn; the mover can, from the board.
    let b1 = await board(ab.id);
    expect(text(b1)).toMatch(/Dice items used/);
    const useBtn = button(b1, (x) => x.label === 'Use a die…').custom_id!;
    const notYours = await h.api.click(alias(other), b1.id, useBtn);
    expect(notYours.response?.message?.flags).toBe(EPHEMERAL);
    expect(notYours.response?.message?.content).toMatch(/not your turn/);
    const menu = await h.api.click(alias(mover), b1.id, useBtn);
    expect(menu.response?.message?.flags).toBe(EPHEMERAL);
    const select = menu.response!.message!;
    const selectId = (select.components![0] as { components: Array<{ custom_id: string }> }).components[0]!.custom_id;
    const used = await h.api.select(alias(mover), select.id, selectId, ['steady']);
    expect(used.response?.message?.content).toMatch(/Steady Die used: your die shows \*\*3\*\*/);
    await h.settle();
    b1 = await board(ab.id);
    expect(text(b1)).toMatch(/with the Steady Die/);
    expect(text(b1)).toMatch(/Steady Die/);
    expect(() => button(b1, (x) => x.label === 'Use a die…')).toThrow(); // one per turn
    await h.api.click(alias(mover), b1.id, button(b1, (x) => x.label === 'Column 1').custom_id!);
    await h.settle();
    st = (await h.db.prisma.game.findUniqueOrThrow({ where: { id: ab.id } })).state as unknown as KnucklebonesState;
    expect(st.grids[mover]![0]).toEqual([3]);
    expect(st.dice?.used[mover]).toEqual(['steady']);

    // The opponent gives up: the die user wins (a forfeit win is a win), gets the rewards and is told.
    const ff = await cmd(alias(other), 'general', 'knucklebones', { subcommand: 'forfeit', game: ab.id });
    await h.api.click(alias(other), ff.response!.message!.id, button(ff.response!.message!, (x) => x.label === 'Yes, forfeit').custom_id!);
    await h.settle();
    expect((await h.api.dms(alias(mover))).messages.some((m) => /Handy Pack/.test(m.content))).toBe(true);
    const inv2 = await cmd(alias(mover), 'general', 'inventory', { subcommand: 'show' });
    expect(inv2.response?.message?.content).toMatch(/Handy Pack\*\* × 1[\s\S]*Chip\*\* × 1/);

    // The leaderboard on request, then the cycle ends and the leaderboard is posted.
    // Compact by default (one line each: rank, name, W–L, rating), the long form on request.
    const compact = await cmd('carol', 'general', 'leaderboard', {});
    expect(compact.response?.message?.content).toMatch(new RegExp(`\\n1\\. <@${mover}> 1–0 · \\*\\*\\d+\\*\\*\\n2\\. <@${other}> 0–1 · \\*\\*\\d+\\*\\*\\n`));
    const lb = await cmd('carol', 'general', 'leaderboard', { detailed: true });
    expect(lb.response?.message?.content).toMatch(new RegExp(`1\\. <@${mover}>: rating \\*\\*\\d+\\*\\*.*1 W, 0 D, 0 L, 0 F`));
    expect(lb.response?.message?.content).toMatch(new RegExp(`2\\. <@${other}>.*0 W, 0 D, 0 L, 1 F`));
    await hidden(cmd('alice', 'general', 'cycle', { subcommand: 'end' }));
    await cmd('moderator', 'general', 'cycle', { subcommand: 'end' });
    await h.settle();
    const posted = (await channelText('leaderboard')).join('\n');
    expect(posted).toMatch(/Knucklebones leaderboard: Season 4 \/ Cycle 16\*\* \(final\)/);
    expect(posted).toMatch(/Glicko-2/);
    expect((await channelText('announcements')).join('\n')).toMatch(/Cycle 16\*\* has ended/);

    // After the cycle: inventories are gone with it; the season still takes no intents without a cycle.
    await refused(cmd(alias(mover), 'general', 'inventory', { subcommand: 'show' }), /No cycle is running/);
    await refused(cmd('alice', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'bob' }), /No cycle is running/);
    await refused(cmd('moderator', 'general', 'cycle', { subcommand: 'phase', kind: 'rest' }), /No cycle is running/);

    // Outside cycles (season ended) `/knucklebones join` is a challenge again; several opponents are refused.
    await cmd('moderator', 'general', 'cycle', { subcommand: 'season-end' });
    await refused(cmd('alice', 'knucklebones', 'knucklebones', { subcommand: 'join', opponent: 'bob', opponent2: 'carol' }), /challenges one player/);
    const challenge = await cmd('alice', 'knucklebones', 'knucklebones', { subcommand: 'join', opponent: 'carol' });
    expect(challenge.response?.message?.content).toMatch(/challenges you/);
  });

  it('schedule and configuration refusals are ephemeral', async () => {
    await refused(cmd('moderator', 'general', 'cycle', { subcommand: 'config', 'time-zone': 'Mars/Olympus' }), /not a time zone/);
    await refused(cmd('moderator', 'general', 'cycle', { subcommand: 'config', 'battle-schedule': 'every friday' }), /not a valid cron/);
    // A Battle Phase every minute is refused, with an example of a sensible schedule.
    await refused(cmd('moderator', 'general', 'cycle', { subcommand: 'config', 'battle-schedule': '* * * * *' }), /would open a Battle Phase every 1 minute\. A phase opens at most once an hour/);
    // No options: nothing is saved, the current settings are shown.
    const shown = await cmd('moderator', 'general', 'cycle', { subcommand: 'config' });
    expect(shown.response?.message?.flags).toBe(EPHEMERAL);
    expect(shown.response?.message?.content).toMatch(/^Nothing to change/);
    expect(shown.response?.message?.content).not.toMatch(/Saved/);
    await hidden(cmd('alice', 'general', 'cycle', { subcommand: 'config', 'battle-schedule': '0 18 * * 5' }));
    const ok = await cmd('moderator', 'general', 'cycle', { subcommand: 'config', 'battle-schedule': '0 18 * * 5', 'rest-schedule': '0 6 * * 1', 'time-zone': 'Europe/Berlin' });
    expect(ok.response?.message?.content).toMatch(/Rest `0 6 \* \* 1`, Battle `0 18 \* \* 5` \(Europe\/Berlin\)/);
    // The schedule is read from the database into node-cron tasks in the server's time zone (ticks are off in tests, so start it here).
    expect(h.bot.phaseSchedule.describe()).toEqual({});
    await h.bot.phaseSchedule.start();
    expect(h.bot.phaseSchedule.describe()).toEqual({
      [`${h.emulator.guildId}:battle`]: '0 18 * * 5@Europe/Berlin',
      [`${h.emulator.guildId}:rest`]: '0 6 * * 1@Europe/Berlin',
    });
    // A tick with no cycle running changes nothing.
    expect(await h.bot.phaseSchedule.fire(h.emulator.guildId, 'battle')).toBe('no-cycle');
    await cmd('moderator', 'general', 'cycle', { subcommand: 'config', 'clear-schedule': true });
    expect(h.bot.phaseSchedule.describe()).toEqual({});
    await h.bot.phaseSchedule.stop();
    await refused(cmd('alice', 'general', 'leaderboard', { cycle: 'Cycle 99' }), /no cycle "Cycle 99"/);
  });

  it('Tellstones games are arranged through the same intents and get a leaderboard of their own', async () => {
    await cmd('moderator', 'general', 'cycle', { subcommand: 'season-start', name: 'Season 5' });
    await cmd('moderator', 'general', 'cycle', { subcommand: 'start', name: 'Cycle 1' });
    // Variants are for challenges outside cycles; intents make standard games.
    await refused(cmd('alice', 'battle-commencement', 'tellstones', { subcommand: 'challenge', opponent: 'bob', variant: 'fearless-vanguard' }), /standard rules/);
    await refused(cmd('alice', 'knucklebones', 'tellstones', { subcommand: 'challenge', opponent: 'bob' }), /Intents are taken in <#\d+>.*\/tellstones challenge/);
    const a = await cmd('alice', 'battle-commencement', 'tellstones', { subcommand: 'challenge', opponent: 'bob' });
    expect(a.response?.message?.content).toMatch(/intends to play Tellstones/);
    const b = await cmd('bob', 'battle-commencement', 'tellstones', { subcommand: 'challenge', opponent: 'alice' });
    expect(b.response?.message?.content).toMatch(/Match!/);
    const battle = await cmd('moderator', 'general', 'cycle', { subcommand: 'phase', kind: 'battle' });
    expect(battle.response?.message?.content).toMatch(/1 game started/);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'tellstones', status: 'active' } });
    expect(game.cycleId).not.toBeNull();
    // Announced and DMed under its own name.
    expect((await channelText('announcements')).at(-1)).toContain(`• Tellstones #${game.id}: <@${ids.alice}> vs <@${ids.bob}>`);
    expect((await h.api.dms('alice')).messages.some((m) => m.content?.includes(`your Tellstones game #${game.id} against <@${ids.bob}> starts now`))).toBe(true);
    // Bob gives up; Alice wins the cycle game and its rewards.
    const f = await cmd('bob', 'battle-commencement', 'tellstones', { subcommand: 'forfeit', game: game.id });
    await h.api.click('bob', f.response!.message!.id, button(f.response!.message!, (x) => x.label === 'Yes, forfeit').custom_id!);
    await h.settle();
    expect((await h.api.dms('alice')).messages.at(-1)?.content).toMatch(new RegExp(`You won Tellstones #${game.id} in \\*\\*Season 5 / Cycle 1\\*\\*`));
    const board = await cmd('alice', 'general', 'leaderboard', { game: 'tellstones' });
    expect(board.response?.message?.content).toMatch(/Tellstones leaderboard/);
    expect(board.response?.message?.content).toMatch(new RegExp(`1\\. <@${ids.alice}> 1–0 · `));
    await cmd('moderator', 'general', 'cycle', { subcommand: 'end' });
    await h.settle();
    expect((await channelText('leaderboard')).join('\n')).toMatch(/Tellstones leaderboard: Season 5 \/ Cycle 1/);
    await cmd('moderator', 'general', 'cycle', { subcommand: 'season-end' });
  });
});
