import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { games as registry } from '../../src/games/index.ts';
import { OffsetClock } from '../../src/clock.ts';
import { silentLogger } from '../../src/log.ts';
import { verifyGame } from '../../src/services/replay.ts';
import { botMessages, clickOnce, PAIRS, startGame, startWorld, stuckReport, until, type World } from './support.ts';

/**
 * Stonehall as a real process, killed with SIGKILL at random moments while games are played and
 * while deadlines fire, then started again. Nothing may be lost or done twice: every game replays
 * from its seed and log, every outbox row is delivered exactly once (or recorded as failed), and
 * every deadline fires once.
 */
let w: World;
beforeAll(async () => {
  w = await startWorld();
});
// A test that fails midway leaves its process running: the next test's process would then share
// its gateway shard, and both would answer every interaction (one of them "already accepted").
afterEach(async () => {
  await w?.stopBots();
});
afterAll(async () => {
  await w?.close();
});


async function outboxSettled() {
  return (await w.db.prisma.outbox.count({ where: { status: 'pending' } })) === 0;
}

/** Rows a killed process had leased wait for the lease to lapse: let that much time pass. */
async function drainAfterKills() {
  await w.emulator.client.advanceClock(31_000);
  await until(outboxSettled, 'the outbox to drain');
}

function checkDeliveredOnce(rows: Array<{ id: bigint; kind: string; status: string; result: string | null }>) {
  const messages = botMessages(w);
  for (const row of rows) {
    expect(['sent', 'failed'], `outbox ${row.id}`).toContain(row.status);
    if (row.kind !== 'dm' || row.status !== 'sent') continue;
    const withNonce = messages.filter((m) => typeof m.nonce === 'string' && (m.nonce === `sh${row.id}` || m.nonce === `sh${row.id}f`));
    // A turn DM superseded by a newer turn of its player is not sent; if a killed process had posted
    // it before the newer row appeared, its retry finds it superseded: at most once, then.
    if (row.result?.startsWith('superseded')) expect(withNonce.length, `superseded DM row ${row.id} delivered at most once`).toBeLessThanOrEqual(1);
    else expect(withNonce.length, `DM for outbox row ${row.id} delivered exactly once`).toBe(1);
  }
  // And no DM the outbox did not ask for.
  const dmRows = new Set(rows.filter((r) => r.kind === 'dm').map((r) => `sh${r.id}`));
  const dmChannels = new Set([...w.emulator.state.channels.values()].filter((c) => c.type === 1).map((c) => c.id));
  for (const m of messages.filter((x) => dmChannels.has(x.channelId))) expect(dmRows.has(String(m.nonce)), `DM ${m.id} has an outbox row`).toBe(true);
}

