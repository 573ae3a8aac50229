import type { MoveStep, Wording } from '../../bot/game-module.ts';
import type { KeystoneMove, KeystoneView } from './engine/index.ts';
import { cardTextOf } from './present.ts';

const where = (line: number | 'new') => (line === 'new' ? 'on a new line' : `on line ${line + 1}`);
const trickKey = (t: KeystoneView['lastTrick']) => (t ? `${t.game}:${t.trick}` : '');

/**
 * A Keystone move in words. Only what the table saw: a card once played to a trick, the won
 * cards laid on lines; never a card still in a hand.
 */
export function describeMove(step: MoveStep<KeystoneView, KeystoneMove>, w: Wording): string | null {
  const { actor, move, before, after } = step;
  const who = w.name(actor);
  let text: string;
  switch (move.type) {
    case 'play':
      text = `${who} played ${cardTextOf(move.card)}`;
      break;
    case 'place':
      text = `${who} put ${cardTextOf(move.card)} ${where(move.line)}`;
      break;
    case 'place-all':
      text = `${who} put ${move.placements.map((p) => `${cardTextOf(p.card)} ${where(p.line)}`).join(', ')}`;
      break;
    case 'auto-place':
      text = `${who} let the bot lay the won cards on ${actor === w.viewer ? 'your' : 'their'} lines`;
      break;
  }
  const t = after.lastTrick;
  if (t && trickKey(t) !== trickKey(before.lastTrick)) text += `; ${w.name(t.winner)} won trick ${t.trick} (${t.cards.map((c) => cardTextOf(c.card.id)).join(' ')})`;
  if (after.finishedGames.length > before.finishedGames.length) text += `; game ${after.finishedGames.at(-1)!.game} is scored`;
  return text;
}
