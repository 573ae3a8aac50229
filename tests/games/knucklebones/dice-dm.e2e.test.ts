import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KnucklebonesState } from '../../../src/games/knucklebones/engine/index.ts';
import { aliasOf, button, buttons, EPHEMERAL, expectRefused, runCommand, startHarness, text, type Harness } from '../../helpers/harness.ts';

/**
 * Dice items used from the turn DM (where players on phones play), through the emulator and the
 * real discord.js client: a cycle game, dice granted by a moderator, the Loaded Die (keep one by
 * button) and the Spoiler Die used from the turn and reminder DMs; the board follows, and a
 * non-participant or the waiting player sending the DM's buttons from their own DMs is refused.
 */
let h: Harness;
let ids: Harness['emulator']['users'];
const HOUR = 3_600_000;
const USE = 'Use a die…';

beforeAll(async () => {
  h = await startHarness();
  ids = h.emulator.users;
});
afterAll(async () => {
  await h?.close();
});

const alias = (userId: string) => aliasOf(h, userId);
const cmd = (user: string, channel: string, name: string, options: Record<string, unknown>) => runCommand(h, user, channel, name, options);

async function gameState(gameId: number) {
  const game = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  return { game, state: game.state as unknown as KnucklebonesState };
}

async function board(gameId: number): Promise<APIMessage> {
  const { game } = await gameState(gameId);
  return (await h.api.messages(game.channelId, 'carol')).messages.find((m) => m.id === game.boardMessageId)!;
}

/** The user's latest turn or reminder DM. */
async function turnDm(user: string): Promise<APIMessage> {
  const dm = (await h.api.dms(user)).messages.filter((m) => /Your turn in|Reminder: your turn/.test(m.content)).at(-1);
  if (!dm) throw new Error(`${user} has no turn DM`);
  return dm;
}

const labels = (m: APIMessage) => buttons(m).map((b) => b.label);

function menuOf(message: APIMessage): { custom_id: string; options: Array<{ value: string; description?: string }> } {
  return (message.components![0] as { components: Array<{ custom_id: string; options: Array<{ value: string; description?: string }> }> }).components[0]!;
}

const refused = expectRefused;

/** Runs `fn` and checks that the game did not change. */
async function unchanged(gameId: number, fn: () => Promise<void>) {
  const before = await gameState(gameId);
  const moves = await h.db.prisma.move.count({ where: { gameId } });
  await fn();
  await h.settle();
  const after = await gameState(gameId);
  expect(after.game.version).toBe(before.game.version);
  expect(after.state).toEqual(before.state);
  expect(await h.db.prisma.move.count({ where: { gameId } })).toBe(moves);
}

/** How many lasting DMs the bot sent the player (ephemeral answers to their clicks left out). */
async function botDms(user: string): Promise<number> {
  return (await h.api.dms(user)).messages.filter((m) => ((m.flags ?? 0) & EPHEMERAL) === 0).length;
}

/**
 * The player places from their latest turn DM, which offers columns (and, with no die used this
 * turn, "Use a die…"); after a move on the board it offers Play here, which brings them.
 */
async function placeFromDm(user: string, column: number, gameId: number, opts: { playHere?: boolean } = {}) {
  let dm = await turnDm(user);
  if (opts.playHere) {
    expect(labels(dm)).toEqual(['Play here', 'Open the board']);
    const here = await h.api.click(user, dm.id, button(dm, (b) => b.label === 'Play here').custom_id!);
    expect(here.response?.type).toBe(7);
    dm = here.response!.message!;
  }
  expect(labels(dm)).toEqual(['Column 1', 'Column 2', 'Column 3', USE, 'Open the board']);
  const res = await h.api.click(user, dm.id, button(dm, (b) => b.label === `Column ${column}`).custom_id!);
  expect(res.response?.type).toBe(7);
  await h.settle();
  expect((await gameState(gameId)).game.boardVersion).toBe((await gameState(gameId)).game.version);
}

