import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIEmbedField,
} from 'discord.js';
import { deadlineLine, forfeitButton, linkRow } from '../../bot/chrome.ts';
import { COLOURS, mention, outcomeText, plain, ts } from '../../bot/format.ts';
import type { BoardMeta, GamePresenter, MessagePayload, NotificationMeta } from '../../bot/game-module.ts';
import type { PlayerId } from '../../kernel/types.ts';
import type { Notification } from '../../services/notifications.ts';
import { SYMBOLS, SYMBOL_NAMES, type TellstonesSymbol, type TellstonesView, type ViewLine, type ViewLogEntry } from './engine/index.ts';
import { ids } from './ids.ts';

/**
 * How Tellstones looks in Discord. Every function here is pure and takes an engine view:
 * - the board (public, edited in place) only ever gets the spectator view, `view(state, null)`;
 * - DMs (turn, reminder, update, game over) get the recipient's view but never print a symbol
 *   of a face-down stone, not even one the recipient knows: a DM to a player whose DMs are
 *   closed is posted in the game's channel instead (src/bot/deliver.ts), so DMs must be fit
 *   for everyone's eyes;
 * - what a player knows is shown only ephemerally: the peek result and "What do I know?"
 *   (`knowPayload`, from `view(state, clicker).known`, re-read from the database each time).
 * Positions are shown 1-based from the left end (the engine counts from 0).
 */

export const SYMBOL_EMOJI: Record<TellstonesSymbol, string> = {
  crown: '👑',
  shield: '🛡️',
  sword: '🗡️',
  flag: '🚩',
  knight: '🐴',
  hammer: '🔨',
  scales: '⚖️',
};
export const SYMBOL_NAME = SYMBOL_NAMES;
/** The back of a face-down stone. */
export const BACK = '⬛';
export const symbolText = (s: TellstonesSymbol) => `${SYMBOL_EMOJI[s]} ${SYMBOL_NAME[s]}`;

const VARIANT_NAME = { standard: 'Tellstones', 'kings-circle': 'Tellstones: King’s Circle', 'fearless-vanguard': 'Tellstones: Fearless Vanguard' } as const;

type Names = Record<string, string>;
const nameOf = (names: Names, id: string) => plain(names[id] ?? 'player');

/** "Position 3", or "Line 2, position 3" in Fearless Vanguard. */
export function where(view: Pick<TellstonesView, 'lines'>, line: number, position: number): string {
  return view.lines.length > 1 ? `line ${line + 1}, position ${position + 1}` : `position ${position + 1}`;
}

/** "positions 1 and 4", or "positions 1 and 4 of line 2" in Fearless Vanguard. */
export function positionPair(view: Pick<TellstonesView, 'lines'>, line: number, a: number, b: number): string {
  return `positions ${a + 1} and ${b + 1}${view.lines.length > 1 ? ` of line ${line + 1}` : ''}`;
}

/** The title of a line's field: "Line", or "Line 1 (Alice's set)". */
function lineTitle(view: TellstonesView, l: ViewLine, names: Names): string {
  return view.lines.length > 1 ? `Line ${l.line + 1}${l.owner ? ` (${nameOf(names, l.owner)}’s set)` : ''}` : 'The line';
}

/** One stone per row: "`3` ⬛ face down" or "`3` 👑 Crown". */
export function stoneRow(position: number, symbol: TellstonesSymbol | null): string {
  return `\`${position + 1}\` ${symbol === null ? `${BACK} face down` : symbolText(symbol)}`;
}

function lineField(view: TellstonesView, l: ViewLine, names: Names): APIEmbedField {
  // Listed top to bottom, so the ends are named (moves speak of the left and right end).
  const last = l.stones.length - 1;
  const end = (i: number) => (last < 1 ? '' : i === 0 ? ' ← left end' : i === last ? ' ← right end' : '');
  const stones = l.stones.map((s, i) => `${stoneRow(s.position, s.faceUp ? s.symbol : null)}${end(i)}`);
  const pool = l.pool.length ? l.pool.map(symbolText).join(' · ') : 'empty';
  return { name: lineTitle(view, l, names), value: `${stones.join('\n')}\n**Pool:** ${pool}`, inline: view.lines.length > 1 };
}

