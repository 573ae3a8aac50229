import { ComponentType } from 'discord.js';
import { DIE_INFO, dieItemSchema, type DieItem } from '../games/knucklebones/engine/dice.ts';
import type { KnucklebonesState } from '../games/knucklebones/engine/index.ts';
import { useDie, usableDice } from '../services/dice.ts';
import { UserError } from '../services/errors.ts';
import { getGame, playMove } from '../services/games.ts';
import type { ComponentHandlers } from './components.ts';
import { answerMove } from './components.ts';
import { customId } from './custom-id.ts';
import { EPHEMERAL } from './interaction-utils.ts';

/**
 * Knucklebones dice items: "Use a die…" on the board or in the turn DM opens an ephemeral menu
 * of the dice the player holds for the cycle and has not used in this game; picking one uses it
 * (the service checks the inventory, the engine the rules). A Loaded Die's two values are kept
 * by button.
 */

/** Menu values: a die id, or `spoiler-<column>` for the Spoiler Die. */
function parsePick(value: string): { die: DieItem; column?: 1 | 2 | 3 } | null {
  const m = /^([a-z]+)(?:-([123]))?$/.exec(value);
  const die = dieItemSchema.safeParse(m?.[1]);
  if (!m || !die.success) return null;
  if ((die.data === 'spoiler') !== (m[2] !== undefined)) return null;
  return { die: die.data, ...(m[2] ? { column: Number(m[2]) as 1 | 2 | 3 } : {}) };
}

/** `where` the next buttons are: on the board, or (used from a DM) in the turn DM the outbox sends next. */
const EFFECT: Record<DieItem, (s: KnucklebonesState, where: string) => string> = {
  loaded: (s, where) => `you rolled ${s.dice?.turn?.choices?.join(' and ')}: keep one with the buttons ${where}.`,
  lucky: (s, where) => `your reroll shows **${s.roll}**. Now choose a column ${where}.`,
  steady: (_s, where) => `your die shows **3**. Now choose a column ${where}.`,
  echo: (s, where) => `your die copies **${s.roll}**. Now choose a column ${where}.`,
  spoiler: (_s, where) => `your opponent’s highest die there is gone. Now place your die ${where}.`,
  twin: (s, where) => `place your **${s.roll}** ${where}, then its twin in another column.`,
};

export const diceHandlers: ComponentHandlers<'kb:dice' | 'kb:die' | 'kb:keep'> = {
  async 'kb:dice'(interaction, [gameId, version], deps) {
    const { game, state } = await getGame(deps.ctx, gameId, interaction.guildId);
    const st = state as KnucklebonesState;
    if (!game.seats.some((s) => s.playerId === interaction.user.id)) {
      throw new UserError('game/not-participant', `You are not in game #${gameId}. Dice items are used by the player whose turn it is.`);
    }
    if (game.status !== 'active') throw new UserError('game/over', `Game #${gameId} is already over.`);
    if (st.turn !== interaction.user.id) throw new UserError('knucklebones/not-your-turn', 'It is not your turn: use a die when your turn comes.');
    if (game.version !== version) throw new UserError('game/stale', 'That button belongs to an older board. Use the current board.');
    if (st.dice?.turn) throw new UserError('knucklebones/one-die-per-turn', 'You already used a die item this turn: only one per turn.');
    const dice = await usableDice(deps.ctx, { gameId, userId: interaction.user.id, guildId: interaction.guildId });
    if (dice.length === 0) {
      throw new UserError('dice/none', 'You hold no die item you have not used in this game yet. See your items with `/inventory show`; moderators grant dice.');
    }
    const opponent = st.players.find((p) => p !== interaction.user.id)!;
    const theirs = st.grids[opponent]!;
    const options = dice.flatMap((d) =>
      d === 'spoiler'
        ? ([1, 2, 3] as const)
            .filter((c) => theirs[c - 1]!.length > 0)
            .map((c) => ({ label: `${DIE_INFO.spoiler.name}: their column ${c}`, value: `spoiler-${c}`, description: `Removes their ${Math.max(...theirs[c - 1]!)} from column ${c}`, emoji: { name: DIE_INFO.spoiler.emoji } }))
        : [{ label: DIE_INFO[d].name, value: d, description: DIE_INFO[d].description.slice(0, 100), emoji: { name: DIE_INFO[d].emoji } }],
    );
    if (options.length === 0) throw new UserError('dice/none', 'Your only unused die is the Spoiler Die, and your opponent has no dice to spoil yet.');
    await interaction.reply({
      content: `🎲 You rolled **${st.roll}** in game #${gameId}. Which die item do you use this turn? (each once per game, one per turn)`,
      flags: EPHEMERAL,
      components: [
        {
          type: ComponentType.ActionRow,
          components: [{ type: ComponentType.StringSelect, custom_id: customId('kb:die', gameId, version), placeholder: 'Choose a die', options }],
        },
      ],
    });
  },
  async 'kb:die'(interaction, [gameId, version], deps) {
    const value = interaction.isStringSelectMenu() ? interaction.values[0] : undefined;
    const pick = value ? parsePick(value) : null;
    if (!pick) throw new UserError('input/unknown-component', 'Pick one of the dice in the menu.');
    const result = await useDie(deps.ctx, {
      gameId,
      userId: interaction.user.id,
      guildId: interaction.guildId,
      die: pick.die,
      ...(pick.column ? { column: pick.column } : {}),
      expectedVersion: version,
    });
    const where = interaction.inGuild() ? 'on the board' : 'in the turn message below';
    await answerMove(interaction, deps, result, `${DIE_INFO[pick.die].emoji} ${DIE_INFO[pick.die].name} used: ${EFFECT[pick.die](result.state as KnucklebonesState, where)}`);
  },
  async 'kb:keep'(interaction, [gameId, version, choice], deps) {
    const result = await playMove(deps.ctx, {
      gameId,
      userId: interaction.user.id,
      guildId: interaction.guildId,
      move: { type: 'keep', choice },
      expectedVersion: version,
    });
    await answerMove(interaction, deps, result, `Kept ${(result.state as KnucklebonesState).roll}.`);
  },
};
