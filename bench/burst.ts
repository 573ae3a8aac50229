// Goal 4, the Battle Phase burst: one server with `pairs` matched pairs opens its Battle Phase; every
// game starts, every board and first-turn DM arrives exactly once, and the time it takes is set
// beside Discord's rate-limit floor. The emulator (Discord's limits on) and the bot run in
// processes of their own (bench/procs.ts); this process seeds the database through the services,
// opens the phase, and reads what arrived over the emulator's test API.
import type { ServerDefinition } from '@stonehall/discord-emulator';
import type { KnucklebonesState } from '../src/games/knucklebones/engine/index.ts';
import { openPhase, startCycle, startSeason } from '../src/services/cycles.ts';
import { stateIntent } from '../src/services/intents.ts';
import { updateGuildSettings } from '../src/services/settings.ts';
import { benchContext, benchDatabase } from './db.ts';
import { botProblems, startBots, startEmulatorProcess, type BotProc } from './procs.ts';

/** Requests a game's start makes: its board, two DM channels opened, two "starts now" DMs, the first turn DM. */
const REQUESTS_PER_GAME = 6;
/** Discord's figures, as the emulator enforces them. */
const GLOBAL_PER_SECOND = 50;
const CHANNEL_LIMIT = 5;
const CHANNEL_WINDOW_S = 5;
/** `/stonehall-config` allows at most 25 game channels. */
const MAX_GAME_CHANNELS = 25;

/**
 * Game channels needed for the global budget to bind rather than one channel's 5 messages per 5 s:
 * a channel with b boards needs about b seconds, the whole burst (pairs × 6 requests) / 50, so
 * b ≤ 6 × pairs / 50, i.e. at least 50 / 6 ≈ 8.3 channels whatever the number of pairs; a half
 * again as many for slack (the per-channel bucket starts at the burst's first second too).
 */
export function gameChannelsFor(pairs: number): number {
  const globalFloorS = (pairs * REQUESTS_PER_GAME) / GLOBAL_PER_SECOND;
  return Math.min(MAX_GAME_CHANNELS, Math.max(1, Math.ceil((1.5 * pairs) / globalFloorS)));
}

/** Fixed windows of `limit` per `window` s: n messages in one channel need this long at least. */
const channelFloorS = (n: number) => Math.max(0, Math.ceil(n / CHANNEL_LIMIT) - 1) * CHANNEL_WINDOW_S;

export interface BurstResult {
  pairs: number;
  procs: number;
  gameChannels: number;
  seedMs: number;
  /** Phase opened (the service's transaction: every game started, every notification written). */
  phaseMs: number;
  /** From the phase start to the outbox empty with everything delivered. */
  deliveredMs: number;
  routes: Record<string, { requests: number; ok: number; limited: number; failed: number }>;
  /** Requests counted against the global budget that were answered (429s do not spend it). */
  budgetRequests: number;
  limited: { global: number; route: number };
  failedRequests: number;
  globalFloorS: number;
  channelFloorS: number;
  outboxFailed: number;
  checks: { games: number; boards: number; boardsExact: boolean; startDms: number; startDmsExact: boolean; turnDms: number; turnDmsExact: boolean; duplicates: number };
  bots: Array<{ cpuMs: number; rssMiB: number }>;
  problems: string[];
}

