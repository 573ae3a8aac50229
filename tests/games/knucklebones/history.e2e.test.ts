import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../../src/games/knucklebones/engine/index.ts';
import { historyPages } from '../../../src/bot/history.ts';
import { button, buttons, EPHEMERAL, seedSequence, startHarness, text, type Harness } from '../../helpers/harness.ts';

/**
 * "What just happened": the board and the turn DM say what the last move did, in words, and
 * `/knucklebones history` lists the whole log, for players and spectators alike.
 */
let h: Harness;
let ids: Harness['emulator']['users'];

beforeAll(async () => {
  // Fixed seeds: whether a roll can knock out the opponent's dice before the game ends depends on
  // the game's seed, and one random seed in a busy run gave none in the whole game.
  h = await startHarness({ seeds: seedSequence('kb-history') });
  ids = h.emulator.users;
});
afterAll(async () => {
  await h?.close();
});

const NAMES: Record<string, string> = {};
const alias = (userId: string) => Object.entries(ids).find(([, id]) => id === userId)![0];
const COUNT = ['no', 'one', 'two', 'three'];

async function state(gameId: number) {
  const g = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  return { game: g, state: g.state as unknown as KnucklebonesState };
}

async function board(gameId: number): Promise<APIMessage> {
  const { game } = await state(gameId);
  return (await h.api.messages('knucklebones', 'carol')).messages.find((m) => m.id === game.boardMessageId)!;
}

