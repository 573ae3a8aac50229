import { z } from 'zod';
import { outcomeSchema } from '../../../kernel/checks.ts';
import { rngStateSchema } from '../../../kernel/rng.ts';
import { ABILITIES, BOARD_SQUARES, COLOURS, HALVES, PYRAMID_ROWS, SQUARE_KINDS, STONES, TALISMANS } from './data.ts';

export const colourSchema = z.enum(COLOURS);
export const halfSchema = z.enum(HALVES);
export const abilitySchema = z.enum(ABILITIES);
export const squareKindSchema = z.enum(SQUARE_KINDS);

/** A square of the 6x9 board: row * 9 + column, 0..53 (row 0 is the top row, column 0 the left). */
export const squareSchema = z.number().int().min(0).max(BOARD_SQUARES - 1);
/** A stone's id, 0..23 (data.ts STONES). */
export const stoneIdSchema = z.number().int().min(0).max(STONES.length - 1);
/** Where a stone's second half lies from its first. */
export const DIRECTIONS = ['right', 'down', 'left', 'up'] as const;
export const directionSchema = z.enum(DIRECTIONS);
export type Direction = z.infer<typeof directionSchema>;

const playerIdSchema = z.string().min(1);
const count = z.number().int().nonnegative();
const pyramidRow = (n: number) => z.array(stoneIdSchema.nullable()).length(n);
const perColour = <T extends z.ZodType>(v: T) => z.object({ red: v, blue: v, green: v, purple: v }).strict();

/** One player's four platforms. */
export const platformsSchema = z
  .object({
    /** Crystals of each colour on its platform (black crystals are counted apart). */
    crystals: perColour(count),
    /** Black crystals sitting on each platform (each is -1; they never count toward 5, 9 or 13). */
    blacks: perColour(count),
    /** True for a platform flipped to its advanced (5-space) side. */
    flipped: perColour(z.boolean()),
  })
  .strict();

/** What happened during a turn, in order (the record the bot prints, see view.ts `describeTurn`). */
export const eventSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('place'), stone: stoneIdSchema, halves: z.tuple([halfSchema, halfSchema]), squares: z.tuple([squareSchema, squareSchema]) }).strict(),
  z
    .object({
      kind: z.literal('move'),
      stone: stoneIdSchema,
      halves: z.tuple([halfSchema, halfSchema]),
      from: z.tuple([squareSchema, squareSchema]),
      to: z.tuple([squareSchema, squareSchema]),
    })
    .strict(),
  z
    .object({
      kind: z.literal('rotate'),
      stone: stoneIdSchema,
      halves: z.tuple([halfSchema, halfSchema]),
      from: z.tuple([squareSchema, squareSchema]),
      to: z.tuple([squareSchema, squareSchema]),
    })
    .strict(),
  /** Abilities still pending were not used: declined (`skip-ability`), or dropped because none had a legal use. */
  z.object({ kind: z.literal('skip'), abilities: z.array(abilitySchema), declined: z.boolean() }).strict(),
  /** A crystal gained: from a covered square, an isolation, a run or a talisman. */
  z.object({ kind: z.literal('gain'), colour: colourSchema, why: z.enum(['square', 'isolation', 'run', 'talisman']) }).strict(),
  /**
   * A black crystal, sitting on `platform`: `empty-supply` (wanted `colour`, whose supply was
   * empty), `bonus` (6 or more crystals this turn), `overflow` (the sixth crystal of the advanced
   * `platform` emptied it).
   */
  z
    .object({
      kind: z.literal('black'),
      why: z.enum(['empty-supply', 'bonus', 'overflow']),
      platform: colourSchema,
      colour: colourSchema.optional(),
      source: z.enum(['square', 'isolation', 'run', 'talisman']).optional(),
    })
    .strict(),
  z.object({ kind: z.literal('supercrystal'), colour: colourSchema }).strict(),
  /** The turn earned the (one) second turn. */
  z.object({ kind: z.literal('second-turn'), why: z.array(z.enum(['run-of-4', 'extra-turn'])).min(1) }).strict(),
  /** An Extra Turn square was covered but does nothing (the game's first turn, or already a second turn). */
  z.object({ kind: z.literal('extra-turn-void'), why: z.enum(['first-turn', 'second-turn']) }).strict(),
  z.object({ kind: z.literal('talisman'), colour: colourSchema }).strict(),
  /** No available stone fitted anywhere: this one left the game. */
  z.object({ kind: z.literal('discard'), stone: stoneIdSchema, halves: z.tuple([halfSchema, halfSchema]) }).strict(),
  /** 13 crystals of `colour`: the player is out at once (the rest of the turn is void). */
  z.object({ kind: z.literal('eliminated'), colour: colourSchema }).strict(),
]);
export type CrystalliaEvent = z.infer<typeof eventSchema>;

