import type { MoveStep, Wording } from '../../bot/game-module.ts';
import { DIE_INFO } from './engine/dice.ts';
import type { KnucklebonesMove, KnucklebonesView } from './engine/index.ts';

const COUNT = ['no', 'one', 'two', 'three'];
const count = (n: number, v: number) => (n === 1 ? `${v}` : `${COUNT[n] ?? n} ${v}s`);

/**
 * A Knucklebones move in words, from the public views around it (the game hides nothing):
 * "Alice put a 4 in column 2 and knocked out your two 4s".
 */
export function describeMove(step: MoveStep<KnucklebonesView, KnucklebonesMove>, w: Wording): string | null {
  const { actor, move, before, after } = step;
  const opp = before.players.find((p) => p !== actor) ?? '';
  const who = w.name(actor);
  if (move.type === 'use-die') {
    const die = DIE_INFO[move.die];
    const used = `${who} used the ${die.emoji} ${die.name}`;
    switch (move.die) {
      case 'loaded':
        return after.dice?.choices ? `${used} and rolled ${after.dice.choices[0]} and ${after.dice.choices[1]}` : used;
      case 'lucky':
        return `${used} and rerolled a ${before.roll} into a ${after.roll}`;
      case 'steady':
        return `${used}: the die shows 3`;
      case 'echo':
        return `${used}: the die copies ${w.possessive(opp)} last die, a ${after.roll}`;
      case 'spoiler': {
        const col = (move.column ?? 1) - 1;
        const gone = (before.grids[opp]?.[col] ?? []).length > 0 ? Math.max(...before.grids[opp]![col]!) : null;
        return `${used} on ${w.possessive(opp)} column ${col + 1}${gone !== null ? ` and removed a ${gone}` : ''}`;
      }
      case 'twin':
        return `${used}: this die is placed twice`;
    }
  }
  if (move.type === 'keep') return `${who} kept the ${after.roll}`;
  const value = before.roll ?? 0;
  const col = move.column - 1;
  const knocked = (before.grids[opp]?.[col]?.length ?? 0) - (after.grids[opp]?.[col]?.length ?? 0);
  const twin = before.dice?.twinFrom != null;
  let text = `${who} put ${twin ? 'the twin' : 'a'} ${value} in column ${move.column}`;
  if (knocked > 0) text += ` and knocked out ${w.possessive(opp)} ${count(knocked, value)}`;
  if (after.outcome && after.outcome.reason !== 'forfeit') {
    const filled = (after.grids[actor] ?? []).every((c) => c.length === 3);
    if (filled) text += `, filling ${actor === w.viewer ? 'your' : 'their'} grid: game over`;
  }
  return text;
}
