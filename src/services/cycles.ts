import { CronExpressionParser } from 'cron-parser';
import type { Tx } from '../db/client.ts';
import type { Cycle, Guild, Phase, Season } from '../generated/prisma/client.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';
import { inTransaction, startGame } from './games.ts';
import { matchPlayers } from './intents.ts';
import { enqueue } from './notifications.ts';
import { ensureGuild, isModerator } from './settings.ts';

/**
 * Commencement (RULINGS.md): seasons, cycles and their alternating Rest and Battle phases.
 *
 * Concurrency: every use case here (and every intent statement, src/services/intents.ts) first
 * locks the server's `guilds` row, then the active cycle's row, so all changes to one server's
 * cycle are serialised in one order (no deadlocks). A phase change is a conditional step from the
 * phase it found: asking for the phase that is already open changes nothing, and (cycle_id, seq)
 * is unique besides. So a scheduled change and a moderator's change at the same moment make one
 * phase, one announcement and one set of games.
 */

export { cycleTitle, lockActiveCycle, lockGuild, type CycleWithSeason, type Member, type PhaseKind } from './locks.ts';
import { cycleTitle, lockActiveCycle, lockGuild, type CycleWithSeason, type Member, type PhaseKind } from './locks.ts';

const ch = (id: string) => `<#${id}>`;

export async function findActiveCycle(ctx: ServiceContext, guildId: string): Promise<CycleWithSeason | null> {
  return ctx.db.cycle.findFirst({ where: { guildId, status: 'active' }, include: { season: true } });
}

/** The open phase of the server's active cycle (null when no cycle runs). */
export async function currentPhase(ctx: ServiceContext, guildId: string): Promise<Phase | null> {
  const cycle = await ctx.db.cycle.findFirst({ where: { guildId, status: 'active' } });
  if (!cycle) return null;
  return ctx.db.phase.findUnique({ where: { cycleId_seq: { cycleId: cycle.id, seq: cycle.phaseSeq } } });
}

/** A server "runs cycles" while it has an active season; then a game's join subcommand states intents. */
export async function runsCycles(ctx: ServiceContext, guildId: string): Promise<boolean> {
  return (await ctx.db.season.count({ where: { guildId, status: 'active' } })) > 0;
}

function requireModerator(guild: Guild, member: Member | null): void {
  if (member && !isModerator(guild, member)) {
    throw new UserError('cycle/not-moderator', 'Only moderators (Manage Server, or the Stonehall moderator role) can run seasons, cycles and phases.');
  }
}

export interface CycleConfig {
  commencementChannelId?: string | null;
  announcementChannelId?: string | null;
  leaderboardChannelId?: string | null;
  timeZone?: string;
  restCron?: string | null;
  battleCron?: string | null;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Moderators: channels, time zone, phase schedule. `validateCron` is node-cron's validator. */
export async function configureCycles(
  ctx: ServiceContext,
  input: { guildId: string; guildName?: string; member: Member; change: CycleConfig; validateCron: (expr: string) => boolean },
): Promise<Guild> {
  const c = input.change;
  if (c.timeZone !== undefined && !isValidTimeZone(c.timeZone)) {
    throw new UserError('cycle/time-zone', `"${c.timeZone}" is not a time zone I know. Use an IANA name such as \`Europe/Berlin\` or \`America/New_York\`.`);
  }
  for (const [what, expr] of [
    ['rest', c.restCron],
    ['battle', c.battleCron],
  ] as const) {
    if (expr && !input.validateCron(expr)) {
      throw new UserError('cycle/cron', `The ${what} schedule \`${expr}\` is not a valid cron expression. Example: \`0 18 * * 5\` (Fridays 18:00).`);
    }
    if (expr) {
      const gap = shortestGapMinutes(expr, c.timeZone ?? 'UTC', ctx.clock.now());
      if (gap !== null && gap < 60) {
        throw new UserError(
          'cycle/cron-too-often',
          `The ${what} schedule \`${expr}\` would open a ${what === 'rest' ? 'Rest' : 'Battle'} Phase every ${gap < 1 ? 'few seconds' : `${Math.round(gap)} minute${Math.round(gap) === 1 ? '' : 's'}`}. A phase opens at most once an hour: for example \`0 18 * * 5\` (Fridays 18:00).`,
        );
      }
    }
  }
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId, input.guildName);
    requireModerator(guild, input.member);
    const data = Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined));
    return tx.guild.update({ where: { id: guild.id }, data: { ...data, updatedAt: ctx.clock.now() } });
  });
}

