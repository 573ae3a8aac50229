import { MessageFlags } from 'discord.js';
import type { RouteContext, RouteDef } from '../../bot/game-module.ts';
import { boardUrl } from '../../bot/board.ts';
import { ownsMessage, updateOwned } from '../../bot/game-routes.ts';
import { mention } from '../../bot/format.ts';
import { UserError } from '../../services/errors.ts';
import { cardIdSchema, type KeystoneMove, type KeystoneView } from './engine/index.ts';
import type { PlanItem } from './ids.ts';
import { autoPanel, autoPlan, cardTextOf, handPanel, placementPanel, placementsText } from './present.ts';

/**
 * Keystone's buttons and menus. The platform has checked the game, the seat, the turn and the
 * version before these run (My hand excepted: anyone may click it, and spectators are told that
 * hands are private); the engine checks every move. These handlers turn clicks into moves and
 * panels, and offer in each menu exactly what the view says is legal.
 */

type Ctx = RouteContext<KeystoneView, KeystoneMove>;
type Route = RouteDef<KeystoneView, KeystoneMove>;

const panelMeta = (ctx: Ctx) => ({ gameId: ctx.game.id, version: ctx.version, boardUrl: boardUrl(ctx.game) });

/** The waiting cards of the clicker, or a refusal saying why there are none. */
function requirePlacing(ctx: Ctx): NonNullable<KeystoneView['waiting']> {
  const w = ctx.view.waiting;
  if (!w || w.player !== ctx.userId) {
    throw new UserError('keystone/nothing-to-place', ctx.view.turn === ctx.userId ? 'You have no won cards to place now: play a card (use **My hand**).' : 'You have no won cards to place now.');
  }
  return w;
}

/** The placements of a plan as engine moves (line numbers as the earlier placements leave the lines). */
function planMoves(waiting: NonNullable<KeystoneView['waiting']>, plan: readonly PlanItem[]): KeystoneMove[] {
  return plan.map((p) => {
    const c = waiting.cards[p.card];
    if (!c) throw new UserError('keystone/bad-plan', 'That placement menu is out of date. Open **Place won cards…** on the board again.');
    return { type: 'place', card: c.card.id, line: p.line };
  });
}

/**
 * Checks `moves` with the service's preview (nothing saved): it refuses exactly as the moves
 * themselves would be, so a plan shown is a plan that can be placed.
 */
async function checkPreview(ctx: Ctx, moves: KeystoneMove[]): Promise<void> {
  await ctx.preview(moves);
}

/** Shows the placement panel with `plan` (a reply from the board or a hand panel; an edit within the panel). */
async function showPanel(ctx: Ctx, plan: PlanItem[], asReply: boolean): Promise<void> {
  const waiting = requirePlacing(ctx);
  if (plan.length) await checkPreview(ctx, planMoves(waiting, plan));
  const payload = placementPanel(ctx.view, plan, panelMeta(ctx));
  if (asReply) await ctx.reply(payload);
  else await ctx.update(payload);
}

/**
 * After a move from a panel or a DM: that message says what was done (the outbox refreshes the
 * board); a message the route does not own (a forged id elsewhere) is answered privately instead.
 */
async function done(ctx: Ctx, note: string): Promise<void> {
  await updateOwned(ctx.interaction, ownsMessage(ctx.interaction, ctx.game), { content: note.slice(0, 2000), components: [], allowedMentions: { parse: [] } });
}

/**
 * **My hand**: the clicker's own hand, only to them, re-read now; on their turn, the menu of the
 * cards they may play (or the way to place won cards).
 */
const hand: Route = {
  who: 'anyone',
  anytime: true,
  async handle(ctx) {
    if (!ctx.seated) {
      throw new UserError(
        'keystone/not-your-hand',
        `You are watching game #${ctx.game.id}: only its players have hands, and each sees only their own. Follow the board, or play yourself with \`/keystone table\` or \`/keystone practice\`.`,
      );
    }
    await ctx.reply(handPanel(ctx.view, ctx.userId, { gameId: ctx.game.id, version: ctx.version }));
  },
};

