import { z } from 'zod';
import { defineIds, digits } from '../../bot/game-module.ts';

/**
 * Knucklebones' buttons: `kb:<action>:<game>:<version>[:<arg>]`. place: a column (1-3); dice: open
 * the "Use a die…" menu; die: the die picked in that menu; keep: a Loaded Die value (0 or 1).
 */
export const ids = defineIds('kb', {
  place: { args: z.tuple([digits(1, 3)]) },
  dice: { args: z.tuple([]) },
  die: { args: z.tuple([]) },
  keep: { args: z.tuple([digits(0, 1)]) },
});
