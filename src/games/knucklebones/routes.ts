import { ComponentType } from 'discord.js';
import { clip } from '../../bot/format.ts';
import { directRoute, type RouteDef } from '../../bot/game-module.ts';
import { UserError } from '../../services/errors.ts';
import { heldItems } from '../../services/inventory.ts';
import { DIE_INFO, DIE_ITEMS, dieItemSchema, type DieItem } from './engine/dice.ts';
import type { KnucklebonesMove, KnucklebonesView } from './engine/index.ts';

/**
 * Knucklebones' buttons and menus. Column buttons place the die; "Use a die…" opens an ephemeral
 * menu of the dice the player holds for the cycle and has not used in this game (the service checks
 * the inventory in the move's transaction, the engine the rules); a Loaded Die's two values are
 * kept by button. The platform has checked the seat, the game and the version.
 */

type Route = RouteDef<KnucklebonesView, KnucklebonesMove>;

export const dieItemId = (die: DieItem) => `${die}-die`;

/** Menu values: a die id, or `spoiler-<column>` for the Spoiler Die. */
function parsePick(value: string): { die: DieItem; column?: 1 | 2 | 3 } | null {
  const m = /^([a-z]+)(?:-([123]))?$/.exec(value);
  const die = dieItemSchema.safeParse(m?.[1]);
  if (!m || !die.success) return null;
  if ((die.data === 'spoiler') !== (m[2] !== undefined)) return null;
  return { die: die.data, ...(m[2] ? { column: Number(m[2]) as 1 | 2 | 3 } : {}) };
}

/** `where` the next buttons are: on the board, or (used from a DM) in the turn DM the outbox sends next. */
const EFFECT: Record<DieItem, (v: KnucklebonesView, where: string) => string> = {
  loaded: (v, where) => `you rolled ${v.dice?.choices?.join(' and ')}: keep one with the buttons ${where}.`,
  lucky: (v, where) => `your reroll shows **${v.roll}**. Now choose a column ${where}.`,
  steady: (_v, where) => `your die shows **3**. Now choose a column ${where}.`,
  echo: (v, where) => `your die copies **${v.roll}**. Now choose a column ${where}.`,
  spoiler: (_v, where) => `your opponent’s highest die there is gone. Now place your die ${where}.`,
  twin: (v, where) => `place your **${v.roll}** ${where}, then its twin in another column.`,
};

const place: Route = directRoute(([column]) => ({ move: { type: 'place', column: column as 1 | 2 | 3 }, note: `Placed in column ${column}.` }));

const keep: Route = {
  async handle(ctx, [choice]) {
    await ctx.move({ type: 'keep', choice: choice as 0 | 1 }, `Kept ${ctx.view.dice?.choices?.[choice as 0 | 1] ?? 'it'}.`);
  },
};

const dice: Route = {
  async handle(ctx) {
    const v = ctx.view;
    if (v.turn !== ctx.userId) throw new UserError('knucklebones/not-your-turn', 'It is not your turn: use a die when your turn comes.');
    if (v.dice?.turnDie) throw new UserError('knucklebones/one-die-per-turn', 'You already used a die item this turn: only one per turn.');
    const used = v.dice?.used[ctx.userId] ?? [];
    const held = await heldItems(ctx.deps.ctx, ctx.game, ctx.userId, DIE_ITEMS.map(dieItemId));
    const usable = DIE_ITEMS.filter((d) => held.includes(dieItemId(d)) && !used.includes(d));
    if (usable.length === 0) {
      throw new UserError('dice/none', 'You hold no die item you have not used in this game yet. See your items with `/inventory show`; moderators grant dice.');
    }
    const opponent = v.players.find((p) => p !== ctx.userId)!;
    const theirs = v.grids[opponent]!;
    const options = usable.flatMap((d) =>
      d === 'spoiler'
        ? ([1, 2, 3] as const)
            .filter((c) => theirs[c - 1]!.length > 0)
            .map((c) => ({ label: `${DIE_INFO.spoiler.name}: their column ${c}`, value: `spoiler-${c}`, description: `Removes their ${Math.max(...theirs[c - 1]!)} from column ${c}`, emoji: { name: DIE_INFO.spoiler.emoji } }))
        : [{ label: DIE_INFO[d].name, value: d, description: clip(DIE_INFO[d].description, 100), emoji: { name: DIE_INFO[d].emoji } }],
    );
    if (options.length === 0) throw new UserError('dice/none', 'Your only unused die is the Spoiler Die, and your opponent has no dice to spoil yet.');
    await ctx.reply({
      content: `🎲 You rolled **${v.roll}** in game #${ctx.game.id}. Which die item do you use this turn? (each once per game, one per turn)`,
      components: [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.StringSelect, custom_id: ctx.id('die'), placeholder: 'Choose a die', options }] }],
    });
  },
};

const die: Route = {
  async handle(ctx) {
    const pick = ctx.values[0] ? parsePick(ctx.values[0]) : null;
    if (!pick) throw new UserError('input/unknown-component', 'Pick one of the dice in the menu.');
    const result = await ctx.play({ type: 'use-die', die: pick.die, ...(pick.column ? { column: pick.column } : {}) });
    const where = ctx.interaction.inGuild() ? 'on the board' : 'in your turn message';
    const after = result.after.view(ctx.userId) as KnucklebonesView;
    const note = `${DIE_INFO[pick.die].emoji} ${DIE_INFO[pick.die].name} used: ${EFFECT[pick.die](after, where)}`;
    await ctx.answer(result, note);
  },
};

export const routes = { place, dice, die, keep };