/** The shortest time between the schedule's next few firings, in minutes (null if it cannot be read). */
function shortestGapMinutes(expr: string, tz: string, from: Date): number | null {
  try {
    const it = CronExpressionParser.parse(expr, { currentDate: from, tz: isValidTimeZone(tz) ? tz : 'UTC' });
    const times = Array.from({ length: 6 }, () => it.next().toDate().getTime());
    return Math.min(...times.slice(1).map((t, i) => t - times[i]!)) / 60_000;
  } catch {
    return null;
  }
}

function announce(tx: Tx, guild: Guild, content: string, now: Date, users: string[] = []): Promise<void> {
  const channelId = guild.announcementChannelId;
  if (!channelId) return Promise.resolve();
  return enqueue(tx, 'channel-message', { channelId, content: content.slice(0, 2000), allowedUserIds: users.slice(0, 100) }, now);
}

export async function startSeason(ctx: ServiceContext, input: { guildId: string; guildName?: string; member: Member; name: string }): Promise<Season> {
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId, input.guildName);
    requireModerator(guild, input.member);
    const cycle = await lockActiveCycle(tx, guild.id);
    if (cycle) throw new UserError('cycle/still-running', `${cycleTitle(cycle)} is still running. End it with \`/cycle end\` before starting a new season.`);
    const running = await tx.season.findFirst({ where: { guildId: guild.id, status: 'active' } });
    if (running) {
      throw new UserError('cycle/season-running', `**${running.name}** is still running. End it with \`/cycle season-end\` (it is announced), then start the next season.`);
    }
    const name = input.name.trim();
    const taken = await tx.season.findFirst({ where: { guildId: guild.id, name: { equals: name, mode: 'insensitive' } } });
    if (taken) throw new UserError('cycle/season-name', `This server already had a season called **${taken.name}**. Choose another name.`);
    const now = ctx.clock.now();
    const season = await tx.season.create({ data: { guildId: guild.id, name, createdAt: now } });
    await announce(tx, guild, `📜 **${season.name}** begins. Cycles will be announced here.`, now);
    return season;
  });
}

export async function endSeason(ctx: ServiceContext, input: { guildId: string; member: Member }): Promise<Season> {
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId);
    requireModerator(guild, input.member);
    const cycle = await lockActiveCycle(tx, guild.id);
    if (cycle) throw new UserError('cycle/still-running', `${cycleTitle(cycle)} is still running. End it with \`/cycle end\` first.`);
    const season = await tx.season.findFirst({ where: { guildId: guild.id, status: 'active' } });
    if (!season) throw new UserError('cycle/no-season', 'No season is running. Start one with `/cycle season-start`.');
    const now = ctx.clock.now();
    const ended = await tx.season.update({ where: { id: season.id }, data: { status: 'ended', endedAt: now } });
    await announce(tx, guild, `📕 **${season.name}** has ended. Until the next season, games start the usual way again, not by intents: ${ctx.games.startHints().replaceAll(' or ', ', ')}.`, now);
    return ended;
  });
}

/**
 * The Rest Phase announcement: how to state an intent in each game, as each game's command
 * really accepts it (how many opponents it may name; `mode` only where several may be named).
 */
