/**
 * Runs the Discord emulator on its own (no bot): `npx tsx packages/discord-emulator/src/main.ts` (or `npm start -w @stonehall/discord-emulator`).
 * Port and host come from EMULATOR_PORT (default 8787) and EMULATOR_HOST (default 127.0.0.1).
 * Point a bot at it with DISCORD_TOKEN=<printed token> and `rest: { api: <printed apiBase> }`.
 */
import { startEmulator } from './index.ts';

const port = Number(process.env.EMULATOR_PORT ?? 8787);
const host = process.env.EMULATOR_HOST ?? '127.0.0.1';
const emulator = await startEmulator({ port, host });

console.log(
  [
    '',
    `  Discord emulator: ${emulator.url}  (web page)`,
    `  REST API base:    ${emulator.apiBase}`,
    `  Gateway:          ${emulator.gatewayUrl}`,
    `  Bot token:        ${emulator.botToken}`,
    `  Application id:   ${emulator.applicationId}`,
    `  Guild id:         ${emulator.guildId}`,
    `  Test API:         ${emulator.url}/_test  (README.md of @stonehall/discord-emulator)`,
    '',
  ].join('\n'),
);

const stop = async () => {
  await emulator.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
