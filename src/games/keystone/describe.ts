import type { MoveStep, Wording } from '../../bot/game-module.ts';
import type { KeystoneMove, KeystoneView } from './engine/index.ts';
import type { CardId } from './engine/index.ts';
import { cardTextOf as faceOf } from './present.ts';

/** Cards anyone sees now: on a line, in the trick, the last trick, waiting to be placed. */
function shownNow(v: KeystoneView): Set<string> {
  return new Set([
    ...v.seats.flatMap((s) => s.lines.flatMap((l) => l.cards.map((c) => c.card.id))),
    ...v.current.cards.map((c) => c.card.id),
    ...(v.lastTrick?.cards.map((c) => c.card.id) ?? []),
    ...(v.waiting?.cards.map((c) => c.card.id) ?? []),
  ]);
}

const where = (line: number | 'new') => (line === 'new' ? 'on a new line' : `on line ${line + 1}`);
const trickKey = (t: KeystoneView['lastTrick']) => (t ? `${t.game}:${t.trick}` : '');

/**
 * A Keystone move in words. Only what the table sees now: a card is named while it lies on a line
 * or in a trick; once the next game deals the same cards again, its earlier moves say "a card"
 * (never a card that is in a hand). A God card is "a God card".
 */
export function describeMove(step: MoveStep<KeystoneView, KeystoneMove>, w: Wording): string | null {
  const { actor, move, before, after, latest } = step;
  const who = w.name(actor);
  const shown = shownNow(latest);
  const cardTextOf = (id: string) => (!shown.has(id) ? 'a card' : id.startsWith('god') ? 'a God card' : faceOf(id as CardId));
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
  if (t && trickKey(t) !== trickKey(before.lastTrick)) text += `; ${w.name(t.winner)} won trick ${t.trick} (${t.cards.map((c) => cardTextOf(c.card.id)).join(', ')})`;
  if (after.finishedGames.length > before.finishedGames.length) text += `; game ${after.finishedGames.at(-1)!.game} is scored`;
  return text;
}