export function restText(ctx: Pick<ServiceContext, 'games'>, title: string, guild: Guild): string {
  const where = guild.commencementChannelId ? ch(guild.commencementChannelId) : '#battle-commencement';
  const how = ctx.games.all.map((g) => {
    const { minPlayers: min, maxPlayers: max } = g.engine;
    const command = `\`/${g.kind} ${g.joinSubcommand} ${g.intentOption ?? 'opponent'}:@someone\``;
    const others = (n: number) => `${n} other${n === 1 ? '' : 's'}`;
    // As intents.ts's resolveMode takes them: a game of three or more is one table with everyone named.
    if (min >= 3) return `${command} (${g.title}: name your whole table, ${min === max ? others(min - 1) : `${min - 1} to ${others(max - 1)}`}, who must all name the same table)`;
    if (g.maxIntentOpponents <= 1) return `${command} (${g.title}: one opponent)`;
    const together = max >= 3 ? `\`mode: together\` for one game with all of them (when they all name the same table), ` : '';
    return `${command} (${g.title}: name up to ${g.maxIntentOpponents}, with ${together}\`mode: any\` for one game against whichever of them names you back, or \`mode: each\` for a game against every one who does)`;
  });
  return (
    `🌙 **Rest Phase** of **${title}** has begun.\n` +
    `State your intents in ${where}: ${how.join('; ')}. ` +
    `Mutual intents are matched at once; the games start when the Battle Phase begins. See yours with \`/intents list\`, all matches with \`/intents matches\`.`
  );
}

/**
 * Moderators: starts a cycle of the active season. It opens with a Rest Phase (phase 1), so
 * intents can be stated right away. Unset channels take the defaults the bot found by name.
 */
export async function startCycle(
  ctx: ServiceContext,
  input: { guildId: string; guildName?: string; member: Member; name: string; defaults?: CycleConfig },
): Promise<{ cycle: CycleWithSeason; phase: Phase }> {
  return inTransaction(ctx, async (tx) => {
    let guild = await lockGuild(tx, input.guildId, input.guildName);
    requireModerator(guild, input.member);
    const running = await lockActiveCycle(tx, guild.id);
    if (running) throw new UserError('cycle/still-running', `${cycleTitle(running)} is still running. End it with \`/cycle end\` first.`);
    const season = await tx.season.findFirst({ where: { guildId: guild.id, status: 'active' } });
    if (!season) throw new UserError('cycle/no-season', 'Start a season first: `/cycle season-start name:"Season 4"`.');
    const d = input.defaults ?? {};
    guild = await tx.guild.update({
      where: { id: guild.id },
      data: {
        commencementChannelId: guild.commencementChannelId ?? d.commencementChannelId ?? null,
        announcementChannelId: guild.announcementChannelId ?? d.announcementChannelId ?? null,
        leaderboardChannelId: guild.leaderboardChannelId ?? d.leaderboardChannelId ?? null,
      },
    });
    if (!guild.announcementChannelId) {
      throw new UserError('cycle/no-announcements', 'Set the announcement channel first: `/cycle config announcements:#channel`.');
    }
    const now = ctx.clock.now();
    const cycle = await tx.cycle.create({
      data: { guildId: guild.id, seasonId: season.id, name: input.name, phase: 'rest', phaseSeq: 1, createdAt: now },
      include: { season: true },
    });
    const phase = await tx.phase.create({ data: { cycleId: cycle.id, seq: 1, kind: 'rest', source: 'command', startedAt: now } });
    await announce(tx, guild, `🌅 **${cycleTitle(cycle)}** begins.\n${restText(ctx, cycleTitle(cycle), guild)}`, now);
    return { cycle, phase };
  });
}

export type PhaseChange =
  | {
      changed: true;
      cycle: CycleWithSeason;
      phase: Phase;
      games: number[];
      /** Game channels a Battle Phase passed over because the bot cannot post a game there, with what it lacks. */
      skipped?: Array<{ channelId: string; missing: string }>;
    }
  | { changed: false; cycle: CycleWithSeason; phase: Phase };

/**
 * Opens a Rest or Battle phase of the active cycle: by a moderator (`member`) or by the schedule
 * (`member: null`). Idempotent: when that phase is already open nothing changes.
 * A Battle Phase starts one game per match of the cycle that has none yet, DMs both players,
 * lapses every intent that did not match (telling its owner) and announces the games.
 */
