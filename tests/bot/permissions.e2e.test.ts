import type { APIMessage } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { aliasOf, buttons, EPHEMERAL, expectRefused, startHarness, text, type Harness } from '../helpers/harness.ts';
import { lcg, load as loadCrystallia, playTurn } from '../games/crystallia/driver.ts';

/**
 * Issue 22, through the real discord.js client and the emulator's permission model: the bot checks
 * what it may do in a channel before it starts a game there and names what is missing; moderators
 * see every channel with `/stonehall-config check`; and when Discord refuses a board mid-game
 * (a permission taken away, the channel deleted) the game goes on from the players' DMs, players
 * and moderators are told once, and the board comes back with the next move once it is allowed.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const ch = () => h.emulator.channels;
/** Overwrites set by a test, cleared after it (the bot's own member overwrite in each channel). */
const touched = new Set<string>();
afterEach(async () => {
  for (const channel of touched) await h.api.clearOverwrite({ channel, user: 'bot' });
  touched.clear();
  await h.settle();
});

type Perm = 'SEND_MESSAGES' | 'ATTACH_FILES' | 'VIEW_CHANNEL' | 'EMBED_LINKS';
const FLAG: Record<Perm, string> = { SEND_MESSAGES: 'SendMessages', ATTACH_FILES: 'AttachFiles', VIEW_CHANNEL: 'ViewChannel', EMBED_LINKS: 'EmbedLinks' };

/** What the bot's gateway cache says it may do in a channel now. */
function botHas(channel: string, perm: Perm): boolean {
  const c = h.bot.client.channels.cache.get(ch()[channel as keyof ReturnType<typeof ch>]);
  const me = h.bot.client.guilds.cache.get(h.emulator.guildId)?.members.me;
  if (!c || !me || !('permissionsFor' in c)) return false;
  return c.permissionsFor(me)?.has(FLAG[perm] as never, false) ?? false;
}

/** Denies the bot `perms` in `channel` and waits until its gateway cache knows (CHANNEL_UPDATE). */
async function deny(channel: string, ...perms: Perm[]): Promise<void> {
  touched.add(channel);
  await h.api.setOverwrite({ channel, user: 'bot', deny: perms });
  await h.api.waitFor(async () => perms.every((p) => !botHas(channel, p)), { what: `the bot's cache to lose ${perms} in #${channel}` });
}

/** Gives them back. */
async function allow(channel: string, ...perms: Perm[]): Promise<void> {
  await h.api.clearOverwrite({ channel, user: 'bot' });
  touched.delete(channel);
  await h.api.waitFor(async () => perms.every((p) => botHas(channel, p)), { what: `the bot's cache to have ${perms} in #${channel}` });
}

const NOTICE = /Discord doesn't let Stonehall show the board/;
const dmsOf = async (user: string): Promise<APIMessage[]> => (await h.api.dms(user)).messages;
const noticesTo = async (user: string, gameId: number) => (await dmsOf(user)).filter((m) => NOTICE.test(m.content) && m.content.includes(`#${gameId}:`));
/** The moderators' notices about a channel: in the announcement channel once a cycle set one, else the system channel (#general). */
const moderatorNotices = async (channelId: string, reason: string) => {
  const where = (await h.db.prisma.guild.findUnique({ where: { id: h.emulator.guildId } }))?.announcementChannelId ? 'announcements' : 'general';
  return (await h.api.messages(where, 'moderator', 100)).messages.filter((m) => m.content.includes(`Discord refuses Stonehall's posts in <#${channelId}> (${reason})`));
};
/** The newest DM of `user` about game `gameId` that offers buttons of `prefix`. */
async function turnDm(user: string, gameId: number, prefix: string): Promise<APIMessage> {
  const all = (await dmsOf(user)).filter((m) => buttons(m).some((b) => b.custom_id?.startsWith(`${prefix}:`) && b.custom_id.split(':')[2] === String(gameId)));
  const m = all.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? 1 : -1))[0];
  if (!m) throw new Error(`${user} has no DM with ${prefix} buttons for game ${gameId}`);
  return m;
}