/** Who a side is: a player, or a team of two. */
function sideText(view: TellstonesView, side: 0 | 1): string {
  const s = view.sides[side]!;
  return s.players.length > 1 ? `Team ${s.team} (${s.players.map(mention).join(' & ')})` : mention(s.players[0] ?? '');
}

function pointsText(view: TellstonesView, names: Names): string {
  return view.sides
    .map((s) => `${s.players.length > 1 ? `Team ${s.team} (${s.players.map((p) => nameOf(names, p)).join(' & ')})` : nameOf(names, s.players[0] ?? '')}: **${s.points}**`)
    .join(' · ');
}

const sym = (s: TellstonesSymbol | null) => (s === null ? 'a stone' : `the ${symbolText(s)}`);

/** One public log line (symbols that are face down now come as null from the view: "a stone"). */
export function logLine(view: Pick<TellstonesView, 'lines' | 'sides'>, e: ViewLogEntry): string {
  // In King's Circle a point goes to the scorer's team.
  const scores = (p: PlayerId) => (view.sides.some((s) => s.players.length > 1) ? `${mention(p)}’s team scores` : `${mention(p)} scores`);
  switch (e.kind) {
    case 'start':
      return `The game began with ${sym(e.symbol)} face up${view.lines.length > 1 ? ` on line ${e.line + 1}` : ''}.`;
    case 'place':
      return `${mention(e.actor)} placed ${sym(e.symbol)} at the ${e.end} end${view.lines.length > 1 ? ` of line ${e.line + 1}` : ''}.`;
    case 'hide':
      return `${mention(e.actor)} hid the stone at ${where(view, e.line, e.position)}.`;
    case 'swap':
      return `${mention(e.actor)} swapped the stones at ${positionPair(view, e.line, e.a, e.b)}.`;
    case 'peek': {
      const at = e.positions.map((p) => p + 1).join(', ');
      const lineText = view.lines.length > 1 ? ` of line ${e.line + 1}` : '';
      return e.viewer === e.actor
        ? `${mention(e.actor)} peeked at position${e.positions.length > 1 ? 's' : ''} ${at}${lineText}.`
        : `${mention(e.actor)} handed a peek at position${e.positions.length > 1 ? 's' : ''} ${at}${lineText} to ${mention(e.viewer)}.`;
    }
    case 'challenge':
      return `${mention(e.actor)} challenged ${mention(e.answerer)} to name the stone at ${where(view, e.line, e.position)}.`;
    case 'answer-challenge':
      return `${mention(e.actor)} named ${sym(e.named)}: it was ${sym(e.symbol)}. ${e.correct ? 'Right!' : 'Wrong!'} ${scores(e.scorer)}.`;
    case 'boast':
      return `${mention(e.actor)} boasted to know every face-down stone; ${mention(e.answerer)} answers.`;
    case 'answer-boast':
      return e.answer === 'believe'
        ? `${mention(e.actor)} believed the boast: ${e.scorer ? scores(e.scorer) : 'the boaster scores'}.`
        : e.answer === 'doubt'
          ? `${mention(e.actor)} doubted the boast: every face-down stone must now be named.`
          : `${mention(e.actor)} counter-boasted.`;
    case 'prove':
      return `${mention(e.actor)} named ${where(view, e.line, e.position)} as ${sym(e.named)}: it was ${sym(e.symbol)}. ${e.correct ? 'Right!' : 'Wrong!'}`;
    case 'forfeit':
      return `${mention(e.actor)} forfeited.`;
  }
}

/** How the game ended (a boast, a forfeit, points), then the score with names (src/bot/format.ts). */
function resultText(view: TellstonesView, timedOut: string[] = []): string {
  const o = view.outcome!;
  const sides = view.sides.map((s) => s.players);
  const scores = Object.fromEntries(view.sides.flatMap((s) => s.players.map((p) => [p, s.points] as const)));
  return outcomeText(o, { scores, sides, timedOut, how: howWon(o.reason) });
}

/** How a game that no forfeit ended was won, when not simply on points. */
const howWon = (reason: string) => (reason === 'boast-proven' ? ': the boast was proven' : reason === 'boast-failed' ? ': the boast failed' : '');

/** The actions open to the player to move, in words: only the legal ones (as the buttons). */
function actionList(view: TellstonesView): string {
  const legal = publicLegal(view);
  const names = [
    legal.place && 'place',
    legal.hide && 'hide',
    legal.swap && 'swap',
    legal.peek && `peek (${view.peekLimit === 3 ? 'up to 3 stones' : '1 stone'})`,
    legal.challenge && 'challenge',
    legal.boast && 'boast',
  ].filter((x): x is string => Boolean(x));
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? 'nothing');
}