export async function openPhase(
  ctx: ServiceContext,
  input: { guildId: string; kind: PhaseKind; member: Member | null; source?: 'command' | 'schedule'; seed?: (matchId: number) => string },
): Promise<PhaseChange> {
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId);
    requireModerator(guild, input.member);
    const cycle = await lockActiveCycle(tx, guild.id);
    if (!cycle) throw new UserError('cycle/none', 'No cycle is running. Start one with `/cycle start name:"Cycle 16"`.');
    const current = await tx.phase.findUniqueOrThrow({ where: { cycleId_seq: { cycleId: cycle.id, seq: cycle.phaseSeq } } });
    if (cycle.phase === input.kind) return { changed: false, cycle, phase: current };
    const now = ctx.clock.now();
    const seq = cycle.phaseSeq + 1;
    await tx.phase.update({ where: { id: current.id }, data: { endedAt: now } });
    const phase = await tx.phase.create({ data: { cycleId: cycle.id, seq, kind: input.kind, source: input.source ?? 'command', startedAt: now } });
    const moved = await tx.cycle.updateMany({ where: { id: cycle.id, phaseSeq: cycle.phaseSeq }, data: { phase: input.kind, phaseSeq: seq } });
    if (moved.count !== 1) throw new Error(`cycle ${cycle.id} moved while locked`);
    const updated = { ...cycle, phase: input.kind, phaseSeq: seq };
    const title = cycleTitle(cycle);
    if (input.kind === 'rest') {
      await announce(tx, guild, restText(ctx, title, guild), now);
      return { changed: true, cycle: updated, phase, games: [] };
    }
    const { games, skipped } = await startBattle(tx, ctx, guild, cycle, now, input.seed);
    await lapseOpenIntents(tx, cycle, now, 'the Battle Phase began');
    const lines = games.map((g) => `• ${ctx.games.title(g.kind)} #${g.gameId}: ${g.players.map((p) => `<@${p}>`).join(' vs ')} in ${ch(g.channelId)}`);
    let list = lines.join('\n');
    if (list.length > 1500) {
      const kept: string[] = [];
      for (const l of lines) {
        if (kept.join('\n').length + l.length > 1400) break;
        kept.push(l);
      }
      const lists = [...new Set(games.map((g) => `\`/${g.kind} games\``))].join(' or ');
      list = `${kept.join('\n')}\n…and ${lines.length - kept.length} more: see yours with ${lists}.`;
    }
    const body = games.length
      ? `These games start now (your first turn is in your DMs):\n${list}`
      : 'No intents matched in the Rest Phase, so no games start this time.';
    await announce(tx, guild, `⚔️ **Battle Phase** of **${title}** has begun! Intents that did not match have lapsed.\n${body}`, now, games.flatMap((g) => g.players));
    if (skipped.length) {
      const used = [...new Set(games.map((g) => g.channelId))].map(ch).join(', ');
      await announce(
        tx,
        guild,
        `🛠️ Moderators: Stonehall can't post games in ${skipped.map((x) => `${ch(x.channelId)} (${x.missing})`).join(', ')}, so this Battle Phase's games went to ${used || 'no channel'}. Allow what is missing for Stonehall there; \`/stonehall-config check:True\` lists every channel.`,
        now,
      );
    }
    return { changed: true, cycle: updated, phase, games: games.map((g) => g.gameId), skipped };
  }, { timeoutMs: PHASE_TIMEOUT_MS });
}

/**
 * A phase change's transaction may take up to 5 minutes: a Battle Phase starts every match's game
 * at once, atomically (all of them with their notifications, or none), and 1,000 matches take
 * longer than the 15 s a move's transaction may. It holds the server's guild and cycle locks
 * meanwhile, which only that server's cycle commands wait on.
 */
const PHASE_TIMEOUT_MS = 300_000;

