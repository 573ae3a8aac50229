import type { z } from 'zod';
import type { Tx } from '../db/client.ts';
import type { AnyEngine, PlayerId } from '../kernel/types.ts';
import type { ServiceContext } from './context.ts';
import { UserError } from './errors.ts';

/**
 * What the services know of a game: its engine and the facts the platform needs to run it for
 * every game alike (names, how it is challenged, what its leaderboard shows, the inventory items
 * and owned assets it uses). Services receive these in the context's registry and never import a
 * particular game; src/games/index.ts is the one list.
 */
export interface ItemDef {
  /** Inventory item id, e.g. `loaded-die`. */
  id: string;
  name: string;
  emoji: string;
  description: string;
}

export interface GameDefinition {
  /** The game's kind: its engine's id and its slash command's name. */
  kind: string;
  engine: AnyEngine;
  /** Display name, e.g. "Knucklebones". */
  title: string;
  /** The subcommand that challenges one opponent, or states an intent in a Rest Phase (`join`). */
  joinSubcommand: string;
  /** How many opponents an intent may name at once (1: just one). */
  maxIntentOpponents: number;
  /** Whether scores are points worth adding up on a leaderboard. */
  points: boolean;
  /** Inventory items of this game (Knucklebones' dice), granted by moderators per cycle. */
  items?: ItemDef[];
  /** The inventory item a move needs (checked in the move's transaction), or null. */
  itemFor?(move: unknown): string | null;
  /** Owned assets by type (Krellstones' stones and faces): the schema each asset's data must match. */
  assets?: Record<string, z.ZodType>;
  /** Setup options of a practice game with this many autopilot seats (default: the defaults). */
  practiceOptions?(bots: number): unknown;
  /**
   * A match of intents is about to start its game (in the Battle Phase's transaction): the game may
   * order the seats (who hosts), choose options, say what each player brings (playerData), and act
   * once the game exists (lock the assets it uses). Default: the players in id order, default options.
   */
  prepareMatch?(
    tx: Tx,
    ctx: ServiceContext,
    input: { guildId: string; players: Array<{ id: PlayerId; name: string }>; matchId: number },
  ): Promise<{
    players?: Array<{ id: PlayerId; name: string }>;
    options?: unknown;
    playerData?: Record<PlayerId, unknown>;
    afterStart?: (tx: Tx, gameId: number) => Promise<void>;
  }>;
}

export class GameRegistry<G extends GameDefinition = GameDefinition> {
  private readonly byKind: Map<string, G>;
  constructor(readonly all: readonly G[]) {
    this.byKind = new Map(all.map((g) => [g.kind, g]));
    if (this.byKind.size !== all.length) throw new Error('two games share a kind');
  }

  kinds(): string[] {
    return this.all.map((g) => g.kind);
  }

  /** The game called `kind`, or undefined (own keys only: `toString` is no game). */
  get(kind: string): G | undefined {
    return this.byKind.get(kind);
  }

  /** The game called `kind`, or a refusal that says which games exist. */
  require(kind: string): G {
    const g = this.byKind.get(kind);
    if (!g) throw new UserError('game/unknown-kind', `Stonehall has no game called "${kind}". It runs ${this.all.map((x) => x.title).join(', ')}.`);
    return g;
  }

  /** The display name of `kind` (the kind itself for a game no longer installed). */
  title(kind: string): string {
    return this.byKind.get(kind)?.title ?? kind;
  }

  /** "`/knucklebones join` or `/tellstones challenge`": how to start a game of each. */
  startHints(): string {
    return this.all.map((g) => `\`/${g.kind} ${g.joinSubcommand}\``).join(' or ');
  }

  /** "`/knucklebones games` or `/tellstones games`". */
  listHints(): string {
    return this.all.map((g) => `\`/${g.kind} games\``).join(' or ');
  }

  /** Every inventory item of every game. */
  items(): ItemDef[] {
    return this.all.flatMap((g) => g.items ?? []);
  }
}
