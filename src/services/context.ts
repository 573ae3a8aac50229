/**
 * What every service call needs (declared beside the game registry it carries, so that the two
 * do not import each other).
 */
import type { ServiceContext } from './registry.ts';

export type { ServiceContext };

/**
 * The value kept for `ctx`'s database client in `caches`, made at first use: module-level caches
 * and batchers are kept per database client, since one process may serve several databases whose
 * ids repeat (tests clone one template and run several bots in one process).
 */
export function perDb<V>(caches: WeakMap<object, V>, ctx: ServiceContext, make: () => V): V {
  let c = caches.get(ctx.db);
  if (c === undefined) caches.set(ctx.db, (c = make()));
  return c;
}