describe('before a game starts', () => {
  it('refuses a game where the bot cannot post what it needs, naming each missing permission, and starts nothing', async () => {
    const kb = ch().knucklebones;
    await deny('knucklebones', 'ATTACH_FILES');
    // Crystallia's board is a picture: refused, with the permission, the channel and what to ask for.
    await expectRefused(
      h.api.command({ user: 'carol', channel: 'knucklebones', name: 'crystallia', options: { subcommand: 'practice' } }),
      new RegExp(`I can't attach files in <#${kb}>, and Crystallia's board is a picture: ask a moderator to allow \\*\\*Attach Files\\*\\* for Stonehall there`),
    );
    await expectRefused(
      h.api.command({ user: 'alice', channel: 'knucklebones', name: 'crystallia', options: { subcommand: 'join', opponent: 'bob' } }),
      /I can't attach files in .*Crystallia's board is a picture/,
    );
    expect(await h.db.prisma.game.count()).toBe(0);
    expect(await h.db.prisma.challenge.count()).toBe(0);
    // A game whose board is an embed needs no files: it starts here.
    const ok = await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'practice' } });
    expect(ok.response?.message?.content).toMatch(/Practice Knucklebones #\d+/);
    await h.settle();
    await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit' } }).then((r) => h.api.click('carol', r.response!.message!.id, buttons(r.response!.message!)[0]!.custom_id!));
    await h.settle();

    // Without Send Messages nothing can be posted: a challenge is refused, naming it (and the files for Crystallia).
    await deny('knucklebones', 'SEND_MESSAGES', 'ATTACH_FILES');
    await expectRefused(
      h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } }),
      new RegExp(`I can't post messages in <#${kb}>, and the board and the results are posted there: ask a moderator to allow \\*\\*Send Messages\\*\\*`),
    );
    await expectRefused(
      h.api.command({ user: 'alice', channel: 'knucklebones', name: 'crystallia', options: { subcommand: 'join', opponent: 'bob' } }),
      /I can't post messages or attach files in .*ask a moderator to allow \*\*Send Messages\*\* and \*\*Attach Files\*\*/,
    );
    expect(await h.db.prisma.challenge.count()).toBe(0);
  });
});

describe('/stonehall-config check', () => {
  it('lists the channels Stonehall uses with what it may do there, and names a denied overwrite', async () => {
    const { knucklebones: kb, general } = ch();
    // A moderator may not list a channel where the bot cannot post a game: refused, nothing saved.
    await deny('general', 'SEND_MESSAGES');
    await expectRefused(
      h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'allow-channel': general } }),
      new RegExp(`Games can't be started in <#${general}>: I can't post messages in <#${general}>.*allow \\*\\*Send Messages\\*\\* for Stonehall there, then try again`),
    );
    expect((await h.db.prisma.guild.findUnique({ where: { id: h.emulator.guildId } }))?.gameChannelIds ?? []).toEqual([]);
    // So may /cycle config not name it for the announcements.
    await expectRefused(
      h.api.command({ user: 'moderator', channel: 'general', name: 'cycle', options: { subcommand: 'config', announcements: general } }),
      new RegExp(`Phases can’t be announced there: I can't post messages in <#${general}>`),
    );
    expect((await h.db.prisma.guild.findUnique({ where: { id: h.emulator.guildId } }))?.announcementChannelId ?? null).toBeNull();
    await allow('general', 'SEND_MESSAGES');

    const set = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'allow-channel': kb } });
    expect(set.response?.message?.content).toMatch(/Saved/);
    const before = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { check: true } });
    expect(before.response?.message?.flags).toBe(EPHEMERAL);
    expect(before.response?.message?.content).toMatch(new RegExp(`<#${kb}> \\(games are started here\\): ✅ View Channel, Send Messages, Embed Links, Attach Files`));
    expect(before.response?.message?.content).toMatch(/Everything Stonehall needs is allowed/);

    await deny('knucklebones', 'ATTACH_FILES');
    const after = await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { check: true } });
    const report = after.response?.message?.content ?? '';
    expect(report).toMatch(new RegExp(`<#${kb}> \\(games are started here\\): ⚠️ missing \\*\\*Attach Files\\*\\* \\(Crystallia's board is a picture\\)`));
    expect(report).toMatch(/1 channel to fix/);
    await h.api.command({ user: 'moderator', channel: 'general', name: 'stonehall-config', options: { 'any-channel': true } });
  });
});

