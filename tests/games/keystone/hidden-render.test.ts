import { describe, expect, it } from 'vitest';
import type { BoardMeta, NotificationMeta } from '../../../src/bot/game-module.ts';
import { keystone, type KeystoneState } from '../../../src/games/keystone/engine/index.ts';
import type { PlanItem } from '../../../src/games/keystone/ids.ts';
import { autoPanel, handPanel, placementPanel, present } from '../../../src/games/keystone/present.ts';
import type { Notification } from '../../../src/services/notifications.ts';
import { FOUR, playMatch, THREE } from './helpers.ts';
import { expectNoLeak, expectWithinLimits, namedCards, textOf } from './render-checks.ts';

/**
 * Hidden information and Discord's limits at the renderer level, over many random matches: after
 * every step, the public board, every DM to every player (turn, reminder, update, game over; and
 * the same posted in the channel when DMs are closed), every player's My hand and the placer's
 * placement panels name no card of another player's hand, and no card out of play; a player's
 * own hand appears only in their own private payloads.
 */

const NAMES = { ann: 'Ann', ben: 'Ben', cat: 'Cat', dan: 'Dan' };
const NOW = '2026-11-24T12:00:00.000Z';

function boardMeta(s: KeystoneState, version: number): BoardMeta {
  return { gameId: 12, version, names: NAMES, deadlines: { [s.players[s.turn]!]: new Date(NOW) }, seedCommitment: 'c'.repeat(64), seed: s.outcome ? 'a'.repeat(64) : null, autopilot: s.out };
}

/** A plan of the first `k` waiting cards, each on its first listed target (made one after another). */
function planOf(s: KeystoneState, k: number): PlanItem[] {
  const placer = s.players[s.turn]!;
  let st = s;
  const plan: PlanItem[] = [];
  for (let i = 0; i < k; i++) {
    const id = s.pending[i]!;
    const target = keystone.legalMoves(st, placer).find((m) => m.type === 'place' && m.card === id);
    if (!target || target.type !== 'place') break;
    plan.push({ card: i, line: target.line });
    st = keystone.apply(st, placer, target);
  }
  return plan;
}

function checkState(s: KeystoneState, step: number, where: string): number {
  let checks = 0;
  const board = present.board(keystone.view(s, null), boardMeta(s, step));
  expectWithinLimits(board, `${where} board`);
  expectNoLeak(s, board, null, `${where} board`);
  checks++;
  // The trick in play is public and shown.
  const onBoard = namedCards(textOf(board));
  const missing = s.played.filter((id) => !id.startsWith('god') && !onBoard.has(id));
  if (missing.length) expect.fail(`${where}: the board does not show ${missing.join(', ')} of the trick`);
  const base: NotificationMeta = { names: NAMES, boardUrl: 'https://discord.com/channels/1/2/3', version: step, active: s.outcome === null };
  for (const [seat, player] of s.players.entries()) {
    const view = keystone.view(s, player);
    const notes: Notification[] = [
      { type: 'update', gameId: 12, kind: 'keystone', view, actor: s.players[0]! },
    ];
    if (s.outcome) notes.push({ type: 'game-over', gameId: 12, kind: 'keystone', ...s.outcome });
    else if (s.turn === seat) {
      notes.push({ type: 'turn', gameId: 12, kind: 'keystone', view, deadlineAt: NOW, opponents: [] });
      notes.push({ type: 'reminder', gameId: 12, kind: 'keystone', view, deadlineAt: NOW });
    }
    for (const n of notes) {
      const dm = present.notification(n, base);
      expectWithinLimits(dm, `${where} ${n.type} DM to ${player}`);
      expectNoLeak(s, dm, player, `${where} ${n.type} DM to ${player}`);
      const open = present.notification(n, { ...base, public: true });
      expectWithinLimits(open, `${where} ${n.type} posted in the channel for ${player}`);
      expectNoLeak(s, open, null, `${where} ${n.type} posted in the channel for ${player}`);
      checks += 2;
      // The turn DM of a card to play shows the player's whole hand (so these checks can fail).
      if (n.type === 'turn' && s.phase === 'play') {
        const inDm = namedCards(textOf(dm));
        const unseen = s.hands[seat]!.filter((id) => !id.startsWith('god') && !inDm.has(id));
        if (unseen.length) expect.fail(`${where}: ${player}'s turn DM does not show ${unseen.join(', ')}`);
      }
    }
    const hand = handPanel(view, player, { gameId: 12, version: step });
    expectWithinLimits(hand, `${where} My hand of ${player}`);
    expectNoLeak(s, hand, player, `${where} My hand of ${player}`);
    const inHand = namedCards(textOf(hand));
    const unseen = s.hands[seat]!.filter((id) => !id.startsWith('god') && !inHand.has(id));
    if (unseen.length) expect.fail(`${where}: My hand of ${player} does not show ${unseen.join(', ')}`);
    checks++;
    if (s.phase === 'place' && s.turn === seat) {
      // The placement panels are public things only: no hand at all, not even the placer's.
      for (let k = 0; k <= s.pending.length; k++) {
        const panel = placementPanel(view, planOf(s, k), { gameId: 12, version: step, boardUrl: base.boardUrl });
        expectWithinLimits(panel, `${where} placement panel (${k} planned)`);
        expectNoLeak(s, panel, null, `${where} placement panel (${k} planned)`);
        checks++;
      }
      const panel = autoPanel(view, { gameId: 12, version: step, boardUrl: null });
      expectWithinLimits(panel, `${where} Auto-place panel`);
      expectNoLeak(s, panel, null, `${where} Auto-place panel`);
      checks++;
    }
  }
  return checks;
}

describe('Keystone payloads never name a hidden card, and fit Discord', () => {
  for (const [players, matches] of [
    [THREE, 8],
    [FOUR, 8],
  ] as const) {
    it(`${matches} random ${players.length}-player matches, after every step`, { timeout: 120_000 }, () => {
      let checks = 0;
      for (let m = 0; m < matches; m++) {
        const seed = (m * 7919 + players.length).toString(16).padStart(64, '0');
        let step = 0;
        const first = keystone.setup({ seed, players: players.slice(), options: {} });
        checks += checkState(first, step, `match ${m} start`);
        playMatch(seed, players, 500 + m, {
          autoRate: m % 2 ? 0.5 : 0,
          forfeitRate: m % 3 === 0 ? 0.004 : 0,
          onStep: (_before, _entry, after) => {
            step++;
            checks += checkState(after, step, `match ${m} step ${step}`);
          },
        });
      }
      expect(checks).toBeGreaterThan(matches * 200);
    });
  }
});
