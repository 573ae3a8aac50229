import type { APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buttons, EPHEMERAL, startHarness, type Harness } from '../../helpers/harness.ts';
import { attachmentBytes, lcg, load, playTurn, selects, whoseTurn } from './driver.ts';

/**
 * Crystallia from a turn DM on a phone (issue 23 item 11): the first step of a turn shows the
 * board as it is now, so a player can choose a stone and a square without switching to the
 * channel; and a board mover's turn DM opens that step with one tap (Play here), not two (Play
 * here, then Take your turn).
 */
let h: Harness;
const CHANNEL = 'general';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function turnDm(user: string, gameId: number): Promise<APIMessage> {
  const dm = (await h.api.dms(user)).messages.filter((m) => ((m.flags ?? 0) & EPHEMERAL) === 0 && m.content.includes(`Crystallia #${gameId}`) && /Your (\*\*second turn\*\*|turn) in/.test(m.content)).at(-1);
  if (!dm) throw new Error(`${user} has no turn DM of game ${gameId}`);
  return dm;
}

const labels = (m: APIMessage) => buttons(m).map((b) => b.label);

/** The panel's step: the stone menu, the square menus and the direction buttons, with the board's picture. */
async function expectBoardPicture(m: APIMessage, version: number): Promise<void> {
  expect(m.attachments.map((a) => a.filename)).toEqual([expect.stringMatching(new RegExp(`^crystallia-\\d+-v${version}\\.png$`))]);
  expect((await attachmentBytes(m)).subarray(0, 8)).toEqual(PNG);
}

describe('a Crystallia turn from the DMs', () => {
  it('Take your turn in a DM shows the board with the stone menu; a board mover taps Play here once and gets that step, then plays the turn in the DM', async () => {
    const c = await h.api.command({ user: 'alice', channel: CHANNEL, name: 'crystallia', options: { subcommand: 'join', opponent: 'bob' } });
    const cm = c.response!.message!;
    await h.api.click('bob', cm.id, buttons(cm).find((x) => x.label === 'Accept')!.custom_id!);
    await h.settle();
    const gameId = (await h.db.prisma.game.findFirstOrThrow({ where: { kind: 'crystallia' }, orderBy: { id: 'desc' } })).id;
    const r = lcg(11);

    // Nobody has moved: the first player's turn DM offers Take your turn; the panel it opens shows the board.
    const first = (await whoseTurn(h, gameId))!;
    const dm0 = await turnDm(first, gameId);
    expect(labels(dm0)).toEqual(['Take your turn', 'Open the board']);
    const v0 = (await load(h, gameId)).game.version;
    const opened = await h.api.click(first, dm0.id, buttons(dm0).find((b) => b.label === 'Take your turn')!.custom_id!);
    expect(opened.response?.type).toBe(4);
    const panel0 = opened.response!.message!;
    expect(panel0.flags).toBe(EPHEMERAL);
    expect(panel0.content).toMatch(/Your turn\*\* in Crystallia/);
    expect(selects(panel0).map((s) => s.custom_id.split(':')[1])).toContain('stone');
    await expectBoardPicture(panel0, v0);
    // Choosing a stone keeps the board in sight for choosing its square.
    const stoneMenu = selects(panel0).find((s) => s.custom_id.split(':')[1] === 'stone')!;
    const squares = (await h.api.select(first, panel0.id, stoneMenu.custom_id, [stoneMenu.options[0]!.value])).response!.message!;
    expect(selects(squares).some((s) => s.custom_id.split(':')[1] === 'sq')).toBe(true);
    await expectBoardPicture(squares, v0);

    // Both play their turns on the board; the first player's next turn DM has Play here.
    for (let k = 0; k < 2; k++) await playTurn(h, CHANNEL, gameId, (await whoseTurn(h, gameId))!, r);
    const me = (await whoseTurn(h, gameId))!;
    const dm = await turnDm(me, gameId);
    expect(labels(dm)).toEqual(['Play here', 'Open the board']);

    // One tap: the DM becomes the turn's first step, with the board as it is now.
    const { game } = await load(h, gameId);
    const here = await h.api.click(me, dm.id, buttons(dm).find((b) => b.label === 'Play here')!.custom_id!);
    expect(here.response?.type).toBe(7);
    let panel = here.response!.message!;
    expect(panel.id).toBe(dm.id);
    expect(panel.content).toMatch(/Your (turn|\*\*second turn\*\*|second turn)\*?\*? in Crystallia/);
    expect(selects(panel).map((s) => s.custom_id.split(':')[1])).toContain('stone');
    await expectBoardPicture(panel, game.version);

    // The turn is played in that DM, step by step, to Confirm.
    for (let k = 0; !buttons(panel).some((b) => b.label === 'Confirm'); k++) {
      expect(k).toBeLessThan(12);
      const sels = selects(panel);
      const btns = buttons(panel).filter((b) => b.custom_id && !b.disabled);
      const act = (a: string) => btns.find((b) => b.custom_id!.split(':')[1] === a);
      const sel = (a: string) => sels.find((s) => s.custom_id.split(':')[1] === a);
      const b = act('dir') ?? act('iso') ?? act('skip');
      const s = b ? undefined : (sel('sq') ?? sel('stone'));
      const res = b ? await h.api.click(me, panel.id, b.custom_id!) : await h.api.select(me, panel.id, s!.custom_id, [s!.options[0]!.value]);
      expect(res.response?.type, res.response?.message?.content).toBe(7);
      panel = res.response!.message!;
    }
    const done = await h.api.click(me, panel.id, buttons(panel).find((b) => b.label === 'Confirm')!.custom_id!);
    expect(done.response?.message?.content).toMatch(/✅ Played in Crystallia/);
    await h.settle();
    expect((await load(h, gameId)).game.version).toBeGreaterThan(game.version);
    expect((await h.api.rejections()).rejections).toEqual([]);
  }, 180_000);
});