export async function burstBench(pairs: number, procs = 1): Promise<BurstResult> {
  const players = pairs * 2;
  const channels = gameChannelsFor(pairs);
  const gameChannelNames = Array.from({ length: channels }, (_, i) => `games-${i + 1}`);
  const server: ServerDefinition = {
    bot: { username: 'Stonehall' },
    users: [{ alias: 'mod', username: 'mod' }, ...Array.from({ length: players }, (_, i) => ({ alias: `p${i}`, username: `player${i}` }))],
    guilds: [{ name: 'Burst', owner: 'mod', channels: [{ name: 'announcements' }, { name: 'battle-commencement' }, ...gameChannelNames.map((name) => ({ name }))] }],
  };
  const emulator = await startEmulatorProcess(server);
  const { db, url, drop } = await benchDatabase(4);
  let bots: BotProc[] = [];
  try {
    bots = await startBots(emulator, url, procs, { DB_POOL_SIZE: '4' });
    const ctx = benchContext(db);
    const guildId = emulator.guildId;
    const mod = { manageGuild: true, roleIds: [] };
    const seed0 = performance.now();
    // The Rest Phase, as moderators and players make it, through the services.
    await startSeason(ctx, { guildId, guildName: 'Burst', member: mod, name: 'Season 1' });
    await startCycle(ctx, {
      guildId,
      member: mod,
      name: 'Cycle 1',
      defaults: { commencementChannelId: emulator.channels['battle-commencement']!, announcementChannelId: emulator.channels.announcements! },
    });
    for (const name of gameChannelNames) await updateGuildSettings(ctx, { guildId, member: mod, change: { allowGameChannel: emulator.channels[name]! } });
    const named = (i: number) => ({ id: emulator.users[`p${i}`]!, name: `player${i}`, bot: false });
    for (let i = 0; i < pairs; i++) {
      for (const [from, to] of [
        [2 * i, 2 * i + 1],
        [2 * i + 1, 2 * i],
      ] as const) {
        await stateIntent(ctx, { guildId, channelId: emulator.channels['battle-commencement']!, channelName: 'battle-commencement', kind: 'knucklebones', from: named(from), opponents: [named(to)], mode: null });
      }
    }
    const matches = await db.prisma.match.count();
    if (matches !== pairs) throw new Error(`${matches} matches made, not ${pairs}`);
    const pending = async () => Number((await db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM outbox WHERE status = 'pending'`))[0]!.n);
    // The cycle's announcement delivered: the bots are idle before the burst.
    for (let t = Date.now(); (await pending()) > 0; ) {
      if (Date.now() - t > 60_000) throw new Error('the cycle announcement was not delivered');
      await new Promise((r) => setTimeout(r, 100));
    }
    const seedMs = performance.now() - seed0;
    await emulator.read.resetRestStats();
    const before = new Set((await emulator.read.botMessages()).map((m) => m.id));
    const cpu0 = bots.map((b) => b.usage().cpuMs);

    // The Battle Phase opens as the schedule opens it (the moderator's /cycle battle calls the same service).
    const started = performance.now();
    const phase = await openPhase(ctx, { guildId, kind: 'battle', member: null, source: 'schedule' });
    const phaseMs = performance.now() - started;
    if (!phase.changed || phase.games.length !== pairs) throw new Error(`the Battle Phase started ${phase.changed ? phase.games.length : 0} games, not ${pairs}`);
    const limitMs = Math.max(180_000, ((pairs * REQUESTS_PER_GAME) / GLOBAL_PER_SECOND) * 5_000);
    while ((await pending()) > 0) {
      if (performance.now() - started > limitMs) throw new Error(`the burst was not delivered in ${limitMs / 1000} s:\n${botProblems(bots).slice(-10).join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const deliveredMs = performance.now() - started;
    const usage = bots.map((b, i) => {
      const u = b.usage();
      return { cpuMs: u.cpuMs - cpu0[i]!, rssMiB: u.rssMiB };
    });

    // What arrived, from the emulator's state.
    const stats = await emulator.read.restStats();
    const all = (await emulator.read.botMessages()).filter((m) => !before.has(m.id));
    const games = await db.prisma.game.findMany({ where: { id: { in: phase.games } }, select: { id: true, channelId: true, boardMessageId: true, state: true, seats: { select: { playerId: true } } } });
    const gameChannelIds = new Set(gameChannelNames.map((n) => emulator.channels[n]!));
    const boards = all.filter((m) => gameChannelIds.has(m.channelId));
    const boardIds = new Set(games.map((g) => g.boardMessageId));
    const boardsExact = boards.length === games.length && boards.every((m) => boardIds.has(m.id));
    const dms = all.filter((m) => m.dmRecipientId !== null);
    const byRecipient = new Map<string, typeof dms>();
    for (const m of dms) byRecipient.set(m.dmRecipientId!, [...(byRecipient.get(m.dmRecipientId!) ?? []), m]);
    let startDmsExact = true;
    let turnDmsExact = true;
    for (const g of games) {
      const first = (g.state as unknown as KnucklebonesState).turn;
      for (const { playerId: userId } of g.seats) {
        const mine = byRecipient.get(userId) ?? [];
        const starts = mine.filter((m) => m.content.includes('starts now') && m.content.includes(`#${g.id} `));
        const turns = mine.filter((m) => !m.content.includes('starts now'));
        if (starts.length !== 1) startDmsExact = false;
        if (turns.length !== (userId === first ? 1 : 0)) turnDmsExact = false;
      }
    }
    const nonces = all.map((m) => m.nonce).filter((n) => n !== null);
    const perChannel = new Map<string, number>();
    for (const m of boards) perChannel.set(m.channelId, (perChannel.get(m.channelId) ?? 0) + 1);
    const exempt = (route: string) => / \/(interactions|webhooks)\//.test(route);
    const budgetRequests = Object.entries(stats.routes).reduce((n, [route, s]) => (exempt(route) ? n : n + s.ok), 0);
    const outboxFailed = await db.prisma.outbox.count({ where: { status: 'failed' } });
    return {
      pairs,
      procs,
      gameChannels: channels,
      seedMs,
      phaseMs,
      deliveredMs,
      routes: stats.routes,
      budgetRequests,
      limited: stats.rateLimited ?? { global: 0, route: 0 },
      failedRequests: stats.total.failed,
      globalFloorS: budgetRequests / GLOBAL_PER_SECOND,
      channelFloorS: Math.max(0, ...[...perChannel.values()].map(channelFloorS)),
      outboxFailed,
      checks: {
        games: games.length,
        boards: boards.length,
        boardsExact,
        startDms: dms.filter((m) => m.content.includes('starts now')).length,
        startDmsExact,
        turnDms: dms.filter((m) => !m.content.includes('starts now')).length,
        turnDmsExact,
        duplicates: nonces.length - new Set(nonces).size,
      },
      bots: usage,
      problems: botProblems(bots),
    };
  } finally {
    await Promise.all(bots.map((b) => b.stop()));
    await emulator.stop();
    await drop();
  }
}

export function printBurst(r: BurstResult, out: (s?: string) => void): void {
  const floor = Math.max(r.globalFloorS, r.channelFloorS);
  const ratio = r.deliveredMs / 1000 / floor;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  out(`| pairs | bot processes | game channels | phase opened (1 transaction) | all delivered | of which after the phase committed | requests (global budget) | 429s global / route | failed requests | outbox failed | global floor (requests / 50/s) | per-channel floor | time / floor (goal 4: ≤ 1.3×) | bot CPU | bot RSS |`);
  out('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  out(
    `| ${r.pairs.toLocaleString('en')} | ${r.procs} | ${r.gameChannels} | ${s(r.phaseMs)} | ${s(r.deliveredMs)} | ${s(r.deliveredMs - r.phaseMs)} (${((r.deliveredMs - r.phaseMs) / 1000 / floor).toFixed(2)}× the floor) | ${r.budgetRequests.toLocaleString('en')} | ${r.limited.global} / ${r.limited.route} | ${r.failedRequests} | ${r.outboxFailed} | ${r.globalFloorS.toFixed(1)} s | ${r.channelFloorS.toFixed(0)} s | ${ratio.toFixed(2)}× (${ratio <= 1.3 ? 'met' : 'NOT met'}) | ${r.bots.map((b) => s(b.cpuMs)).join(' + ')} | ${r.bots.map((b) => `${b.rssMiB.toFixed(0)} MiB`).join(' + ')} |`,
  );
  out(`\nRequests by route: ${Object.entries(r.routes).map(([route, v]) => `${route} ${v.requests} (${v.ok} ok, ${v.limited} × 429${v.failed ? `, ${v.failed} failed` : ''})`).join('; ')}.`);
  const c = r.checks;
  const ok = c.games === r.pairs && c.boardsExact && c.startDmsExact && c.turnDmsExact && c.duplicates === 0 && r.failedRequests === 0 && r.outboxFailed === 0;
  out(
    `Exactly once, from the emulator's state: ${c.games} games started; ${c.boards} boards in the game channels (${c.boardsExact ? 'one per game, each the game\'s board' : 'NOT one per game'}); ${c.startDms} "starts now" DMs (${c.startDmsExact ? 'one per player' : 'NOT one per player'}); ${c.turnDms} turn DMs (${c.turnDmsExact ? 'one per game, to the player who moves first' : 'NOT one per first player'}); ${c.duplicates} duplicate nonces: ${ok ? 'met' : 'NOT met'}.`,
  );
  if (r.problems.length) out(`The bots logged ${r.problems.length} warnings or errors, the last: ${r.problems.at(-1)!.slice(0, 300)}`);
}
