import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../src/games/knucklebones/engine/index.ts';
import { button, buttons, startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Discord holds a bot to 50 requests per second across everything but interaction answers, so
 * those calls are what a move costs in deliveries. A move made from the board is answered by
 * editing the board (free): it costs the next player's turn DM, plus, when the mover's own turn DM
 * still showed move buttons (their last move was from a DM, or they had not moved yet), the edit
 * retiring them; a board mover's turn DMs offer Play here instead (never stale, never retired), so
 * a player who keeps to the board costs one call per move. A move made from the turn DM is
 * answered by editing that DM (free): it costs the turn DM and the board's edit; the answered DM
 * is never edited again. Through the real bot and emulator.
 */
let h: Harness;
let limited: string[] = [];

beforeAll(async () => {
  // Discord's rate limits on: these calls are what they count.
  h = await startHarness({ rateLimits: true });
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
  it('a board move costs one rate-limited call (two when it retires DM buttons), a DM move two, and only the newest DM offers moves', async () => {
    const res = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'dave' } });
    const challenge = res.response!.message!;
    await h.api.click('dave', challenge.id, button(challenge, (b) => b.label === 'Accept').custom_id!);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { status: 'active' }, orderBy: { id: 'desc' } })).id;

    const perMove: Array<{ from: 'board' | 'dm'; calls: string[]; over: boolean; retires: boolean }> = [];
    // Where each player moved last (nobody has moved: their first DM offers the buttons).
    const last = new Map<string, 'board' | 'dm'>();
    for (let moves = 0; ; moves++) {
      const { game, state: st } = await state(gameId);
      if (st.outcome) break;
      const mover = alias(st.turn!);
      const col = st.grids[st.turn!]!.findIndex((c) => c.length < 3) + 1;
      // Each player: board twice, then DM twice, and so on (both switches, and both steady states).
      const from = moves % 8 < 4 ? 'board' : 'dm';
      let dm = from === 'dm' ? await turnDm(mover, gameId) : null;
      // A board mover's DM offers Play here: the click's answer turns it into the move buttons (free).
      if (dm && (last.get(mover) ?? 'dm') === 'board') {
        expect(buttons(dm).map((b) => b.label)).toEqual(['Play here', 'Open the board']);
        const here = await h.api.click(mover, dm.id, button(dm, (b) => b.label === 'Play here').custom_id!);
        expect(here.response?.type).toBe(7);
        dm = here.response!.message!;
      }
      limited = [];
      if (from === 'board') {
        const r = await h.api.click(mover, game.boardMessageId!, `kb:place:${gameId}:${game.version}:${col}`);
        expect(r.response?.type).toBe(7);
      } else {
        const r = await h.api.click(mover, dm!.id, button(dm!, (b) => b.label === `Column ${col}`).custom_id!);
        expect(r.response?.type).toBe(7);
      }
      await h.settle();
      perMove.push({ from, calls: limited, over: (await state(gameId)).state.outcome !== null, retires: from === 'board' && (last.get(mover) ?? 'dm') === 'dm' });
      last.set(mover, from);
    }
    expect(perMove.length).toBeGreaterThanOrEqual(9);
    expect(perMove.filter((m) => m.from === 'board' && !m.retires && !m.over).length).toBeGreaterThanOrEqual(2);
    for (const m of perMove.filter((x) => !x.over)) {
      // The next player's turn DM; the board edited (a DM move) or the mover's DM buttons retired
      // (a board move after a DM move); opening a player's DM channel happens once per player and
      // process, not per move.
      const calls = m.calls.filter((c) => c !== 'POST /users/@me/channels');
      expect(calls.filter((c) => c.startsWith('POST') && c.endsWith('/messages'))).toHaveLength(1);
      expect(calls, JSON.stringify(m)).toHaveLength(m.from === 'dm' || m.retires ? 2 : 1);
    }
    // Only each player's newest DM of the game offers moves (Play here is never stale).
    for (const u of ['alice', 'dave']) {
      const dms = (await h.api.dms(u)).messages.filter((m) => m.content.includes(`Knucklebones #${gameId}`));
      expect(dms.length).toBeGreaterThan(2);
      for (const m of dms.slice(0, -1)) expect(buttons(m).filter((b) => b.custom_id !== undefined && b.label !== 'Play here')).toEqual([]);
    }
  });
});
