import type { CommandModule } from '../src/bot/command.ts';
import keystone from './keystone.ts';
import knucklebones from './knucklebones.ts';
import krellstones from './krellstones.ts';
import krellstone from './krellstone.ts';
import krellstoneGrant from './krellstone-grant.ts';
import stonehall from './stonehall.ts';
import stonehallConfig from './stonehall-config.ts';
import cycle from './cycle.ts';
import intents from './intents.ts';
import inventory from './inventory.ts';
import leaderboard from './leaderboard.ts';
import tellstones from './tellstones.ts';
import crystallia from './crystallia.ts';

/** Every slash command, by name. deploy-commands registers exactly these. */
export const commands: Record<string, CommandModule<never>> = Object.fromEntries(
  [knucklebones, stonehall, stonehallConfig, tellstones, crystallia, keystone, krellstones, krellstone, krellstoneGrant, cycle, intents, inventory, leaderboard].map((c) => [c.data.name, c as CommandModule<never>]),
);

export const commandPayloads = () => Object.values(commands).map((c) => c.data.toJSON());
