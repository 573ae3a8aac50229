import type { Clock } from '../clock.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../log.ts';

/** What every service call needs. Services take it as their first argument. */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  log: Logger;
  /** Called after a transaction that wrote outbox rows commits (wakes the dispatcher). */
  onOutbox?: () => void;
}
