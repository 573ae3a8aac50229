import { z } from 'zod';
import { defineIds, digits } from '../../bot/game-module.ts';
import { SYMBOLS } from './engine/index.ts';

const symbol = z.enum(SYMBOLS);
const line = digits(0, 1);

/**
 * Tellstones' buttons and menus: `ts:<action>:<game>:<version>[:<args>]` (`know` carries no
 * version: it reads the game as it is). act: open the menu of an action; pl: the stone picked to
 * place; place: line, symbol and end; hide/chal: a stone; swap: two stones of a line; peek: to
 * self (0) or partner (1), stones of a line; splitpick/split: a peek of two or three split between
 * the partners (the stones, then which of them the partner sees); ans: the symbol named for a challenge; boa: the
 * answer to a boast; prvp: the stone a prover names; prv: its symbol.
 */
export const ids = defineIds('ts', {
  act: { args: z.tuple([z.enum(['place', 'hide', 'swap', 'peek', 'challenge'])]) },
  boast: { args: z.tuple([]) },
  know: { args: z.tuple([]), versioned: false },
  pl: { args: z.tuple([]) },
  place: { args: z.tuple([line, symbol, z.enum(['left', 'right'])]) },
  hide: { args: z.tuple([]) },
  swap: { args: z.tuple([line]) },
  peek: { args: z.tuple([digits(0, 1), line]) },
  // A peek of three split between partners: first the stones (splitpick), then the partner's share (split).
  splitpick: { args: z.tuple([line]) },
  split: { args: z.tuple([line, z.string().regex(/^[0-6](\.[0-6]){1,2}$/)]) },
  chal: { args: z.tuple([]) },
  ans: { args: z.tuple([symbol]) },
  boa: { args: z.tuple([z.enum(['believe', 'doubt', 'counter'])]) },
  prvp: { args: z.tuple([]) },
  prv: { args: z.tuple([line, digits(0, 6), symbol]) },
});