/** What the game waits for, in words. */
function statusText(view: TellstonesView, meta: BoardMeta): string[] {
  const out: string[] = [];
  const p = view.pending;
  if (!view.turn) return out;
  if (!p) {
    out.push(`**Turn:** ${mention(view.turn)}: ${actionList(view)}.`);
  } else if (p.kind === 'challenge') {
    out.push(`**Challenge:** ${mention(p.challenger)} challenges ${mention(p.answerer)} to name the stone at ${where(view, p.line, p.position)}.`);
  } else if (p.kind === 'boast') {
    out.push(
      `**${p.countered ? 'Counter-boast' : 'Boast'}:** ${mention(p.boaster)} claims to know every face-down stone. ${mention(p.answerer)}: believe, doubt${p.canCounter ? ' or counter' : ''}.`,
    );
  } else {
    out.push(
      `**Proof:** ${mention(p.doubter)} doubted ${mention(p.boaster)}’s boast. ${mention(p.prover)} names the next stone (${p.named} named, ${p.remaining} to go; the first wrong name loses).`,
    );
  }
  for (const who of view.awaiting) {
    const d = meta.deadlines[who];
    if (d) out.push(deadlineLine(d, `, then ${mention(who)} forfeits and their side loses.`));
  }
  return out;
}

/** The actions legal now for the player to move, from public information only (RULINGS' table). */
export function publicLegal(view: Pick<TellstonesView, 'lines'>) {
  const anyDown = view.lines.some((l) => l.stones.some((s) => !s.faceUp));
  return {
    place: view.lines.some((l) => l.stones.length < 7),
    hide: view.lines.some((l) => l.stones.some((s) => s.faceUp)),
    swap: view.lines.some((l) => l.stones.length >= 2),
    peek: anyDown,
    challenge: anyDown,
    boast: anyDown,
  };
}

type Row = APIActionRowComponent<APIComponentInMessageActionRow>;
const row = (components: APIComponentInMessageActionRow[]): Row => ({ type: ComponentType.ActionRow, components });
const btn = (custom_id: string, label: string, style = ButtonStyle.Secondary, extra: Partial<APIButtonComponent> = {}): APIButtonComponent =>
  ({ type: ComponentType.Button, style, custom_id, label, ...extra }) as APIButtonComponent;

/** The seven symbols as buttons (4 + 3), for naming a stone. */
export function symbolRows(id: (s: TellstonesSymbol) => string): Row[] {
  const b = (s: TellstonesSymbol) => btn(id(s), SYMBOL_NAME[s], ButtonStyle.Primary, { emoji: { name: SYMBOL_EMOJI[s] } });
  return [row(SYMBOLS.slice(0, 4).map(b)), row(SYMBOLS.slice(4).map(b))];
}

/** Select options for face-down (or face-up) stones (of one line, or of all): value `line:position`. */
export function stoneOptions(view: Pick<TellstonesView, 'lines'>, faceUp: boolean, onlyLine?: number) {
  return view.lines.filter((l) => onlyLine === undefined || l.line === onlyLine).flatMap((l) =>
    l.stones
      .filter((s) => s.faceUp === faceUp)
      .map((s) => ({
        label: `${where(view, l.line, s.position).replace(/^./, (c) => c.toUpperCase())}${s.faceUp ? `: ${SYMBOL_NAME[s.symbol]}` : ''}`,
        value: `${l.line}:${s.position}`,
        emoji: { name: s.faceUp ? SYMBOL_EMOJI[s.symbol] : BACK },
      })),
  );
}

