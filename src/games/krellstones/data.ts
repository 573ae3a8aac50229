import type { TimerDuration } from '../../kernel/types.ts';

/**
 * Krellstones: the one data module of our edition (RULINGS.md, Krellstones). Every number the
 * game, the collection and the shop use lives here so that it can be edited in one place.
 */

// ---------------------------------------------------------------------------------------------
// stones

export const STONE_TYPES = ['pawn', 'dancer', 'krell', 'master'] as const;
export type StoneType = (typeof STONE_TYPES)[number];

export interface StoneKind {
  /** Display name (the rulebook's word). */
  name: string;
  /** Number of sides. */
  sides: number;
  /** Lowest and highest printable value. */
  min: number;
  max: number;
  /** 1: every whole number from min to max; 2: every other one from min (the Master's odd numbers). */
  step: 1 | 2;
}

/** Stone types and printed ranges: Pawn 4 sides 1-10, Dancer 5 sides 5-42, Krell 6 sides 3-20, Master 20 sides odd 1-67. */
export const STONE_KINDS: Readonly<Record<StoneType, StoneKind>> = {
  pawn: { name: 'Pawn', sides: 4, min: 1, max: 10, step: 1 },
  dancer: { name: 'Dancer', sides: 5, min: 5, max: 42, step: 1 },
  krell: { name: 'Krell', sides: 6, min: 3, max: 20, step: 1 },
  master: { name: 'Master', sides: 20, min: 1, max: 67, step: 2 },
};

/** Every value a side (printed or slotted) of a stone of this type may show, ascending. */
export function allowedValues(type: StoneType): number[] {
  const k = STONE_KINDS[type];
  const out: number[] = [];
  for (let v = k.min; v <= k.max; v += k.step) out.push(v);
  return out;
}

/** True when `value` is a value a stone of this type may show. */
export function isAllowedValue(type: StoneType, value: number): boolean {
  const k = STONE_KINDS[type];
  return Number.isInteger(value) && value >= k.min && value <= k.max && (value - k.min) % k.step === 0;
}

/** What a player takes into a game: 1 Pawn, 1 Dancer, 3 Krells, 1 Master. */
export const LOADOUT: Readonly<Record<StoneType, number>> = { pawn: 1, dancer: 1, krell: 3, master: 1 };

/** The six places of a player's stones in play, in the order the engine keeps them (and rolls them). */
export const SLOT_TYPES: readonly StoneType[] = ['pawn', 'dancer', 'krell', 'krell', 'krell', 'master'];

// ---------------------------------------------------------------------------------------------
// faces, shop and economy

/** A side's weight before any face; a slotted face adds its own weight (0, 1 or 2). */
export const BASE_SIDE_WEIGHT = 1;

/** A new face's weight: 0 with 70%, 1 with 25%, 2 with 5% (in percent, summing to 100). */
export const FACE_WEIGHT_ODDS: readonly { weight: 0 | 1 | 2; percent: number }[] = [
  { weight: 0, percent: 70 },
  { weight: 1, percent: 25 },
  { weight: 2, percent: 5 },
];

/** One new face in ten is a promo face. */
export const PROMO_ONE_IN = 10;

/** Prices of our edition, in credits; trading a promo face in gives `promoTradeIn`. */
export const PRICES = { starterKit: 100, facePack: 30, mat: 50, promoTradeIn: 10 } as const;

/** Faces in a face pack (each a random face). */
export const FACE_PACK_SIZE = 3;

/** A starter kit: one loadout of new stones, one Modern Krellstones mat, two random faces. */
export const STARTER_KIT = { stones: LOADOUT, mats: 1, faces: 2 } as const;

/** Free starter kits every player may claim. */
export const FREE_STARTER_KITS = 1;

// ---------------------------------------------------------------------------------------------
// the game

export const PACES = ['FAST', 'NORMAL', 'SLOW'] as const;
export type Pace = (typeof PACES)[number];

/** SLOW (play-by-post) is the default in Discord. */
export const DEFAULT_PACE: Pace = 'SLOW';

export interface PaceTimes {
  /** Between two players' automatic rolls (and from the opening of a round to its first roll). */
  rollGapMs: number;
  /** The Pup in the Hangar window (cut at the end of the rolling phase). */
  yellWindowMs: number;
  /** Choosing rerolls, and sideboard swaps between rounds. */
  choice: TimerDuration;
}

/** The pace table: FAST 2 s / 8 s / 45 s; NORMAL 5 s / 8 s / 3 min; SLOW 10 min / 1 h / the server's turn limit. */
export const PACE_TABLE: Readonly<Record<Pace, PaceTimes>> = {
  FAST: { rollGapMs: 2_000, yellWindowMs: 8_000, choice: { ms: 45_000 } },
  NORMAL: { rollGapMs: 5_000, yellWindowMs: 8_000, choice: { ms: 180_000 } },
  SLOW: { rollGapMs: 600_000, yellWindowMs: 3_600_000, choice: 'turn-limit' },
};

export const LIMITS = {
  rounds: { min: 1, max: 17, default: 5 },
  players: { min: 2, max: 4 },
  sideboard: { min: 1, max: 10 },
  /** This many choices in a row left to expire forfeit the seat. */
  expiriesToForfeit: 3,
} as const;

/** A round's result busts below 23 or above 123. */
export const BUST = { below: 23, above: 123 } as const;

/** The yell, exactly (case-sensitive, with the exclamation mark). */
export const YELL = 'KRELLSTONES!';

/** The rulebook's words for each effect. */
export const ANNOUNCE = {
  spinsOut: (value: number) => `${value} SPINS OUT!`,
  swamp: (value: number) => `${value} IN THE SWAMP!`,
  haze: 'HAZE THE MASTER!',
  pawnsUp: 'PAWNS UP!',
  ghost: 'BURY THE GHOST DANCER!',
  queen: 'PAWN IS QUEEN!',
  pup: 'PUP IN THE HANGAR',
  captain: 'CAPTAIN ON DECK',
} as const;
