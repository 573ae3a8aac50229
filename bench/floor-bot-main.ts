// The floor bot (bench/floor-bot.ts): the least a move can cost a bot on this stack. A bare
// discord.js client with Stonehall's client options (src/bot/client-options.ts: its intents,
// partials, caches and REST limit) that answers each board click as a move must:
// - a transaction on Postgres (bench/plain-move.ts: BEGIN, lock-and-read, conditional write,
//   COMMIT, prepared, on a pool of the bot's size);
// - the board edited in place by the click's answer (a Knucklebones-sized embed and two rows of
//   buttons, bench/floor-board.ts);
// - every other move, a turn DM to the other player (0.5 rate-limited calls a move, as Stonehall's
//   50-game level sends).
// No rules, no rendering, no outbox, no logging. Built by scripts/build.mjs like Stonehall's bot.
//
// Environment: DISCORD_TOKEN, DISCORD_API_BASE, DATABASE_URL. SIGUSR2 prints one line,
// {"msg":"sql stats","sql":{},"cpuUs":{...},"pending":n,"replies":[ms...]} (what bench/procs.ts
// sqlStats reads), with `pending` the turn DMs not yet sent and `replies` the clicks' answer times
// (interaction received to answer accepted, as Stonehall's bot logs them) since the last one.
import { ButtonStyle, Client, ComponentType, Events } from 'discord.js';
import pg from 'pg';
import { clientOptions } from '../src/bot/client-options.ts';
import { board } from './floor-board.ts';
import { plainMove, type PlainMoveStatements } from './plain-move.ts';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const client = new Client(clientOptions({ ...(process.env.DISCORD_API_BASE ? { apiBase: process.env.DISCORD_API_BASE } : {}), globalRate: 50 }));

const MOVE: PlainMoveStatements = {
  read: { name: 'floor-bot-read', text: 'SELECT version FROM floor_games WHERE id = $1 FOR UPDATE' },
  write: { name: 'floor-bot-write', text: 'UPDATE floor_games SET version = version + 1 WHERE id = $1 AND version = $2' },
};

let pending = 0;
/** Each click's time from its interaction's arrival to its answer accepted (ms), since the last SIGUSR2. */
let replies: number[] = [];
client.on(Events.InteractionCreate, async (interaction) => {
  const received = performance.now();
  if (!interaction.isButton() || !interaction.customId.startsWith('floor:')) return;
  const [, id, a, b, n] = interaction.customId.split(':') as [string, string, string, string, string];
  const gameId = Number(id);
  const opponent = interaction.user.id === a ? b : a;
  const version = Number(n);
  try {
    await plainMove(pool, MOVE, gameId);
    await interaction.update(board(gameId, [a, b], version));
    replies.push(performance.now() - received);
    if (version % 2 === 0) {
      pending++;
      const url = `https://discord.com/channels/${interaction.guildId}/${interaction.channelId}/${interaction.message.id}`;
      await client.users
        .send(opponent, {
          embeds: [{ title: `Your turn in game #${gameId}`, description: `You rolled a **3**. Move ${version}.` }],
          components: [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Link, url, label: 'Go to the board' }] }],
        })
        .finally(() => {
          // The bench waits for this line rather than asking over and over (each answer costs CPU).
          if (--pending === 0) console.log('"floor bot dms sent"');
        });
    }
  } catch (err) {
    console.error(`floor bot: ${(err as Error)?.stack ?? err}`);
  }
});

process.on('SIGUSR2', () => {
  console.log(JSON.stringify({ msg: 'sql stats', sql: {}, cpuUs: process.cpuUsage(), pending, replies }));
  replies = [];
});
process.on('SIGTERM', () => {
  void client
    .destroy()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
client.once(Events.ClientReady, () => console.log('"floor bot ready"'));
await client.login(process.env.DISCORD_TOKEN);
