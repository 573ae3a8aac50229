import { z } from 'zod';
import { outcomeSchema } from '../../../kernel/checks.ts';
import { rngStateSchema } from '../../../kernel/rng.ts';
import { checkStone, stoneShape, stoneTypeSchema } from '../collection.ts';
import { LIMITS, PACES, SLOT_TYPES, STONE_KINDS, isAllowedValue, DEFAULT_PACE } from '../data.ts';

const playerIdSchema = z.string().min(1);

/** A stone's id in the game: the collection's asset id (the service's), unique within the game. */
export const stoneIdSchema = z.string().min(1).max(64);

export const paceSchema = z.enum(PACES);

/** The host's options. `sideboard` is the maximum size of each player's sideboard, or off. */
export const optionsSchema = z
  .object({
    rounds: z.number().int().min(LIMITS.rounds.min).max(LIMITS.rounds.max).default(LIMITS.rounds.default),
    rerolls: z.boolean().default(true),
    sideboard: z.union([z.literal('off'), z.number().int().min(LIMITS.sideboard.min).max(LIMITS.sideboard.max)]).default('off'),
    pace: paceSchema.default(DEFAULT_PACE),
    /** The player who may change the pace; the first player given when absent. */
    host: playerIdSchema.optional(),
  })
  .strict();
export type KrellstonesOptions = z.output<typeof optionsSchema>;

/** A stone as a player brings it (playerData): the collection's stone, with its id and alias. */
export const broughtStoneSchema = z
  .object({ id: stoneIdSchema, alias: z.string().min(1).max(64).optional(), ...stoneShape })
  .strict()
  .superRefine(checkStone);
export type BroughtStone = z.infer<typeof broughtStoneSchema>;

/** What each player brings (setup's `playerData[player]`): six stones in play and the sideboard. */
export const playerDataSchema = z
  .object({
    /** One Pawn, one Dancer, three Krells, one Master, in any order. */
    stones: z.array(broughtStoneSchema).length(SLOT_TYPES.length),
    /** Up to the host's sideboard size; empty when the sideboard is off. */
    sideboard: z.array(broughtStoneSchema).max(LIMITS.sideboard.max).default([]),
  })
  .strict();
export type KrellstonesPlayerData = z.input<typeof playerDataSchema>;

/** A side as the game knows it: the value it shows and its weight (snapshotted at the start). */
export const gameSideSchema = z.object({ value: z.number().int(), weight: z.number().int().min(1).max(3) }).strict();

/** A stone as the game knows it: a snapshot taken at setup, never changed by the game. */
export const gameStoneSchema = z
  .object({ id: stoneIdSchema, alias: z.string().optional(), type: stoneTypeSchema, sides: z.array(gameSideSchema) })
  .strict()
  .superRefine((s, ctx) => {
    const kind = STONE_KINDS[s.type];
    if (s.sides.length !== kind.sides) ctx.addIssue({ code: 'custom', message: `a ${kind.name} has ${kind.sides} sides`, path: ['sides'] });
    if (s.sides.some((x) => !isAllowedValue(s.type, x.value))) ctx.addIssue({ code: 'custom', message: 'value out of range', path: ['sides'] });
    if (new Set(s.sides.map((x) => x.value)).size !== s.sides.length) ctx.addIssue({ code: 'custom', message: 'values must be distinct', path: ['sides'] });
  });
export type GameStone = z.infer<typeof gameStoneSchema>;

export const EFFECTS = ['pup', 'captain', 'spins-out', 'swamp', 'haze', 'pawns-up', 'ghost', 'queen'] as const;
export const effectSchema = z.enum(EFFECTS);
export type Effect = z.infer<typeof effectSchema>;

/** 0: the initial rolling phase (Pup in the Hangar, Captain on Deck); 1: the first pass; 2: after rerolls. */
export const passSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export type Pass = z.infer<typeof passSchema>;

/**
 * One announcement, in the rulebook's words. `player` is the player whose stones set it off (the
 * Krells that spun out, the hazed Master, the buried Dancer, the queen's pawn, the pup); absent for
 * the Swamp and Pawns Up, which belong to the whole table. `stones` are the stones it hit (discarded,
 * flipped, buried) or, for Pup and Captain, the Master, for Pawn is Queen, the pawn.
 */
