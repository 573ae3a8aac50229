import { z } from 'zod';
import { SYMBOLS } from '../games/tellstones/engine/schema.ts';

/**
 * The one customId scheme: `<route>:<arg>:<arg>...`, e.g. `kb:place:12:7:2` (game 12, board
 * version 7, column 2). Every route declares a zod tuple for its args; parse() returns null for
 * an id that is not ours or is malformed, so a hand-edited id is refused, never trusted.
 * The version makes a stale or double click harmless: the service refuses a version that moved on.
 */
/** Canonical decimal digits only ("1e3", " 7", "07" are someone's edits, not ours). */
const digits = (min: number, max: number) =>
  z.string().regex(/^(0|[1-9]\d{0,9})$/).transform(Number).pipe(z.number().int().min(min).max(max));
const id = digits(1, 2_147_483_647);
const version = digits(0, 2_147_483_647);
const tsSymbol = z.enum(SYMBOLS);

export const customIdRoutes = {
  'ch:accept': z.tuple([id]),
  'ch:decline': z.tuple([id]),
  'kb:place': z.tuple([id, version, digits(1, 3)]),
  // Knucklebones dice items (src/bot/dice-components.ts): open the menu, pick a die (select), keep a Loaded Die value.
  'kb:dice': z.tuple([id, version]),
  'kb:die': z.tuple([id, version]),
  'kb:keep': z.tuple([id, version, digits(0, 1)]),
  'g:resign': z.tuple([id, version]),
  'g:resign-yes': z.tuple([id, version]),
  'g:resign-no': z.tuple([id]),
  // Tables (lobbies) for games of more than two seats: src/services/tables.ts.
  'tb:join': z.tuple([id]),
  'tb:leave': z.tuple([id]),
  // Tellstones (src/bot/games/tellstones-components.ts). <id> game, <version> board version.
  'ts:act': z.tuple([id, version, z.enum(['place', 'hide', 'swap', 'peek', 'challenge'])]),
  'ts:boast': z.tuple([id, version]),
  'ts:know': z.tuple([id]),
  'ts:pl': z.tuple([id, version]),
  'ts:place': z.tuple([id, version, digits(0, 1), tsSymbol, z.enum(['left', 'right'])]),
  'ts:hide': z.tuple([id, version]),
  'ts:swap': z.tuple([id, version]),
  'ts:peek': z.tuple([id, version, digits(0, 1)]),
  'ts:chal': z.tuple([id, version]),
  'ts:ans': z.tuple([id, version, tsSymbol]),
  'ts:boa': z.tuple([id, version, z.enum(['believe', 'doubt', 'counter'])]),
  'ts:prvp': z.tuple([id, version]),
  'ts:prv': z.tuple([id, version, digits(0, 1), digits(0, 6), tsSymbol]),
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