describe('what just happened, in words', () => {
  it('the board, the next turn DM and /knucklebones history describe each move and what it knocked out', async () => {
    for (const [a, id] of Object.entries(ids)) NAMES[id] = a.charAt(0).toUpperCase() + a.slice(1);
    const res = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'join', opponent: 'bob' } });
    const challenge = res.response!.message!;
    await h.api.click('bob', challenge.id, button(challenge, (b) => b.label === 'Accept').custom_id!);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ orderBy: { id: 'desc' } })).id;
    expect(text(await board(gameId))).not.toContain('Last move');

    const said: string[] = [];
    let knocked = false;
    for (let n = 0; n < 40; n++) {
      const { state: s } = await state(gameId);
      if (s.outcome || (knocked && n >= 4)) break;
      const mover = s.turn!;
      const opp = s.players.find((p) => p !== mover)!;
      const roll = s.roll!;
      const mine = s.grids[mover]!;
      // Knock out the opponent's dice when the roll allows it; else the first open column.
      const hit = [0, 1, 2].find((c) => mine[c]!.length < 3 && s.grids[opp]![c]!.includes(roll));
      const col = hit ?? [0, 1, 2].find((c) => mine[c]!.length < 3)!;
      const gone = s.grids[opp]![col]!.filter((v) => v === roll).length;
      const current = await board(gameId);
      const r = await h.api.click(alias(mover), current.id, button(current, (b) => b.custom_id?.startsWith('kb:place') === true && b.label === `Column ${col + 1}`).custom_id!);
      expect(r.response?.type).toBe(7);
      await h.settle();
      const effect = (whose: string) => (gone ? ` and knocked out ${whose} ${gone === 1 ? roll : `${COUNT[gone]} ${roll}s`}` : '');
      const after = await state(gameId);
      const end = after.state.outcome ? ', filling their grid: game over' : '';
      // The public board, in everyone's words.
      expect(text(await board(gameId))).toContain(`**Last move:** ${NAMES[mover]} put a ${roll} in column ${col + 1}${effect(`${NAMES[opp]}’s`)}${end}.`);
      said.push(`${NAMES[mover]} put a ${roll} in column ${col + 1}${effect(`${NAMES[opp]}’s`)}${end}.`);
      if (gone) knocked = true;
      if (after.state.outcome) break;
      // The opponent's turn DM, in theirs: "your two 4s", right under its first line.
      const dm = (await h.api.dms(alias(opp))).messages.at(-1)!;
      expect(dm.content.split('\n')[1]).toBe(`**Last move:** ${NAMES[mover]} put a ${roll} in column ${col + 1}${effect('your')}.`);
    }
    expect(knocked).toBe(true);

    // A spectator reads the whole log, privately, numbered, in the others' names.
    const spect = await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'history', game: gameId } });
    expect(spect.response?.message?.flags).toBe(EPHEMERAL);
    const { game } = await state(gameId);
    const [first, second] = (await h.db.prisma.seat.findMany({ where: { gameId }, orderBy: { seat: 'asc' } })).map((x) => x.playerId);
    const status = game.status === 'active' ? 'in progress' : 'over';
    const numbered = said.map((l, i) => `\`${String(i + 1).padStart(3, ' ')}\` ${l}`);
    const pages = Math.ceil(numbered.length / 15);
    expect(spect.response!.message!.content).toBe(
      [`📜 **Knucklebones #${gameId}** (${NAMES[first!]} vs ${NAMES[second!]}, ${status}): ${said.length} moves${pages > 1 ? `, page ${pages} of ${pages}` : ''}.`, ...numbered.slice((pages - 1) * 15)].join('\n'),
    );
    // A player without the game option gets their own game, with themselves as "you".
    const own = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'history' } });
    expect(own.response?.message?.flags).toBe(EPHEMERAL);
    expect(own.response!.message!.content).toContain(`Knucklebones #${gameId}`);
    expect(own.response!.message!.content).toMatch(/\(you vs Bob|\(Bob vs you/);
    // Her own moves read "You put…" (the page shown is the latest: it may hold only Bob's).
    const shown = said.slice((pages - 1) * 15);
    if (shown.some((l) => l.startsWith('Alice put'))) expect(own.response!.message!.content).toMatch(/You put a \d in column \d/);
    expect(own.response!.message!.content).not.toContain('Alice put');

    // Played to the end (at least 17 moves): the history comes in pages of 15, the latest first.
    for (;;) {
      const { state: s } = await state(gameId);
      if (s.outcome) break;
      const current = await board(gameId);
      const col = button(current, (b) => b.custom_id?.startsWith('kb:place') === true && !b.disabled).custom_id!;
      await h.api.click(alias(s.turn!), current.id, col);
      await h.settle();
    }
    const total = await h.db.prisma.move.count({ where: { gameId } });
    const last = await h.api.command({ user: 'carol', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'history', game: gameId } });
    const msg = last.response!.message!;
    const n = Math.ceil(total / 15);
    expect(msg.content.split('\n')[0]).toMatch(new RegExp(`, over\\): ${total} moves, page ${n} of ${n}\\.$`));
    expect(msg.content.split('\n').slice(1).map((l) => l.slice(0, 5))).toEqual(Array.from({ length: total - (n - 1) * 15 }, (_, i) => `\`${String((n - 1) * 15 + i + 1).padStart(3, ' ')}\``));
    expect(buttons(msg).map((b) => [b.label, !!b.disabled])).toEqual([['◀ Earlier', false], ['Later ▶', true]]);
    const earlier = await h.api.click('carol', msg.id, button(msg, (b) => b.label === '◀ Earlier').custom_id!);
    expect(earlier.response?.type).toBe(7);
    const page = earlier.response!.message!;
    expect(page.content.split('\n')[0]).toContain(`page ${n - 1} of ${n}.`);
    expect(page.content.split('\n').slice(1).map((l) => l.slice(0, 5))).toEqual(Array.from({ length: 15 }, (_, i) => `\`${String((n - 2) * 15 + i + 1).padStart(3, ' ')}\``));
    expect(page.content.split('\n')[1]!.slice(6)).toBe(n === 2 ? said[0] : page.content.split('\n')[1]!.slice(6));
  });

  it('refusals: an unknown game, a game of another kind, and someone who never played', async () => {
    const none = await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'history' } });
    expect(none.response?.message?.flags).toBe(EPHEMERAL);
    expect(none.response?.message?.content).toBe('⚠️ You have not played Knucklebones here yet. Name a game with the `game` option, or start one with `/knucklebones join`.');
    const unknown = await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'knucklebones', options: { subcommand: 'history', game: 9999 } });
    expect(unknown.response?.message?.flags).toBe(EPHEMERAL);
    // The refusal names this game's command only, not every game's.
    expect(unknown.response?.message?.content).toBe('⚠️ There is no game #9999 in this server. List yours with `/knucklebones games`.');
    const verify = await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'stonehall', options: { subcommand: 'verify', game: 9999 } });
    expect(verify.response?.message?.content).toBe('⚠️ There is no game #9999 in this server. A game’s number is in the title of its board.');
    const game = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'knucklebones' } });
    const wrong = await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'tellstones', options: { subcommand: 'history', game: game.id } });
    expect(wrong.response?.message?.flags).toBe(EPHEMERAL);
    expect(wrong.response?.message?.content).toBe(`⚠️ Game #${game.id} is a game of Knucklebones: use \`/knucklebones history game:${game.id}\`.`);
    // view and forfeit refuse another kind's game the same way (view used to show it).
    const view = await h.api.command({ user: 'dave', channel: 'knucklebones', name: 'tellstones', options: { subcommand: 'view', game: game.id } });
    expect(view.response?.message?.flags).toBe(EPHEMERAL);
    expect(view.response?.message?.content).toBe(`⚠️ Game #${game.id} is a game of Knucklebones: use \`/knucklebones view game:${game.id}\`.`);
    const forfeit = await h.api.command({ user: 'alice', channel: 'knucklebones', name: 'tellstones', options: { subcommand: 'forfeit', game: game.id } });
    expect(forfeit.response?.message?.flags).toBe(EPHEMERAL);
    expect(forfeit.response?.message?.content).toBe(`⚠️ Game #${game.id} is a game of Knucklebones: use \`/knucklebones forfeit game:${game.id}\`.`);
  });

  it('a long log is cut into pages of whole lines under Discord’s limit', () => {
    const lines = Array.from({ length: 120 }, (_, i) => `\`${String(i + 1).padStart(3, ' ')}\` Alice put a 4 in column 2 and knocked out Bob’s two 4s.`);
    const pages = historyPages(lines);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flat()).toEqual(lines);
    for (const p of pages) expect(p.join('\n').length).toBeLessThanOrEqual(1_700);
    expect(pages.map((p) => p.length)).toEqual([15, 15, 15, 15, 15, 15, 15, 15]);
    expect(historyPages([])).toEqual([[]]);
  });
});
