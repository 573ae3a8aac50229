import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed, MessageComponentInteraction, ModalSubmitInteraction, PermissionsString } from 'discord.js';
import { z } from 'zod';
import type { GameInfo, GameSnapshot, MoveResult } from '../services/games.ts';
import type { Notification } from '../services/notifications.ts';
import type { GameDefinition, GameRegistry } from '../services/registry.ts';
import type { ServiceContext } from '../services/context.ts';
import type { TableWithSeats } from '../services/tables.ts';
import type { Outcome } from '../kernel/types.ts';

/**
 * What a game plugs into the bot: everything of its definition (src/services/registry.ts), how it
 * is shown (pure renderers from views), its buttons and menus (custom id routes with a checked
 * context), and its "How to play". One object per game, in src/games/<game>/index.ts; the bot core
 * receives them in a registry and never imports a game.
 */

/** A message payload in Discord's JSON shape (what renderers return; snapshot-testable). */
export interface MessagePayload {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  allowed_mentions?: { parse?: Array<'users' | 'roles' | 'everyone'>; users?: string[] };
  /** Files to attach (a board drawn as a picture): name and bytes; embeds refer to `attachment://name`. */
  files?: Array<{ name: string; data: Buffer; description?: string }>;
  /**
   * A DM whose button must be at hand within minutes (Krellstones' yell in a Pup window): it keeps
   * its buttons even for a player who moves on the board (no Play here step). Never sent to Discord.
   */
  urgent?: true;
}

export interface BoardMeta {
  gameId: number;
  version: number;
  names: Record<string, string>;
  deadlines: Record<string, Date | null>;
  seedCommitment: string;
  /** Revealed only when the game is over. */
  seed: string | null;
  /** The game belongs to a cycle: items may be used (Knucklebones shows "Use a die…"). */
  cycle?: boolean;
  /** A practice game against the autopilot. */
  practice?: boolean;
  /** Seats the autopilot plays (practice bots, forfeited seats of a game that goes on). */
  autopilot?: string[];
  /** Players whose turn ran out (a forfeit by timeout, not by choice), once the game is over. */
  timedOut?: string[];
  /**
   * The game's running timers and when they fall due (a phase that advances by itself: the next
   * automatic roll), for a game whose module sets `boardTimers`.
   */
  timers?: Array<{ key: string; player?: string; dueAt: Date }>;
  /** The table the game started from (its message became the board), when it did: a board may say both numbers. */
  tableId?: number;
}

export interface NotificationMeta {
  names: Record<string, string>;
  /** Link to the board message, when it exists. */
  boardUrl: string | null;
  /** The current game version, for buttons in the DM. */
  version: number;
  active: boolean;
  /** The game belongs to a cycle: the turn DM offers items as the board does. */
  cycle?: boolean;
  /**
   * The message goes where others see it: the player's DMs are closed and it is posted in the
   * game's channel instead (src/bot/deliver.ts). Render nothing private (a hand of cards).
   */
  public?: boolean;
}

/** One permission a game needs in its channel, and why, as a moderator reads it. */
export interface ChannelNeed {
  /** discord.js's name of the permission (`AttachFiles`). */
  permission: PermissionsString;
  /** Why, as the end of a sentence: "the board is a picture". */
  why: string;
}

/** How the bot shows one game: pure functions from an engine view to message payloads. */
export interface GamePresenter<View = unknown> {
  board(view: View, meta: BoardMeta): MessagePayload;
  notification(n: Notification, meta: NotificationMeta): MessagePayload;
  /** One line for lists: "#12 vs Bob: your turn (die 4)". */
  summary(view: View, viewer: string, meta: { gameId: number; names: Record<string, string> }): string;
  /** Tables: a title for the game with these options, and a label per seat. */
  table?: {
    title(options: unknown): string;
    seatLabels(seatCount: number): string[];
    note?(options: unknown): string;
    /** A lobby's seat: what its player brings so far, as everyone may see it (never anything secret). */
    seatNote?(seat: { playerId: string; data: unknown; ready: boolean; host: boolean }, options: unknown): string;
  };
}

// ---------------------------------------------------------------------------------------------
// Custom ids of a game: `<prefix>:<action>:<gameId>[:<version>]:<args…>`, under 100 characters.

/** Canonical decimal digits only ("1e3", " 7", "07" are someone's edits, not ours). */
export const digits = (min: number, max: number) =>
  z
    .string()
    .regex(/^(0|[1-9]\d{0,9})$/)
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
export const idArg = digits(1, 2_147_483_647);
export const versionArg = digits(0, 2_147_483_647);

export interface RouteShape {
  /** The arguments after game id (and version), as a zod tuple of strings parsed to values. */
  args: z.ZodType<readonly unknown[], readonly string[]>;
  /** The id carries the board version, and a click on an older board is refused (default true). */
  versioned?: boolean;
}