function boardComponents(view: TellstonesView, meta: BoardMeta): Row[] {
  if (view.outcome || !view.turn) return [];
  const { gameId: g, version: v } = meta;
  const know = btn(ids.make('know', g, v), 'What do I know?', ButtonStyle.Secondary, { emoji: { name: '🧠' } });
  const forfeit = forfeitButton({ gameId: g, version: v });
  const p = view.pending;
  if (!p) {
    const legal = publicLegal(view);
    const act = (a: 'place' | 'hide' | 'swap' | 'peek' | 'challenge', label: string, emoji: string) =>
      btn(ids.make('act', g, v, a), label, ButtonStyle.Primary, { emoji: { name: emoji }, disabled: !legal[a] });
    return [
      row([act('place', 'Place', '➕'), act('hide', 'Hide', '🙈'), act('swap', 'Swap', '🔀'), act('peek', 'Peek', '👀'), act('challenge', 'Challenge', '⚔️')]),
      row([btn(ids.make('boast', g, v), 'Boast', ButtonStyle.Danger, { emoji: { name: '📣' }, disabled: !legal.boast }), know, forfeit]),
    ];
  }
  if (p.kind === 'challenge') return [...symbolRows((s) => ids.make('ans', g, v, s)), row([know, forfeit])];
  if (p.kind === 'boast') {
    const answers = [btn(ids.make('boa', g, v, 'believe'), 'Believe', ButtonStyle.Success), btn(ids.make('boa', g, v, 'doubt'), 'Doubt', ButtonStyle.Danger)];
    if (p.canCounter) answers.push(btn(ids.make('boa', g, v, 'counter'), 'Counter-boast', ButtonStyle.Primary));
    return [row(answers), row([know, forfeit])];
  }
  const options = stoneOptions(view, false).slice(0, 25);
  return [
    row([{ type: ComponentType.StringSelect, custom_id: ids.make('prvp', g, v), placeholder: 'Prover: pick a face-down stone to name', options }]),
    row([know, forfeit]),
  ];
}

function board(view: TellstonesView, meta: BoardMeta): MessagePayload {
  const lines: string[] = [];
  lines.push(view.sides.map((s) => sideText(view, s.side)).join(' vs '));
  lines.push(`**Points:** ${pointsText(view, meta.names)} (3 to win)`);
  if (view.outcome) lines.push(resultText(view, meta.timedOut));
  else lines.push(...statusText(view, meta));
  const recent = view.log.slice(-4).map((e) => `• ${logLine(view, e)}`);
  if (recent.length) lines.push('', '**Recently:**', ...recent);
  const fields = view.lines.map((l) => lineField(view, l, meta.names));
  fields.push({
    name: 'Fair setup',
    value: meta.seed
      ? `Seed: \`${meta.seed}\`\nCommitment: \`${meta.seedCommitment}\``
      : `Commitment (SHA-256 of the secret seed that chose the first stone and player): \`${meta.seedCommitment}\``,
    inline: false,
  });
  const over = view.outcome !== null;
  const embed: APIEmbed = {
    title: `${VARIANT_NAME[view.variant]} #${meta.gameId}`,
    description: lines.join('\n').slice(0, 4096),
    color: over ? (view.outcome!.reason === 'forfeit' ? COLOURS.forfeit : COLOURS.won) : COLOURS.active,
    fields,
    footer: { text: over ? 'Game over' : `Turn ${view.turnNumber + 1} · positions count from the left · peeked stones: “What do I know?”` },
  };
  return { content: '', embeds: [embed], components: boardComponents(view, meta), allowed_mentions: { parse: [] } };
}

/**
 * "What do I know?": the face-down stones this player learned by a peek (their own or handed by
 * their partner) and still holds. Ephemeral only, from the clicker's own view.
 */
export function knowPayload(view: TellstonesView, gameId: number): MessagePayload {
  const title = `🧠 **${VARIANT_NAME[view.variant]} #${gameId}**`;
  if (view.known.length === 0) {
    return { content: `${title}: you know no face-down stone right now (peek to learn one; a revealed stone is public).`, components: [] };
  }
  const rows = view.known.map((k) => `• ${where(view, k.line, k.position)}: ${symbolText(k.symbol)}`);
  return { content: `${title}: what you have seen face down (positions as the line is now):\n${rows.join('\n')}`, components: [] };
}

/** What the recipient must do now, in words (no symbols). */
function yourPart(view: TellstonesView, me: PlayerId): string {
  const p = view.pending;
  if (!p) return actionList(view);
  if (p.kind === 'challenge') return `${mention(p.challenger)} challenges you: name the stone at ${where(view, p.line, p.position)}`;
  if (p.kind === 'boast') return `${mention(p.boaster)} boasts: believe, doubt${p.canCounter ? ' or counter' : ''}`;
  return p.boaster === me ? 'your boast was doubted: name the next face-down stone' : `prove your partner’s boast: name the next face-down stone`;
}

