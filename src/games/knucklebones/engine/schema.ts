import { z } from 'zod';
import { rngStateSchema } from '../../../kernel/rng.ts';
import { checkTwoPlayerState } from '../../../kernel/two-player.ts';
import { dieItemSchema } from './dice.ts';

/** A die value on the field. */
export const dieSchema = z.number().int().min(1).max(6);

/** One column: die values in placement order, at most 3 (the row is irrelevant to the game). */
export const columnSchema = z.array(dieSchema).max(3);

/** A participant's 3x3 grid as three columns (index 0 is column 1). */
export const gridSchema = z.tuple([columnSchema, columnSchema, columnSchema]);

export const outcomeSchema = z.object({
  winners: z.array(z.string()),
  scores: z.record(z.string(), z.number().int().nonnegative()).optional(),
  reason: z.string(),
  forfeited: z.string().optional(),
});

const playerIdSchema = z.string().min(1);

/**
 * The stored state (JSON in Postgres, validated with this schema on load). Consistency checks:
 * two distinct players; grids and lastPlaced keyed by exactly those players; `turn` and `roll`
 * are both null exactly when the game is over (`outcome` set).
 */
export const stateSchema = z
  .object({
    /** The two players in turn order (the first one moved first). */
    players: z.tuple([playerIdSchema, playerIdSchema]),
    grids: z.record(z.string(), gridSchema),
    /** The player to move, or null when the game is over. */
    turn: playerIdSchema.nullable(),
    /** The die the player to move has rolled (rolled by the engine when the turn begins). */
    roll: dieSchema.nullable(),
    rng: rngStateSchema,
    /** Number of placements made so far. */
    turnNumber: z.number().int().nonnegative(),
    /** Value of each player's last placed die, or null before their first placement. */
    lastPlaced: z.record(z.string(), dieSchema.nullable()),
    outcome: outcomeSchema.nullable(),
    /** Dice items (absent until the first one is used in the game). */
    dice: z
      .object({
        /** Dice each player has used in this game (each once per game). */
        used: z.record(z.string(), z.array(dieItemSchema)),
        /** The die item used in the running turn, and what it is waiting for. */
        turn: z
          .object({
            die: dieItemSchema,
            /** Loaded Die: the two values rolled; the player keeps one before placing. */
            choices: z.tuple([z.number().int().min(1).max(6), z.number().int().min(1).max(6)]).nullable(),
            /** Twin Die: the column of the first placement, once made (the twin goes elsewhere). */
            twinFrom: z.number().int().min(1).max(3).nullable(),
          })
          .nullable(),
      })
      .optional(),
  })
  .superRefine((s, ctx) =>
    // Two distinct players, grids and lastPlaced keyed by them, outcome exactly when no turn runs (src/kernel/two-player.ts).
    checkTwoPlayerState(s, ctx, { grids: s.grids, lastPlaced: s.lastPlaced }, () => {
      if ((s.turn === null) !== (s.roll === null)) {
        ctx.addIssue({ code: 'custom', message: 'roll must be set exactly when a turn is running', path: ['roll'] });
      }
    }),
  );

export type KnucklebonesState = z.infer<typeof stateSchema>;
export type Grid = z.infer<typeof gridSchema>;

const columnNumber = z.union([z.literal(1), z.literal(2), z.literal(3)]);

/**
 * `place`: put the current roll in one of your columns (1-based).
 * `use-die`: use a dice item this turn (`column` names the opponent column for the Spoiler Die).
 * `keep`: after a Loaded Die, keep the first (0) or second (1) of the two values.
 */
export const moveSchema = z.union([
  z.object({ type: z.literal('place'), column: columnNumber }).strict(),
  z.object({ type: z.literal('use-die'), die: dieItemSchema, column: columnNumber.optional() }).strict(),
  z.object({ type: z.literal('keep'), choice: z.union([z.literal(0), z.literal(1)]) }).strict(),
]);

export type KnucklebonesMove = z.infer<typeof moveSchema>;

/** No options yet; the object is strict so unknown options are refused, and it defaults to {}. */
export const optionsSchema = z.object({}).strict().default({});

export type KnucklebonesOptions = z.infer<typeof optionsSchema>;