describe('dice items from the turn DM', () => {
  it('the Loaded and Spoiler Dice are used from the DMs, the board follows, and others are refused', async () => {
    await cmd('moderator', 'general', 'cycle', { subcommand: 'season-start', name: 'Season 1' });
    await cmd('moderator', 'general', 'cycle', { subcommand: 'start', name: 'Cycle 1' });
    await cmd('alice', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'bob' });
    expect((await cmd('bob', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'alice' })).response?.message?.content).toMatch(/Match!/);
    expect((await cmd('moderator', 'general', 'cycle', { subcommand: 'phase', kind: 'battle' })).response?.message?.content).toMatch(/1 game started/);
    await h.settle();
    const { game } = await gameState((await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'knucklebones', status: 'active' } })).id);
    expect(game.cycleId).not.toBeNull();
    const gameId = game.id;
    let { state } = await gameState(gameId);
    const moverId = state.turn!;
    const otherId = state.players.find((p) => p !== moverId)!;
    const [mover, other] = [alias(moverId), alias(otherId)];

    // The turn DM offers "Use a die…" as the board does; holding no die, the player is told so.
    let dm = await turnDm(mover);
    // The board is posted before the first turn DM is rendered, so even that DM links to it.
    expect(labels(dm)).toEqual(['Column 1', 'Column 2', 'Column 3', USE, 'Open the board']);
    const useId = button(dm, (b) => b.label === USE).custom_id!;
    expect(useId).toBe(button(await board(gameId), (b) => b.label === USE).custom_id);
    await unchanged(gameId, () => refused(h.api.click(mover, dm.id, useId), /hold no die item/));

    for (const [player, item] of [[mover, 'loaded-die'], [mover, 'spoiler-die'], [other, 'loaded-die']] as const) {
      const grant = await cmd('moderator', 'general', 'cycle', { subcommand: 'grant', player, item });
      expect(grant.response?.message?.content).toMatch(/Granted 1 ×/);
    }

    // Someone outside the game, and the waiting player (who holds a Loaded Die too), send the DM's
    // buttons from their own DMs, where there is no server to check against: refused, nothing changes.
    const v = game.version;
    const forged = (user: string, data: Record<string, unknown>) => h.api.rawInteraction({ user, channel: 'dm', type: 3, data, message: dm.id });
    await unchanged(gameId, async () => {
      await refused(forged('carol', { custom_id: useId, component_type: 2 }), /not playing in game/);
      await refused(forged('carol', { custom_id: `kb:die:${gameId}:${v}`, component_type: 3, values: ['loaded'] }), /not playing in game/);
      await refused(forged('carol', { custom_id: `kb:keep:${gameId}:${v}:0`, component_type: 2 }), /not playing in game/);
      await refused(forged(other, { custom_id: useId, component_type: 2 }), /not your turn/);
      await refused(forged(other, { custom_id: `kb:die:${gameId}:${v}`, component_type: 3, values: ['loaded'] }), /not your turn/);
    });

    // The mover uses the Loaded Die from the DM: an ephemeral menu there (no Spoiler yet: nothing to spoil).
    const menu = await h.api.click(mover, dm.id, useId);
    expect(menu.response?.message?.flags).toBe(EPHEMERAL);
    expect(menuOf(menu.response!.message!).options.map((o) => o.value)).toEqual(['loaded']);
    const used = await h.api.select(mover, menu.response!.message!.id, menuOf(menu.response!.message!).custom_id, ['loaded']);
    expect(used.response?.type).toBe(7);
    expect(used.response?.message?.content).toMatch(/Loaded Die used: you rolled \d and \d: keep one with the buttons in your turn message/);
    await h.settle();
    ({ state } = await gameState(gameId));
    const choices = state.dice!.turn!.choices!;
    expect(state.dice!.used[moverId]).toEqual(['loaded']);
    expect(used.response?.message?.content).toContain(`${choices[0]} and ${choices[1]}`);
    // The public board was refreshed by the outbox: the two values to keep, no second die this turn.
    let b = await board(gameId);
    expect((await gameState(gameId)).game.boardVersion).toBe((await gameState(gameId)).game.version);
    expect(text(b)).toMatch(/used the Loaded Die and rolled/);
    expect(labels(b)).toEqual([`Keep ${choices[0]}`, `Keep ${choices[1]}`, 'Forfeit…', 'Nudge']);
    // One DM per turn: the turn DM itself is edited in place and says what is going on, with the
    // same two buttons and no "Use a die…"; its old "Use a die…" (from a client that still shows
    // it) is stale.
    const firstDm = dm;
    const dmCount = await botDms(mover);
    dm = await turnDm(mover);
    expect(dm.id).toBe(firstDm.id);
    expect(dm.content).toMatch(new RegExp(`you used the Loaded Die and rolled .*${choices[0]}.* and .*${choices[1]}.*: keep one`));
    expect(dm.content).not.toMatch(/you rolled/);
    expect(labels(dm)).toEqual([`Keep ${choices[0]}`, `Keep ${choices[1]}`, 'Open the board']);
    const keepId = button(dm, (x) => x.label === `Keep ${choices[1]}`).custom_id!;
    await unchanged(gameId, () => refused(forged(other, { custom_id: keepId, component_type: 2 }), /not your turn/));
    const staleUse = () => h.api.rawInteraction({ user: mover, channel: 'dm', type: 3, data: { custom_id: useId, component_type: 2 }, message: firstDm.id });
    await unchanged(gameId, () => refused(staleUse(), /older board/));

    const kept = await h.api.click(mover, dm.id, keepId);
    expect(kept.response?.type).toBe(7);
    expect(kept.response?.message?.content).toContain(`✅ Kept ${choices[1]}.`);
    await h.settle();
    expect(await botDms(mover)).toBe(dmCount);
    ({ state } = await gameState(gameId));
    expect(state.roll).toBe(choices[1]);
    dm = await turnDm(mover);
    expect(labels(dm)).toEqual(['Column 1', 'Column 2', 'Column 3', 'Open the board']);
    await h.api.click(mover, dm.id, button(dm, (x) => x.label === 'Column 1').custom_id!);
    await h.settle();
    ({ state } = await gameState(gameId));
    expect(state.grids[moverId]![0]).toEqual([choices[1]]);
    expect(text(await board(gameId))).toMatch(/Dice items used[\s\S]*🎯 Loaded Die/);

    // Two turns each: the opponent builds a column 2 for the Spoiler Die to hit, the second time
    // from the board, so their turn DM keeps its buttons.
    await placeFromDm(other, 2, gameId);
    await placeFromDm(mover, 3, gameId);
    const unclicked = await turnDm(other);
    b = await board(gameId);
    expect((await h.api.click(other, b.id, button(b, (x) => x.label === 'Column 2').custom_id!)).response?.type).toBe(7);
    await h.settle();

    // The opponent moved on the board, not from their turn DM: that DM lost its move buttons at once
    // (only the link back to the board is left), so it offers nothing stale.
    expect(labels((await h.api.dms(other)).messages.find((m) => m.id === unclicked.id)!)).toEqual(['Open the board']);
    // A client that still shows the old "Use a die…" sends it: refused.
    const staleClick = () => h.api.rawInteraction({ user: other, channel: 'dm', type: 3, data: { custom_id: button(unclicked, (x) => x.label === USE).custom_id!, component_type: 2 }, message: unclicked.id });
    await unchanged(gameId, () => refused(staleClick(), /not your turn/));

    // The mover's turn again; they wait for the 12-hour reminder and use the Spoiler Die from it.
    await h.api.advanceClock(12 * HOUR + 1000);
    dm = await turnDm(mover);
    expect(dm.content).toMatch(/Reminder: your turn/);
    expect(labels(dm)).toEqual(['Column 1', 'Column 2', 'Column 3', USE, 'Open the board']);

    ({ state } = await gameState(gameId));
    const column2 = state.grids[otherId]![1]!;
    expect(column2).toHaveLength(2);
    const highest = Math.max(...column2);
    const spoilMenu = await h.api.click(mover, dm.id, button(dm, (x) => x.label === USE).custom_id!);
    expect(spoilMenu.response?.message?.flags).toBe(EPHEMERAL);
    // The Loaded Die was used in this game: only the Spoiler Die is offered, on the one column with dice.
    expect(menuOf(spoilMenu.response!.message!).options).toMatchObject([{ value: 'spoiler-2', description: `Removes their ${highest} from column 2` }]);
    const spoiled = await h.api.select(mover, spoilMenu.response!.message!.id, menuOf(spoilMenu.response!.message!).custom_id, ['spoiler-2']);
    expect(spoiled.response?.message?.content).toMatch(/Spoiler Die used: your opponent’s highest die there is gone\. Now place your die in your turn message/);
    await h.settle();
    ({ state } = await gameState(gameId));
    const rest = [...column2];
    rest.splice(column2.indexOf(highest), 1);
    expect(state.grids[otherId]![1]).toEqual(rest);
    expect(state.dice!.used[moverId]).toEqual(['loaded', 'spoiler']);
    b = await board(gameId);
    expect(text(b)).toMatch(/with the Spoiler Die: choose a column/);
    expect(text(b)).toMatch(/🎯 Loaded Die, 💥 Spoiler Die/);
    expect(labels(b)).not.toContain(USE);
    dm = await turnDm(mover);
    expect(labels(dm)).toEqual(['Column 1', 'Column 2', 'Column 3', 'Open the board']);
    await h.api.click(mover, dm.id, button(dm, (x) => x.label === 'Column 3').custom_id!);
    await h.settle();

    // Dice are not consumed by use, but each is used once per game: next turn the mover has none left to use.
    const inv = await cmd(mover, 'general', 'inventory', { subcommand: 'show' });
    expect(inv.response?.message?.content).toMatch(/Loaded Die\*\* × 1[\s\S]*Spoiler Die\*\* × 1/);
    // The opponent moved on the board last time: their turn DM offers Play here, which brings the buttons.
    await placeFromDm(other, 1, gameId, { playHere: true });
    dm = await turnDm(mover);
    await unchanged(gameId, () => refused(h.api.click(mover, dm.id, button(dm, (x) => x.label === USE).custom_id!), /no die item you have not used in this game/));
  });
});
