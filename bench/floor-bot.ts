// The floor bot's CPU per move (bench/floor-bot-main.ts): the least a move can cost a bot on this
// stack (discord.js, undici, pg, Node's flags as `npm start` gives them), measured as the clicks
// section measures Stonehall's bot: the same emulator process, the same closed loops and levels
// (a 20-move warm-up game first, 20 clicks a game up to 5 games at once, 8 above), its own
// process.cpuUsage() from the first click until its last turn DM is sent, idle time included.
import type { ServerDefinition } from '@stonehall/discord-emulator';
import { benchDatabase } from './db.ts';
import { sqlStats, startEmulatorProcess, startFloorBot, type BotProc } from './procs.ts';
import { clicksPer, withWarmUp } from './concurrency.ts';
import { summary } from './stats.ts';
import { board } from './floor-board.ts';

export interface FloorLevel {
  games: number;
  clicks: number;
  cpuMsPerMove: number;
  systemMsPerMove: number;
  click: ReturnType<typeof summary>;
  /** The level's window on the monotonic clock (µs), to cut a CPU profile of the floor bot to it. */
  windowUs: [number, number];
}

export async function floorBotBench(levels: number[], clicksPerGame = 8, nodeArgs: string[] = []): Promise<FloorLevel[]> {
  const games = 1 + levels.reduce((a, b) => a + b, 0);
  const most = Math.max(1, ...levels);
  // One channel a board at a time (Discord lets a bot post 5 messages per 5 s in a channel).
  const server: ServerDefinition = {
    bot: { username: 'Floor' },
    users: Array.from({ length: 2 * games }, (_, i) => ({ alias: `p${i}`, username: `player${i}` })),
    guilds: [{ name: 'Floor', owner: 'p0', channels: Array.from({ length: most }, (_, i) => ({ name: `board-${i}` })) }],
  };
  const emulator = await startEmulatorProcess(server, { interactionTimeoutMs: 30_000 });
  const { db, url, drop } = await benchDatabase(2);
  let bot: BotProc | null = null;
  try {
    await db.sql.query('CREATE TABLE floor_games (id int PRIMARY KEY, version int NOT NULL)');
    await db.sql.query(`INSERT INTO floor_games SELECT g, 0 FROM generate_series(0, ${games}) AS g`);
    bot = await startFloorBot(emulator, url, nodeArgs);
    const floor = bot;
    /** Posts a board as the bot (REST, its token), waiting out a 429. */
    const post = async (channel: string, body: object): Promise<string> => {
      for (;;) {
        const res = await fetch(`${emulator.apiBase}/v10/channels/${channel}/messages`, {
          method: 'POST',
          headers: { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (res.status === 429) {
          const wait = 1000 * Number(((await res.json()) as { retry_after: number }).retry_after);
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
        if (!res.ok) throw new Error(`posting a floor board: ${res.status} ${await res.text()}`);
        return ((await res.json()) as { id: string }).id;
      }
    };
    let nextGame = 0;
    let nextUser = 0;
    const results: FloorLevel[] = [];
    for (const [index, level] of withWarmUp(levels)) {
      const perGame = clicksPer(level, clicksPerGame);
      const boards = [];
      for (let i = 0; i < level; i++) {
        const gameId = nextGame++;
        const a = emulator.users[`p${nextUser++}`]!;
        const b = emulator.users[`p${nextUser++}`]!;
        const channel = emulator.channels[`board-${i}`]!;
        boards.push({ gameId, players: [a, b], message: await post(channel, board(gameId, [a, b], 0)) });
      }
      // A board's post may still be in the channel's bucket from the level before: let it refill.
      await new Promise((r) => setTimeout(r, 100));
      const clicks = level * perGame;
      const before = await sqlStats(floor);
      const from = Number(process.hrtime.bigint() / 1000n);
      await Promise.all(
        boards.map(async (g) => {
          for (let k = 1; k <= perGame; k++) {
            const res = await emulator.client.click(g.players[(k - 1) % 2]!, g.message, `floor:${g.gameId}:${g.players[0]}:${g.players[1]}:${k}:2`);
            if (res.response?.type !== 7) throw new Error(`floor click not answered with the board: ${JSON.stringify(res).slice(0, 300)}\n${floor.child.log.slice(-5).join('\n')}`);
          }
        }),
      );
      // The moves' turn DMs are part of them: the level ends once they are sent. The bot is asked
      // again once it says they are out, not over and over (each answer costs it CPU).
      let after = await sqlStats(floor);
      const samples = [...after.replies];
      while (after.pending > 0) {
        const sent = floor.child.waitForLine((l) => l.includes('"floor bot dms sent"'), 60_000);
        after = await sqlStats(floor);
        samples.push(...after.replies);
        if (after.pending > 0) await sent;
        else sent.catch(() => {});
      }
      const to = Number(process.hrtime.bigint() / 1000n);
      if (index < 0) continue;
      results.push({ games: level, clicks, cpuMsPerMove: (after.cpuMs - before.cpuMs) / clicks, systemMsPerMove: (after.systemMs - before.systemMs) / clicks, click: summary(samples), windowUs: [from, to] });
    }
    return results;
  } finally {
    await bot?.stop();
    await emulator.stop();
    await drop();
  }
}