export const announcementSchema = z
  .object({
    effect: effectSchema,
    text: z.string(),
    pass: passSchema,
    player: playerIdSchema.optional(),
    value: z.number().int().optional(),
    stones: z.array(stoneIdSchema),
  })
  .strict();
export type Announcement = z.infer<typeof announcementSchema>;

/**
 * A stone's state in the round: `unrolled` (its owner has not rolled yet), `in` (in play, showing
 * `side`), `discarded` (by Spins Out, the Swamp or Haze), `buried` (Ghost Dancer), `benched` (a pawn
 * out for the round after Pawn is Queen). `ghost`: a Ghost Dancer back from the previous round,
 * not rolled. `rerolled`: rerolled this round. `why`: the announcement that discarded or buried it.
 */
export const stoneRoundSchema = z
  .object({
    status: z.enum(['unrolled', 'in', 'discarded', 'buried', 'benched']),
    side: z.number().int().nonnegative().nullable(),
    ghost: z.boolean(),
    rerolled: z.boolean(),
    why: z.object({ effect: effectSchema, text: z.string(), pass: passSchema }).strict().nullable(),
  })
  .strict();
export type StoneRound = z.infer<typeof stoneRoundSchema>;

/** A seat's part in a choice step: waited for, confirmed, expired, or not asked (nothing to choose, or the autopilot). */
export const choiceSchema = z.enum(['pending', 'ready', 'expired', 'skipped']);
export type Choice = z.infer<typeof choiceSchema>;

export const seatSchema = z
  .object({
    /** The stones in play, in slot order (pawn, dancer, three krells, master). */
    active: z.array(gameStoneSchema).length(SLOT_TYPES.length),
    sideboard: z.array(gameStoneSchema).max(LIMITS.sideboard.max),
    /** The round state of each active stone, by slot. */
    stones: z.array(stoneRoundSchema).length(SLOT_TYPES.length),
    /** The seat's part in the running choice step; null outside choice steps. */
    choice: choiceSchema.nullable(),
    /** The secret reroll selection (ids in slot order) while choosing. */
    selection: z.array(stoneIdSchema).max(SLOT_TYPES.length),
    /** Choices left to expire in a row. */
    expiries: z.number().int().nonnegative(),
    roundsWon: z.number().int().nonnegative(),
    /** The Dancer was buried this round and returns next round showing its highest side. */
    ghostNext: z.boolean(),
  })
  .strict();
export type Seat = z.infer<typeof seatSchema>;

/** A finished round: sums, busts (in the order checked), the winner (null: a tie), whether the winner was left unchecked. */
export const roundRecordSchema = z
  .object({
    round: z.number().int().positive(),
    order: z.array(playerIdSchema),
    sums: z.record(z.string(), z.number().int()),
    busted: z.array(playerIdSchema),
    winner: playerIdSchema.nullable(),
    unchecked: z.boolean(),
    reversed: z.boolean(),
    announcements: z.array(announcementSchema),
  })
  .strict();
export type RoundRecord = z.infer<typeof roundRecordSchema>;

export const PHASES = ['rolling', 'rerolls', 'swaps', 'over'] as const;
export type Phase = (typeof PHASES)[number];

