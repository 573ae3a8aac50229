import { ButtonStyle, ComponentType, TextInputStyle, type APIActionRowComponent, type APIComponentInMessageActionRow, type APISelectMenuOption } from 'discord.js';
import type { MessagePayload, RouteContext, RouteDef } from '../../bot/game-module.ts';
import { ownsMessage, updateOwned } from '../../bot/game-routes.ts';
import { clip } from '../../bot/format.ts';
import { UserError } from '../../services/errors.ts';
import { STONE_KINDS, YELL } from './data.ts';
import type { KrellstonesMove, KrellstonesView, ViewStone } from './engine/index.ts';
import { ids } from './ids.ts';
import { explainLateYell, yellIsLate } from './late-yell.ts';
import { stoneName, stoneText, yellHeard } from './present.ts';

/**
 * Krellstones' buttons and menus. Every id is unversioned (the board is edited by every roll, so a
 * version would make buttons stale seconds after they are drawn): each route reads the game as it
 * is now, and the engine checks every move. The reroll panel is ephemeral: the selection is seen
 * by its owner alone.
 */

type Ctx = RouteContext<KrellstonesView, KrellstonesMove>;
type Route = RouteDef<KrellstonesView, KrellstonesMove>;
type Row = APIActionRowComponent<APIComponentInMessageActionRow>;

const mine = (ctx: Ctx) => ctx.view.seats[ctx.userId]!;

/** The secret reroll panel: the clicker's stones in play in a multi-select, their current selection, Ready. */
export function rerollPanel(view: KrellstonesView, player: string, gameId: number): MessagePayload {
  const seat = view.seats[player]!;
  const inPlay = seat.stones.filter((s) => s.status === 'in');
  const selection = seat.selection ?? [];
  const chosen = inPlay.filter((s) => selection.includes(s.id));
  const lines = [
    `🎲 **Your rerolls** in Krellstones #${gameId}, round ${view.round} (only you see this).`,
    `Your stones: ${seat.stones.map(stoneText).join(' · ')} (sum ${seat.sum})`,
    chosen.length ? `Selected to reroll: ${chosen.map((s) => `${stoneName(s)} ${s.value}`).join(', ')}` : 'Selected to reroll: nothing.',
    seat.choice === 'ready' ? '✅ You are ready.' : 'Pick the stones to reroll, then **Ready** (nobody sees your choice until the rerolls are rolled).',
  ];
  const components: Row[] = [];
  if (seat.choice === 'pending' && inPlay.length) {
    const options: APISelectMenuOption[] = inPlay.map((s) => ({
      label: clip(`${stoneName(s)} showing ${s.value}`, 100),
      value: s.id,
      description: clip(`#${s.id} · sides ${s.sides.map((x) => x.value).join('/')}`, 100),
      default: selection.includes(s.id),
    }));
    components.push({
      type: ComponentType.ActionRow,
      components: [{ type: ComponentType.StringSelect, custom_id: ids.make('sel', gameId, 0), placeholder: 'Stones to reroll (none: keep all)', min_values: 0, max_values: options.length, options }],
    } as Row);
    components.push({
      type: ComponentType.ActionRow,
      components: [{ type: ComponentType.Button, style: ButtonStyle.Success, custom_id: ids.make('ready', gameId, 0), label: chosen.length ? `Ready: reroll ${chosen.length}` : 'Ready: reroll nothing', emoji: { name: '✅' } }],
    } as Row);
  }
  return { content: lines.join('\n'), components, allowed_mentions: { parse: [] } };
}

