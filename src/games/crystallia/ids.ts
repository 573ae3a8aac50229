import { z } from 'zod';
import { defineIds, digits } from '../../bot/game-module.ts';

/**
 * Crystallia's buttons and menus: `cr:<action>:<game>[:<version>]:<args…>`.
 *
 * A turn is chosen step by step in an ephemeral panel and played at once: the steps chosen so far
 * travel in the ids as a `chain` (turn.ts `encodeChain`: a few characters per move, at most 55 in
 * any game, so every id stays under Discord's 100). Nothing is stored until Confirm; each step is
 * checked by the engine through a preview.
 *
 * - play: the board's (or the turn DM's) "Take your turn": opens the panel; again: back to its start
 * - stone (menu: a stone), sq (menu: the square of its first half; args stone, row group),
 *   dir (button: the direction of its second half; args stone, square, direction)
 * - tal (menu: a talisman's colour)
 * - mv (menu: the stone a Move slides), mvto (menu: where; args chain, stone, row group)
 * - rot (menu: the stone a Rotate turns), rotto (menu: which half stays and where the other goes)
 * - skip (decline the abilities left), iso (the isolation crystal's colour), back (the current step again)
 * - ok: Confirm: plays the chain's moves in one transaction
 * - flips, flipsel, flip: Advanced Mode's secret flips (not versioned: the players choose at the
 *   same time, so another player's choice must not make a panel stale)
 */
/** A chain of moves (turn.ts), or `~` for none yet (a turn whose earlier steps are already played). */
export const chainArg = z.string().regex(/^(~|[0-9A-Za-z_-]{1,60})$/);
const stoneArg = digits(0, 23);
const squareArg = digits(0, 53);

export const ids = defineIds('cr', {
  play: { args: z.tuple([]) },
  again: { args: z.tuple([]) },
  stone: { args: z.tuple([]) },
  sq: { args: z.tuple([stoneArg, digits(0, 2)]) },
  dir: { args: z.tuple([stoneArg, squareArg, z.enum(['right', 'down', 'left', 'up'])]) },
  tal: { args: z.tuple([]) },
  mv: { args: z.tuple([chainArg]) },
  mvto: { args: z.tuple([chainArg, stoneArg, digits(0, 2)]) },
  rot: { args: z.tuple([chainArg]) },
  rotto: { args: z.tuple([chainArg, stoneArg]) },
  skip: { args: z.tuple([chainArg]) },
  iso: { args: z.tuple([chainArg, z.enum(['red', 'blue', 'green', 'purple'])]) },
  back: { args: z.tuple([chainArg]) },
  ok: { args: z.tuple([chainArg]) },
  flips: { args: z.tuple([]), versioned: false },
  flipsel: { args: z.tuple([]), versioned: false },
  flip: { args: z.tuple([digits(0, 15)]), versioned: false },
});