/** One turn's record. */
export const turnLogSchema = z
  .object({
    player: playerIdSchema,
    /** The turn's number (0 = the game's first turn; a second turn has its own number). */
    number: count,
    second: z.boolean(),
    events: z.array(eventSchema),
  })
  .strict();
export type TurnLog = z.infer<typeof turnLogSchema>;

/**
 * The running turn. Steps: `take` (place a stone, use a talisman, or discard when no stone fits),
 * `ability` (Move/Rotate squares covered: use them one at a time or skip the rest), `isolate`
 * (choose the isolation crystal's colour).
 */
export const turnSchema = z
  .object({
    player: playerIdSchema,
    /** Counts turns from 0 (the game's first turn); the timer key. A second turn has its own number. */
    number: count,
    /** Moves made in this turn so far. */
    steps: count,
    second: z.boolean(),
    step: z.enum(['take', 'ability', 'isolate']),
    /** The stone placed this turn, once placed. */
    stone: stoneIdSchema.nullable(),
    /** Optional abilities covered and not yet used, in the order they were covered. */
    pending: z.array(z.enum(['move', 'rotate'])),
    /** Ability squares that have worked this turn (each works at most once per turn). */
    used: z.array(squareSchema),
    /** An Extra Turn that counts was covered. */
    extra: z.boolean(),
    /** The board after the placement and its abilities holds a run of exactly 4 it did not hold before the turn. */
    run4: z.boolean(),
    /** Crystals taken this turn, for the 6-or-more rule. */
    gained: count,
    /** Runs of exactly 4 on the board before the placement (see board.ts `runsOfFour`). */
    runsBefore: z.array(z.string()),
    /** The colours the isolation crystal may take (step `isolate`). */
    choices: z.array(colourSchema).nullable(),
  })
  .strict();
export type TurnState = z.infer<typeof turnSchema>;

/**
 * The stored state (JSON in Postgres, validated with this schema on load). Secret: the face-down
 * stones of the pyramid and, during the advanced step, the players' flips; `view` hides both.
 */
