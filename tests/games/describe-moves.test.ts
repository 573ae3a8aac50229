import { describe, expect, it } from 'vitest';
import { wording } from '../../src/bot/history.ts';
import type { GameModule } from '../../src/bot/game-module.ts';
import { games } from '../../src/games/index.ts';
import { cardTextOf } from '../../src/games/keystone/present.ts';
import type { KeystoneState } from '../../src/games/keystone/engine/index.ts';
import { autopilotMove, autopilotRng } from '../../src/kernel/autopilot.ts';
import { SYSTEM } from '../../src/kernel/types.ts';
import { autopilotStones } from '../../src/games/krellstones/lobby.ts';

/**
 * Every game says what each of its moves did (describeMove), from spectator views: whole random
 * games through each engine, with checks that a hidden thing never shows (a card still in a
 * Keystone hand, a Crystallia player's secret flips).
 */
const SEEDS = ['a'.repeat(64), '0123456789abcdef'.repeat(4), 'f00d'.repeat(16)];

function play(module: GameModule, seed: string, players: string[], options: unknown, onStep: (before: unknown, actor: string, move: unknown, after: unknown) => void): number {
  const { engine } = module;
  // Krellstones' players bring stones: the generated ones the autopilot plays with in practice.
  const playerData = module.kind === 'krellstones' ? { playerData: autopilotStones(seed, players) } : {};
  let state = engine.setup({ seed, players, options: engine.optionsSchema.parse(options), ...playerData });
  let n = 0;
  for (; n < 3000 && engine.outcome(state) === null; n++) {
    const actor = (engine.awaiting(state) as string[]).find((p) => engine.legalMoves(state, p).length > 0);
    let next: unknown;
    let move: unknown;
    let by: string;
    if (actor !== undefined) {
      by = actor;
      move = autopilotMove(engine, state, actor, autopilotRng(seed, n));
      next = engine.apply(state, actor, move);
    } else {
      // Nobody to wait for: the game advances by its own timer (Krellstones' automatic rolls).
      const timer = (engine.timers?.(state) ?? []).find((t) => t.onExpiry.type === 'move');
      if (!timer || timer.onExpiry.type !== 'move') throw new Error(`${module.kind}: stuck with nobody to move and no timer`);
      by = timer.player ?? SYSTEM;
      move = timer.onExpiry.move;
      next = engine.apply(state, by, move);
    }
    const actorNow = by;
    onStep(state, actorNow, move, next);
    state = next as typeof state;
  }
  return n;
}

describe('every game describes its moves', () => {
  for (const module of games.all) {
    it(`${module.title}: a sentence for the moves that matter, in the reader’s words`, () => {
      expect(module.describeMove).toBeTypeOf('function');
      const players = Array.from({ length: module.kind === 'crystallia' ? 3 : module.engine.minPlayers }, (_, i) => `p${i + 1}`);
      const names = Object.fromEntries(players.map((p, i) => [p, ['Alice', 'Bob', 'Carol', 'Dave'][i]!]));
      for (const seed of SEEDS) {
        let told = 0;
        const moves = play(module, seed, players, module.kind === 'crystallia' ? { advanced: true } : {}, (before, actor, move, after) => {
          const { engine } = module;
          const step = { actor, move, auto: false, before: engine.view(before, null), after: engine.view(after, null), latest: engine.view(after, null) };
          const text = module.describeMove!(step, wording(names, null));
          if (text === null) return;
          told++;
          expect(text.length).toBeGreaterThan(5);
          expect(text).not.toMatch(/undefined|null|NaN|\[object/);
          // The reader's own move speaks to them; a step of the game itself (SYSTEM) has no reader of its own.
          if (actor !== SYSTEM) expect(module.describeMove!(step, wording(names, actor))).toMatch(/^(you|You)\b|^Autopilot/);
          if (module.kind === 'keystone') {
            for (const id of (after as KeystoneState).hands.flat()) if (!cardTextOf(id).startsWith('✨')) expect(text, `${cardTextOf(id)} is in a hand`).not.toMatch(new RegExp(`${cardTextOf(id)}(?!\\d)`, 'u'));
          }
          if (module.kind === 'crystallia' && (move as { type: string }).type === 'flip') expect(text).not.toMatch(/red|blue|green|purple/);
        });
        expect(moves).toBeGreaterThan(0);
        expect(told).toBeGreaterThan(0);
      }
    });
  }
});
