import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { button, buttons, EPHEMERAL, startHarness, type Harness } from '../helpers/harness.ts';
import { discordSpec, type Violation } from '../support/discord-spec.ts';
import { startRecordingProxy, type RecordingProxy } from '../support/recording-proxy.ts';
import { boardMessage as crystalliaBoard, lcg, playTurn, whoseTurn } from '../games/crystallia/driver.ts';

/**
 * Every REST request Stonehall makes, checked against Discord's published API spec: one
 * realistic session through the emulator, with a recording proxy between the bot and the
 * emulator (as a bot author would put one between their bot and Discord). Commands registered,
 * challenges, moves by board button and by DM, refusals, closed DMs, a forfeit, a Crystallia
 * board uploaded as a picture (multipart), a Keystone practice game, a season with a Battle
 * Phase. Zero violations is the assertion: every request the spec allows, and every answer the
 * emulator gave it allowed by the spec for its status.
 */
let h: Harness;
let proxy: RecordingProxy;

beforeAll(async () => {
  h = await startHarness({
    // Discord's rate limits on: their headers and 429 answers are checked against the spec too.
    rateLimits: true,
    deployVia: true,
    restVia: async (url) => {
      proxy = await startRecordingProxy(url);
      return proxy.url;
    },
  });
});
afterAll(async () => {
  await h?.close();
  await proxy?.close();
});

const cmd = (user: string, channel: string, name: string, options: Record<string, unknown>) => h.api.command({ user, channel, name, options });

async function knucklebonesGame(a: string, b: string): Promise<number> {
  const c = await cmd(a, 'knucklebones', 'knucklebones', { subcommand: 'join', opponent: b });
  const msg = c.response!.message!;
  await h.api.click(b, msg.id, button(msg, (x) => x.label === 'Accept').custom_id!);
  await h.settle();
  return (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'knucklebones' }, orderBy: { id: 'desc' } })).id;
}

/** The player on turn clicks a column: on the board, or in their DM. */
async function placeDie(gameId: number, via: 'board' | 'dm'): Promise<void> {
  const game = await h.db.prisma.game.findUniqueOrThrow({ where: { id: gameId }, include: { seats: true } });
  const userId = (game.state as { turn: string }).turn;
  const alias = Object.entries(h.emulator.users).find(([, id]) => id === userId)![0];
  const source = via === 'board'
    ? (await h.api.messages('knucklebones', alias)).messages.find((m) => m.id === game.boardMessageId)!
    : (await h.api.dms(alias)).messages.findLast((m) => buttons(m).some((b) => b.custom_id?.startsWith(`kb:place:${gameId}:`)))!;
  const col = buttons(source).find((b) => b.custom_id?.startsWith('kb:place:') && !b.disabled)!;
  await h.api.click(alias, source.id, col.custom_id!);
  await h.settle();
}

describe("Stonehall's requests against Discord's API spec", () => {
  it('a realistic session makes no request, and gets no answer, that the spec does not allow', async () => {
    // Knucklebones: challenge, accept, moves by board and DM, a refusal, closed DMs, a forfeit.
    const kb = await knucklebonesGame('alice', 'bob');
    await placeDie(kb, 'board');
    await placeDie(kb, 'dm');
    const wrongTurn = await cmd('carol', 'knucklebones', 'knucklebones', { subcommand: 'place', column: 1, game: kb });
    expect(wrongTurn.response?.message?.flags).toBe(EPHEMERAL);
    await h.api.setDmsOpen('bob', false);
    await placeDie(kb, 'board');
    await placeDie(kb, 'board');
    await h.api.setDmsOpen('bob', true);
    const forfeit = await cmd('alice', 'knucklebones', 'knucklebones', { subcommand: 'forfeit', game: kb });
    const confirm = forfeit.response!.message!;
    await h.api.click('alice', confirm.id, button(confirm, (b) => b.label === 'Yes, forfeit').custom_id!);
    await h.settle();

    // Crystallia: its board is a PNG uploaded with the message (multipart).
    const cr = await cmd('carol', 'general', 'crystallia', { subcommand: 'join', opponent: 'dave' });
    const crMsg = cr.response!.message!;
    await h.api.click('dave', crMsg.id, button(crMsg, (x) => x.label === 'Accept').custom_id!);
    await h.settle();
    const crGame = (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia' }, orderBy: { id: 'desc' } })).id;
    const rng = lcg(7);
    for (let k = 0; k < 2; k++) await playTurn(h, 'general', crGame, (await whoseTurn(h, crGame))!, rng);
    expect((await crystalliaBoard(h, 'general', crGame)).attachments?.length).toBe(1);

    // Keystone against the autopilot: the hand is shown privately.
    const ks = await cmd('dave', 'general', 'keystone', { subcommand: 'practice' });
    expect(ks.response?.type).toBe(4);
    await h.settle();

    // A season, a cycle, intents and a Battle Phase that starts the matched game.
    await cmd('moderator', 'general', 'cycle', { subcommand: 'season-start', name: 'Season 1' });
    await cmd('moderator', 'general', 'cycle', { subcommand: 'start', name: 'Cycle 1' });
    await cmd('alice', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'carol' });
    await cmd('carol', 'battle-commencement', 'knucklebones', { subcommand: 'join', opponent: 'alice' });
    await cmd('moderator', 'general', 'cycle', { subcommand: 'phase', kind: 'battle' });
    await h.settle();
    const battleGame = await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'knucklebones' }, orderBy: { id: 'desc' } });
    expect(battleGame.id).not.toBe(kb);
    await placeDie(battleGame.id, 'dm');

    // Every exchange, checked.
    const spec = discordSpec();
    const violations: Array<Violation & { path: string; status: number }> = [];
    for (const x of proxy.exchanges) for (const v of spec.check(x)) violations.push({ ...v, path: x.path, status: x.status });
    const operations = new Set(proxy.exchanges.map((x) => spec.find(x.method, x.path)?.operationId ?? `${x.method} ${x.path}`));
    console.log(`spec check: ${proxy.exchanges.length} requests over ${operations.size} operations (${[...operations].sort().join(', ')}); ${proxy.exchanges.filter((x) => x.files > 0).length} with files; ${violations.length} violations`);
    expect(proxy.exchanges.length).toBeGreaterThan(50);
    expect(proxy.exchanges.some((x) => x.files > 0)).toBe(true);
    expect(violations).toEqual([]);
  });
});