async function startBattle(
  tx: Tx,
  ctx: ServiceContext,
  guild: Guild,
  cycle: CycleWithSeason,
  now: Date,
  seed?: (matchId: number) => string,
): Promise<{ games: Array<{ gameId: number; kind: string; players: string[]; channelId: string }>; skipped: Array<{ channelId: string; missing: string }> }> {
  const matches = await tx.match.findMany({ where: { gameId: null, phase: { cycleId: cycle.id } }, orderBy: { id: 'asc' } });
  const players = await tx.player.findMany({ where: { id: { in: matches.flatMap(matchPlayers) } } });
  const name = (id: string) => players.find((p) => p.id === id)?.name ?? '';
  const out: Array<{ gameId: number; kind: string; players: string[]; channelId: string }> = [];
  // Matches are made in the commencement channel; their games start in the server's game channels
  // when moderators listed some, taken in turn: a Battle Phase's boards spread over them (Discord
  // posts 5 messages per 5 s in one channel, so 1,000 boards in one channel take 1,000 s).
  // Only those where the bot can post this game (what the gateway's cache says; unknown counts as
  // usable): the others are passed over and the moderators told. None usable: the commencement
  // channel if the bot can post there, else the list as it is (the boards are then refused, and the
  // games go on from DMs: src/services/channel-blocks.ts).
  const spread = guild.gameChannelIds;
  const skipped = new Map<string, Set<string>>();
  const usable = (channelId: string, kind: string): boolean => {
    const missing = ctx.channels?.missing(guild.id, channelId, kind);
    if (!missing?.length) return true;
    const seen = skipped.get(channelId) ?? new Set<string>();
    seen.add(`missing ${missing.join(', ')} for ${ctx.games.title(kind)}`);
    skipped.set(channelId, seen);
    return false;
  };
  for (const m of matches) {
    const fit = spread.filter((c) => usable(c, m.kind));
    const channelId =
      fit.length > 0 ? fit[out.length % fit.length]! : spread.length > 0 && !usable(m.channelId, m.kind) ? spread[out.length % spread.length]! : m.channelId;
    const def = ctx.games.require(m.kind);
    const seated = matchPlayers(m).map((id) => ({ id, name: name(id) }));
    // A game may prepare its match (who hosts, what each player brings), in this transaction. It
    // may refuse (a player no longer has what the game needs): that match does not start, its
    // players are told why, and the other matches start as usual (the refusal wrote nothing).
    let prepared: Awaited<ReturnType<NonNullable<typeof def.prepareMatch>>>;
    try {
      prepared = (await def.prepareMatch?.(tx, ctx, { guildId: guild.id, players: seated, matchId: m.id })) ?? {};
    } catch (err) {
      if (!(err instanceof UserError)) throw err;
      for (const me of matchPlayers(m)) {
        await enqueue(tx, 'text-dm', { userId: me, fallbackChannelId: m.channelId, content: `⚔️ The Battle Phase of **${cycleTitle(cycle)}** has begun, but your ${def.title} game could not start: ${err.message}`.slice(0, 1800) }, now);
      }
      continue;
    }
    const game = await startGame(tx, ctx, {
      guildId: guild.id,
      channelId,
      kind: m.kind,
      players: prepared.players ?? seated,
      cycleId: cycle.id,
      ...(prepared.options !== undefined ? { options: prepared.options } : {}),
      ...(prepared.playerData ? { playerData: prepared.playerData } : {}),
      ...(seed ? { seed: seed(m.id) } : {}),
    });
    await prepared.afterStart?.(tx, game.id);
    await tx.match.update({ where: { id: m.id }, data: { gameId: game.id } });
    for (const me of matchPlayers(m)) {
      const them = matchPlayers(m).filter((p) => p !== me).map((p) => `<@${p}>`);
      const against = them.length > 1 ? `${them.slice(0, -1).join(', ')} and ${them.at(-1)}` : them[0];
      await enqueue(
        tx,
        'text-dm',
        {
          userId: me,
          fallbackChannelId: m.channelId,
          content: `⚔️ The Battle Phase of **${cycleTitle(cycle)}** has begun: your ${def.title} game #${game.id} against ${against} starts now. The board is in ${ch(channelId)}; whoever moves first is told by DM.`,
        },
        now,
      );
    }
    out.push({ gameId: game.id, kind: m.kind, players: matchPlayers(m), channelId });
  }
  // Only channels that were listed: the commencement channel, when tried, is not a game channel to fix.
  const passed = [...skipped].filter(([c]) => spread.includes(c)).map(([channelId, why]) => ({ channelId, missing: [...why].join('; ') }));
  return { games: out, skipped: passed };
}

