import { COLOURS, PLATFORM, SCORING, type Colour } from './data.ts';

/**
 * Crystallia scoring (RULINGS.md): per colour, a regular platform scores +1 per crystal up to 9
 * and -1 per crystal beyond 9; a flipped (advanced) platform +2 per crystal; each supercrystal +2;
 * each black crystal -1.
 *
 *   regular 11 red = 9 - 2 = 7      advanced 4 blue = 8      2 blacks = -2      1 supercrystal = 2
 */

/** What scoring needs of one player's platforms (the state's and the view's platforms both fit). */
export interface PlatformsLike {
  crystals: Record<Colour, number>;
  blacks: Record<Colour, number>;
  /** null while the flips are secret (nobody has crystals then). */
  flipped: Record<Colour, boolean> | null;
}

export interface ColourScore {
  colour: Colour;
  crystals: number;
  flipped: boolean;
  /** Points from the crystals up to 9 (regular) or all of them x2 (advanced). */
  points: number;
  /** Crystals beyond 9 on a regular platform (each -1). */
  beyond: number;
  /** Points lost to them (<= 0). */
  penalty: number;
  /** Black crystals sitting on this platform. */
  blacks: number;
}

export interface ScoreBreakdown {
  colours: ColourScore[];
  /** Sum over the colours of points + penalty. */
  crystalPoints: number;
  blacks: number;
  blackPoints: number;
  supercrystals: Colour[];
  supercrystalPoints: number;
  total: number;
}

/** A player's score, itemised; `supercrystals` are the colours whose supercrystal they hold. */
export function scoreBreakdown(platforms: PlatformsLike, supercrystals: readonly Colour[]): ScoreBreakdown {
  const colours = COLOURS.map((colour): ColourScore => {
    const crystals = platforms.crystals[colour];
    const flipped = platforms.flipped?.[colour] ?? false;
    const blacks = platforms.blacks[colour];
    if (flipped) return { colour, crystals, flipped, points: crystals * SCORING.advancedPerCrystal, beyond: 0, penalty: 0, blacks };
    const limit = PLATFORM.regularScoringLimit;
    const beyond = Math.max(0, crystals - limit);
    return {
      colour,
      crystals,
      flipped,
      points: Math.min(crystals, limit) * SCORING.regularPerCrystal,
      beyond,
      penalty: beyond * SCORING.regularPerCrystalBeyond,
      blacks,
    };
  });
  const crystalPoints = colours.reduce((a, c) => a + c.points + c.penalty, 0);
  const blacks = colours.reduce((a, c) => a + c.blacks, 0);
  const blackPoints = blacks * SCORING.black;
  const held = COLOURS.filter((c) => supercrystals.includes(c));
  const supercrystalPoints = held.length * SCORING.supercrystal;
  return { colours, crystalPoints, blacks, blackPoints, supercrystals: held, supercrystalPoints, total: crystalPoints + blackPoints + supercrystalPoints };
}
