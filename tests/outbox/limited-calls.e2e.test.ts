import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { button, buttons, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Discord holds a bot to 50 requests per second across everything but interaction answers, so
 * those calls are what a move costs in deliveries. A move made from the board is answered by
 * editing the board (free): it costs the next player's turn DM and the retire of the mover's turn
 * DM. A move made from the turn DM is answered by editing that DM (free): it costs the turn DM
 * and the board's edit; the answered DM is never edited again. Through the real bot and emulator.
 */
let h: Harness;
let limited: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  h.bot.client.rest.on('response', (req) => {
    const path = String(req.path);
    if (!path.startsWith('/interactions') && !path.startsWith('/webhooks')) limited.push(`${req.method} ${path}`);
  });
});
afterAll(async () => {
  await h?.close();
});

const alias = (userId: string) => Object.entries(h.emulator.users).find(([, id]) => id === userId)![0];

async function state(gameId: number) {
  const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  return { game: g, state: g.state as unknown as KnucklebonesState };
}

async function turnDm(user: string, gameId: number): Promise<APIMessage> {
  const dm = (await h.api.dms(user)).messages.filter((m) => m.content.includes(`Knucklebones #${gameId}`)).at(-1);
  if (!dm) throw new Error(`no DM of game ${gameId} for ${user}`);
  return dm;
}

describe('rate-limited calls per move', () => {
  it('a move from the board or from the turn DM costs two rate-limited calls, and only the newest DM keeps its buttons', async () => {
    const res = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'dave' } });
    const challenge = res.response!.message!;
    await h.api.click('dave', challenge.id, button(challenge, (b) => b.label === 'Accept').custom_id!);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' }, orderBy: { id: 'desc' } })).id;

    const perMove: Array<{ from: 'board' | 'dm'; calls: string[]; over: boolean }> = [];
    for (let moves = 0; ; moves++) {
      const { game, state: st } = await state(gameId);
      if (st.outcome) break;
      const mover = alias(st.turn!);
      const col = st.grids[st.turn!]!.findIndex((c) => c.length < 3) + 1;
      const from = moves % 4 < 2 ? 'board' : 'dm';
      limited = [];
      if (from === 'board') {
        const r = await h.api.click(mover, game.boardMessageId!, `kb:place:${gameId}:${game.version}:${col}`);
        expect(r.response?.type).toBe(7);
      } else {
        const dm = await turnDm(mover, gameId);
        const r = await h.api.click(mover, dm.id, button(dm, (b) => b.label === `Column ${col}`).custom_id!);
        expect(r.response?.type).toBe(7);
      }
      await h.settle();
      perMove.push({ from, calls: limited, over: (await state(gameId)).state.outcome !== null });
    }
    expect(perMove.length).toBeGreaterThanOrEqual(9);
    for (const m of perMove.filter((x) => !x.over)) {
      // The next player's turn DM and the mover's DM retired (board) or the board edited (DM);
      // opening a player's DM channel happens once per player and process, not per move.
      const calls = m.calls.filter((c) => c !== 'POST /users/@me/channels');
      expect(calls.filter((c) => c.startsWith('POST') && c.endsWith('/messages'))).toHaveLength(1);
      expect(calls, JSON.stringify(m)).toHaveLength(2);
    }
    // Only each player's newest DM of the game offers moves.
    for (const u of ['alice', 'dave']) {
      const dms = (await h.api.dms(u)).messages.filter((m) => m.content.includes(`Knucklebones #${gameId}`));
      expect(dms.length).toBeGreaterThan(2);
      for (const m of dms.slice(0, -1)) expect(buttons(m).filter((b) => b.custom_id !== undefined)).toEqual([]);
    }
  });
});