describe('a Battle Phase', () => {
  it('starts its games in the game channels where the bot can post them, and tells the moderators which it passed over', async () => {
    const { knucklebones: kb, general } = ch();
    const cmd = (user: string, channel: string, name: string, options: Record<string, unknown>) => h.api.command({ user, channel, name, options });
    await cmd('moderator', 'general', 'stonehall-config', { 'allow-channel': kb });
    await cmd('moderator', 'general', 'stonehall-config', { 'allow-channel': general });
    await cmd('moderator', 'general', 'cycle', { subcommand: 'season-start', name: 'Season P' });
    await cmd('moderator', 'general', 'cycle', { subcommand: 'start', name: 'Cycle P' });
    for (const [a, b] of [['alice', 'bob'], ['bob', 'alice'], ['carol', 'dave'], ['dave', 'carol']] as const) {
      const r = await cmd(a, 'battle-commencement', 'crystallia', { subcommand: 'join', opponent: b });
      expect(r.response?.message?.content, r.response?.message?.content).toMatch(/intends to play|Match/);
    }
    // After the games were listed, Attach Files is taken away in #knucklebones.
    await deny('knucklebones', 'ATTACH_FILES');
    const battle = await cmd('moderator', 'general', 'cycle', { subcommand: 'phase', kind: 'battle' });
    await h.settle();
    expect(battle.response?.message?.content).toContain(`2 games started.\n⚠️ Passed over <#${kb}> (missing Attach Files for Crystallia): I can't post games there.`);
    const games = await h.db.prisma.game.findMany({ where: { kind: 'crystallia', cycleId: { not: null } } });
    expect(games).toHaveLength(2);
    expect(games.map((g) => g.channelId)).toEqual([general, general]);
    expect(games.every((g) => g.boardMessageId !== null && g.boardBlocked === null)).toBe(true);
    const told = (await h.api.messages('announcements', 'moderator', 50)).messages.filter((m) => m.content.includes(`Moderators: Stonehall can't post games in <#${kb}> (missing Attach Files for Crystallia)`));
    expect(told).toHaveLength(1);
    expect(told[0]!.content).toContain(`this Battle Phase's games went to <#${general}>`);
    for (const g of games) {
      for (const s of await h.db.prisma.seat.findMany({ where: { gameId: g.id } })) {
        const who = aliasOf(h, s.playerId);
        const r = await h.api.command({ user: who, channel: 'general', name: 'crystallia', options: { subcommand: 'forfeit', game: g.id } });
        await h.api.click(who, r.response!.message!.id, buttons(r.response!.message!)[0]!.custom_id!);
        break;
      }
    }
    await cmd('moderator', 'general', 'cycle', { subcommand: 'end' });
    await cmd('moderator', 'general', 'cycle', { subcommand: 'season-end' });
    await cmd('moderator', 'general', 'stonehall-config', { 'any-channel': true });
    await h.settle();
  });
});