/** The menu of playable cards (My hand, or the turn DM). */
const card: Route = {
  async handle(ctx) {
    const picked = cardIdSchema.safeParse(ctx.values[0]);
    if (!picked.success) throw new UserError('keystone/bad-card', 'Pick one of the cards in the menu.');
    const result = await ctx.play({ type: 'play', card: picked.data });
    const after = result.after.view(ctx.userId) as KeystoneView;
    const next = after.phase === 'place' && after.waiting ? ` The trick is complete: ${mention(after.waiting.player)} won it and places the cards.` : after.turn ? ` Next: ${mention(after.turn)}.` : ' The match is over: see the board.';
    const note = `You played ${cardTextOf(picked.data)}.${next}`;
    const game = result.after.game;
    if (ctx.interaction.message.id === game.boardMessageId || !ownsMessage(ctx.interaction, game)) {
      await ctx.answer(result, note);
      return;
    }
    // The panel (My hand, or the turn DM) shows the hand as it is now and whose turn it is, not the
    // hand and the "Your turn" it showed before the card was played.
    const panel = handPanel(after, ctx.userId, { gameId: game.id, version: game.version });
    const ephemeral = ctx.interaction.message.flags.has(MessageFlags.Ephemeral);
    await ctx.update({ ...panel, content: `✅ ${note}\n${panel.content ?? ''}`.slice(0, 2000), components: ephemeral ? panel.components : [] });
  },
};

/** Opens the placement panel (from the board or My hand). */
const place: Route = {
  async handle(ctx) {
    await showPanel(ctx, [], true);
  },
};

/** Shows the panel with a plan (`Start over` is the empty plan). */
const plan: Route = {
  async handle(ctx, [p]) {
    await showPanel(ctx, p as PlanItem[], false);
  },
};

/** A target chosen for one waiting card: the plan grows by it and the panel shows the lines after it. */
const tg: Route = {
  async handle(ctx, [p, cardIndex]) {
    const waiting = requirePlacing(ctx);
    const current = p as PlanItem[];
    const i = cardIndex as number;
    const value = ctx.values[0] ?? '';
    if (!/^(n|0|[1-9]\d?)$/.test(value)) throw new UserError('keystone/bad-target', 'Pick one of the places in the menu.');
    if (i >= waiting.cards.length || current.some((x) => x.card === i)) {
      throw new UserError('keystone/bad-plan', 'That card is already planned. Click **Start over** to change the plan.');
    }
    await showPanel(ctx, [...current, { card: i, line: value === 'n' ? 'new' : Number(value) }], false);
  },
};

/** Places the planned cards: all of them at once (`place-all`), or the ones planned so far. */
const ok: Route = {
  async handle(ctx, [p]) {
    const waiting = requirePlacing(ctx);
    const items = p as PlanItem[];
    if (items.length === 0) throw new UserError('keystone/empty-plan', 'Choose where a card goes first (the menus above), or click **Auto-place…**.');
    const moves = planMoves(waiting, items);
    // Every waiting card at once is one move (all or nothing); fewer are single placements in order.
    const placements = moves.flatMap((m) => (m.type === 'place' ? [{ card: m.card, line: m.line }] : []));
    const result = await ctx.play(items.length === waiting.cards.length ? { type: 'place-all', placements } : moves);
    const placed = items.map((x) => `${cardTextOf(waiting.cards[x.card]!.card.id)} → ${x.line === 'new' ? 'a new line' : `line ${x.line + 1}`}`).join(' · ');
    const after = result.after.view(ctx.userId) as KeystoneView;
    if (after.waiting?.player === ctx.userId) {
      // Some cards are still waiting: the same message shows the panel for them (the turn DM is
      // refreshed the same way by the outbox, so either order of the two edits shows this).
      const intro = `✅ Placed: ${placed}. Now place the rest: ${after.waiting.cards.map((c) => cardTextOf(c.card.id)).join(' ')}`;
      await ctx.update(placementPanel(after, [], { ...panelMeta(ctx), version: result.after.game.version }, intro));
      return;
    }
    await done(ctx, `✅ Placed: ${placed}.`);
  },
};

const auto: Route = {
  async handle(ctx) {
    requirePlacing(ctx);
    await ctx.update(autoPanel(ctx.view, panelMeta(ctx)));
  },
};

const autook: Route = {
  async handle(ctx) {
    requirePlacing(ctx);
    // The same placements, in the same order, as the preview showed (the engine places them so).
    const placements = autoPlan(ctx.view);
    await ctx.play({ type: 'auto-place' });
    await done(ctx, `✅ Auto-placed: ${placementsText(placements)}.`);
  },
};

export const routes = { hand, card, place, plan, tg, ok, auto, autook };
