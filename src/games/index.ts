import type { GameModule } from '../bot/game-module.ts';
import { GameRegistry } from '../services/registry.ts';
import { crystallia } from './crystallia/index.ts';
import { keystone } from './keystone/index.ts';
import { knucklebones } from './knucklebones/index.ts';
import { krellstones } from './krellstones/index.ts';
import { tellstones } from './tellstones/index.ts';

/** Every game Stonehall runs: the one list (the bot, the services and the commands receive it). */
export const games = new GameRegistry<GameModule>([knucklebones, tellstones, crystallia, keystone, krellstones] as GameModule[]);