/** The sideboard swap panel: a menu of one's sideboard stones, then one of active stones of that type. */
export function swapPanel(view: KrellstonesView, player: string, gameId: number, incoming: string | null): MessagePayload {
  const seat = view.seats[player]!;
  const lines = [
    `🔄 **Sideboard swaps** in Krellstones #${gameId} before round ${view.round + 1} (each swap is made at once; **Ready** when done).`,
    `In play: ${seat.stones.map((s) => `${stoneName(s)} #${s.id} (${s.sides.map((x) => x.value).join('/')})`).join(' · ')}`,
    `Sideboard: ${seat.sideboard.length ? seat.sideboard.map((s) => `${stoneName(s)} #${s.id} (${s.sides.map((x) => x.value).join('/')})`).join(' · ') : 'empty'}`,
  ];
  const components: Row[] = [];
  if (seat.choice === 'pending') {
    const inc = incoming ? seat.sideboard.find((s) => s.id === incoming) : undefined;
    if (!inc) {
      if (seat.sideboard.length) {
        components.push({
          type: ComponentType.ActionRow,
          components: [
            {
              type: ComponentType.StringSelect,
              custom_id: ids.make('swin', gameId, 0),
              placeholder: 'A sideboard stone to bring in',
              options: seat.sideboard.slice(0, 25).map((s) => ({ label: clip(`${stoneName(s)} #${s.id}`, 100), value: s.id, description: clip(`sides ${s.sides.map((x) => x.value).join('/')}`, 100) })),
            },
          ],
        } as Row);
      }
    } else {
      lines.push(`Bringing in ${stoneName(inc)} #${inc.id}: which ${STONE_KINDS[inc.type].name} goes to the sideboard?`);
      const outs = seat.stones.filter((s) => s.type === inc.type);
      components.push({
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.StringSelect,
            custom_id: ids.make('swout', gameId, 0, inc.id),
            placeholder: `The ${STONE_KINDS[inc.type].name} to take out`,
            options: outs.map((s: ViewStone) => ({ label: clip(`${stoneName(s)} #${s.id}${s.status === 'in' ? ` showing ${s.value}` : s.status === 'unrolled' ? '' : ` (${s.status})`}`, 100), value: s.id, description: clip(`sides ${s.sides.map((x) => x.value).join('/')}`, 100) })),
          },
        ],
      } as Row);
    }
    components.push({
      type: ComponentType.ActionRow,
      components: [{ type: ComponentType.Button, style: ButtonStyle.Success, custom_id: ids.make('ready', gameId, 0), label: 'Ready: no more swaps', emoji: { name: '✅' } }],
    } as Row);
  } else lines.push('✅ You are ready.');
  return { content: lines.join('\n').slice(0, 2000), components, allowed_mentions: { parse: [] } };
}

/** Shows a panel: a new ephemeral reply from the board or a DM, an edit within the panel itself. */
async function show(ctx: Ctx, payload: MessagePayload): Promise<void> {
  const fromPanel = ctx.interaction.message.flags.has(64);
  if (fromPanel) await ctx.update(payload);
  else await ctx.reply(payload);
}

function requirePhase(ctx: Ctx, phase: 'rerolls' | 'swaps'): void {
  if (ctx.view.phase !== phase) {
    throw new UserError(
      phase === 'rerolls' ? 'krellstones/not-choosing' : 'krellstones/not-swapping',
      phase === 'rerolls' ? 'Rerolls are not being chosen now.' : 'Sideboard swaps are made between rounds, and this is not the time.',
    );
  }
  const choice = mine(ctx).choice;
  if (choice === 'skipped') throw new UserError('krellstones/nothing-to-choose', phase === 'rerolls' ? 'You have no stone in play to reroll this round.' : 'Your sideboard is empty: there is nothing to swap.');
  if (choice === 'expired') throw new UserError('krellstones/expired', 'Your time for this choice ran out.');
  if (choice !== 'pending') throw new UserError('krellstones/already-ready', 'You are already ready.');
}

const rr: Route = {
  async handle(ctx) {
    requirePhase(ctx, 'rerolls');
    await show(ctx, rerollPanel(ctx.view, ctx.userId, ctx.game.id));
  },
};

const sel: Route = {
  async handle(ctx) {
    requirePhase(ctx, 'rerolls');
    const result = await ctx.play({ type: 'select', stones: ctx.values });
    const view = result.after.view(ctx.userId) as KrellstonesView;
    await updateOwned(ctx.interaction, ownsMessage(ctx.interaction, ctx.game), { ...rerollPanel(view, ctx.userId, ctx.game.id), allowedMentions: { parse: [] } });
  },
};

