/**
 * Runs the Discord emulator on its own (no bot): `npx tsx packages/discord-emulator/src/main.ts` (or `npm start -w @stonehall/discord-emulator`).
 * Port and host come from EMULATOR_PORT (default 8787) and EMULATOR_HOST (default 127.0.0.1).
 * EMULATOR_SERVER_FILE: a JSON server definition (guilds, channels, users; default the example server).
 * EMULATOR_RATE_LIMITS=off turns Discord's rate limits off (default on, Discord's figures).
 * EMULATOR_INTERACTION_TIMEOUT_MS: how long the bot has to answer an interaction (default 3000, Discord's).
 * EMULATOR_DATA_DIR: a folder that keeps messages, channels, files and settings across restarts
 * (default none: memory only); what the bot was told was done survives even a SIGKILL.
 * EMULATOR_READY_JSON=1 prints, once listening, one line `{"ready":true,...}` with the URLs, the
 * token and every id (users, the guilds' channels and roles), for a process that started it.
 * Point a bot at it with DISCORD_TOKEN=<printed token> and `rest: { api: <printed apiBase> }`.
 */
import { readFileSync } from 'node:fs';
import { startEmulator, silentLogger, type ServerDefinition } from './index.ts';

const port = Number(process.env.EMULATOR_PORT ?? 8787);
const host = process.env.EMULATOR_HOST ?? '127.0.0.1';
const serverFile = process.env.EMULATOR_SERVER_FILE;
const server = serverFile ? (JSON.parse(readFileSync(serverFile, 'utf8')) as ServerDefinition) : undefined;
const limits = process.env.EMULATOR_RATE_LIMITS ?? 'on';
if (limits !== 'on' && limits !== 'off') throw new Error(`EMULATOR_RATE_LIMITS is "${limits}": give on or off`);
const readyJson = process.env.EMULATOR_READY_JSON === '1';
const timeout = process.env.EMULATOR_INTERACTION_TIMEOUT_MS;
const dataDir = process.env.EMULATOR_DATA_DIR;
if (timeout !== undefined && !(Number(timeout) > 0)) throw new Error(`EMULATOR_INTERACTION_TIMEOUT_MS is "${timeout}": give milliseconds`);
const emulator = await startEmulator({
  port,
  host,
  ...(server ? { server } : {}),
  ...(limits === 'off' ? { rateLimits: false as const } : {}),
  ...(readyJson ? { logger: silentLogger } : {}),
  ...(timeout !== undefined ? { interactionTimeoutMs: Number(timeout) } : {}),
  ...(dataDir ? { dataDir } : {}),
});

if (readyJson) {
  const { url, apiBase, gatewayUrl, botToken, applicationId, botUserId, guildId, users, guilds } = emulator;
  console.log(JSON.stringify({ ready: true, pid: process.pid, url, apiBase, gatewayUrl, botToken, applicationId, botUserId, guildId, users, guilds }));
} else {
  console.log(
    [
      '',
      `  Discord emulator: ${emulator.url}  (web page)`,
      `  REST API base:    ${emulator.apiBase}`,
      `  Gateway:          ${emulator.gatewayUrl}`,
      `  Bot token:        ${emulator.botToken}`,
      `  Application id:   ${emulator.applicationId}`,
      `  Guild id:         ${emulator.guildId}`,
      `  Rate limits:      ${limits}`,
      `  Test API:         ${emulator.url}/_test  (README.md of @stonehall/discord-emulator)`,
      '',
    ].join('\n'),
  );
}

const stop = async () => {
  await emulator.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