export const stateSchema = z
  .object({
    /** The seats as given at setup. */
    players: z.array(playerIdSchema).min(LIMITS.players.min).max(LIMITS.players.max),
    host: playerIdSchema,
    rounds: z.number().int().min(LIMITS.rounds.min).max(LIMITS.rounds.max),
    rerolls: z.boolean(),
    /** Maximum sideboard size; null when the sideboard is off. */
    sideboard: z.number().int().min(LIMITS.sideboard.min).max(LIMITS.sideboard.max).nullable(),
    /** The current pace (the host may change it at any time). */
    pace: paceSchema,
    rng: rngStateSchema,
    /** The round being played (or just scored, during the swap step), from 1. */
    round: z.number().int().positive(),
    /** Position order of this round. */
    order: z.array(playerIdSchema),
    phase: z.enum(PHASES),
    /** How many players have rolled in this round's rolling phase. */
    rolled: z.number().int().nonnegative(),
    /** Players whose Pup in the Hangar window is open. */
    windows: z.array(playerIdSchema),
    /** Pawn is Queen this round: the lowest score wins. */
    reversed: z.boolean(),
    /** Every pawn is out this round (Pawn is Queen last round). */
    pawnsOut: z.boolean(),
    /** Every pawn will be out next round. */
    pawnsOutNext: z.boolean(),
    /** This round's announcements so far. */
    announcements: z.array(announcementSchema),
    history: z.array(roundRecordSchema),
    seats: z.record(z.string(), seatSchema),
    /** Seats that forfeited (in order) and are played by the autopilot. */
    out: z.array(playerIdSchema),
    outcome: outcomeSchema.nullable(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const bad = (message: string, path: string[]) => ctx.addIssue({ code: 'custom', message, path });
    if (new Set(s.players).size !== s.players.length) bad('players must be distinct', ['players']);
    const keys = Object.keys(s.seats);
    if (keys.length !== s.players.length || !s.players.every((p) => Object.hasOwn(s.seats, p))) bad('seats must be keyed by the players', ['seats']);
    if (s.order.length !== s.players.length || !s.players.every((p) => s.order.includes(p))) bad('order must be the players', ['order']);
    if (!s.players.includes(s.host)) bad('host must be seated', ['host']);
    if (![...s.windows, ...s.out].every((p) => s.players.includes(p))) bad('windows and out must be seated players', ['windows']);
    if (s.rolled > s.players.length) bad('rolled out of range', ['rolled']);
    if ((s.phase === 'over') !== (s.outcome !== null)) bad('outcome must be set exactly when the game is over', ['outcome']);
    if (s.round > s.rounds) bad('round out of range', ['round']);
    const ids: string[] = [];
    for (const p of keys) {
      const seat = s.seats[p]!;
      seat.active.forEach((st, i) => {
        if (st.type !== SLOT_TYPES[i]) bad(`slot ${i} must hold a ${SLOT_TYPES[i]}`, ['seats', p, 'active']);
        const r = seat.stones[i];
        if (r && (r.side === null) !== (r.status === 'unrolled' || r.status === 'benched')) bad('a stone shows a side exactly when it was rolled', ['seats', p, 'stones']);
        if (r && r.side !== null && r.side >= st.sides.length) bad('side out of range', ['seats', p, 'stones']);
      });
      if (s.sideboard === null ? seat.sideboard.length > 0 : seat.sideboard.length > s.sideboard) bad('sideboard too large', ['seats', p, 'sideboard']);
      ids.push(...seat.active.map((x) => x.id), ...seat.sideboard.map((x) => x.id));
    }
    if (new Set(ids).size !== ids.length) bad('stone ids must be unique', ['seats']);
  });
export type KrellstonesState = z.infer<typeof stateSchema>;

/**
 * Moves. Players: `select` (the secret reroll selection: stone ids, replacing any earlier one,
 * empty for none), `ready` (confirms the selection, or ends one's sideboard swaps), `swap` (a
 * sideboard stone `in` for an active stone `out` of the same type), `yell` (text; only exactly
 * `KRELLSTONES!` counts), `pace` (the host), `timeout` (the default move of a player's timer, with
 * its key: the bot never offers it). SYSTEM: `system` with the key of the timer that fired.
 */
export const moveSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('select'), stones: z.array(stoneIdSchema).max(SLOT_TYPES.length) }).strict(),
  z.object({ type: z.literal('ready') }).strict(),
  z.object({ type: z.literal('swap'), in: stoneIdSchema, out: stoneIdSchema }).strict(),
  z.object({ type: z.literal('yell'), text: z.string().max(200) }).strict(),
  z.object({ type: z.literal('pace'), pace: paceSchema }).strict(),
  z.object({ type: z.literal('timeout'), key: z.string().max(100) }).strict(),
  z.object({ type: z.literal('system'), key: z.string().max(100) }).strict(),
]);
export type KrellstonesMove = z.infer<typeof moveSchema>;
