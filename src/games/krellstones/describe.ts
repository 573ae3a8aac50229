import type { MoveStep, Wording } from '../../bot/game-module.ts';
import { SYSTEM } from '../../kernel/types.ts';
import { STONE_KINDS, YELL } from './data.ts';
import type { KrellstonesMove } from './engine/schema.ts';
import type { KrellstonesView, ViewStoneInfo } from './engine/view.ts';

const stoneName = (s: Pick<ViewStoneInfo, 'id' | 'alias' | 'type'>) => `${STONE_KINDS[s.type].name} ${s.alias ? `“${s.alias}”` : `#${s.id}`}`;

/** The announcements `after` made that `before` had not (same round), in the rulebook's words. */
function newAnnouncements(before: KrellstonesView, after: KrellstonesView, w: Wording): string[] {
  const fresh = after.round === before.round && after.history.length === before.history.length ? after.announcements.slice(before.announcements.length) : after.lastRound?.announcements.slice(before.announcements.length) ?? [];
  return fresh.map((a) => (a.player ? `${a.text} (${w.name(a.player)})` : a.text));
}

/** A round that ended with this step: who won it, with what. */
function roundEnd(before: KrellstonesView, after: KrellstonesView, w: Wording): string | null {
  if (after.history.length === before.history.length || !after.lastRound) return null;
  const r = after.lastRound;
  if (!r.winner) return `round ${r.round} has no winner: everyone busted`;
  return `${w.name(r.winner)} ${r.winner === w.viewer ? 'win' : 'wins'} round ${r.round} with ${r.sums[r.winner]}${r.reversed ? ' (Pawn is Queen: the lowest sum)' : ''}`;
}

/**
 * A Krellstones step in words, from the public views around it. A reroll selection is secret until
 * the rerolls are rolled, so choosing says nothing and Ready only that the player is ready; rolls
 * and effects are public and told as the board tells them.
 */
export function describeMove(step: MoveStep<KrellstonesView, KrellstonesMove>, w: Wording): string | null {
  const { actor, move, before, after } = step;
  const tail = [...newAnnouncements(before, after, w), roundEnd(before, after, w)].filter((x): x is string => x !== null);
  const withTail = (head: string) => [head, ...tail].join(' · ');
  if (actor === SYSTEM) {
    if (after.rolled > before.rolled && before.nextRoller) {
      const seat = after.seats[before.nextRoller];
      const values = (seat?.stones ?? []).filter((s) => s.value !== null).map((s) => `${STONE_KINDS[s.type].name} ${s.value}`);
      return withTail(`${w.name(before.nextRoller)} rolled ${values.join(', ')}`);
    }
    return tail.length ? tail.join(' · ') : null;
  }
  const who = w.name(actor);
  const you = actor === w.viewer;
  switch (move.type) {
    case 'select':
      return null;
    case 'ready':
      return withTail(`${who} ${you ? 'are' : 'is'} ready${before.phase === 'swaps' ? ' for the next round' : ''}`);
    case 'swap': {
      const seat = before.seats[actor];
      const incoming = seat?.sideboard.find((s) => s.id === move.in);
      const outgoing = seat?.stones.find((s) => s.id === move.out);
      return withTail(`${who} swapped ${incoming ? stoneName(incoming) : 'a sideboard stone'} in for ${outgoing ? stoneName(outgoing) : 'a stone'}`);
    }
    case 'yell':
      return withTail(`${who} yelled ${YELL}`);
    case 'pace':
      return `${who} set the pace to ${move.pace}`;
    case 'timeout':
      return withTail(before.windows.includes(actor) && move.key.startsWith('yell') ? `${who} let the Pup window close without a yell` : `${who} let the choice run out`);
    case 'system':
      return null;
  }
}

