import type { z } from 'zod';
import type { AnyEngine, PlayerId } from '../kernel/types.ts';
import type { Clock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import type { Logger } from '../log.ts';
import { UserError } from './errors.ts';

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
  /** What the bot may do in a channel, as far as this process knows (the gateway's cache); unset: unknown. */
  channels?: ChannelAccess;
  /** How long a use case waits for a free database connection before the user is told to try again (default 10 s; tests of the refusal shorten it). */
  connectionWaitMs?: number;
}

/**
 * What the bot may do in a server's channels (src/bot/permissions.ts implements it from the
 * gateway's cache). `missing` names what the bot lacks there to post a game of `kind` (null: just
 * to post messages): empty when it may, null when this process cannot know (no cache).
 */
export interface ChannelAccess {
  /** `edit`: to edit the bot's own message there (Discord asks no Send Messages for that), not to post. */
  missing(guildId: string, channelId: string, kind: string | null, opts?: { edit?: boolean }): string[] | null;
}

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
  /**
   * Players whose forfeit was the game's own clock, not a choice (Krellstones: three choices in a
   * row left to run out), so that boards, results and DMs say their time ran out. Default: none
   * (the platform already knows the forfeits its deadlines cause).
   */
  timedOut?(state: unknown): PlayerId[];
  /** The subcommand that starts a game of one's own, in "start one with …" hints (default `joinSubcommand`; Krellstones: `start`, its join needs a host). */
  startSubcommand?: string;
  /** The join subcommand's option that names the first player of an intent (default `opponent`; Krellstones: `host`). */
  intentOption?: string;
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
  /**
   * Moves that change nothing anyone else may see (Krellstones' secret reroll selection): a change
   * made only of such moves redraws no public message (no board refresh), and the board's "Last
   * move" passes over them, so nobody learns that or when a player chose until something public
   * happens. Only for a game whose board buttons carry no version (the board is not redrawn at the
   * new version). Default: none.
   */
  secretMove?(move: unknown): boolean;
  /**
   * Moments that must ping a player in the game's channel at once, as a message of its own (an edit
   * of the board pings nobody): Krellstones' Pup in the Hangar. Compared on every change (`prev`
   * null at the start); `users` are pinged.
   */
  channelNotices?(input: { gameId: number; prev: unknown; next: unknown }): Array<{ content: string; users: PlayerId[] }>;
  /**
   * Tables of this game are lobbies: every seat brings something (its data) and says it is ready;
   * the game starts when at least the engine's minimum is seated and every seat is ready, not when
   * the table is full (src/services/tables.ts).
   */
  lobby?: LobbyHooks;
  /**
   * A practice game is about to start (in its transaction; `seed` is the game's): options and what
   * each seat brings (the autopilot's seats included), and what to do once the game exists.
   */
  preparePractice?(
    tx: Tx,
    ctx: ServiceContext,
    input: { guildId: string; player: { id: PlayerId; name: string }; bots: Array<{ id: PlayerId; name: string }>; seed: string },
  ): Promise<{ options?: unknown; playerData?: Record<PlayerId, unknown>; afterStart?: (tx: Tx, gameId: number) => Promise<void> }>;
  /**
   * An intent is being stated (in its transaction): refuse it with a UserError when this player
   * cannot play this game as stated (what they lack, and how to get it). `first`: no other player
   * of the intended table has stated theirs yet (the first to state hosts, for games with a host).
   */
  checkIntent?(tx: Tx, ctx: ServiceContext, input: { guildId: string; playerId: PlayerId; opponents: PlayerId[]; first: boolean }): Promise<void>;
}

/** A lobby's seat as its game sees it: who sits, what they bring so far, whether they are ready. */
export interface LobbySeat {
  playerId: PlayerId;
  data: unknown;
  ready: boolean;
}

export interface LobbyHooks {
  /**
   * Before a player sits down (in the join's transaction): a UserError refuses a player who could
   * never be ready (what they lack, and how to get it). Default: anyone may sit.
   */
  checkJoin?(tx: Tx, ctx: ServiceContext, input: { guildId: string; playerId: PlayerId; options: unknown }): Promise<void>;
  /** A seat's data when the player sits down (the host's seat gets what the host opened with). */
  initialData(input: { host: boolean; hostData?: unknown }): unknown;
  /**
   * READY (in the table's transaction): completes and checks what the seat brings, returning the
   * data to keep; a UserError refuses (what is missing and how to get it).
   */
  ready(tx: Tx, ctx: ServiceContext, input: { guildId: string; options: unknown; seat: LobbySeat }): Promise<unknown>;
  /**
   * The game is about to start (every seat ready, in the same transaction): the options, what each
   * player brings (playerData), and what to do once the game exists (lock what it uses).
   */
  prepareStart(
    tx: Tx,
    ctx: ServiceContext,
    input: { guildId: string; hostId: PlayerId; options: unknown; seats: LobbySeat[] },
  ): Promise<{ options?: unknown; playerData?: Record<PlayerId, unknown>; afterStart?: (tx: Tx, gameId: number) => Promise<void> }>;
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
    return this.all.map((g) => `\`/${g.kind} ${g.startSubcommand ?? g.joinSubcommand}\``).join(' or ');
  }

  /** Every inventory item of every game. */
  items(): ItemDef[] {
    return this.all.flatMap((g) => g.items ?? []);
  }
}
