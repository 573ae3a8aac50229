import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent, type APIEmbed } from 'discord.js';
import { boardColour, deadlineLine, fairDiceField, forfeitButton, resultText, turnNotifications, type Row } from '../../bot/chrome.ts';
import { mention, plain } from '../../bot/format.ts';
import type { BoardMeta, GamePresenter, MessagePayload } from '../../bot/game-module.ts';
import { DIE_INFO } from './engine/dice.ts';
import type { KnucklebonesView } from './engine/index.ts';
import { ids } from './ids.ts';

const DIE = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];
const die = (v: number) => `${DIE[v] ?? ''} **${v}**`;

/**
 * A grid as three columns of text, top row first, with column scores underneath. Every cell is
 * four characters with its number right-aligned, so one- and two-digit scores line up under the dice.
 */
export function gridText(columns: number[][], scores: number[]): string {
  const cell = (v: number | undefined) => ` ${v === undefined ? ' ·' : String(v).padStart(2, ' ')} `;
  const rows: string[] = [];
  for (let r = 0; r < 3; r++) rows.push(columns.map((c) => cell(c[r])).join('│'));
  rows.push('────┼────┼────');
  rows.push(scores.map((s) => cell(s)).join('│'));
  return '```\n' + rows.join('\n') + '\n```';
}

function columnButtons(view: KnucklebonesView, meta: { gameId: number; version: number }): APIActionRowComponent<APIButtonComponent> | null {
  if (!view.turn || view.roll === null) return null;
  const grid = view.grids[view.turn]!;
  const choices = view.dice?.choices ?? null;
  if (choices) {
    // Loaded Die: keep one of the two values first.
    return {
      type: ComponentType.ActionRow,
      components: choices.map((v, i) => ({
        type: ComponentType.Button,
        style: ButtonStyle.Success,
        custom_id: ids.make('keep', meta.gameId, meta.version, i),
        label: `Keep ${v}`,
        emoji: { name: '🎯' },
      })),
    };
  }
  const twinFrom = view.dice?.twinFrom ?? null;
  return {
    type: ComponentType.ActionRow,
    components: [1, 2, 3].map((col) => ({
      type: ComponentType.Button,
      style: ButtonStyle.Primary,
      custom_id: ids.make('place', meta.gameId, meta.version, col),
      label: `Column ${col}`,
      emoji: { name: '🎲' },
      disabled: grid[col - 1]!.length >= 3 || col === twinFrom,
    })),
  };
}

/** "Use a die…" in a cycle game until a die item is used this turn; the board and the turn DMs show it alike. */
function dieButton(view: KnucklebonesView, meta: { gameId: number; version: number; cycle?: boolean }): APIButtonComponent[] {
  return meta.cycle && !view.dice?.turnDie
    ? [{ type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: ids.make('dice', meta.gameId, meta.version), label: 'Use a die…', emoji: { name: '🎲' } }]
    : [];
}

/** Which dice items each player has used in this game (shown once one was used, or in cycle games). */
function diceLine(view: KnucklebonesView, name: (id: string) => string): string {
  const used = view.dice?.used ?? {};
  return view.players
    .map((p) => {
      const list = (used[p] ?? []).map((d) => `${DIE_INFO[d].emoji} ${DIE_INFO[d].name}`);
      return `${name(p)}: ${list.length ? list.join(', ') : 'none'}`;
    })
    .join(' · ');
}

/** The turn line, with the die item in play this turn. */
function turnLine(view: KnucklebonesView): string {
  const turn = view.turn!;
  const d = view.dice;
  if (d?.choices) return `**Turn:** ${mention(turn)} used the ${DIE_INFO.loaded.name} and rolled ${die(d.choices[0])} and ${die(d.choices[1])}: keep one.`;
  if (d?.twinFrom) return `**Turn:** ${mention(turn)} placed a ${die(view.roll!)}; the ${DIE_INFO.twin.name} places its twin: choose another column.`;
  const used = d?.turnDie ? ` with the ${DIE_INFO[d.turnDie].name}` : '';
  return `**Turn:** ${mention(turn)} rolled ${die(view.roll!)}${used}: choose a column.`;
}

