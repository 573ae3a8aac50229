import { z } from 'zod';
import { defineIds } from '../../bot/game-module.ts';

/**
 * Krellstones' buttons and menus: `kr:<action>:<game>[:<version>]:<args>`.
 * - rr: **Choose rerolls** (opens the secret reroll panel: a multi-select of one's stones in play).
 * - sel: that panel's menu (values: stone ids); replaces the selection, nothing is rolled yet.
 * - ready: confirms the reroll selection (or ends one's sideboard swaps).
 * - yell: opens the yell (a modal with a text field; only `KRELLSTONES!` counts).
 * - sw: **Sideboard swap** (opens the swap panel); swin: its menu of sideboard stones (value: the
 *   incoming id); swout: the menu of active stones of that type (arg: the incoming id; value: the outgoing id).
 * Ids that carry no version (rr, yell, sw) always work: they read the game as it is.
 */
const stoneArg = z.string().regex(/^[1-9]\d{0,11}$/);

export const ids = defineIds('kr', {
  rr: { args: z.tuple([]), versioned: false },
  sel: { args: z.tuple([]), versioned: false },
  ready: { args: z.tuple([]), versioned: false },
  yell: { args: z.tuple([]), versioned: false },
  sw: { args: z.tuple([]), versioned: false },
  swin: { args: z.tuple([]), versioned: false },
  swout: { args: z.tuple([stoneArg]), versioned: false },
});
