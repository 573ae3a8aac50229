import { z } from 'zod';
import { defineIds, digits } from '../../bot/game-module.ts';

/** One planned placement: the waiting card's index (in play order) and its target line, or a new line. */
export interface PlanItem {
  card: number;
  line: number | 'new';
}

const ITEM = /^([0-3])(n|0|[1-9]\d?)$/;

/**
 * A placement plan as it travels in custom ids: `<card><target>` items joined by `.`, e.g. `0n.21`
 * (waiting card 0 on a new line, then waiting card 2 on line 1, 0-based). Line numbers refer to the
 * lines as the earlier items of the plan leave them, as the engine's `place-all` does. Empty: none.
 */
export const planArg = z
  .string()
  .max(24)
  .transform((raw, ctx) => {
    if (raw === '') return [] as PlanItem[];
    const items: PlanItem[] = [];
    for (const part of raw.split('.')) {
      const m = ITEM.exec(part);
      if (!m) {
        ctx.addIssue({ code: 'custom', message: 'bad plan item' });
        return z.NEVER;
      }
      items.push({ card: Number(m[1]), line: m[2] === 'n' ? 'new' : Number(m[2]) });
    }
    if (items.length > 4 || new Set(items.map((i) => i.card)).size !== items.length) {
      ctx.addIssue({ code: 'custom', message: 'bad plan' });
      return z.NEVER;
    }
    return items;
  });

export const encodePlan = (plan: readonly PlanItem[]): string => plan.map((p) => `${p.card}${p.line === 'new' ? 'n' : p.line}`).join('.');

/**
 * Keystone's buttons and menus: `ks:<action>:<game>[:<version>]:<args>`.
 * - hand: **My hand** (no version: the board's button always works; it reads the game as it is).
 * - card: the menu of playable cards (value: a card id).
 * - place: opens the placement panel; plan: shows it with a plan (empty: start over); tg: the menu
 *   of targets for waiting card `card` (value: a line index or `n`); ok: places the plan's cards.
 * - auto: shows what Auto-place would do; autook: applies it.
 */
export const ids = defineIds('ks', {
  hand: { args: z.tuple([]), versioned: false },
  card: { args: z.tuple([]) },
  place: { args: z.tuple([]) },
  plan: { args: z.tuple([planArg]) },
  tg: { args: z.tuple([planArg, digits(0, 3)]) },
  ok: { args: z.tuple([planArg]) },
  auto: { args: z.tuple([]) },
  autook: { args: z.tuple([]) },
});
