import { ButtonStyle, ComponentType, type APIButtonComponent } from 'discord.js';
import { customId } from './custom-id.ts';
import { mention, scoreText } from './format.ts';
import type { MessagePayload } from './game-module.ts';

/**
 * The message posted in a game's channel when it ends (an edited board notifies nobody): the
 * winners first with the score, every player mentioned, a link to the board and a Rematch button.
 * Pure, from the game's stored outcome; the same for every game.
 */
export interface ResultInput {
  gameId: number;
  title: string;
  /** Seats in order, with who the autopilot played. */
  seats: Array<{ playerId: string; autopilot: boolean }>;
  outcome: { winners: string[]; scores?: Record<string, number>; reason: string; forfeited?: string; forfeits?: string[]; timedOut?: string[] };
  boardUrl: string | null;
  /** Offer a rematch (not for a cycle's games, which come from intents). */
  rematch: boolean;
}

const list = (ids: string[]) => (ids.length <= 1 ? ids.map(mention).join('') : `${ids.slice(0, -1).map(mention).join(', ')} and ${mention(ids.at(-1)!)}`);

export function resultMessage(r: ResultInput): MessagePayload {
  const o = r.outcome;
  const players = r.seats.map((s) => s.playerId);
  const scores = o.scores ?? {};
  const has = (p: string) => Object.hasOwn(scores, p);
  const left = new Set([...(o.forfeits ?? []), ...(o.forfeited ? [o.forfeited] : [])]);
  const timedOut = new Set(o.timedOut ?? []);
  const lines = [`🏁 **${r.title} #${r.gameId}** is over.`];
  const why = (p: string) => (timedOut.has(p) ? `${mention(p)}’s turn ran out` : `${mention(p)} forfeited`);
  if (o.forfeited) lines.push(`${timedOut.has(o.forfeited) ? '⌛' : '🏳️'} ${why(o.forfeited)}.`);
  const winners = players.filter((p) => o.winners.includes(p));
  const others = players.filter((p) => !o.winners.includes(p));
  const same = (ps: string[]) => ps.every((p) => has(p) && scores[p] === scores[ps[0]!]);
  if (winners.length === 0) {
    const score = players.every(has) ? `, ${scoreText(scores, [])}` : '';
    lines.push(`🤝 A draw${score}: ${list(players)}.`);
  } else if (others.length > 0 && same(winners) && same(others) && !(o.forfeits ?? []).length) {
    // Two sides (two players, or two teams): "Alice wins, 54–19, against Bob."
    const score = has(winners[0]!) && has(others[0]!) ? `, ${scores[winners[0]!]}–${scores[others[0]!]},` : '';
    lines.push(`🏆 ${list(winners)} ${winners.length === 1 ? 'wins' : 'win'}${score} against ${list(others)}.`);
  } else {
    // Everyone for themselves: the winners, then the others by score; those who left rank last.
    const points = (p: string) => (has(p) ? ` with ${scores[p]} point${scores[p] === 1 ? '' : 's'}` : '');
    lines.push(`🏆 ${list(winners)} ${winners.length === 1 ? 'wins' : 'win'}${same(winners) ? points(winners[0]!) : ''}.`);
    const rest = [...others].sort((a, b) => Number(left.has(a)) - Number(left.has(b)) || (scores[b] ?? 0) - (scores[a] ?? 0));
    if (rest.length) {
      lines.push(
        `Then: ${rest
          .map((p) => `${mention(p)}${has(p) ? ` ${scores[p]}` : ''}${left.has(p) ? (timedOut.has(p) ? ' (ran out of time)' : ' (left)') : ''}`)
          .join(' · ')}.`,
      );
    }
  }
  const humans = r.seats.filter((s) => !s.autopilot).map((s) => s.playerId);
  if (r.rematch) lines.push(humans.length > 1 ? 'Another one? **Rematch** starts the same game again once every player has clicked it.' : 'Another one? **Rematch** starts the same game again.');
  const buttons: APIButtonComponent[] = [];
  if (r.rematch) buttons.push({ type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: customId('g:rematch', r.gameId), label: 'Rematch', emoji: { name: '🔁' } });
  if (r.boardUrl) buttons.push({ type: ComponentType.Button, style: ButtonStyle.Link, url: r.boardUrl, label: 'Open the board' });
  return {
    content: lines.join('\n').slice(0, 2000),
    components: buttons.length ? [{ type: ComponentType.ActionRow, components: buttons }] : [],
    allowed_mentions: { users: humans },
  };
}
