import { readFile } from 'node:fs/promises';
import { deployCommands } from '../commands/deploy.ts';
import { silentLogger } from '@stonehall/discord-emulator';
import { startDemoEmulator } from '../src/dev/demo-server.ts';
import { BotProcess } from '../tests/helpers/bot-process.ts';
import { benchContext, benchDatabase, startGames } from './db.ts';

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
}

/**
 * Resident memory of a real bot process (src/main.ts against the emulator) with `games` active
 * games in its database, after it has started and run its ticks for a few seconds and answered
 * a command. Games are cloned in SQL from one real game, with their seats and pending jobs.
 */
export async function botMemory(games: number): Promise<{ games: number; rssMiB: number }> {
  const { db, url, drop } = await benchDatabase(4);
  const emulator = await startDemoEmulator({ logger: silentLogger });
  await deployCommands({ token: emulator.botToken, applicationId: emulator.applicationId, guildId: emulator.guildId, apiBase: emulator.apiBase });
  const bot = new BotProcess({ DISCORD_TOKEN: emulator.botToken, DISCORD_API_BASE: emulator.apiBase, DATABASE_URL: url, STONEHALL_CLOCK_URL: emulator.url });
  try {
    if (games > 0) {
      const [template] = await startGames(benchContext(db), 1, emulator.guildId, emulator.channels.knucklebones);
      await db.sql.query(
        `INSERT INTO games (guild_id, channel_id, kind, status, options, state, version, seed, seed_commitment, board_version, created_at, updated_at)
         SELECT guild_id, channel_id, kind, status, options, state, version, seed, seed_commitment, -1, now(), now()
         FROM games, generate_series(2, $1::int) WHERE id = $2`,
        [games, template],
      );
      await db.sql.query(
        `INSERT INTO seats (game_id, seat, player_id, turn_version, turn_started_at, deadline_at)
         SELECT g.id, s.seat, s.player_id, s.turn_version, s.turn_started_at, s.deadline_at FROM games g CROSS JOIN seats s WHERE s.game_id = $1 AND g.id <> $1`,
        [template],
      );
      await db.sql.query(
        `INSERT INTO jobs (kind, game_id, due_at, payload, status)
         SELECT j.kind, g.id, j.due_at, j.payload, 'pending' FROM games g CROSS JOIN jobs j WHERE j.game_id = $1 AND g.id <> $1 AND j.status = 'pending'`,
        [template],
      );
      // The outbox of the cloned games is already delivered (as in a long-running server).
      await db.sql.exec(`UPDATE outbox SET status = 'sent', sent_at = now()`);
    }
    await bot.start();
    await new Promise((r) => setTimeout(r, 4000));
    await emulator.client.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'games' } });
    const rss = await rssMiB(bot.pid!);
    return { games, rssMiB: rss };
  } finally {
    await bot.stop();
    await emulator.close();
    await drop();
  }
}