export type RouteShapes = Record<string, RouteShape>;

/** A game's custom id scheme: builds ids and parses them back (null: not ours, or malformed). */
export interface GameIds<S extends RouteShapes = RouteShapes> {
  prefix: string;
  shapes: S;
  make(action: keyof S & string, gameId: number, version: number, ...args: Array<string | number>): string;
}

export function defineIds<S extends RouteShapes>(prefix: string, shapes: S): GameIds<S> {
  if (!/^[a-z]{1,4}$/.test(prefix)) throw new Error(`bad custom id prefix ${prefix}`);
  return {
    prefix,
    shapes,
    make(action, gameId, version, ...args) {
      const versioned = shapes[action]!.versioned !== false;
      const out = [prefix, action, String(gameId), ...(versioned ? [String(version)] : []), ...args.map(String)].join(':');
      if (out.length > 100) throw new Error(`customId too long: ${out}`);
      return out;
    },
  };
}

export interface ParsedGameId {
  prefix: string;
  action: string;
  gameId: number;
  version: number | null;
  args: readonly unknown[];
}

/** Parses `raw` against the games' id schemes; null when it is not one of theirs or is malformed. */
export function parseGameId(raw: string, schemes: ReadonlyArray<GameIds>): ParsedGameId | null {
  if (typeof raw !== 'string' || raw.length > 100) return null;
  const parts = raw.split(':');
  const scheme = schemes.find((s) => s.prefix === parts[0]);
  const action = parts[1];
  if (!scheme || action === undefined || !Object.hasOwn(scheme.shapes, action)) return null;
  const shape = scheme.shapes[action]!;
  const versioned = shape.versioned !== false;
  const gameId = idArg.safeParse(parts[2]);
  const version = versioned ? versionArg.safeParse(parts[3]) : null;
  if (!gameId.success || (version && !version.success)) return null;
  const args = shape.args.safeParse(parts.slice(versioned ? 4 : 3));
  if (!args.success) return null;
  return { prefix: scheme.prefix, action, gameId: gameId.data, version: version ? (version.data as number) : null, args: args.data };
}

// ---------------------------------------------------------------------------------------------
// Collection routes: buttons about what a player owns between games (a confirmation to discard
// something), tied to no game in progress: `<prefix>:<action>:<args…>`, under 100 characters.
// The clicker is whoever clicks: a handler acts on the clicker's own things only, so a forged id
// can never reach somebody else's.

export interface CollectionRoute {
  /** The arguments after the action, as a zod tuple of strings parsed to values. */
  args: z.ZodType<readonly unknown[], readonly string[]>;
  handle(interaction: MessageComponentInteraction, args: readonly unknown[], deps: BotDeps): Promise<void>;
}

export interface CollectionRoutes {
  prefix: string;
  routes: Record<string, CollectionRoute>;
  make(action: string, ...args: Array<string | number>): string;
}

export function defineCollectionRoutes(prefix: string, routes: Record<string, CollectionRoute>): CollectionRoutes {
  if (!/^[a-z]{1,4}$/.test(prefix)) throw new Error(`bad custom id prefix ${prefix}`);
  return {
    prefix,
    routes,
    make(action, ...args) {
      if (!Object.hasOwn(routes, action)) throw new Error(`no collection route ${prefix}:${action}`);
      const out = [prefix, action, ...args.map(String)].join(':');
      if (out.length > 100) throw new Error(`customId too long: ${out}`);
      return out;
    },
  };
}

/** Parses `raw` against the games' collection routes; null when it is not one of theirs or is malformed. */
export function parseCollectionId(raw: string, schemes: ReadonlyArray<CollectionRoutes>): { route: CollectionRoute; args: readonly unknown[] } | null {
  if (typeof raw !== 'string' || raw.length > 100) return null;
  const [prefix, action, ...rest] = raw.split(':');
  const scheme = schemes.find((s) => s.prefix === prefix);
  if (!scheme || action === undefined || !Object.hasOwn(scheme.routes, action)) return null;
  const route = scheme.routes[action]!;
  const args = route.args.safeParse(rest);
  return args.success ? { route, args: args.data } : null;
}

// ---------------------------------------------------------------------------------------------
// Routes: what a click on one of the game's buttons or menus does.

/**
 * What a game's route handler gets, checked once by the platform: the game exists in this server
 * and is of this game, the clicker is seated (unless the route lets anyone in), it is running
 * (unless the route reads finished games too), and the id's version is the board's. Views only:
 * the clicker's own view (a spectator's when not seated) and their legal moves.
 */
