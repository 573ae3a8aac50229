// npm run deploy-commands — registers Stonehall's slash commands with Discord.
// Needs DISCORD_TOKEN and DISCORD_APPLICATION_ID; DISCORD_GUILD_ID registers for one server only
// (instant, good for testing); without it they are registered globally.
import { readEnv } from '../src/config.ts';
import { deployCommands } from '../commands/deploy.ts';
import { games } from '../src/games/index.ts';
import { inviteNeeds, inviteUrl, permissionLabel } from '../src/bot/permissions.ts';

const env = readEnv();
if (!env.DISCORD_TOKEN || !env.DISCORD_APPLICATION_ID) {
  console.error('Set DISCORD_TOKEN and DISCORD_APPLICATION_ID (see .env.example). The local emulator registers commands by itself on `npm start`.');
  process.exit(1);
}
const n = await deployCommands({
  token: env.DISCORD_TOKEN,
  applicationId: env.DISCORD_APPLICATION_ID,
  ...(env.DISCORD_GUILD_ID ? { guildId: env.DISCORD_GUILD_ID } : {}),
  ...(env.DISCORD_API_BASE ? { apiBase: env.DISCORD_API_BASE } : {}),
});
console.log(`registered ${n} commands ${env.DISCORD_GUILD_ID ? `in guild ${env.DISCORD_GUILD_ID}` : 'globally'}`);
// The invite a server owner opens to add the bot with exactly the permissions it needs (docs/deploying.md).
console.log(`invite Stonehall with: ${inviteUrl(env.DISCORD_APPLICATION_ID, games)}`);
console.log(`  scopes: bot, applications.commands; permissions: ${inviteNeeds(games).map((n) => permissionLabel(n.permission)).join(', ')}`);