const ready: Route = {
  async handle(ctx) {
    const phase = ctx.view.phase;
    if (phase !== 'rerolls' && phase !== 'swaps') throw new UserError('krellstones/nothing-to-confirm', 'There is nothing to be ready for now.');
    if (mine(ctx).choice !== 'pending') throw new UserError('krellstones/already-ready', 'You are already ready.');
    const n = (mine(ctx).selection ?? []).length;
    const note = phase === 'rerolls' ? `You are ready${n ? ` (${n} stone${n === 1 ? '' : 's'} to reroll, secret until the rerolls)` : ': you reroll nothing'}.` : 'You are ready: no more swaps this time.';
    if (ctx.interaction.message.id === ctx.game.boardMessageId) {
      // From the board: the board is edited in place by the move; say it privately too.
      const result = await ctx.play({ type: 'ready' });
      await ctx.answer(result, note);
      return;
    }
    await ctx.move({ type: 'ready' }, note);
  },
};

/** The yell: a modal with one text field (only `KRELLSTONES!` exactly counts). */
const yell: Route = {
  async handle(ctx) {
    if (yellIsLate(ctx.view, ctx.userId)) {
      throw await explainLateYell(ctx.deps.ctx, ctx.game.id, ctx.game.guildId, ctx.userId, new UserError('krellstones/window-closed', 'Too late: your Pup in the Hangar window has closed.'));
    }
    if (!ctx.view.windows.includes(ctx.userId)) throw new UserError('krellstones/no-window', 'Nothing happens: you have no Pup in the Hangar to yell for now.');
    await ctx.interaction.showModal({
      custom_id: ids.make('yell', ctx.game.id, 0),
      title: 'Pup in the Hangar!',
      components: [
        {
          type: ComponentType.ActionRow,
          components: [{ type: ComponentType.TextInput, custom_id: 'text', label: 'Your yell', style: TextInputStyle.Short, required: true, max_length: 100, placeholder: YELL }],
        },
      ],
    } as never);
  },
  /** The typed yell: the engine counts only `KRELLSTONES!` exactly, within the window. */
  async submit(ctx) {
    const text = ctx.fields.text ?? '';
    await ctx.play({ type: 'yell', text }).catch(async (err: unknown) => {
      throw await explainLateYell(ctx.deps.ctx, ctx.game.id, ctx.game.guildId, ctx.userId, err);
    });
    await ctx.interaction.reply({ content: yellHeard(ctx.userId, ctx.game.id), allowedMentions: { parse: [] } });
  },
};

const sw: Route = {
  async handle(ctx) {
    requirePhase(ctx, 'swaps');
    await show(ctx, swapPanel(ctx.view, ctx.userId, ctx.game.id, null));
  },
};

const swin: Route = {
  async handle(ctx) {
    requirePhase(ctx, 'swaps');
    const incoming = ctx.values[0] ?? null;
    if (!incoming || !mine(ctx).sideboard.some((s) => s.id === incoming)) throw new UserError('krellstones/not-on-sideboard', 'That stone is not on your sideboard.');
    await show(ctx, swapPanel(ctx.view, ctx.userId, ctx.game.id, incoming));
  },
};

const swout: Route = {
  async handle(ctx, args) {
    requirePhase(ctx, 'swaps');
    const incoming = args[0] as string;
    const outgoing = ctx.values[0];
    if (!outgoing) throw new UserError('krellstones/not-active', 'Choose the stone to take out.');
    const result = await ctx.play({ type: 'swap', in: incoming, out: outgoing });
    const view = result.after.view(ctx.userId) as KrellstonesView;
    const panel = swapPanel(view, ctx.userId, ctx.game.id, null);
    await updateOwned(ctx.interaction, ownsMessage(ctx.interaction, ctx.game), { ...panel, content: `✅ Swapped #${incoming} in for #${outgoing}.\n${panel.content ?? ''}`.slice(0, 2000), allowedMentions: { parse: [] } });
  },
};

export const routes: Record<string, Route> = { rr, sel, ready, yell, sw, swin, swout };
