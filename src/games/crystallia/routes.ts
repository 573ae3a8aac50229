import { playerNames } from '../../bot/board.ts';
import type { RouteContext, RouteDef } from '../../bot/game-module.ts';
import { UserError } from '../../services/errors.ts';
import { COLOURS, type Colour, type CrystalliaMove, type CrystalliaView, type Direction } from './engine/index.ts';
import {
  coloursOf,
  decodeChain,
  encodeChain,
  flipPanel,
  maskOf,
  moveTargetsPanel,
  nextPanel,
  placementMove,
  rotateTargetsPanel,
  squarePanel,
  takePanel,
  type PanelFile,
  type PanelMeta,
} from './turn.ts';
import { boardPicture } from './present.ts';

/**
 * Crystallia's buttons and menus (ids.ts). The platform has checked the seat, the game, the turn
 * and the version; these only read views and legal moves. A turn is chosen in an ephemeral panel
 * (turn.ts), each step checked by the engine through `ctx.preview`, and played at once by Confirm.
 */

type Route = RouteDef<CrystalliaView, CrystalliaMove>;
type Ctx = RouteContext<CrystalliaView, CrystalliaMove>;

const meta = (ctx: Ctx): PanelMeta => ({ gameId: ctx.game.id, version: ctx.version });
const names = (ctx: Ctx) => playerNames(ctx.deps.ctx, ctx.view.players);

function chainOf(raw: unknown): CrystalliaMove[] {
  const moves = decodeChain(String(raw));
  if (!moves) throw new UserError('crystallia/bad-panel', 'That menu is out of date. Click **Take your turn** on the board again.');
  return moves;
}

function requirePlay(ctx: Ctx): void {
  if (ctx.view.phase === 'flip') throw new UserError('crystallia/flips-first', 'First everyone chooses their flips: use **Choose my flips** on the board.');
}

/** The value picked in a menu, or a refusal. */
function picked(ctx: Ctx): string {
  const v = ctx.values[0];
  if (v === undefined) throw new UserError('input/unknown-component', 'Pick one of the options in the menu.');
  return v;
}

function numberPicked(ctx: Ctx, max: number): number {
  const v = picked(ctx);
  if (!/^\d{1,2}$/.test(v) || Number(v) > max) throw new UserError('input/unknown-component', 'Pick one of the options in the menu.');
  return Number(v);
}

/** The public board's picture at this version (the board's own, from its cache when drawn already). */
async function boardFile(ctx: Ctx): Promise<PanelFile> {
  return boardPicture(ctx.snapshot.view(null), { gameId: ctx.game.id, version: ctx.version, names: await names(ctx) });
}

/** Previews `moves` and shows the next panel (the next step of the turn, or the whole turn's preview; the first step with the board's picture). */
async function advance(ctx: Ctx, moves: CrystalliaMove[], how: 'reply' | 'update'): Promise<void> {
  const after = moves.length ? await ctx.preview(moves) : { view: ctx.view, legal: ctx.legal };
  const board = moves.length ? undefined : await boardFile(ctx);
  const payload = nextPanel({ before: ctx.view, me: ctx.userId, meta: meta(ctx), moves, after, names: await names(ctx), ...(board ? { board } : {}) });
  await (how === 'reply' ? ctx.reply(payload) : ctx.update(payload));
}

const play: Route = {
  // In a board mover's turn DM, Play here opens this step at once (one tap).
  opensTurn: true,
  async handle(ctx) {
    requirePlay(ctx);
    await advance(ctx, [], 'reply');
  },
};

const again: Route = {
  async handle(ctx) {
    requirePlay(ctx);
    await advance(ctx, [], 'update');
  },
};

const stone: Route = {
  async handle(ctx) {
    requirePlay(ctx);
    const id = numberPicked(ctx, 23);
    if (ctx.legal.some((m) => m.type === 'discard' && m.stone === id)) return advance(ctx, [{ type: 'discard', stone: id }], 'update');
    if (!ctx.legal.some((m) => m.type === 'place' && m.stone === id)) {
      throw new UserError('crystallia/stone-unavailable', `Stone #${id + 1} cannot be taken now. Click **Take your turn** on the board for the stones you may take.`);
    }
    await ctx.update(squarePanel(ctx.view, ctx.legal, meta(ctx), id, null, await boardFile(ctx)));
  },
};

const sq: Route = {
  async handle(ctx, [id]) {
    requirePlay(ctx);
    await ctx.update(squarePanel(ctx.view, ctx.legal, meta(ctx), id as number, numberPicked(ctx, 53), await boardFile(ctx)));
  },
};

const dir: Route = {
  async handle(ctx, [id, square, d]) {
    requirePlay(ctx);
    const move = placementMove(ctx.view, ctx.legal, id as number, square as number, d as Direction);
    if (!move) throw new UserError('crystallia/not-legal', 'That placement is not possible. Choose a square and a direction the menus offer.');
    await advance(ctx, [move], 'update');
  },
};

