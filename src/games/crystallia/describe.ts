import type { MoveStep, Wording } from '../../bot/game-module.ts';
import type { CrystalliaMove, CrystalliaView } from './engine/index.ts';

const turnKey = (t: CrystalliaView['lastTurn']) => (t ? `${t.player}:${t.number}:${t.second}` : '');

/**
 * A Crystallia move in words: a turn is told once, when it is complete, with the engine's own
 * record of it (the "Last turn" line of the board); its steps (abilities, isolation) say nothing of
 * their own. A secret flip says only that the player chose.
 */
export function describeMove(step: MoveStep<CrystalliaView, CrystalliaMove>, w: Wording): string | null {
  const { move, before, after } = step;
  if (move.type === 'flip') return `${w.name(step.actor)} chose in secret which platforms to flip`;
  const t = after.lastTurn;
  if (!t || turnKey(t) === turnKey(before.lastTurn)) return null;
  return `${w.name(t.player)}${t.second ? ' (second turn)' : ''} ${t.text}`;
}
