import { describe, expect, it } from 'vitest';
import { knucklebones, type KnucklebonesState } from '../../../src/games/knucklebones/engine/index.ts';
import { autopilotMove, autopilotRng, nextInt, rngFromSeed, uniformPolicy } from '../../../src/kernel/index.ts';

/** Plays `games` seeded games of the expectimax autopilot against a uniformly random player. */
function match(games: number): { wins: number; draws: number; losses: number } {
  const tally = { wins: 0, draws: 0, losses: 0 };
  for (let g = 0; g < games; g++) {
    const seed = (g.toString(16).padStart(8, '0') + 'a5'.repeat(28)).slice(0, 64);
    let s: KnucklebonesState = knucklebones.setup({ players: ['auto', 'random'], seed, options: {} });
    let coin = rngFromSeed(seed.split('').reverse().join(''));
    for (let step = 0; s.outcome === null; step++) {
      const p = s.turn!;
      const move =
        p === 'auto'
          ? autopilotMove(knucklebones, s, p, autopilotRng(seed, step))
          : (() => {
              const [i, next] = nextInt(coin, 1_000_000);
              coin = next;
              return uniformPolicy(knucklebones.legalMoves(s, p), { seed: coin.seed, n: i });
            })();
      s = knucklebones.apply(s, p, move as never);
    }
    if (s.outcome.winners.length === 0) tally.draws++;
    else if (s.outcome.winners[0] === 'auto') tally.wins++;
    else tally.losses++;
  }
  return tally;
}

describe('the Knucklebones autopilot', () => {
  it('beats a random player in more than 80% of 300 seeded games', () => {
    const r = match(300);
    const rate = r.wins / 300;
    console.log(`Knucklebones autopilot vs random over 300 seeded games: ${r.wins} wins, ${r.draws} draws, ${r.losses} losses (${(rate * 100).toFixed(1)}% won)`);
    expect(rate).toBeGreaterThan(0.8);
  });
});
