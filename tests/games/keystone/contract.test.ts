import { describe, expect, it } from 'vitest';
import { CARD_IDS, keystone, type KeystoneMove, type KeystoneState } from '../../../src/games/keystone/engine/index.ts';
import { checkEngineContract } from '../../kernel/contract.ts';

/**
 * A spread of moves, legal or not, for the "unlisted moves are refused" half of the check: every
 * card played, every card placed on every line (and a few past the end) or a new line, and
 * place-all lists that are never complete. Legal place-all lists are not candidates: they are
 * deliberately not listed (legalMoves lists single placements and auto-place). Seats the game
 * does not wait for get a few moves only.
 */
function candidates(s: KeystoneState, player: string): KeystoneMove[] {
  const out: KeystoneMove[] = [{ type: 'auto-place' }];
  const seat = s.players.indexOf(player);
  // Seats not awaited: a few moves suffice to see them refused (each refusal costs a thrown error).
  if (seat !== s.turn) return [...out, ...(s.hands[seat] ?? []).slice(0, 2).map((card) => ({ type: 'play' as const, card }))];
  const lineCount = Math.max(0, ...s.lines.map((l) => l.length)) + 2;
  for (const card of CARD_IDS) {
    out.push({ type: 'play', card });
    out.push({ type: 'place', card, line: 'new' });
    for (let line = 0; line < lineCount; line++) out.push({ type: 'place', card, line });
  }
  const waiting = s.pending;
  if (waiting.length > 1) out.push({ type: 'place-all', placements: waiting.slice(1).map((card) => ({ card, line: 'new' as const })) });
  if (waiting.length > 0) out.push({ type: 'place-all', placements: [...waiting, waiting[0]!].map((card) => ({ card, line: 'new' as const })) });
  return out;
}

describe('Keystone follows the engine contract', () => {
  it('over random 3- and 4-player matches: legal moves accepted, others refused, timers, autopilot, forfeits, replay', () => {
    const r = checkEngineContract<KeystoneState, KeystoneMove>({
      engine: keystone,
      games: 6,
      maxSteps: 600,
      setup: (i) => ({ players: Array.from({ length: 3 + (i % 2) }, (_, k) => `p${i}-${k}`), options: {} }),
      candidates,
      sample: 8,
      forfeitRate: 0.004,
    });
    expect(r.outcomes.scored).toBeGreaterThan(0);
  });
});