describe('when Discord refuses mid-game', () => {
  it('Knucklebones: the game goes on from DMs, players and moderators are told once, and the board comes back when allowed again', async () => {
    const kb = ch().knucklebones;
    const challenge = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } });
    const accepted = await h.api.click('bob', challenge.response!.message!.id, buttons(challenge.response!.message!).find((b) => b.label === 'Accept')!.custom_id!);
    expect(accepted.response?.type).toBe(7);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'knucklebones', status: 'active', practice: false } });
    const state = async () => (await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } })).state as unknown as KnucklebonesState;
    const mover = async () => aliasOf(h, (await state()).turn!);
    /** The player whose turn it is places a die from their turn DM. */
    const moveFromDm = async () => {
      const who = await mover();
      const dm = await turnDm(who, game.id, 'kb');
      const place = buttons(dm).find((b) => b.custom_id?.startsWith('kb:place') && !b.disabled);
      expect(place, `${who}'s turn DM offers moves: ${dm.content}`).toBeDefined();
      const r = await h.api.click(who, dm.id, place!.custom_id!);
      expect(r.response?.type, r.response?.message?.content).toBe(7);
      await h.settle();
    };

    // The bot may no longer see the channel: the board cannot be edited (50001).
    await deny('knucklebones', 'VIEW_CHANNEL');
    await moveFromDm();
    const g1 = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    expect(g1.boardBlocked).toBe('missing View Channel');
    expect(g1.boardVersion).toBeLessThan(g1.version);
    // Each player is told once; the moderators once, in the system channel (no announcement channel is set).
    for (const p of ['alice', 'bob']) expect(await noticesTo(p, game.id)).toHaveLength(1);
    expect((await noticesTo('bob', game.id))[0]!.content).toMatch(new RegExp(`in <#${kb}> right now \\(missing View Channel\\).*\`/knucklebones view game:${game.id}\` shows the board`));
    const mods = await moderatorNotices(kb, 'missing View Channel');
    expect(mods).toHaveLength(1);
    expect(mods[0]!.content).toMatch(/missing View Channel\). 1 game played there goes on in the players' DMs/);
    // The next player's turn DM says why and carries the moves; the game is played from DMs.
    const next = await turnDm(await mover(), game.id, 'kb');
    expect(next.content).toMatch(new RegExp(`The board can't be shown in <#${kb}> right now \\(missing View Channel\\): play from this DM, and \`/knucklebones view game:${game.id}\``));
    await moveFromDm();
    await moveFromDm();
    // Still told once, and nothing failed: the refused boards are not retried.
    for (const p of ['alice', 'bob']) expect(await noticesTo(p, game.id)).toHaveLength(1);
    expect(await moderatorNotices(kb, 'missing View Channel')).toHaveLength(1);
    expect(await h.db.prisma.outbox.count({ where: { status: 'failed' } })).toBe(0);
    expect(await h.db.prisma.outbox.count({ where: { status: 'pending' } })).toBe(0);
    // /knucklebones view still shows it (an interaction's answer needs no channel permission).
    const view = await h.api.command({ user: 'alice', channel: 'general', name: 'knucklebones', options: { subcommand: 'view', game: game.id } });
    expect(view.response?.message?.flags).toBe(EPHEMERAL);
    expect(text(view.response?.message)).toMatch(/Knucklebones/);

    // Allowed again: the next move edits the board to the game as it is, and nobody is told again.
    await allow('knucklebones', 'VIEW_CHANNEL');
    await moveFromDm();
    const g2 = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    expect(g2.boardBlocked).toBeNull();
    expect(g2.boardVersion).toBe(g2.version);
    const board = (await h.api.messages('knucklebones', 'alice')).messages.find((m) => m.id === g2.boardMessageId)!;
    expect(board.embeds.length).toBe(1);
    for (const p of ['alice', 'bob']) expect(await noticesTo(p, game.id)).toHaveLength(1);
    expect(await moderatorNotices(kb, 'missing View Channel')).toHaveLength(1);
    expect(await h.db.prisma.channelBlock.count()).toBe(0);
    // The next turn DM no longer speaks of a missing board.
    expect((await turnDm(await mover(), game.id, 'kb')).content).not.toMatch(/can't be shown/);
    await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: game.id } }).then((r) => h.api.click('alice', r.response!.message!.id, buttons(r.response!.message!)[0]!.custom_id!));
    await h.settle();
  });

  it('Crystallia: without Attach Files its picture board is refused; the turns are played from DMs, and the board returns when allowed', async () => {
    const kb = ch().knucklebones;
    await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'crystallia', options: { subcommand: 'practice' } });
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia', status: 'active' } });
    expect(game.boardMessageId).not.toBeNull();
    await deny('knucklebones', 'ATTACH_FILES');
    const r = lcg(7);
    const fromDm = async () => {
      const dm = await turnDm('dave', game.id, 'cr');
      return playTurn(h, 'knucklebones', game.id, 'dave', r, () => null, dm);
    };
    await fromDm();
    const g1 = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    expect(g1.boardBlocked).toBe('missing Attach Files');
    expect(await noticesTo('dave', game.id)).toHaveLength(1);
    expect((await moderatorNotices(kb, 'missing Attach Files'))).toHaveLength(1);
    expect((await moderatorNotices(kb, 'missing Attach Files'))[0]!.content).toMatch(/\(missing Attach Files\)/);
    const dm = await turnDm('dave', game.id, 'cr');
    expect(dm.content).toMatch(/The board can't be shown in .* \(missing Attach Files\): play from this DM, and `\/crystallia view/);
    if ((await loadCrystallia(h, game.id)).state.outcome === null) await fromDm();
    expect(await noticesTo('dave', game.id)).toHaveLength(1);
    expect(await moderatorNotices(kb, 'missing Attach Files')).toHaveLength(1);
    expect(await h.db.prisma.outbox.count({ where: { status: 'failed' } })).toBe(0);

    await allow('knucklebones', 'ATTACH_FILES');
    await fromDm();
    const g2 = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    expect(g2.boardBlocked).toBeNull();
    expect(g2.boardVersion).toBe(g2.version);
    const board = (await h.api.messages('knucklebones', 'dave')).messages.find((m) => m.id === g2.boardMessageId)!;
    expect(board.attachments).toHaveLength(1);
    expect(await noticesTo('dave', game.id)).toHaveLength(1);
    // Taken away again, the game ends: its result is text, which Discord still takes there.
    await deny('knucklebones', 'ATTACH_FILES');
    await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'crystallia', options: { subcommand: 'forfeit' } }).then((x) => h.api.click('dave', x.response!.message!.id, buttons(x.response!.message!)[0]!.custom_id!));
    await h.settle();
    const result = (await h.api.messages('knucklebones', 'dave')).messages.filter((m) => m.content.includes(`**Crystallia #${game.id}** is over`));
    expect(result).toHaveLength(1);
    expect(await h.db.prisma.outbox.count({ where: { status: 'failed' } })).toBe(0);
  });

  it('a process without the gateway cache (a worker) learns it from Discord: a board posted without its embeds is a refused board', async () => {
    const kb = ch().knucklebones;
    await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'practice' } });
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'knucklebones', status: 'active', practice: true } });
    const channels = h.bot.ctx.channels;
    delete h.bot.ctx.channels;
    try {
      await deny('knucklebones', 'EMBED_LINKS');
      const dm = await turnDm('carol', game.id, 'kb');
      const r = await h.api.click('carol', dm.id, buttons(dm).find((b) => b.custom_id?.startsWith('kb:place') && !b.disabled)!.custom_id!);
      expect(r.response?.type).toBe(7);
      await h.settle();
      // Discord took the edit but dropped its embeds: the board shows nothing, so the game goes on from DMs.
      const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      expect(g.boardBlocked).toBe('missing Embed Links');
      const board = (await h.api.messages('knucklebones', 'carol')).messages.find((m) => m.id === g.boardMessageId)!;
      expect(board.embeds).toHaveLength(0);
      expect(await noticesTo('carol', game.id)).toHaveLength(1);
      expect(await moderatorNotices(kb, 'missing Embed Links')).toHaveLength(1);
      expect((await turnDm('carol', game.id, 'kb')).content).toMatch(/The board can't be shown .* \(missing Embed Links\)/);
      // Allowed again: the next move's edit carries the embed, and the block is over.
      await allow('knucklebones', 'EMBED_LINKS');
      const next = await turnDm('carol', game.id, 'kb');
      await h.api.click('carol', next.id, buttons(next).find((b) => b.custom_id?.startsWith('kb:place') && !b.disabled)!.custom_id!);
      await h.settle();
      const after = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      expect(after.boardBlocked).toBeNull();
      expect((await h.api.messages('knucklebones', 'carol')).messages.find((m) => m.id === after.boardMessageId)!.embeds).toHaveLength(1);
      expect(await noticesTo('carol', game.id)).toHaveLength(1);
    } finally {
      h.bot.ctx.channels = channels;
    }
    await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: game.id } }).then((x) => h.api.click('carol', x.response!.message!.id, buttons(x.response!.message!)[0]!.custom_id!));
    await h.settle();
  });

  it('a game that ends while its board is refused: its last board and its result are posted once a board is taken there again', async () => {
    const kb = ch().knucklebones;
    const challenge = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } });
    await h.api.click('bob', challenge.response!.message!.id, buttons(challenge.response!.message!).find((b) => b.label === 'Accept')!.custom_id!);
    await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'practice' } });
    await h.settle();
    const ended = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'knucklebones', status: 'active', practice: false, channelId: kb } });
    const running = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'knucklebones', status: 'active', practice: true, channelId: kb } });
    const resultsOf = async (gameId: number) => (await h.api.messages('knucklebones', 'alice', 100)).messages.filter((m) => m.content.includes(`**Knucklebones #${gameId}** is over`));
    const resultRow = () => h.db.prisma.outbox.findFirstOrThrow({ where: { kind: 'result', payload: { path: ['gameId'], equals: ended.id } } });
    const carolPlaces = async () => {
      const dm = await turnDm('carol', running.id, 'kb');
      const r = await h.api.click('carol', dm.id, buttons(dm).find((b) => b.custom_id?.startsWith('kb:place') && !b.disabled)!.custom_id!);
      expect(r.response?.type, r.response?.message?.content).toBe(7);
      await h.settle();
    };
    const failedBefore = await h.db.prisma.outbox.count({ where: { status: 'failed' } });
    const modsBefore = (await moderatorNotices(kb, 'missing View Channel')).length;

    // The bot may no longer see the channel: Carol's game goes on from her DMs, and Alice forfeits the other one.
    await deny('knucklebones', 'VIEW_CHANNEL');
    await carolPlaces();
    expect((await h.db.prisma.game.findUniqueOrThrow({ where: { id: running.id } })).boardBlocked).toBe('missing View Channel');
    const forfeit = await h.api.command({ user: 'alice', channel: 'general', name: 'knucklebones', options: { subcommand: 'forfeit', game: ended.id } });
    await h.api.click('alice', forfeit.response!.message!.id, buttons(forfeit.response!.message!)[0]!.custom_id!);
    await h.settle();
    // Its last board and its result were refused: the result is a failed row saying why, the board is marked.
    const over = await h.db.prisma.game.findUniqueOrThrow({ where: { id: ended.id } });
    expect(over.status).toBe('finished');
    expect(over.boardBlocked).toBe('missing View Channel');
    expect(over.boardVersion).toBeLessThan(over.version);
    expect(await resultRow()).toMatchObject({ status: 'failed', lastError: `Discord refuses Stonehall's posts in <#${kb}> (missing View Channel); the moderators were told` });
    expect(await resultsOf(ended.id)).toHaveLength(0);
    // Nobody is told to play from DMs a game that is over; the moderators once for the channel.
    for (const p of ['alice', 'bob']) expect(await noticesTo(p, ended.id)).toHaveLength(0);
    expect(await moderatorNotices(kb, 'missing View Channel')).toHaveLength(modsBefore + 1);

    // Allowed again: Carol's next move posts her board, and with it the ended game's last board and its result.
    await allow('knucklebones', 'VIEW_CHANNEL');
    await carolPlaces();
    expect((await h.db.prisma.game.findUniqueOrThrow({ where: { id: running.id } })).boardBlocked).toBeNull();
    const shown = await h.db.prisma.game.findUniqueOrThrow({ where: { id: ended.id } });
    expect(shown.boardBlocked).toBeNull();
    expect(shown.boardVersion).toBe(shown.version);
    const board = (await h.api.messages('knucklebones', 'alice', 100)).messages.find((m) => m.id === shown.boardMessageId)!;
    // The board as the game ended: its seed revealed, no moves offered.
    expect(text(board)).toContain(`Seed: \`${shown.seed}\``);
    expect(buttons(board).filter((b) => b.custom_id?.startsWith('kb:'))).toHaveLength(0);
    const result = await resultsOf(ended.id);
    expect(result).toHaveLength(1);
    expect(result[0]!.content).toContain(`<@${h.emulator.users.alice}>`);
    expect(await resultRow()).toMatchObject({ status: 'sent', result: result[0]!.id });
    const boardRows = await h.db.prisma.outbox.count({ where: { kind: 'board', payload: { path: ['gameId'], equals: ended.id } } });
    expect(await h.db.prisma.outbox.count({ where: { status: 'failed' } })).toBe(failedBefore);
    expect(await h.db.prisma.channelBlock.count()).toBe(0);
    expect(await moderatorNotices(kb, 'missing View Channel')).toHaveLength(modsBefore + 1);

    // Once: a later block of the channel, lifted by a board taken there again, posts nothing of it again.
    await deny('knucklebones', 'VIEW_CHANNEL');
    await carolPlaces();
    expect((await h.db.prisma.game.findUniqueOrThrow({ where: { id: running.id } })).boardBlocked).toBe('missing View Channel');
    await allow('knucklebones', 'VIEW_CHANNEL');
    await carolPlaces();
    expect((await h.db.prisma.game.findUniqueOrThrow({ where: { id: running.id } })).boardBlocked).toBeNull();
    expect(await resultsOf(ended.id)).toHaveLength(1);
    expect(await h.db.prisma.outbox.count({ where: { kind: 'board', payload: { path: ['gameId'], equals: ended.id } } })).toBe(boardRows);
    await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'forfeit', game: running.id } }).then((x) => h.api.click('carol', x.response!.message!.id, buttons(x.response!.message!)[0]!.custom_id!));
    await h.settle();
  });

  it('a deleted game channel: the game goes on from DMs, players and moderators told once, and the end is not lost', async () => {
    const gone = ch().leaderboard;
    const started = await h.api.command({ user: 'carol', channel: 'leaderboard', name: 'knucklebones', options: { subcommand: 'practice' } });
    expect(started.response?.message?.content).toMatch(/Practice Knucklebones #\d+/);
    await h.settle();
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'knucklebones', status: 'active', channelId: gone } });
    await h.api.deleteChannel({ channel: 'leaderboard' });
    await h.api.waitFor(async () => !h.bot.client.channels.cache.has(gone), { what: 'the bot to see the channel deleted' });
    const failedBefore = await h.db.prisma.outbox.count({ where: { status: 'failed' } });
    for (let i = 0; i < 30; i++) {
      const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
      if (g.status !== 'active') break;
      const dm = await turnDm('carol', game.id, 'kb');
      const place = buttons(dm).find((b) => b.custom_id?.startsWith('kb:place') && !b.disabled)!;
      const r = await h.api.click('carol', dm.id, place.custom_id!);
      expect(r.response?.type, r.response?.message?.content).toBe(7);
      await h.settle();
    }
    const end = await h.db.prisma.game.findUniqueOrThrow({ where: { id: game.id } });
    expect(end.status).toBe('finished');
    expect(end.boardBlocked).toBe('the channel no longer exists');
    expect(await noticesTo('carol', game.id)).toHaveLength(1);
    const mods = await moderatorNotices(gone, 'the channel no longer exists');
    expect(mods).toHaveLength(1);
    expect(mods[0]!.content).toMatch(/\(the channel no longer exists\)\. 1 game played there goes on in the players' DMs.*New games need another channel/);
    // Carol learns the end by DM; the result Discord will never take is the one failed row, with why.
    expect((await dmsOf('carol')).some((m) => m.content.includes(`#${game.id}`) && /wins|lose|draw|over/i.test(m.content))).toBe(true);
    const failed = await h.db.prisma.outbox.findMany({ where: { status: 'failed', id: { gt: 0n } }, orderBy: { id: 'asc' } });
    expect(failed.length - failedBefore).toBe(1);
    expect(failed.at(-1)!.kind).toBe('result');
    expect(failed.at(-1)!.lastError).toBe(`Discord refuses Stonehall's posts in <#${gone}> (the channel no longer exists); the moderators were told`);
  });
});