/** The result in words, the same on the board and in the DMs: the winner's score first. */
/** The running turn in words, for the turn DM (its buttons say the same). */
function turnState(view: KnucklebonesView): { what: string; todo: string } {
  const d = view.dice;
  const roll = view.roll ?? 0;
  if (d?.choices) return { what: `you used the ${DIE_INFO.loaded.name} and rolled ${die(d.choices[0])} and ${die(d.choices[1])}: keep one.`, todo: 'Keep one, then place it,' };
  if (d?.twinFrom) return { what: `you placed a ${die(roll)}; the ${DIE_INFO.twin.name} places its twin in another column.`, todo: 'Place the twin' };
  if (d?.turnDie) return { what: `with the ${DIE_INFO[d.turnDie].name} your die shows ${die(roll)}.`, todo: 'Place it' };
  return { what: `you rolled ${die(roll)}.`, todo: 'Place it' };
}

/** How the game ended, then the score with names (src/bot/chrome.ts, as the result message). */
function resultLine(view: KnucklebonesView, timedOut: string[] = []): string {
  return resultText(view.outcome!, view.scores, timedOut);
}

function board(view: KnucklebonesView, meta: BoardMeta): MessagePayload {
  const [a, b] = view.players;
  const name = (id: string) => plain(meta.names[id] ?? 'player');
  const lines = [`${mention(a)} vs ${mention(b)}`];
  if (view.turn && view.roll !== null) {
    const deadline = meta.deadlines[view.turn];
    lines.push(turnLine(view));
    if (deadline) lines.push(deadlineLine(deadline));
  } else if (view.outcome) {
    lines.push(resultLine(view, meta.timedOut));
  }
  const fields = view.players.map((p) => ({
    name: `${name(p)}: ${view.scores[p]} point${view.scores[p] === 1 ? '' : 's'}${view.turn === p ? ' 🎲' : ''}`,
    value: gridText(view.grids[p]!, view.columnScores[p]!),
    inline: true,
  }));
  if (view.dice || meta.cycle) fields.push({ name: 'Dice items used (each once per game)', value: diceLine(view, name), inline: false });
  fields.push(fairDiceField(meta));
  const over = view.outcome !== null;
  const embed: APIEmbed = {
    title: `Knucklebones #${meta.gameId}`,
    description: lines.join('\n'),
    color: boardColour(view.outcome),
    fields,
    footer: { text: over ? 'Game over' : `Turn ${view.turnNumber + 1} · columns are counted left to right` },
  };
  const row = columnButtons(view, meta);
  const components: MessagePayload['components'] = [];
  if (row) components.push(row);
  if (!over) {
    components.push({
      type: ComponentType.ActionRow,
      components: [...dieButton(view, meta), forfeitButton(meta)],
    });
  }
  return { content: '', embeds: [embed], components, allowed_mentions: { parse: [] } };
}

/** The DMs: the platform words them (src/bot/chrome.ts); the game says the turn and offers its buttons. */
const notification = turnNotifications<KnucklebonesView>('Knucklebones', {
  // What the turn is at now: the same words as the buttons below (a die item may be in play).
  turn: turnState,
  buttons(view, meta) {
    const rows: Row[] = [columnButtons(view, meta)].filter((r) => r !== null);
    const dice = dieButton(view, meta);
    if (dice.length) rows.push({ type: ComponentType.ActionRow, components: dice });
    return rows;
  },
});

function summary(view: KnucklebonesView, viewer: string, meta: { gameId: number; names: Record<string, string> }): string {
  const opp = view.players.find((p) => p !== viewer) ?? view.players[1];
  const whose = view.turn === viewer ? `your turn (die ${view.roll})` : view.turn ? `${meta.names[view.turn] ?? 'their'}'s turn` : 'over';
  return `#${meta.gameId} vs ${meta.names[opp] ?? 'opponent'}: ${whose}, ${view.scores[viewer] ?? 0}–${view.scores[opp] ?? 0}`;
}

export const present: GamePresenter<KnucklebonesView> = { board, notification, summary };