const tal: Route = {
  async handle(ctx) {
    requirePlay(ctx);
    const colour = picked(ctx);
    if (!(COLOURS as readonly string[]).includes(colour)) throw new UserError('input/unknown-component', 'Pick one of the colours in the menu.');
    await advance(ctx, [{ type: 'talisman', colour: colour as Colour }], 'update');
  },
};

/** The turn after `chain`, for a menu that needs the board as the chain leaves it. */
async function afterChain(ctx: Ctx, chain: CrystalliaMove[]) {
  return ctx.preview(chain);
}

const mv: Route = {
  async handle(ctx, [raw]) {
    const chain = chainOf(raw);
    const after = await afterChain(ctx, chain);
    await ctx.update(moveTargetsPanel(after.view, after.legal, meta(ctx), encodeChain(chain), numberPicked(ctx, 23)));
  },
};

const mvto: Route = {
  async handle(ctx, [raw, id]) {
    await advance(ctx, [...chainOf(raw), { type: 'move', stone: id as number, to: numberPicked(ctx, 53) }], 'update');
  },
};

const rot: Route = {
  async handle(ctx, [raw]) {
    const chain = chainOf(raw);
    const after = await afterChain(ctx, chain);
    await ctx.update(rotateTargetsPanel(after.view, after.legal, meta(ctx), encodeChain(chain), numberPicked(ctx, 23)));
  },
};

const rotto: Route = {
  async handle(ctx, [raw, id]) {
    const m = /^([01])\.(\d{1,2})$/.exec(picked(ctx));
    if (!m) throw new UserError('input/unknown-component', 'Pick one of the options in the menu.');
    await advance(ctx, [...chainOf(raw), { type: 'rotate', stone: id as number, pivot: Number(m[1]) as 0 | 1, to: Number(m[2]) }], 'update');
  },
};

const skip: Route = {
  async handle(ctx, [raw]) {
    await advance(ctx, [...chainOf(raw), { type: 'skip-ability' }], 'update');
  },
};

const iso: Route = {
  async handle(ctx, [raw, colour]) {
    await advance(ctx, [...chainOf(raw), { type: 'isolate', colour: colour as Colour }], 'update');
  },
};

const back: Route = {
  async handle(ctx, [raw]) {
    await advance(ctx, chainOf(raw), 'update');
  },
};

const ok: Route = {
  async handle(ctx, [raw]) {
    const moves = chainOf(raw);
    if (moves.length === 0) throw new UserError('game/no-move', 'Choose your move first: click **Take your turn** on the board.');
    // The preview names what the turn does; the play then commits exactly these moves.
    const { view } = await ctx.preview(moves);
    const mine = view.lastTurn?.player === ctx.userId ? view.lastTurn.text : 'your turn';
    const result = await ctx.play(moves);
    const next = result.after.view(ctx.userId) as CrystalliaView;
    const second = next.turn?.player === ctx.userId && next.turn.second ? '\nYour **second turn** follows: click **Take your turn** on the board (or in your DMs).' : '';
    const over = next.phase === 'over' ? '\nThe game is over: see the board.' : '';
    // The panel becomes the record of what was played (its preview picture goes: the board shows the real one).
    await ctx.update({ content: `✅ Played in Crystallia #${ctx.game.id}: ${mine}.${second}${over}`.slice(0, 2000), components: [], files: [], allowed_mentions: { parse: [] } });
  },
};

// Advanced Mode: the secret flips, chosen at the same time (so these ids carry no version).

function requireChoosing(ctx: Ctx): void {
  const flip = ctx.view.flip;
  if (ctx.view.phase !== 'flip' || !flip) throw new UserError('crystallia/no-flips', 'The flips were chosen before the first turn; this game is past that.');
  if (!flip.waitingFor.includes(ctx.userId)) {
    const mine = flip.mine?.length ? flip.mine.join(', ') : 'none';
    throw new UserError('crystallia/already-chosen', `You have chosen already (flip: ${mine}); it stays secret until everyone has chosen.`);
  }
}

const flips: Route = {
  anytime: true,
  async handle(ctx) {
    requireChoosing(ctx);
    await ctx.reply(flipPanel(meta(ctx), 0));
  },
};

const flipsel: Route = {
  anytime: true,
  async handle(ctx) {
    requireChoosing(ctx);
    if (!ctx.values.every((v) => (COLOURS as readonly string[]).includes(v))) throw new UserError('input/unknown-component', 'Pick platforms from the menu.');
    await ctx.update(flipPanel(meta(ctx), maskOf(ctx.values)));
  },
};

const flip: Route = {
  anytime: true,
  async handle(ctx, [mask]) {
    requireChoosing(ctx);
    const platforms = coloursOf(mask as number);
    const result = await ctx.play({ type: 'flip', platforms });
    const revealed = (result.after.view(ctx.userId) as CrystalliaView).phase !== 'flip';
    await ctx.answer(result, `Your choice is in: ${platforms.length ? `flip ${platforms.join(', ')}` : 'flip none'}. ${revealed ? 'Everyone has chosen: the flips are revealed on the board and the first turn begins.' : 'It stays secret until everyone has chosen.'}`);
  },
};

export const routes = { play, again, stone, sq, dir, tal, mv, mvto, rot, rotto, skip, iso, back, ok, flips, flipsel, flip };