/** Every intent still open in this cycle lapses; each owner is told (one DM per owner). */
async function lapseOpenIntents(tx: Tx, cycle: CycleWithSeason, now: Date, why: string): Promise<void> {
  const open = await tx.intent.findMany({ where: { status: 'open', phase: { cycleId: cycle.id } }, orderBy: { id: 'asc' } });
  if (open.length === 0) return;
  await tx.intent.updateMany({ where: { id: { in: open.map((i) => i.id) } }, data: { status: 'lapsed', closedAt: now } });
  const guild = await tx.guild.findUniqueOrThrow({ where: { id: cycle.guildId } });
  const fallback = guild.commencementChannelId ?? guild.announcementChannelId;
  const byOwner = new Map<string, string[]>();
  for (const i of open) byOwner.set(i.playerId, [...(byOwner.get(i.playerId) ?? []), i.opponentId]);
  for (const [owner, opponents] of byOwner) {
    if (!fallback) continue;
    await enqueue(
      tx,
      'text-dm',
      {
        userId: owner,
        fallbackChannelId: fallback,
        content: `⌛ Your intent to play ${opponents.map((o) => `<@${o}>`).join(', ')} in **${cycleTitle(cycle)}** did not match and has lapsed (${why}). State new intents in the next Rest Phase.`,
      },
      now,
    );
  }
}

/**
 * Moderators: ends the active cycle. Open intents lapse; games already running finish normally
 * and still count for the cycle. The leaderboard is posted to the leaderboard channel.
 */
export async function endCycle(ctx: ServiceContext, input: { guildId: string; member: Member }): Promise<CycleWithSeason> {
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId);
    requireModerator(guild, input.member);
    const cycle = await lockActiveCycle(tx, guild.id);
    if (!cycle) throw new UserError('cycle/none', 'No cycle is running, so there is nothing to end.');
    const now = ctx.clock.now();
    await tx.phase.updateMany({ where: { cycleId: cycle.id, endedAt: null }, data: { endedAt: now } });
    await lapseOpenIntents(tx, cycle, now, 'the cycle ended');
    const ended = await tx.cycle.update({ where: { id: cycle.id }, data: { status: 'ended', phase: null, endedAt: now }, include: { season: true } });
    const running = await tx.game.count({ where: { cycleId: cycle.id, status: 'active' } });
    const played = await kindsPlayed(tx, cycle.id);
    await announce(
      tx,
      guild,
      `🏁 **${cycleTitle(cycle)}** has ended.${running ? ` ${running} game${running === 1 ? ' is' : 's are'} still running and will count when finished.` : ''}` +
        (played.length === 0 ? ' No games were played in it, so there is no leaderboard.' : guild.leaderboardChannelId ? ` The leaderboard is in ${ch(guild.leaderboardChannelId)}.` : ''),
      now,
    );
    const channelId = guild.leaderboardChannelId ?? guild.announcementChannelId;
    if (channelId) {
      // One leaderboard per game played in the cycle (the first game's when none was).
      for (const kind of await kindsPlayed(tx, cycle.id)) await enqueue(tx, 'leaderboard', { channelId, cycleId: cycle.id, kind }, now);
    }
    return ended;
  });
}

/** The games played in a cycle, for its leaderboards (none: no leaderboard to post). */
async function kindsPlayed(tx: Tx, cycleId: number): Promise<string[]> {
  return (await tx.game.findMany({ where: { cycleId }, distinct: ['kind'], select: { kind: true }, orderBy: { kind: 'asc' } })).map((g) => g.kind);
}

/** Moderators: posts a cycle's leaderboards (one per game played in it, or just `kind`) to the leaderboard channel. */
export async function postLeaderboard(ctx: ServiceContext, input: { guildId: string; member: Member; cycleId: number; kind?: string }): Promise<string> {
  return inTransaction(ctx, async (tx) => {
    const guild = await lockGuild(tx, input.guildId);
    requireModerator(guild, input.member);
    const channelId = guild.leaderboardChannelId ?? guild.announcementChannelId;
    if (!channelId) throw new UserError('cycle/no-leaderboard-channel', 'Set the leaderboard channel first: `/cycle config leaderboard:#channel`.');
    const kinds = input.kind ? [input.kind] : await kindsPlayed(tx, input.cycleId);
    if (kinds.length === 0) throw new UserError('cycle/no-games', 'No game has been played in this cycle yet, so there is no leaderboard to post.');
    for (const kind of kinds) {
      await enqueue(tx, 'leaderboard', { channelId, cycleId: input.cycleId, kind }, ctx.clock.now());
    }
    return channelId;
  });
}