export interface RouteContext<View = unknown, Move = unknown> {
  interaction: MessageComponentInteraction;
  deps: BotDeps;
  game: GameInfo;
  /** The version the id carried (the game's current one for unversioned routes). */
  version: number;
  userId: string;
  seated: boolean;
  /** The clicker's view (the spectator view when not seated). */
  view: View;
  /** The clicker's legal moves now. */
  legal: Move[];
  /** Selected values of a select menu (empty for a button). */
  values: string[];
  snapshot: GameSnapshot<View, Move>;
  /** Plays moves (version-checked, in one transaction) without answering the interaction. */
  play(move: Move | Move[], opts?: { notify?: string[] }): Promise<MoveResult>;
  /**
   * Plays and answers: clicked on the board, the board is edited in place; elsewhere (a DM, an
   * ephemeral menu) that message becomes `note` and the board is refreshed by the outbox.
   */
  move(move: Move | Move[], note: string, opts?: { notify?: string[] }): Promise<MoveResult>;
  /**
   * What `moves` would do (version-checked, nothing saved): the clicker's view after them and
   * their legal moves then, to offer a turn's next step or a preview before `play`.
   */
  preview(moves: Move[]): Promise<{ view: View; legal: Move[]; outcome: Outcome | null }>;
  /** Answers the interaction after `play`, as `move` does. */
  answer(result: MoveResult, note: string): Promise<void>;
  /** An ephemeral reply for the clicker only. */
  reply(payload: MessagePayload): Promise<void>;
  /** Edits the clicked message (an ephemeral menu's next step). */
  update(payload: MessagePayload): Promise<void>;
  /** This game's custom id for `action` at the version shown. */
  id(action: string, ...args: Array<string | number>): string;
}

/** What a game's modal submission gets (a route that opened a modal with its own id): checked as a click is. */
export interface ModalContext<View = unknown, Move = unknown> {
  interaction: ModalSubmitInteraction;
  deps: BotDeps;
  game: GameInfo;
  userId: string;
  view: View;
  /** The modal's text fields by custom id. */
  fields: Record<string, string>;
  /** Plays a move as the submitter (checked by the engine like any move). */
  play(move: Move): Promise<MoveResult>;
}

export interface RouteDef<View = unknown, Move = unknown> {
  /**
   * The route opened a modal whose custom id is this route's: its submission comes here (the seat,
   * status and kind are checked as for a click; the version is not: modals carry none).
   */
  submit?(ctx: ModalContext<View, Move>, args: readonly unknown[]): Promise<void>;
  /** Who may click: a seated player (default), or anyone (a spectator's private panel). */
  who?: 'seated' | 'anyone';
  /** Also on a finished game (default: the game must be running). */
  finished?: boolean;
  /** Clickable when it is not the clicker's turn (default: only by a player the game waits for). */
  anytime?: boolean;
  /**
   * The button opens the first step of the player's turn (Crystallia's Take your turn). When a
   * board mover's turn DM offers it, **Play here** runs it at once, and its private answer
   * (`ctx.reply`) turns that DM into the step: one tap instead of Play here, then the button.
   */
  opensTurn?: boolean;
  /**
   * The move a click plays, from the button's id alone (a column, a choice): then a versioned
   * click is played without reading its game first. The click's checks (the game's kind, the seat,
   * the turn, the version: src/bot/game-routes.ts) run on the game as the move's transaction locks
   * it, so a click costs the move's two round trips and its answer. `handle` still serves an
   * unversioned id of the route.
   */
  direct?(args: readonly unknown[]): { move: Move; note: string };
  handle(ctx: RouteContext<View, Move>, args: readonly unknown[]): Promise<void>;
}

/**
 * A route whose move and note come from its id alone (`direct`): a versioned click plays it without
 * reading the game first; `handle` plays the same move for an unversioned id.
 */
export function directRoute<View, Move>(play: (args: readonly unknown[]) => { move: Move; note: string }): RouteDef<View, Move> {
  return {
    direct: play,
    async handle(ctx, args) {
      const { move, note } = play(args);
      await ctx.move(move, note);
    },
  };
}

