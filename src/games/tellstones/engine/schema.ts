import { z } from 'zod';
import { rngStateSchema } from '../../../kernel/rng.ts';

/** The seven symbols of a King's Gambit set, in the rulebook's order (pools are kept in this order). */
export const SYMBOLS = ['crown', 'shield', 'sword', 'flag', 'knight', 'hammer', 'scales'] as const;
export const symbolSchema = z.enum(SYMBOLS);
export type TellstonesSymbol = z.infer<typeof symbolSchema>;

/** Most stones a line can hold (a set has seven). */
export const LINE_MAX = 7;
/** Points that win the game. */
export const WINNING_POINTS = 3;
/** How many events the state keeps for the public log. */
export const LOG_LIMIT = 20;

export const VARIANTS = ['standard', 'kings-circle', 'fearless-vanguard'] as const;
export const variantSchema = z.enum(VARIANTS);
export type TellstonesVariant = z.infer<typeof variantSchema>;

/** Index of a line (and of its set and pool). Only Fearless Vanguard has line 1. */
export const lineIndexSchema = z.union([z.literal(0), z.literal(1)]);
export type LineIndex = z.infer<typeof lineIndexSchema>;

/** A side is a player (two-player games) or a team (King's Circle); side of seat i is i % 2. */
export const sideSchema = z.union([z.literal(0), z.literal(1)]);
export type Side = z.infer<typeof sideSchema>;

/** A 0-based position on a line, counted from the left end. */
export const positionSchema = z.number().int().min(0).max(LINE_MAX - 1);

const playerIdSchema = z.string().min(1);

/** A stone on a line. */
export const slotSchema = z.object({ symbol: symbolSchema, faceUp: z.boolean() }).strict();
export type Slot = z.infer<typeof slotSchema>;

/**
 * A stone's identity: its set (= its line; sets never mix) and its symbol (unique within a set).
 * Identity, unlike position, survives swaps and placements at the left end.
 */
export const stoneRefSchema = z.object({ line: lineIndexSchema, symbol: symbolSchema }).strict();
export type StoneRef = z.infer<typeof stoneRefSchema>;

/**
 * What the game waits for besides an ordinary action.
 * - challenge: `answerer` must name the stone at (`line`, `position`).
 * - boast: `answerer` must believe, doubt or (unless `countered`) counter `boaster`'s boast.
 * - proof: `boaster`'s boast was doubted; `provers` (the boaster, then their partner in King's
 *   Circle) name the face-down stones one at a time, `provers[next]` naming next.
 */
export const pendingSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('challenge'),
      challenger: playerIdSchema,
      answerer: playerIdSchema,
      line: lineIndexSchema,
      position: positionSchema,
    })
    .strict(),
  z
    .object({
      kind: z.literal('boast'),
      boaster: playerIdSchema,
      answerer: playerIdSchema,
      /** True for a counter-boast: it can only be believed or doubted. */
      countered: z.boolean(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('proof'),
      boaster: playerIdSchema,
      doubter: playerIdSchema,
      provers: z.array(playerIdSchema).min(1).max(2),
      next: z.number().int().nonnegative(),
      /** Stones named correctly so far. */
      named: z.number().int().nonnegative(),
    })
    .strict(),
]);
export type Pending = z.infer<typeof pendingSchema>;

/** One completed turn, for the peek-of-three rule: who took it and which sides gained a point. */
export const turnRecordSchema = z.object({ player: playerIdSchema, gained: z.array(sideSchema).max(2) }).strict();
export type TurnRecord = z.infer<typeof turnRecordSchema>;

const turnNo = z.number().int().positive();

/**
 * The events of the log, as stored (complete: the state is secret). `view` turns them into the
 * public log, blanking every symbol that is face down on that line at viewing time. A peek never
 * stores what was seen.
 */
export const eventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('start'), line: lineIndexSchema, symbol: symbolSchema }).strict(),
  z
    .object({
      kind: z.literal('place'),
      turnNumber: turnNo,
      actor: playerIdSchema,
      line: lineIndexSchema,
      symbol: symbolSchema,
      end: z.enum(['left', 'right']),
    })
    .strict(),
  z
    .object({ kind: z.literal('hide'), turnNumber: turnNo, actor: playerIdSchema, line: lineIndexSchema, position: positionSchema })
    .strict(),
  z
    .object({
      kind: z.literal('swap'),
      turnNumber: turnNo,
      actor: playerIdSchema,
      line: lineIndexSchema,
      a: positionSchema,
      b: positionSchema,
    })
    .strict(),
  z
    .object({
      kind: z.literal('peek'),
      turnNumber: turnNo,
      actor: playerIdSchema,
      /** Who looked: the actor, or the partner they handed the peek to. */
      viewer: playerIdSchema,
      line: lineIndexSchema,
      positions: z.array(positionSchema).min(1).max(3),
    })
    .strict(),
  z
    .object({
      kind: z.literal('challenge'),
      turnNumber: turnNo,
      actor: playerIdSchema,
      answerer: playerIdSchema,
      line: lineIndexSchema,
      position: positionSchema,
    })
    .strict(),
  z
    .object({
      kind: z.literal('answer-challenge'),
      turnNumber: turnNo,
      actor: playerIdSchema,
      line: lineIndexSchema,
      position: positionSchema,
      named: symbolSchema,
      symbol: symbolSchema,
      correct: z.boolean(),
      scorer: playerIdSchema,
    })
    .strict(),
  z.object({ kind: z.literal('boast'), turnNumber: turnNo, actor: playerIdSchema, answerer: playerIdSchema }).strict(),
  z
    .object({
      kind: z.literal('answer-boast'),
      turnNumber: turnNo,
      actor: playerIdSchema,
      answer: z.enum(['believe', 'doubt', 'counter']),
      /** The boaster credited with a point (believe only). */
      scorer: playerIdSchema.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('prove'),
      turnNumber: turnNo,
      actor: playerIdSchema,
      line: lineIndexSchema,
      position: positionSchema,
      named: symbolSchema,
      symbol: symbolSchema,
      correct: z.boolean(),
    })
    .strict(),
  z.object({ kind: z.literal('forfeit'), turnNumber: turnNo, actor: playerIdSchema }).strict(),
]);
export type TellstonesEvent = z.infer<typeof eventSchema>;