function notification(n: Notification, meta: NotificationMeta): MessagePayload {
  const variant = 'view' in n ? (n.view as TellstonesView).variant : null;
  const title = `**${variant ? VARIANT_NAME[variant] : 'Tellstones'} #${n.gameId}**`;
  const base: Pick<MessagePayload, 'components' | 'allowed_mentions'> = { components: linkRow(meta.boardUrl), allowed_mentions: { parse: [] } };
  const knownLine = (view: TellstonesView) =>
    view.known.length ? `\nYou know ${view.known.length} face-down stone${view.known.length === 1 ? '' : 's'}: click **What do I know?** on the board.` : '';
  if (n.type === 'turn' || n.type === 'reminder') {
    const view = n.view as TellstonesView;
    const me = view.awaiting[0] ?? '';
    const head = n.type === 'turn' ? `🪨 Your turn in ${title}: ${yourPart(view, me)}.` : `⏰ Reminder: your turn in ${title} ends ${ts(n.deadlineAt, 'R')}: ${yourPart(view, me)}.`;
    const content = `${head}\nAct on the board before ${ts(n.deadlineAt, 'f')} (${ts(n.deadlineAt, 'R')}), or you forfeit and your side loses.${knownLine(view)}${
      meta.boardUrl ? `\nBoard: ${meta.boardUrl}` : ''
    }`;
    return { content, ...base };
  }
  if (n.type === 'update') {
    const view = n.view as TellstonesView;
    return {
      content: `🤫 ${mention(n.actor)} handed you a peek in ${title}. Click **What do I know?** on the board to see it (only you will).${knownLine(view)}${
        meta.boardUrl ? `\nBoard: ${meta.boardUrl}` : ''
      }`,
      ...base,
    };
  }
  // Partners share their side's points: the winners are one side, the others the other.
  const scores = n.scores ?? {};
  const losers = Object.keys(scores).filter((p) => !n.winners.includes(p));
  const sides = n.winners.length ? [n.winners, losers].filter((t) => t.length > 0) : undefined;
  const text = `🏁 ${title} is over. ${outcomeText(n, { scores, sides, timedOut: n.timedOut, how: howWon(n.reason) })}`;
  return { content: `${text}${meta.boardUrl ? `\nBoard: ${meta.boardUrl}` : ''}`, ...base };
}

function summary(view: TellstonesView, viewer: string, meta: { gameId: number; names: Names }): string {
  const mine = view.seats.find((s) => s.player === viewer);
  const side = mine?.side ?? 0;
  const other = side === 0 ? 1 : 0;
  const partner = view.sides[side]!.players.filter((p) => p !== viewer);
  const opp = view.sides[other]!.players.map((p) => meta.names[p] ?? 'opponent').join(' & ');
  const whose = view.awaiting.includes(viewer) ? 'your turn' : view.awaiting[0] ? `${meta.names[view.awaiting[0]] ?? 'their'}'s turn` : 'over';
  return `#${meta.gameId}${partner.length ? ` with ${partner.map((p) => meta.names[p] ?? 'partner').join(' & ')}` : ''} vs ${opp}: ${whose}, ${view.sides[side]!.points}–${view.sides[other]!.points}`;
}

/** Seat labels at a table: King's Circle seats are A1 B1 A2 B2 (teams alternate). */
export function seatLabels(seatCount: number): string[] {
  return Array.from({ length: seatCount }, (_, i) => (seatCount === 4 ? `${i % 2 === 0 ? 'A' : 'B'}${Math.floor(i / 2) + 1}` : `Seat ${i + 1}`));
}

/** The title of a game with these options: "Tellstones: King’s Circle (first stone: Scales)". */
export function titleFor(options: unknown): string {
  const o = (options ?? {}) as { variant?: keyof typeof VARIANT_NAME; firstStone?: string };
  return `${VARIANT_NAME[o.variant ?? 'standard'] ?? 'Tellstones'}${o.firstStone === 'scales' ? ' (first stone: Scales)' : ''}`;
}

export const present: GamePresenter<TellstonesView> = {
  board,
  notification,
  summary,
  table: {
    title: titleFor,
    seatLabels,
    note: (options) =>
      (options as { variant?: string } | null)?.variant === 'kings-circle' ? 'Teams: A1 & A2 against B1 & B2; turns go A1, B1, A2, B2.' : '',
  },
};