export interface GameModule<View = unknown, Move = unknown> extends GameDefinition {
  present: GamePresenter<View>;
  ids: GameIds;
  routes: Record<string, RouteDef<View, Move>>;
  /**
   * False: the board has no Forfeit button (the game forfeits by `/<game> forfeit` only). Otherwise
   * a running game's board that lacks the platform's `g:resign` button gets one (src/bot/chrome.ts).
   */
  boardForfeit?: false;
  /** Its board shows when its own timers fall due (BoardMeta.timers): read for such games only. */
  boardTimers?: boolean;
  /** A short "How to play", shown by `/<game> help` and linked from the board. */
  howToPlay: string;
  /**
   * What the game's messages need in its channel beyond seeing it and posting there (which the
   * platform adds for every game): Embed Links for a board drawn as an embed, Attach Files for a
   * board drawn as a picture. Commands that start a game refuse, naming what is missing, in a
   * channel where Discord does not allow it (src/bot/permissions.ts); the invite asks for all of them.
   */
  channelPermissions: readonly ChannelNeed[];
  /**
   * What `npm run replay` prints of a finished game, from the states the replay went through
   * (setup first, then one per log entry): whatever chance decided (dice, deals), for anyone to
   * check against the revealed seed.
   */
  replayNotes?(states: readonly unknown[]): string[];
  /** Buttons about players' own things between games (src/bot/game-routes.ts dispatches them). */
  collectionRoutes?: CollectionRoutes;
  /**
   * A lobby's private panel (games with GameDefinition.lobby): what the clicker brings, with menus
   * to choose (`tb:panel` opens it, `tb:pick` is one of its menus: `key` and the values chosen).
   * Both return the panel to show (ephemeral); a UserError refuses.
   */
  lobbyPanel?: {
    panel(deps: BotDeps, table: TableWithSeats, userId: string): Promise<MessagePayload>;
    pick(deps: BotDeps, table: TableWithSeats, userId: string, key: string, values: string[]): Promise<MessagePayload>;
  };
  /**
   * One move of the log in words, with its effect: "Alice put a 4 in column 2 and knocked out your
   * two 4s". It sees spectator views only (before and after the move), so it cannot reveal what a
   * spectator may not see (a hidden stone, a hand, what a peek showed). Null: nothing worth saying
   * (a step the next line describes). The board, the turn DM and `/<game> history` use it.
   */
  describeMove?(step: MoveStep<View, Move>, words: Wording): string | null;
  /**
   * Where the game's own renderers already show the recent moves (Tellstones' "Recently" on the
   * board): the platform adds no "Last move" there.
   */
  showsRecent?: { board?: boolean; dm?: boolean };
  /**
   * Partners who win or lose together, from the players in seat order (Tellstones' King's Circle:
   * seats 1 and 3 against 2 and 4). Without it every seat is its own side. The result message and
   * `/<game> history` name the teams.
   */
  teams?(players: readonly string[]): string[][];
  /** What a result's scores count, when not points: "Rounds won" (the result message's label). */
  scoreLabel?: string;
}

/** One logged move, as describeMove sees it: who, what, and the spectator views around it. */
export interface MoveStep<View = unknown, Move = unknown> {
  /** The player who moved (or SYSTEM for a phase that advanced by itself). */
  actor: string;
  move: Move;
  /** Chosen by the autopilot. */
  auto: boolean;
  /** The spectator view before and after the move. */
  before: View;
  after: View;
  /**
   * The spectator view now. A game where remembering is part of play (Tellstones) names only what
   * is public now, so a history read later is no memory aid.
   */
  latest: View;
}

/** Names as the reader of a description should see them: "you" and "your" for the reader. */
export interface Wording {
  /** The reader (a player reading their DM or the history), or null for a public message. */
  viewer: string | null;
  /** "Alice", or "you" for the reader. */
  name(playerId: string): string;
  /** "Alice’s", or "your" for the reader. */
  possessive(playerId: string): string;
  /**
   * The text stays where it is shown while the game moves on (a DM, unlike a board that is edited
   * with every move): a game where remembering is part of play says nothing there that might be
   * hidden later (Tellstones names no symbol).
   */
  lasting: boolean;
}

export type GameModules = GameRegistry<GameModule>;

/** What every command and route handler gets. */
export interface BotDeps {
  ctx: ServiceContext;
  /** The games (the same registry as ctx.games, with how each is shown and clicked). */
  games: GameModules;
  /**
   * Called after each interaction is handled (the bench measures click-to-reply with it):
   * `replyMs` from receiving the interaction to Discord accepting the reply, `ms` to the end
   * of the handler (including bookkeeping after the reply).
   */
  onHandled?: (e: { type: 'command' | 'component' | 'autocomplete' | 'other'; ms: number; replyMs: number | null; ok: boolean }) => void;
  replyTimer?: { take(interactionId: string, started: bigint): number | null };
  /** Cycles: re-reads the phase schedule after a moderator changed it. */
  phaseSchedule?: { reload(): Promise<void> };
}


/** Checks at start-up that every route shape has a handler and the other way round. */
export function checkModule(m: GameModule): GameModule {
  const shapes = Object.keys(m.ids.shapes).sort();
  const routes = Object.keys(m.routes).sort();
  if (shapes.join() !== routes.join()) throw new Error(`${m.kind}: custom id shapes (${shapes}) and routes (${routes}) differ`);
  if (m.kind !== m.engine.id) throw new Error(`${m.kind}: the kind must be the engine's id (${m.engine.id})`);
  if (m.collectionRoutes && m.collectionRoutes.prefix === m.ids.prefix) throw new Error(`${m.kind}: collection routes need a prefix of their own, not ${m.ids.prefix}`);
  return m;
}
