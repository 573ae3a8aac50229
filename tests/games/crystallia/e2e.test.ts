import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../../src/games/index.ts';
import { verifyGame } from '../../../src/services/replay.ts';
import { silentLogger } from '../../../src/log.ts';
import { buttons, EPHEMERAL, startHarness, text, type Harness } from '../../helpers/harness.ts';
import { attachmentBytes, boardMessage, lcg, load, playTurn, selects, whoseTurn } from './driver.ts';

/**
 * A whole two-player game of Crystallia through the emulator and the real discord.js client:
 * the challenge, Advanced Mode's secret flips, every turn clicked through the ephemeral panel to
 * its preview and Confirm, the board's picture replaced at every change, and the end with the
 * seed revealed and the game replayed from it.
 */
let h: Harness;
const CHANNEL = 'general';

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('Crystallia, two players, Advanced Mode, played to the end by clicking', () => {
  it('challenge, secret flips, every turn through the panel, the picture replaced each time, the end and the replay', async () => {
    const challenge = await h.api.command({ user: 'alice', channel: CHANNEL, name: 'crystallia', options: { subcommand: 'join', opponent: 'bob', advanced: true } });
    const cm = challenge.response!.message!;
    expect(cm.content).toMatch(/challenges you to \*\*Crystallia \(Advanced Mode\)\*\*/);
    const accept = buttons(cm).find((b) => b.label === 'Accept')!;
    const accepted = await h.api.click('bob', cm.id, accept.custom_id!);
    expect(accepted.response?.type).toBe(7);
    // The click's own answer is the board, its picture attached (the callback's multipart upload).
    expect(accepted.response?.message?.attachments.map((a) => a.filename)).toEqual([expect.stringMatching(/^crystallia-\d+-v\d+\.png$/)]);
    await h.settle();
    const { game } = await load(h, (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia' } })).id);
    const gameId = game.id;

    // The board: one PNG, the flip step, nobody's choice shown.
    let board = await boardMessage(h, CHANNEL, gameId);
    expect(board.id).toBe(cm.id);
    expect(board.attachments).toHaveLength(1);
    expect((await attachmentBytes(board)).subarray(0, 8).equals(PNG)).toBe(true);
    expect(board.content).toMatch(/Advanced Mode.*choose[s]? in secret/s);

    // Alice flips red, in secret.
    const flipsButton = buttons(board).find((b) => b.custom_id?.startsWith(`cr:flips:${gameId}`))!;
    const panel = (await h.api.click('alice', board.id, flipsButton.custom_id!)).response!.message!;
    expect(panel.flags).toBe(EPHEMERAL);
    const chosen = (await h.api.select('alice', panel.id, selects(panel)[0]!.custom_id, ['red'])).response!.message!;
    expect(chosen.content).toMatch(/Your choice: \*\*🟥 red\*\*/);
    const confirm = buttons(chosen).find((b) => b.label === 'Confirm: flip red')!;
    const done = await h.api.click('alice', chosen.id, confirm.custom_id!);
    expect(done.response?.message?.content).toMatch(/Your choice is in: flip red\. It stays secret/);
    await h.settle();
    board = await boardMessage(h, CHANNEL, gameId, 'bob');
    expect(board.content).toMatch(new RegExp(`Waiting for <@${h.emulator.users.bob}>\\.`));
    expect(board.content).not.toMatch(/red/);
    // Alice cannot choose twice; Bob's panel does not tell him hers.
    const twice = await h.api.click('alice', board.id, flipsButton.custom_id!);
    expect(twice.response?.message?.content).toMatch(/You have chosen already \(flip: red\)/);
    const bobPanel = (await h.api.click('bob', board.id, flipsButton.custom_id!)).response!.message!;
    expect(bobPanel.content).not.toMatch(/red\*\*/);
    const none = buttons(bobPanel).find((b) => b.label === 'Confirm: flip none')!;
    expect((await h.api.click('bob', bobPanel.id, none.custom_id!)).response?.message?.content).toMatch(/Everyone has chosen/);
    await h.settle();
    const afterFlips = await load(h, gameId);
    expect(afterFlips.state.platforms[h.emulator.users.alice]!.flipped).toMatchObject({ red: true, blue: false });
    expect(afterFlips.state.platforms[h.emulator.users.bob]!.flipped).toMatchObject({ red: false });

    // Every turn by clicking until the pyramid is empty (or someone goes out).
    const r = lcg(2024);
    let turns = 0;
    const attachmentIds = new Set<string>();
    let abilitiesUsed = 0;
    for (let who = await whoseTurn(h, gameId); who !== null; who = await whoseTurn(h, gameId)) {
      const before = await load(h, gameId);
      const turn = await playTurn(h, CHANNEL, gameId, who, r);
      if (turn.steps.some((s) => s === 'mvto' || s === 'rotto')) abilitiesUsed++;
      // The preview showed a picture and what the turn gains; Confirm played it.
      expect(turn.preview.content).toMatch(/Preview, not played yet/);
      expect(turn.preview.attachments).toHaveLength(1);
      expect(turn.confirmed.content).toMatch(new RegExp(`^✅ Played in Crystallia #${gameId}: (placed|used a talisman|no stone fits)`));
      expect(turn.confirmed.attachments).toHaveLength(0);
      const after = await load(h, gameId);
      expect(after.game.version).toBeGreaterThan(before.game.version);
      board = await boardMessage(h, CHANNEL, gameId);
      expect(board.attachments).toHaveLength(1);
      expect(board.attachments[0]!.filename).toBe(`crystallia-${gameId}-v${after.game.version}.png`);
      attachmentIds.add(board.attachments[0]!.id);
      expect(++turns).toBeLessThan(60);
    }
    // A new picture at every change, each replacing the last.
    expect(attachmentIds.size).toBe(turns);
    expect(turns).toBeGreaterThanOrEqual(12);

    const final = await load(h, gameId);
    expect(final.game.status).toBe('finished');
    board = await boardMessage(h, CHANNEL, gameId);
    const t = text(board);
    expect(t).toMatch(/🏆|Game over/);
    expect(t).toMatch(/regular [+−]?\d+.* = \*\*-?\d+\*\*/);
    expect(t).toContain(final.game.seed);
    expect(t).toContain(`/stonehall verify game:${gameId}`);
    expect(buttons(board).filter((b) => b.custom_id)).toHaveLength(0);
    const png = await attachmentBytes(board);
    expect(png.subarray(0, 8).equals(PNG)).toBe(true);
    expect(png.length).toBeLessThan(10 * 1024 * 1024);

    // The fair shuffle: the seed matches its commitment and replays every move to the same state.
    const report = await verifyGame({ db: h.db.prisma, clock: h.clock, log: silentLogger, games }, gameId);
    expect(report).toMatchObject({ commitmentOk: true, stateOk: true });
    expect(report.moves).toBeGreaterThanOrEqual(turns);
    // Nothing the bot sent was refused by the emulator.
    expect((await h.api.rejections()).rejections).toEqual([]);
    void abilitiesUsed;
  }, 300_000);
});