export const outcomeSchema = z
  .object({
    winners: z.array(z.string()),
    scores: z.record(z.string(), z.number().int().nonnegative()).optional(),
    reason: z.string(),
    forfeited: z.string().optional(),
  })
  .strict();

/**
 * The stored state (JSON in Postgres, validated on load). Everything is plain JSON; arrays
 * indexed by seat (`knowledge`) or by line (`lines`, `pools`) avoid player ids as object keys.
 */
export const stateSchema = z
  .object({
    variant: variantSchema,
    /** Players clockwise, as given at setup. King's Circle: A1 B1 A2 B2. Side of seat i is i % 2. */
    seats: z.array(playerIdSchema).min(2).max(4),
    /** One line (Fearless Vanguard: two), stones left to right. */
    lines: z.array(z.array(slotSchema).max(LINE_MAX)).min(1).max(2),
    /** The pool of each line's set, in SYMBOLS order (public). */
    pools: z.array(z.array(symbolSchema).max(LINE_MAX)).min(1).max(2),
    /** Points per side (team points are shared). */
    points: z.tuple([z.number().int().min(0).max(WINNING_POINTS), z.number().int().min(0).max(WINNING_POINTS)]),
    /** The player whose turn it is (who keeps it while their challenge or boast is answered); null when over. */
    turn: playerIdSchema.nullable(),
    /** Completed turns. */
    turnNumber: z.number().int().nonnegative(),
    pending: pendingSchema.nullable(),
    /** The two most recent completed turns, oldest first. */
    recentTurns: z.array(turnRecordSchema).max(2),
    /** Per seat: the face-down stones that player legitimately knows (learned by a peek). */
    knowledge: z.array(z.array(stoneRefSchema).max(2 * LINE_MAX)),
    /** The most recent events, oldest first (at most LOG_LIMIT). */
    log: z.array(eventSchema).max(LOG_LIMIT),
    rng: rngStateSchema,
    outcome: outcomeSchema.nullable(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const issue = (message: string, path: (string | number)[]): void => {
      ctx.addIssue({ code: 'custom', message, path });
    };
    const players = s.seats.length;
    const expectedPlayers = s.variant === 'kings-circle' ? 4 : 2;
    if (players !== expectedPlayers) issue(`${s.variant} needs ${expectedPlayers} seats`, ['seats']);
    if (new Set(s.seats).size !== players) issue('seats must be distinct', ['seats']);
    const seated = (p: string): boolean => s.seats.includes(p);

    const lineCount = s.variant === 'fearless-vanguard' ? 2 : 1;
    if (s.lines.length !== lineCount) issue(`${s.variant} has ${lineCount} line(s)`, ['lines']);
    if (s.pools.length !== s.lines.length) issue('one pool per line', ['pools']);
    s.lines.forEach((line, i) => {
      const pool = s.pools[i] ?? [];
      const all = [...line.map((x) => x.symbol), ...pool];
      if (all.length !== SYMBOLS.length || new Set(all).size !== SYMBOLS.length) {
        issue('each set of seven stones must be exactly once in its line or pool', ['lines', i]);
      }
      if (line.length === 0) issue('a line always holds at least the first stone', ['lines', i]);
      const sorted = SYMBOLS.filter((x) => pool.includes(x));
      if (sorted.join() !== pool.join()) issue('pools are kept in SYMBOLS order', ['pools', i]);
    });
    const slotOf = (ref: StoneRef): Slot | undefined => s.lines[ref.line]?.find((x) => x.symbol === ref.symbol);
    const slotAt = (line: number, position: number): Slot | undefined => s.lines[line]?.[position];

    if (s.knowledge.length !== players) issue('one knowledge list per seat', ['knowledge']);
    s.knowledge.forEach((refs, i) => {
      const keys = refs.map((r) => `${r.line}:${r.symbol}`);
      if (new Set(keys).size !== keys.length) issue('knowledge lists each stone once', ['knowledge', i]);
      refs.forEach((r, j) => {
        const slot = slotOf(r);
        if (!slot || slot.faceUp) issue('knowledge covers only face-down stones on a line', ['knowledge', i, j]);
      });
    });

    const over = s.outcome !== null;
    if ((s.turn === null) !== over) issue('turn is null exactly when the game is over', ['turn']);
    if (s.turn !== null && !seated(s.turn)) issue('turn must be a seated player', ['turn']);
    if (over && s.pending !== null) issue('nothing is pending in a finished game', ['pending']);
    if (!over && s.points.some((x) => x >= WINNING_POINTS)) issue('a running game has no side at the winning score', ['points']);
    s.recentTurns.forEach((r, i) => {
      if (!seated(r.player)) issue('turn records name seated players', ['recentTurns', i]);
    });
    if (s.outcome) {
      if (!s.outcome.winners.every(seated)) issue('winners must be seated', ['outcome', 'winners']);
      if (s.outcome.forfeited !== undefined && !seated(s.outcome.forfeited)) issue('forfeited must be seated', ['outcome']);
    }

    const p = s.pending;
    if (p) {
      const next = (player: string): string | undefined => s.seats[(s.seats.indexOf(player) + 1) % players];
      if (p.kind === 'challenge') {
        if (p.challenger !== s.turn) issue('the challenger is the player to move', ['pending']);
        if (p.answerer !== next(p.challenger)) issue('the answerer sits left of the challenger', ['pending']);
        const slot = slotAt(p.line, p.position);
        if (!slot || slot.faceUp) issue('a challenge points at a face-down stone', ['pending']);
      } else if (p.kind === 'boast') {
        if (!seated(p.boaster) || !seated(p.answerer)) issue('boast players must be seated', ['pending']);
        if (!p.countered && (p.boaster !== s.turn || p.answerer !== next(p.boaster))) {
          issue('a boast is made by the player to move and answered from their left', ['pending']);
        }
        // A counter-boast is made by the player left of the one to move, and answered from the
        // counter-boaster's own left (the player to move, in a two-player game).
        if (p.countered && (p.boaster !== next(s.turn ?? '') || p.answerer !== next(p.boaster))) {
          issue('a counter-boast is made from the left of the player to move and answered from its own left', ['pending']);
        }
      } else {
        if (!p.provers.every(seated) || !seated(p.boaster) || !seated(p.doubter)) issue('proof players must be seated', ['pending']);
        if (p.provers[0] !== p.boaster) issue('the boaster names first', ['pending']);
        if (p.next >= p.provers.length) issue('next prover out of range', ['pending']);
        if (!s.lines.some((line) => line.some((x) => !x.faceUp))) issue('a running proof has stones left to name', ['pending']);
      }
    }
  });

export type TellstonesState = z.infer<typeof stateSchema>;

const lineField = { line: lineIndexSchema.optional() };

/**
 * A move. `line` is needed only in Fearless Vanguard (0 or 1); elsewhere it may be omitted or 0.
 * Positions are 0-based from the left end of the line.
 */
export const moveSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('place'), ...lineField, symbol: symbolSchema, end: z.enum(['left', 'right']) }).strict(),
  z.object({ type: z.literal('hide'), ...lineField, position: positionSchema }).strict(),
  z.object({ type: z.literal('swap'), ...lineField, a: positionSchema, b: positionSchema }).strict(),
  z
    .object({
      type: z.literal('peek'),
      ...lineField,
      positions: z.array(positionSchema).min(1).max(3),
      /**
       * King's Circle: the partner. Alone, the partner looks instead of the mover at `positions`;
       * with `forPartner`, the peek is split: the mover looks at `positions`, the partner at
       * `forPartner` (RULINGS: a peek of three may be split between the partners).
       */
      shareWith: playerIdSchema.optional(),
      forPartner: z.array(positionSchema).min(1).max(2).optional(),
    })
    .strict(),
  z.object({ type: z.literal('challenge'), ...lineField, position: positionSchema }).strict(),
  z.object({ type: z.literal('boast') }).strict(),
  z.object({ type: z.literal('answer-challenge'), symbol: symbolSchema }).strict(),
  z.object({ type: z.literal('answer-boast'), answer: z.enum(['believe', 'doubt', 'counter']) }).strict(),
  z.object({ type: z.literal('prove'), ...lineField, position: positionSchema, symbol: symbolSchema }).strict(),
]);
export type TellstonesMove = z.infer<typeof moveSchema>;
export type TellstonesMoveType = TellstonesMove['type'];

export const ACTION_TYPES = ['place', 'hide', 'swap', 'peek', 'challenge', 'boast'] as const satisfies readonly TellstonesMoveType[];

/** Options: the variant (default standard) and the first stone (default random; `scales` is Demacian tradition). */
export const optionsSchema = z
  .object({
    variant: variantSchema.default('standard'),
    firstStone: z.enum(['random', 'scales']).default('random'),
  })
  .strict()
  .prefault({});
export type TellstonesOptions = z.infer<typeof optionsSchema>;
