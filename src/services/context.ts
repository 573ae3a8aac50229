import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { GameRegistry } from './registry.ts';

/** What every service call needs. Services take it as their first argument. */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  log: Logger;
  /** The games this Stonehall runs (src/games/index.ts); services never import a game themselves. */
  games: GameRegistry;
  /** Called after a transaction that wrote outbox rows commits (wakes the dispatcher). */
  onOutbox?: () => void;
  /** Tests only: where new games' seeds come from (real games draw 32 random bytes). */
  seeds?: () => string;
}
