import { stateSchema, type KeystoneState } from './engine/index.ts';

/**
 * What `npm run replay` prints of a Keystone match: each game's deal (every seat's twelve cards
 * and the cards out of play), who led its first trick, the game's scores, and the outcome, from
 * the replayed states. The seed is public once the match is over, so the deals are too.
 */
export function replayNotes(states: readonly unknown[]): string[] {
  const parsed = states.map((s) => stateSchema.parse(s) as KeystoneState);
  const out: string[] = [];
  const deal = (s: KeystoneState, why: string) => {
    out.push(`game ${s.game}: all 53 cards shuffled with the seed's generator (src/kernel/rng.ts), 12 dealt to each seat in order; ${why}`);
    s.hands.forEach((hand, seat) => out.push(`  seat ${seat + 1} ${s.players[seat]}: ${hand.join(' ')}`));
    out.push(`  out of play: ${s.undealt.join(' ')}`);
  };
  const first = parsed[0];
  if (!first) return out;
  deal(first, `first leader drawn at random: seat ${first.leader + 1} ${first.players[first.leader]}`);
  for (let i = 1; i < parsed.length; i++) {
    const before = parsed[i - 1]!;
    const s = parsed[i]!;
    if (s.gameScores.length > before.gameScores.length) {
      out.push(`game ${before.game} scored: ${s.players.map((p, seat) => `${p} ${s.gameScores.at(-1)![seat]}`).join(', ')}`);
    }
    if (s.game === 2 && before.game === 1) deal(s, `first leader, the winner of game 1's last trick: seat ${s.leader + 1} ${s.players[s.leader]}`);
  }
  const last = parsed.at(-1)!;
  if (last.outcome) {
    const o = last.outcome;
    out.push(`outcome (${o.reason}): ${o.winners.length ? `${o.winners.join(' and ')} win` : 'no winner'}; ${last.players.map((p) => `${p} ${o.scores?.[p] ?? 0} (place ${o.places?.[p] ?? '-'})`).join(', ')}`);
  }
  return out;
}
