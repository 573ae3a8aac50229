import { z } from 'zod';

/**
 * Dice items of our edition (RULINGS.md, Knucklebones, "Dice items"). A participant may use each
 * die they hold once per game (it is not consumed), at most one die item per turn, as part of the
 * turn. Holding the die (the cycle inventory) is checked by the service; the engine tracks usage.
 */
export const DIE_ITEMS = ['loaded', 'lucky', 'steady', 'twin', 'spoiler', 'echo'] as const;
export const dieItemSchema = z.enum(DIE_ITEMS);
export type DieItem = z.infer<typeof dieItemSchema>;

export const DIE_INFO: Record<DieItem, { name: string; emoji: string; description: string }> = {
  loaded: { name: 'Loaded Die', emoji: '🎯', description: 'Roll 2d6 this turn and keep the value you choose.' },
  lucky: { name: 'Lucky Die', emoji: '🍀', description: 'Reroll this turn’s die once; the new value stands.' },
  steady: { name: 'Steady Die', emoji: '⚖️', description: 'This turn’s die shows 3 instead of the rolled value.' },
  twin: {
    name: 'Twin Die',
    emoji: '👯',
    description:
      'This turn’s value is placed, then a second die of the same value is placed in another non-full column of yours (no destruction from the second die; the game still ends if your grid fills).',
  },
  spoiler: { name: 'Spoiler Die', emoji: '💥', description: 'Before placing, choose one opponent column; their highest die there is removed.' },
  echo: { name: 'Echo Die', emoji: '🔁', description: 'This turn’s die copies the value of the opponent’s last placed die.' },
};
