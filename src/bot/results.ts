import { ButtonStyle, ComponentType, type APIButtonComponent } from 'discord.js';
import { boardLinkButton } from './chrome.ts';
import { customId } from './custom-id.ts';
import { mention, outcomeText } from './format.ts';
import type { GameModule, MessagePayload } from './game-module.ts';

/**
 * The message posted in a game's channel when it ends (an edited board notifies nobody): how it
 * was won first, then the score with names, every player mentioned, a link to the board and a Rematch button.
 * Pure, from the game's stored outcome; the same for every game.
 */
export interface ResultInput {
  gameId: number;
  title: string;
  /** Seats in order, with who the autopilot played. */
  seats: Array<{ playerId: string; autopilot: boolean }>;
  outcome: { winners: string[]; scores?: Record<string, number>; reason: string; forfeited?: string; forfeits?: string[]; timedOut?: string[] };
  boardUrl: string | null;
  /** Partners who win or lose together (GameModule.teams), else each seat is its own side. */
  sides?: string[][];
  /** What the scores count, when not points ("Rounds won"; GameModule.scoreLabel). */
  scoreLabel?: string;
  /** Offer a rematch (not for a cycle's games, which come from intents). */
  rematch: boolean;
}

export function resultMessage(r: ResultInput): MessagePayload {
  const o = r.outcome;
  const players = r.seats.map((s) => s.playerId);
  const scores = o.scores ?? {};
  const has = (p: string) => Object.hasOwn(scores, p);
  const left = new Set([...(o.forfeits ?? []), ...(o.forfeited ? [o.forfeited] : [])]);
  const timedOut = new Set(o.timedOut ?? []);
  const lines = [`🏁 **${r.title} #${r.gameId}** is over.`];
  const winners = players.filter((p) => o.winners.includes(p));
  const others = players.filter((p) => !o.winners.includes(p));
  const opts = { scores: players.some(has) ? scores : undefined, timedOut: o.timedOut, label: r.scoreLabel };
  if (winners.length === 0 || (others.length > 0 && !(o.forfeits ?? []).length && (r.sides || players.length === 2))) {
    // Two sides (two players, or two teams), or a draw: how it ended, then the score with names.
    const sides = r.sides ?? players.map((p) => [p]);
    lines.push(outcomeText(o, { ...opts, sides }));
  } else {
    // Everyone for themselves: the winners, then the others by score; those who left rank last.
    const note = (g: readonly string[]) => (left.has(g[0]!) ? (timedOut.has(g[0]!) ? ' (ran out of time)' : ' (left)') : '');
    const ranked = [...winners, ...[...others].sort((a, b) => Number(left.has(a)) - Number(left.has(b)) || (scores[b] ?? 0) - (scores[a] ?? 0))];
    const head = outcomeText({ winners: o.winners }, {});
    const named = ranked.filter(has).map((p) => `${mention(p)} ${scores[p]}${note([p])}`);
    lines.push(`${head}${named.length ? ` ${r.scoreLabel ?? 'Score'}: ${named.join(' · ')}.` : ''}`);
  }
  const humans = r.seats.filter((s) => !s.autopilot).map((s) => s.playerId);
  if (r.rematch) lines.push(humans.length > 1 ? 'Another one? **Rematch** starts the same game again once every player has clicked it.' : 'Another one? **Rematch** starts the same game again.');
  const buttons: APIButtonComponent[] = [];
  if (r.rematch) buttons.push({ type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: customId('g:rematch', r.gameId), label: 'Rematch', emoji: { name: '🔁' } });
  if (r.boardUrl) buttons.push(boardLinkButton(r.boardUrl));
  return {
    content: lines.join('\n').slice(0, 2000),
    components: buttons.length ? [{ type: ComponentType.ActionRow, components: buttons }] : [],
    allowed_mentions: { users: humans },
  };
}

/** A game's teams (when it has them) and score label, as the result message takes them. */
export function teamsAndLabel(module: Pick<GameModule, 'teams' | 'scoreLabel'> | undefined, players: readonly string[]): Pick<ResultInput, 'sides' | 'scoreLabel'> {
  const sides = module?.teams?.(players);
  return {
    ...(sides && sides.some((t) => t.length > 1) ? { sides } : {}),
    ...(module?.scoreLabel ? { scoreLabel: module.scoreLabel } : {}),
  };
}