export const stateSchema = z
  .object({
    /** The players in turn order (players[0] moved first); seats keep the order given at setup, rotated. */
    players: z.array(playerIdSchema).min(2).max(4),
    advanced: z.boolean(),
    /** The six tiles, in board order (top row left to right, then the bottom row), each with its quarter turns clockwise. */
    tiles: z.array(z.object({ id: z.string(), rotation: z.number().int().min(0).max(3) }).strict()).length(6),
    /** What each of the 54 squares shows (copied from the tiles at setup). */
    squares: z.array(squareKindSchema).length(BOARD_SQUARES),
    /** Every stone's halves by id (copied from data.ts at setup). */
    stones: z.array(z.tuple([halfSchema, halfSchema])).length(STONES.length),
    /** Where each stone lies on the board: [square of its first half, square of its second]; null when not on it. */
    positions: z.array(z.tuple([squareSchema, squareSchema]).nullable()).length(STONES.length),
    /** The pyramid, top row (7) to bottom row (9); null where a card was taken. */
    pyramid: z.tuple([pyramidRow(PYRAMID_ROWS[0]), pyramidRow(PYRAMID_ROWS[1]), pyramidRow(PYRAMID_ROWS[2])]),
    /** Stones that fitted nowhere and left the game, in order. */
    discarded: z.array(stoneIdSchema),
    supply: perColour(count),
    platforms: z.record(z.string(), platformsSchema),
    /** The holder of each colour's supercrystal. */
    supercrystals: perColour(playerIdSchema.nullable()),
    /** Talismans used, in order: who and which colour. */
    talismans: z.array(z.object({ player: playerIdSchema, colour: colourSchema }).strict()).max(TALISMANS),
    /** The turn just played was a talisman turn (the next turn may not use one). */
    lastTalisman: z.boolean(),
    /** Advanced Mode's secret step: each player's chosen flips, null until chosen; null once revealed or without Advanced Mode. */
    flips: z.record(z.string(), z.array(colourSchema).nullable()).nullable(),
    turn: turnSchema.nullable(),
    /** Players out with 13 crystals of a colour, in the order they went out. */
    eliminated: z.array(playerIdSchema),
    /** Seats that forfeited (3-4 players), in order; the autopilot plays them. */
    forfeits: z.array(playerIdSchema),
    /** The record of the turn being played and of the last complete turn. */
    log: z.object({ current: turnLogSchema.nullable(), last: turnLogSchema.nullable() }).strict(),
    rng: rngStateSchema,
    outcome: outcomeSchema.nullable(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const issue = (message: string, path: (string | number)[]) => ctx.addIssue({ code: 'custom', message, path });
    if (new Set(s.players).size !== s.players.length) issue('players must be distinct', ['players']);
    const keyed = (rec: Record<string, unknown>) => Object.keys(rec).length === s.players.length && s.players.every((p) => Object.hasOwn(rec, p));
    if (!keyed(s.platforms)) issue('platforms must be keyed by the players', ['platforms']);
    if (s.flips !== null && !keyed(s.flips)) issue('flips must be keyed by the players', ['flips']);
    if ((s.outcome === null) === (s.turn === null && s.flips === null)) issue('a running game has a turn or a flip step, a finished one neither', ['turn']);
    if (s.turn !== null && s.flips !== null) issue('no turn runs during the flip step', ['turn']);
    if (s.turn !== null && !s.players.includes(s.turn.player)) issue('the turn must be a player', ['turn', 'player']);
    for (const p of [...s.eliminated, ...s.forfeits]) if (!s.players.includes(p)) issue('out players must be seated', ['eliminated']);
    // Every stone is in exactly one place: the pyramid, the board, or discarded.
    const seen = new Array<number>(STONES.length).fill(0);
    for (const row of s.pyramid) for (const id of row) if (id !== null) seen[id]! += 1;
    s.positions.forEach((pos, id) => {
      if (pos) seen[id]! += 1;
    });
    for (const id of s.discarded) seen[id]! += 1;
    if (seen.some((n) => n !== 1)) issue('every stone must be in exactly one place', ['positions']);
    const covered = new Set<number>();
    for (const pos of s.positions) {
      if (!pos) continue;
      for (const sq of pos) {
        if (covered.has(sq)) issue('two stones on one square', ['positions']);
        covered.add(sq);
      }
    }
  });

export type CrystalliaState = z.infer<typeof stateSchema>;
export type Platforms = z.infer<typeof platformsSchema>;

/**
 * The moves (see the engine's doc comment for when each is legal):
 * - `flip` (Advanced Mode, before the first turn): the platforms to flip, listed in colour order.
 * - `place`: take an available `stone` and put its first half on `square` and its second half on
 *   the neighbour in direction `dir`.
 * - `talisman`: instead of taking a stone, gain one crystal of `colour` with a talisman.
 * - `discard`: when no available stone fits anywhere, take `stone`; it leaves the game.
 * - `move` (a Move square was covered): slide placed `stone`, orientation kept, so its first half
 *   lands on `to`.
 * - `rotate` (a Rotate square was covered): keep half `pivot` (0 or 1) of placed `stone` where it
 *   is and turn the other half onto `to`, an empty orthogonal neighbour of the pivot's square.
 * - `skip-ability`: decline every ability still pending.
 * - `isolate`: the colour of the isolation crystal.
 */
export const moveSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('flip'), platforms: z.array(colourSchema).max(4) }).strict(),
  z.object({ type: z.literal('place'), stone: stoneIdSchema, square: squareSchema, dir: directionSchema }).strict(),
  z.object({ type: z.literal('talisman'), colour: colourSchema }).strict(),
  z.object({ type: z.literal('discard'), stone: stoneIdSchema }).strict(),
  z.object({ type: z.literal('move'), stone: stoneIdSchema, to: squareSchema }).strict(),
  z.object({ type: z.literal('rotate'), stone: stoneIdSchema, pivot: z.union([z.literal(0), z.literal(1)]), to: squareSchema }).strict(),
  z.object({ type: z.literal('skip-ability') }).strict(),
  z.object({ type: z.literal('isolate'), colour: colourSchema }).strict(),
]);
export type CrystalliaMove = z.infer<typeof moveSchema>;
export type CrystalliaMoveType = CrystalliaMove['type'];

/** `advanced`: Advanced Mode allowed (a secret flip step before the first turn). Default off. */
export const optionsSchema = z.object({ advanced: z.boolean().default(false) }).strict().default({ advanced: false });
export type CrystalliaOptions = z.infer<typeof optionsSchema>;

export { outcomeSchema };