describe('crash safety: SIGKILL at random points', () => {
  it('clicks during kills: no move lost or applied twice, every notification delivered once', async () => {
    const bot = w.bot();
    await bot.start();
    const games: number[] = [];
    for (const [a, b] of PAIRS) games.push(await startGame(w, a, b));
    // The board clicks the emulator saw answered with the updated board (type 7), by game: what
    // each player saw succeed. Read from the emulator's own events, so a click whose answer the
    // loop stopped waiting for is counted all the same, without waiting out its 10 s window.
    const answered = new Map<number, number>();
    const clickGame = new Map<string, number>();
    const unfollow = w.emulator.state.on((e) => {
      if (e.type === 'interaction.create' && e.name?.startsWith('kb:place:')) clickGame.set(e.id, Number(e.name.split(':')[2]));
      const game = e.type === 'interaction.response' && e.responseType === 7 ? clickGame.get(e.id) : undefined;
      if (game !== undefined) answered.set(game, (answered.get(game) ?? 0) + 1);
    });
    // The kills are paced by the games, not by the wall clock: after every 1-3 rounds of clicks
    // that moved a game on, at a random point of the next round. Games without rate limits end in
    // about a second, and a kill every 0.3-1.2 s then missed them altogether in about half the runs.
    let rounds = 0;
    let waiters: Array<{ round: number; go: () => void }> = [];
    const afterRound = (round: number) => new Promise<void>((go) => waiters.push({ round, go }));
    const roundPlayed = () => {
      rounds++;
      for (const x of waiters.filter((x) => x.round <= rounds || stop)) x.go();
      waiters = waiters.filter((x) => x.round > rounds && !stop);
    };
    // Settles when the next process is up after a kill. A click sent before it went to a process
    // that is now dead, or to none (the dead one's session): no answer can come but one already on
    // its way, and waiting out the emulator's 10 s answer window only stalled the games. The loop
    // moves on; the click's answer, if one comes, is counted from the emulator's events.
    let restarted!: Promise<void>;
    let onRestart = () => {};
    const nextRestart = () => (restarted = new Promise<void>((r) => (onRestart = r)));
    nextRestart();
    let kills = 0;
    let stop = false;
    // Between a kill and the next process's start no bot is connected: the emulator refuses every
    // click at once (409), and a loop clicking on meanwhile only took the CPU the new process needs
    // to start (seconds, on a loaded machine). The clicks in flight at the kill are what the test is
    // about; the next round waits for the restart.
    let down = false;
    const killer = (async () => {
      while (!stop && kills < 6) {
        await afterRound(rounds + 1 + Math.floor(Math.random() * 3));
        await new Promise((r) => setTimeout(r, Math.random() * 100));
        if (stop) break;
        down = true;
        await bot.kill();
        kills++;
        await bot.start();
        down = false;
        const up = onRestart;
        nextRestart();
        up();
      }
    })();
    // Rounds in a row in which no board took a click. Bounded by progress, not by the wall clock:
    // a loaded machine plays slower, and a deadline of real seconds failed it while games went on.
    let idle = 0;
    let seed = 0;
    for (;;) {
      if (down) await restarted;
      expect(idle, idle < 200 ? '' : `rounds in a row without a move: the games are stuck\n${await stuckReport(w, games, bot.log)}`).toBeLessThan(200);
      const results = await Promise.all(games.map((g) => clickOnce(w, g, seed++, restarted)));
      if (results.every((r) => r.over)) break;
      if (results.some((r) => r.type === 7 || r.late)) {
        idle = 0;
        roundPlayed();
      } else if (idle++ % 20 === 0) {
        // No board took a click: their updates wait in outbox rows a killed process had leased.
        // The lease lapses on the test clock (as in drainAfterKills), not in 30 real seconds; and
        // again every 20 idle rounds, for a delivery that failed mid-kill and waits out its backoff.
        await w.emulator.client.advanceClock(31_000);
      }
    }
    stop = true;
    roundPlayed();
    await killer;
    if (!bot.running) await bot.start();
    expect(await w.db.prisma.game.count({ where: { status: 'active' } }), 'every game was played to the end').toBe(0);
    await drainAfterKills();
    expect(kills).toBeGreaterThanOrEqual(3);
    // No answer can come after this: the killed processes' last requests reached the emulator long
    // ago, and a clean stop answers every interaction the last process took before it exits.
    await bot.terminate();
    unfollow();

    for (const id of games) {
      const report = await verifyGame({ db: w.db.prisma, clock: new OffsetClock(), log: silentLogger, games: registry }, id);
      expect(report).toMatchObject({ commitmentOk: true, stateOk: true });
      // A click the user saw succeed is never lost; a click cut off after its commit may exist without an answer.
      expect(report.moves).toBeGreaterThanOrEqual(answered.get(id) ?? 0);
      const g = await w.db.prisma.game.findUniqueOrThrow({ where: { id } });
      expect(g.version).toBe(report.moves);
    }
    checkDeliveredOnce(await w.db.prisma.outbox.findMany());
    // Every player got exactly one game-over note per game.
    const overRows = await w.db.sql.query<{ n: string }>(`SELECT count(*) AS n FROM outbox WHERE payload->'notification'->>'type' = 'game-over'`);
    expect(Number(overRows[0]!.n)).toBe(2 * games.length);
  }, 240_000);

  it('deadlines firing during kills: each fires exactly once', async () => {
    const bot = w.bot();
    await bot.start();
    const games: number[] = [];
    for (const [a, b] of PAIRS) games.push(await startGame(w, a, b));
    await until(outboxSettled, 'turn DMs');
    await w.emulator.client.advanceClock(25 * 3_600_000);
    // Kill it repeatedly while it sweeps the 6 deadlines and their reminders and delivers the DMs.
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 1200));
      await bot.kill();
      await bot.start();
    }
    await until(async () => (await w.db.prisma.game.count({ where: { id: { in: games }, status: 'active' } })) === 0, 'all deadlines to fire', 60_000);
    await drainAfterKills();
    for (const id of games) {
      const moves = await w.db.prisma.move.findMany({ where: { gameId: id } });
      expect(moves).toHaveLength(1);
      expect(moves[0]!.entry).toMatchObject({ type: 'forfeit', reason: 'timeout' });
      const deadlineJobs = await w.db.prisma.job.findMany({ where: { gameId: id, kind: 'timer' } });
      expect(deadlineJobs.map((j) => j.status)).toEqual(['done']);
    }
    checkDeliveredOnce(await w.db.prisma.outbox.findMany());
    await bot.stop();
  }, 150_000);
});
