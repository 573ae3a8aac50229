import type { MessageComponentInteraction } from 'discord.js';
import { z } from 'zod';
import { idArg as id, versionArg as version, type BotDeps } from './game-module.ts';

/**
 * The platform's own custom ids: `<route>:<arg>:<arg>...`, e.g. `g:resign:12:7` (game 12, board
 * version 7). Every route declares a zod tuple for its args; parse() returns null for an id that
 * is not ours or is malformed, so a hand-edited id is refused, never trusted. A game's own buttons
 * use its scheme (src/bot/game-module.ts, `defineIds`), dispatched by src/bot/game-routes.ts.
 * The version makes a stale or double click harmless: the service refuses a version that moved on.
 */
export const customIdRoutes = {
  'ch:accept': z.tuple([id]),
  'ch:decline': z.tuple([id]),
  'g:resign': z.tuple([id, version]),
  'g:resign-yes': z.tuple([id, version]),
  'g:resign-no': z.tuple([id]),
  // The Rematch button of a finished game's result message (src/bot/results.ts).
  'g:rematch': z.tuple([id]),
  // A page of `/<game> history` (src/bot/history.ts): game, page.
  'g:history': z.tuple([id, version]),
  // Nudge the player on turn (once per turn: the service remembers it, so the id needs no version).
  'g:nudge': z.tuple([id]),
  // Play here, in a board mover's turn DM (src/bot/dm-moves.ts): never stale, so no version.
  'g:here': z.tuple([id]),
  // Tables (lobbies) for games of more than two seats: src/services/tables.ts.
  'tb:join': z.tuple([id]),
  'tb:leave': z.tuple([id]),
  'tb:start': z.tuple([id]),
  'tb:decline': z.tuple([id]),
  // Lobbies (tables whose seats bring something): ready, the seat's private panel, a pick in it.
  'tb:ready': z.tuple([id]),
  'tb:panel': z.tuple([id]),
  'tb:pick': z.tuple([id, z.string().regex(/^[a-z0-9-]{1,24}$/)]),
} as const;

export type CustomIdRoute = keyof typeof customIdRoutes;
export type CustomIdArgs<R extends CustomIdRoute> = z.infer<(typeof customIdRoutes)[R]>;

export function customId<R extends CustomIdRoute>(route: R, ...args: CustomIdArgs<R>): string {
  const out = [route, ...args.map(String)].join(':');
  if (out.length > 100) throw new Error(`customId too long: ${out}`);
  return out;
}

export type ParsedCustomId = { [R in CustomIdRoute]: { route: R; args: CustomIdArgs<R> } }[CustomIdRoute];

export function parseCustomId(raw: string): ParsedCustomId | null {
  if (typeof raw !== 'string' || raw.length > 100) return null;
  const parts = raw.split(':');
  if (parts.length < 2) return null;
  const route = `${parts[0]}:${parts[1]}`;
  if (!Object.hasOwn(customIdRoutes, route)) return null;
  const schema = customIdRoutes[route as CustomIdRoute];
  const args = schema.safeParse(parts.slice(2));
  if (!args.success) return null;
  return { route, args: args.data } as ParsedCustomId;
}

/** One handler per platform route (the games' own routes: src/bot/game-routes.ts). */
export type ComponentHandlers<R extends ParsedCustomId['route'] = ParsedCustomId['route']> = {
  [K in R]: (i: MessageComponentInteraction, args: Extract<ParsedCustomId, { route: K }>['args'], deps: BotDeps) => Promise<void>;
};
