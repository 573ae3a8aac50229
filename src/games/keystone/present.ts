import {
  ButtonStyle,
  ComponentType,
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIEmbed,
  type APIEmbedField,
  type APISelectMenuOption,
} from 'discord.js';
import { boardLinkButton as linkButton, changedNotice, deadlineLine, forfeitButton, linkRow } from '../../bot/chrome.ts';
import { COLOURS as EMBED_COLOURS, mention, plain, ts } from '../../bot/format.ts';
import type { BoardMeta, GamePresenter, MessagePayload, NotificationMeta } from '../../bot/game-module.ts';
import type { PlayerId } from '../../kernel/types.ts';
import type { Notification } from '../../services/notifications.ts';
import {
  autoPlacements,
  card as cardData,
  COLOURS,
  GAMES,
  LINE_COST,
  lineKeystones,
  TRICKS,
  targetsFor,
  viewLinesOf,
  type CardId,
  type Colour,
  type KeystoneView,
  type LineScore,
  type Placement,
  type Target,
  type ViewCard,
  type ViewLine,
} from './engine/index.ts';
import { encodePlan, ids, type PlanItem } from './ids.ts';

/**
 * How Keystone looks in Discord. Pure functions of engine views:
 * - the board (public, edited in place) only ever gets the spectator view: the trick in play, the
 *   last trick, everyone's lines, hand sizes and scores, never a card of a hand;
 * - a player's own hand appears only where only they see it: the **My hand** panel (ephemeral)
 *   and their turn DM. When a DM cannot be delivered and is posted in the game's channel instead
 *   (`meta.public`), it is rendered without the hand;
 * - the placement panel (ephemeral, or in the placer's DM) shows public things only: the won
 *   cards, the placer's lines, and what they would look like.
 */

export const COLOUR_EMOJI: Record<Colour, string> = { red: '🟥', blue: '🟦', green: '🟩', yellow: '🟨', purple: '🟪' };
export const GOD_EMOJI = '✨';
const COLOUR_NAME: Record<Colour, string> = { red: 'red', blue: 'blue', green: 'green', yellow: 'yellow', purple: 'purple' };
const DIRECTION = { up: '↑', down: '↓', open: '↕' } as const;

type Names = Record<string, string>;
type Row = APIActionRowComponent<APIComponentInMessageActionRow>;

const nameOf = (names: Names, id: string) => (/^autopilot-\d+$/.test(id) ? mention(id) : plain(names[id] ?? 'player'));
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const row = (components: APIComponentInMessageActionRow[]): Row => ({ type: ComponentType.ActionRow, components });
const button = (custom_id: string, label: string, style: ButtonStyle, extra: Partial<APIButtonComponent> = {}): APIButtonComponent =>
  ({ type: ComponentType.Button, style, custom_id, label, ...extra }) as APIButtonComponent;

/** What a card face shows (a view's card, or the card data). */
type Face = { god: true } | { god: false; colour: Colour; number: number };

/** A card as text: `🟥7`, or `✨=` for a God card. */
export function cardText(c: Face): string {
  return c.god ? `${GOD_EMOJI}=` : `${COLOUR_EMOJI[c.colour]}${c.number}`;
}

export const cardTextOf = (id: CardId) => cardText(cardData(id));

/** A card in words, for menus: "Red 7", "God card". */
export function cardName(c: Face): string {
  return c.god ? 'God card' : `${COLOUR_NAME[c.colour].replace(/^./, (x) => x.toUpperCase())} ${c.number}`;
}

/** A hand grouped by colour, in the view's order (colour, then number; God cards last): `🟥 2 5 · 🟦 1 · ✨ ×2`. */
export function handText(hand: readonly ViewCard[]): string {
  if (hand.length === 0) return '_no cards left_';
  const groups: string[] = [];
  for (const colour of COLOURS) {
    const numbers = hand.filter((c) => !c.god && c.colour === colour).map((c) => c.number);
    if (numbers.length) groups.push(`${COLOUR_EMOJI[colour]} ${numbers.join(' ')}`);
  }
  const gods = hand.filter((c) => c.god).length;
  if (gods) groups.push(`${GOD_EMOJI}=${gods > 1 ? ` ×${gods}` : ''}`);
  return groups.join(' · ');
}

/** What `✨=` is, said where a hand first shows one (My hand, the turn DM). */
export const GOD_NOTE = `${GOD_EMOJI}= is a God card: it may always be played, the first one played in a trick wins it, and on a line it counts as the card below it (else the one above, else 0).`;
const godNote = (view: KeystoneView) => ((view.hand ?? []).some((c) => c.god) || view.current.cards.some((c) => c.card.god) ? [GOD_NOTE] : []);

const ledText = (led: Colour | null) => (led ? `${COLOUR_EMOJI[led]} ${COLOUR_NAME[led]}` : null);

/**
 * One line, bottom to top: index (1-based), direction, each card with the keystone sum from the
 * bottom up to it in brackets; a God card shows what it counts as (`✨=6`). `compact` leaves the
 * running sums out but the line's total.
 */
export function lineText(line: Pick<ViewLine, 'index' | 'cards' | 'direction' | 'keystones' | 'sun'>, compact = false, sunMark = true): string {
  const dir = DIRECTION[line.direction ?? 'open'];
  const cards = line.cards.map((c) => {
    const face = c.card.god ? `${GOD_EMOJI}=${c.number}` : cardText(c.card);
    return compact ? face : `${face}[${c.runningKeystones}]`;
  });
  return `\`${line.index + 1}\` ${dir} ${cards.join(' ')}${compact ? ` Σ${line.keystones}` : ''}${line.sun && sunMark ? ' ☀️' : ''}`;
}

/** What a line adds at the end of a game: a Sun scores no keystones; every line costs 3. */
function scoreTail(line: Pick<ViewLine, 'keystones' | 'sun' | 'score'>): string {
  return line.sun ? ` → ☀️ Sun: keystones not scored, -${LINE_COST} = **${signed(line.score)}**` : ` → ${signed(line.keystones)} - ${LINE_COST} = **${signed(line.score)}**`;
}

/** A finished game's lines in short: `☀️ 7 cards (ks 8) · 2 cards ks +4 … ; 3 lines × -3 → +1`. */
function finishedText(lines: readonly LineScore[], score: number): string {
  if (lines.length === 0) return 'no lines (won no trick) → **0**';
  const parts = lines.map((l) => (l.sun ? `☀️ ${plural(l.length, 'card')} (ks ${l.keystones}, not scored)` : `${plural(l.length, 'card')}: ks ${signed(l.keystones)}`));
  return `${parts.join(' · ')}; ${plural(lines.length, 'line')} × -${LINE_COST} → **${signed(score)}**`;
}

/** Splits `text` into pieces of at most `max` characters at line breaks (a very long line is cut). */
function chunks(text: string, max = 1024): string[] {
  const out: string[] = [];
  let cur = '';
  for (const l of text.split('\n')) {
    const piece = l.length > max ? `${l.slice(0, max - 1)}…` : l;
    if (cur && cur.length + 1 + piece.length > max) {
      out.push(cur);
      cur = piece;
    } else cur = cur ? `${cur}\n${piece}` : piece;
  }
  if (cur) out.push(cur);
  return out.length ? out : ['\u200b'];
}

/** Fields of one titled text, continued in further fields when longer than a field holds. */
function fieldsOf(name: string, value: string, inline = false): APIEmbedField[] {
  return chunks(value).map((v, i) => ({ name: (i === 0 ? name : `${name} (continued)`).slice(0, 256), value: v, inline }));
}

const playedText = (cards: KeystoneView['current']['cards']) => cards.map((c) => `${mention(c.player)} ${cardText(c.card)}`).join(' · ');

function trickLines(view: KeystoneView): string[] {
  const out: string[] = [];
  const cur = view.current;
  if (view.phase === 'play') {
    const led = ledText(cur.ledColour);
    const godLed = cur.cards[0]?.card.god === true;
    const how = godLed ? ' · a God card led: anything may be played' : led ? ` · led colour ${led}` : '';
    out.push(`**Trick ${view.trick}:** ${cur.cards.length ? playedText(cur.cards) : 'nothing played yet'}${how}`);
    const turn = view.turn!;
    if (cur.cards.length === 0) out.push(`**Turn:** ${mention(turn)} leads: any card.`);
    else if (led) out.push(`**Turn:** ${mention(turn)} plays: must follow ${led} if able; a God card ${GOD_EMOJI} may always be played.`);
    else out.push(`**Turn:** ${mention(turn)} plays: any card.`);
  } else if (view.phase === 'place' && view.waiting && view.lastTrick) {
    out.push(`**Trick ${view.trick}:** ${playedText(view.lastTrick.cards)} → won by ${mention(view.lastTrick.winner)}`);
    const waiting = view.waiting.cards.map((c) => cardText(c.card)).join(' ');
    out.push(`**Turn:** ${mention(view.waiting.player)} places the won cards ${waiting}: each on top of one of their lines where it fits, or as a new line.`);
  }
  return out;
}

function orderLine(view: KeystoneView): string {
  if (view.outcome) return `**Players:** ${view.seats.map((s) => `${mention(s.player)}${s.out ? ' (🏳️ forfeited)' : ''}`).join(' · ')}`;
  return `**Order of play:** ${view.seats.map((s) => `${mention(s.player)} (${plural(s.handCount, 'card')}${s.out ? ', 🏳️ autopilot' : ''})`).join(' → ')}`;
}

function finishedFields(games: KeystoneView['finishedGames'], names: Names): APIEmbedField[] {
  return games.flatMap((g) =>
    fieldsOf(
      `Game ${g.game} of ${GAMES}: final scoring (the longest line is the Sun ☀️; every line costs ${LINE_COST})`,
      g.seats.map((s) => `**${nameOf(names, s.player)}**: ${finishedText(s.lines, s.score)}`).join('\n'),
    ),
  );
}

function seedField(meta: BoardMeta): APIEmbedField {
  return {
    name: 'Fair shuffle',
    value: meta.seed
      ? `Seed: \`${meta.seed}\`\nCommitment: \`${meta.seedCommitment}\`\nCheck both deals and every move: \`/stonehall verify game:${meta.gameId}\` (\`npm run replay -- ${meta.gameId}\` also prints the deals; see README).`
      : `Commitment (SHA-256 of the secret seed): \`${meta.seedCommitment}\`\nThe seed, and with it both deals, is revealed when the match ends.`,
    inline: false,
  };
}

/** The result of a finished match: winners, then every seat by place with both games' scores. */
function resultLines(view: KeystoneView, timedOut: readonly string[]): string[] {
  const o = view.outcome!;
  const out: string[] = [];
  const totals = view.totals;
  const winners = o.winners;
  if (o.reason === 'forfeit') out.push(`🏳️ Everyone else left the match.${winners.length ? ` 🏆 ${winners.map(mention).join(' and ')} wins.` : ''}`);
  else if (winners.length > 1) out.push(`🏆 ${winners.map(mention).join(' and ')} share the win with **${signed(totals[winners[0]!] ?? 0)}**.`);
  else if (winners.length === 1) out.push(`🏆 ${mention(winners[0]!)} wins with **${signed(totals[winners[0]!] ?? 0)}**.`);
  const places = o.places ?? {};
  const seats = view.seats.slice().sort((a, b) => (places[a.player] ?? 99) - (places[b.player] ?? 99) || a.seat - b.seat);
  for (const s of seats) {
    const games = view.gameScores.map((g, i) => `game ${i + 1}: ${signed(g[s.player] ?? 0)}`);
    if (view.gameScores.length < view.game) games.push(`game ${view.game} (unfinished): ${signed(s.gameScore)}`);
    const left = timedOut.includes(s.player) ? ' 🏳️ ran out of time: ranks last' : ' 🏳️ forfeited: ranks last';
    out.push(`${places[s.player] ?? '–'}. ${mention(s.player)} **${signed(totals[s.player] ?? 0)}** (${games.join(' · ')})${s.out ? left : ''}`);
  }
  return out;
}

function board(view: KeystoneView, meta: BoardMeta, compact = false): MessagePayload {
  const over = view.outcome !== null;
  const desc: string[] = [orderLine(view)];
  if (over) {
    desc.push(`**Match over** after ${view.gameScores.length === GAMES ? `${GAMES} games` : `game ${view.game}, trick ${view.trick}`}.`, ...resultLines(view, meta.timedOut ?? []));
  } else {
    desc.push(`**Game ${view.game} of ${GAMES} · trick ${view.trick} of ${TRICKS}**`, ...trickLines(view));
    const deadline = view.turn ? meta.deadlines[view.turn] : null;
    if (deadline) desc.push(deadlineLine(deadline, `, then the autopilot plays ${mention(view.turn!)}’s seat for the rest of the match.`));
    if (view.phase === 'play' && view.lastTrick) desc.push(`**Last trick (${view.lastTrick.trick}):** ${playedText(view.lastTrick.cards)} → won by ${mention(view.lastTrick.winner)}`);
    if (view.gameScores.length) {
      desc.push(`**After game 1:** ${view.seats.map((s) => `${mention(s.player)} ${signed(view.gameScores[0]![s.player] ?? 0)}`).join(' · ')}`);
    }
    desc.push(`Your hand: **My hand** below (only you see it). Lines run bottom to top: ↑ ascending, ↓ descending, ↕ not yet decided; [n] is the keystone sum so far, ☀️ the longest line; ${GOD_EMOJI} is a God card (on a line ${GOD_EMOJI}=6: it counts as a 6).`);
  }
  const scoredNow = over && view.gameScores.length === view.game;
  const fields: APIEmbedField[] = [];
  for (const s of view.seats) {
    // From game 2 on, the total of both games too.
    const name = `${nameOf(meta.names, s.player)}${s.out ? ' 🏳️' : ''} · ${over ? '' : `${plural(s.handCount, 'card')} in hand · `}game ${view.game}: ${signed(s.gameScore)}${view.gameScores.length ? ` · total ${signed(s.total)}` : ''}`;
    const value = s.lines.length ? s.lines.map((l) => `${lineText(l, compact, !scoredNow)}${scoredNow ? scoreTail(l) : ''}`).join('\n') : '_no lines yet_';
    fields.push(...fieldsOf(name, value));
  }
  // In game 2 (and at the end) game 1's scoring stays in view; a game just scored is in the seats' fields.
  fields.push(...finishedFields(view.finishedGames.filter((g) => !(scoredNow && g.game === view.game)), meta.names));
  fields.push(seedField(meta));
  const embed: APIEmbed = {
    title: `Keystone #${meta.gameId}${meta.practice ? ' (practice)' : ''}`,
    description: desc.join('\n').slice(0, 4096),
    color: over ? (view.outcome!.reason === 'forfeit' ? EMBED_COLOURS.forfeit : EMBED_COLOURS.won) : EMBED_COLOURS.active,
    fields: fields.slice(0, 25),
    footer: { text: over ? 'Match over' : `Keystone · ${view.seats.length} players · game ${view.game}/${GAMES} · trick ${view.trick}/${TRICKS}` },
  };
  if (!compact && embedSize(embed) > 5800) return board(view, meta, true);
  const components: Row[] = [];
  if (!over) {
    const g = meta.gameId;
    const buttons: APIButtonComponent[] = [button(ids.make('hand', g, meta.version), 'My hand', ButtonStyle.Primary, { emoji: { name: '🃏' } })];
    if (view.phase === 'place') buttons.push(button(ids.make('place', g, meta.version), 'Place won cards…', ButtonStyle.Success, { emoji: { name: '📥' } }));
    buttons.push(forfeitButton({ gameId: g, version: meta.version }));
    components.push(row(buttons));
  }
  return { content: '', embeds: [embed], components, allowed_mentions: { parse: [] } };
}

/** The characters Discord counts toward an embed's 6,000. */
export function embedSize(e: APIEmbed): number {
  return (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0) + (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
}

// ---------------------------------------------------------------------------------------------
// Panels: My hand, and placing won cards (shown only to the player, or in their DM).

/** The menu of the cards the viewer may play now (exactly `view.playable`). */
function playMenu(view: KeystoneView, gameId: number, version: number): Row | null {
  if (!view.hand || view.playable.length === 0) return null;
  const options: APISelectMenuOption[] = view.hand
    .filter((c) => view.playable.includes(c.id))
    .map((c) => ({
      label: cardName(c),
      value: c.id,
      emoji: { name: c.god ? GOD_EMOJI : COLOUR_EMOJI[c.colour] },
      description: c.god ? 'Wins the trick if it is the first God card in it' : `Keystone ${c.keystone}`,
    }));
  return row([{ type: ComponentType.StringSelect, custom_id: ids.make('card', gameId, version), placeholder: 'Play a card…', options: options.slice(0, 25) }]);
}

function followHint(view: KeystoneView): string {
  const led = ledText(view.current.ledColour);
  if (view.current.cards.length === 0) return 'You lead this trick: any card.';
  if (!led) return 'A God card led: you may play any card.';
  const follows = view.hand?.some((c) => !c.god && c.colour === view.current.ledColour);
  return follows ? `You must follow ${led}; a God card ${GOD_EMOJI} is also allowed.` : `You have no ${led}: any card.`;
}

/** **My hand**: the viewer's hand, sorted by colour and number, and on their turn what they can do. */
export function handPanel(view: KeystoneView, viewer: PlayerId, meta: { gameId: number; version: number }): MessagePayload {
  const hand = view.hand ?? [];
  const head = `🃏 **Your hand** in Keystone #${meta.gameId} (${plural(hand.length, 'card')}): ${handText(hand)}`;
  const me = view.seats.find((s) => s.player === viewer);
  const lines = [head];
  const components: Row[] = [];
  if (me?.out) lines.push('🏳️ You left this match: the autopilot plays your seat.');
  else if (view.phase === 'play' && view.turn === viewer) {
    if (view.current.cards.length) lines.push(`**Trick ${view.trick}:** ${playedText(view.current.cards)}`);
    lines.push(`Your turn. ${followHint(view)}`);
    const menu = playMenu(view, meta.gameId, meta.version);
    if (menu) components.push(menu);
  } else if (view.phase === 'place' && view.waiting?.player === viewer) {
    lines.push(`You won trick ${view.trick}: place ${view.waiting.cards.map((c) => cardText(c.card)).join(' ')}.`);
    components.push(row([button(ids.make('place', meta.gameId, meta.version), 'Place won cards…', ButtonStyle.Success, { emoji: { name: '📥' } })]));
  } else if (view.turn) lines.push(`It is ${mention(view.turn)}’s turn; you will get a DM when it is yours.`);
  lines.push(...godNote(view));
  return { content: lines.join('\n').slice(0, 2000), components, allowed_mentions: { parse: [] } };
}

/** The description of a target in a menu of the placement panel. */
function targetOption(line: ViewLine | null, c: ViewCard, target: Target): APISelectMenuOption {
  if (target === 'new' || !line) return { label: 'Start a new line', value: 'n', emoji: { name: '➕' }, description: `A line of its own with ${cardText(c)} (every line costs ${LINE_COST} at the end)` };
  const ids = [...line.cards.map((x) => x.card.id), c.id];
  const top = line.cards.at(-1)!;
  const face = top.card.god ? `${GOD_EMOJI}=${top.number}` : cardText(top.card);
  return {
    label: `On line ${target + 1} ${DIRECTION[line.direction ?? 'open']} (top ${face})`.slice(0, 100),
    value: String(target),
    description: `Line ${target + 1} becomes ${plural(ids.length, 'card')}, keystones ${line.keystones} → ${lineKeystones(ids)}`.slice(0, 100),
  };
}

function planText(pending: readonly { card: ViewCard }[], plan: readonly PlanItem[]): string {
  return plan.map((p) => `${cardText(pending[p.card]!.card)} → ${p.line === 'new' ? 'a new line' : `line ${p.line + 1}`}`).join(' · ');
}

/** Lines as text, each with its running keystones. */
const linesText = (lines: readonly ViewLine[]) => (lines.length ? lines.map((l) => lineText(l)).join('\n') : '_no lines yet_');

/**
 * The placer's lines after `placements` (made in order, as `place-all` makes them), and the legal
 * targets of each card still waiting: computed from the public lines, so a plan that ends a game
 * shows that game's lines, not the next deal's empty table.
 */
export function projectPlacements(view: KeystoneView, placements: readonly Placement[]): { lines: ViewLine[]; targets: Map<CardId, Target[]> } {
  const player = view.waiting?.player;
  const lines: CardId[][] = (view.seats.find((s) => s.player === player)?.lines ?? []).map((l) => l.cards.map((c) => c.card.id));
  for (const p of placements) {
    if (p.line === 'new') lines.push([p.card]);
    else lines[p.line]?.push(p.card);
  }
  const placed = new Set(placements.map((p) => p.card));
  const targets = new Map((view.waiting?.cards ?? []).filter((c) => !placed.has(c.card.id)).map((c) => [c.card.id, targetsFor(lines, c.card.id)] as [CardId, Target[]]));
  return { lines: viewLinesOf(lines), targets };
}

export interface PanelMeta {
  gameId: number;
  version: number;
  boardUrl?: string | null;
}

/** A plan as placements of the waiting cards (its card numbers index them, in play order). */
export const planPlacements = (view: KeystoneView, plan: readonly PlanItem[]): Placement[] =>
  plan.flatMap((p) => {
    const c = view.waiting?.cards[p.card];
    return c ? [{ card: c.card.id, line: p.line }] : [];
  });

/**
 * Placing won cards: the cards waiting, the placer's lines after the plan so far, one menu per
 * card not yet planned listing exactly its legal targets, and buttons to place what is planned,
 * see Auto-place, or start over. `view` is the placer's view now (its waiting cards fix the card
 * numbers of the plan; the routes check the plan with the service's preview before showing it).
 */
export function placementPanel(view: KeystoneView, plan: readonly PlanItem[], meta: PanelMeta, intro?: string): MessagePayload {
  const waiting = view.waiting;
  if (!waiting) return { content: 'No won cards are waiting to be placed.', components: [], allowed_mentions: { parse: [] } };
  const pending = waiting.cards;
  const planned = new Set(plan.map((p) => p.card));
  const all = plan.length === pending.length;
  const projection = projectPlacements(view, planPlacements(view, plan));
  const lines: string[] = [];
  lines.push(intro ?? `📥 **Keystone #${meta.gameId}**: place the ${plural(pending.length, 'card')} you won in trick ${view.trick}: ${pending.map((c) => cardText(c.card)).join(' ')}`);
  lines.push('Each card goes on top of one of your lines where it fits (↑ takes the same number or higher, ↓ the same or lower, ↕ anything; a God card fits everywhere), or starts a new line.');
  if (plan.length) lines.push(`**Planned:** ${planText(pending, plan)}`);
  lines.push(plan.length ? `**Your lines after ${all ? 'placing them all' : 'these'}** (nothing is placed until you confirm):` : '**Your lines now:**');
  lines.push(linesText(projection.lines));
  const rows: Row[] = [];
  let truncated = false;
  pending.forEach((c, i) => {
    if (planned.has(i)) return;
    const targets = projection.targets.get(c.card.id) ?? ['new'];
    // At most 25 options: a new line first, then the lines it fits.
    const ordered: Target[] = ['new', ...targets.filter((t) => t !== 'new')];
    if (ordered.length > 25) truncated = true;
    const options = ordered.slice(0, 25).map((t) => targetOption(t === 'new' ? null : (projection.lines[t] ?? null), c.card, t));
    rows.push(row([{ type: ComponentType.StringSelect, custom_id: ids.make('tg', meta.gameId, meta.version, encodePlan(plan), i), placeholder: `Place ${cardText(c.card)} on…`, options }]));
  });
  if (truncated) lines.push('Some cards fit more lines than a menu holds: `/keystone place card:… line:…` reaches any of them.');
  const buttons: APIButtonComponent[] = [
    button(ids.make('ok', meta.gameId, meta.version, encodePlan(plan)), plan.length === 0 ? 'Place as chosen' : all ? `Place all ${pending.length} as shown` : `Place ${plural(plan.length, 'card')} now`, ButtonStyle.Success, {
      emoji: { name: '✅' },
      disabled: plan.length === 0,
    }),
    button(ids.make('auto', meta.gameId, meta.version), 'Auto-place…', ButtonStyle.Primary, { emoji: { name: '🤖' } }),
    button(ids.make('plan', meta.gameId, meta.version, ''), 'Start over', ButtonStyle.Secondary, { emoji: { name: '↩️' }, disabled: plan.length === 0 }),
  ];
  if (meta.boardUrl) buttons.push(linkButton(meta.boardUrl));
  rows.push(row(buttons));
  return { content: lines.join('\n').slice(0, 2000), components: rows.slice(0, 5), allowed_mentions: { parse: [] } };
}

/** What Auto-place does with the waiting cards, in the order the engine places them (`auto-place`). */
export function autoPlan(view: KeystoneView): Placement[] {
  const waiting = view.waiting;
  if (!waiting) return [];
  const me = view.seats.find((s) => s.player === waiting.player)!;
  return autoPlacements(
    me.lines.map((l) => l.cards.map((c) => c.card.id)),
    waiting.cards.map((c) => c.card.id),
  );
}

/** Placements in words, in order: "🟥6 → line 1 · ✨= → a new line". */
export const placementsText = (placements: readonly Placement[]) => placements.map((p) => `${cardTextOf(p.card)} → ${p.line === 'new' ? 'a new line' : `line ${p.line + 1}`}`).join(' · ');

/** What Auto-place would do (the placements and the lines after them), with a button to apply it. */
export function autoPanel(view: KeystoneView, meta: PanelMeta): MessagePayload {
  const waiting = view.waiting;
  if (!waiting) return { content: 'No won cards are waiting to be placed.', components: [], allowed_mentions: { parse: [] } };
  const placements = autoPlan(view);
  const text = [
    `🤖 **Auto-place** in Keystone #${meta.gameId} would place: ${placementsText(placements)}`,
    'It keeps low and negative keystones on your longest line (the Sun, which scores none) and high ones on shorter lines, and starts a new line only when that pays or nothing fits.',
    '**Your lines after it** (nothing is placed until you confirm):',
    linesText(projectPlacements(view, placements).lines),
  ];
  const buttons: APIButtonComponent[] = [
    button(ids.make('autook', meta.gameId, meta.version), 'Auto-place', ButtonStyle.Success, { emoji: { name: '✅' } }),
    button(ids.make('plan', meta.gameId, meta.version, ''), 'Choose myself', ButtonStyle.Secondary, { emoji: { name: '↩️' } }),
  ];
  if (meta.boardUrl) buttons.push(linkButton(meta.boardUrl));
  return { content: text.join('\n').slice(0, 2000), components: [row(buttons)], allowed_mentions: { parse: [] } };
}

// ---------------------------------------------------------------------------------------------
// DMs: the turn (with the hand and the menu), reminders, updates, the end.

function notification(n: Notification, meta: NotificationMeta): MessagePayload {
  const title = `**Keystone #${n.gameId}**`;
  const links = linkRow(meta.boardUrl);
  if (n.type === 'turn' || n.type === 'reminder') {
    const view = n.view as KeystoneView;
    const me = view.turn;
    const deadline = `before ${ts(n.deadlineAt, 'f')} (${ts(n.deadlineAt, 'R')}); after that the autopilot plays your seat for the rest of the match and you rank last.`;
    const head = n.type === 'reminder' ? `⏰ Reminder: your turn in ${title} ends ${ts(n.deadlineAt, 'R')}.` : null;
    if (view.phase === 'place' && view.waiting && view.waiting.player === me) {
      const intro = [
        head ?? `🏆 You won trick ${view.trick} of ${title} (game ${view.game} of ${GAMES}): ${playedText(view.lastTrick?.cards ?? [])}.`,
        `Place the won cards ${view.waiting.cards.map((c) => cardText(c.card)).join(' ')} ${deadline}`,
      ].join('\n');
      return placementPanel(view, [], { gameId: n.gameId, version: meta.version, boardUrl: meta.boardUrl }, intro);
    }
    const lines = [head ?? `🃏 Your turn in ${title} (game ${view.game} of ${GAMES}, trick ${view.trick} of ${TRICKS}).`];
    if (view.current.cards.length) lines.push(`**Trick so far:** ${playedText(view.current.cards)}`);
    const components: Row[] = [];
    if (meta.public) {
      // Posted in the game's channel (the player's DMs are closed): nothing of the hand.
      lines.push(`Open **My hand** on the board to see your cards and play ${deadline}`);
    } else {
      lines.push(followHint(view));
      lines.push(`**Your hand:** ${handText(view.hand ?? [])}`, ...godNote(view));
      lines.push(`Choose your card ${meta.active ? 'below ' : ''}${deadline}`);
      const menu = meta.active ? playMenu(view, n.gameId, meta.version) : null;
      if (menu) components.push(menu);
    }
    if (meta.boardUrl) lines.push(`Board: ${meta.boardUrl}`);
    return { content: lines.join('\n').slice(0, 2000), components: [...components, ...links], allowed_mentions: { parse: [] } };
  }
  if (n.type === 'update') return changedNotice(title, meta.boardUrl);
  // Winners first, then the others, each highest first (the platform's order for results, as namedScores).
  const ranked = Object.entries(n.scores ?? {}).sort(([a, x], [b, y]) => Number(n.winners.includes(b)) - Number(n.winners.includes(a)) || y - x);
  const scores = ranked.length ? ` (${ranked.map(([p, s]) => `${mention(p)} ${signed(s)}`).join(' · ')})` : '';
  const text =
    n.winners.length === 0
      ? `🏁 ${title} is over without a winner${scores}.`
      : n.winners.length > 1
        ? `🏁 ${title} is over: ${n.winners.map(mention).join(' and ')} share the win${scores}.`
        : `🏁 ${title} is over: 🏆 ${mention(n.winners[0]!)} wins${scores}.`;
  return { content: `${text}${meta.boardUrl ? `\nBoard: ${meta.boardUrl}` : ''}`, components: links, allowed_mentions: { parse: [] } };
}

function summary(view: KeystoneView, viewer: string, meta: { gameId: number; names: Record<string, string> }): string {
  const others = view.seats.filter((s) => s.player !== viewer).map((s) => meta.names[s.player] ?? 'player');
  const whose = view.outcome
    ? 'over'
    : view.turn === viewer
      ? view.phase === 'place'
        ? 'your turn to place'
        : 'your turn to play'
      : `${view.turn ? (meta.names[view.turn] ?? 'their') : 'their'}’s turn`;
  return `#${meta.gameId} with ${others.join(', ')}: ${whose} (game ${view.game}, trick ${view.trick}), you ${signed(view.totals[viewer] ?? 0)}`;
}

export const present: GamePresenter<KeystoneView> = {
  board: (view, meta) => board(view, meta),
  notification,
  summary,
  table: {
    title: () => 'Keystone',
    seatLabels: (n) => Array.from({ length: n }, (_, i) => `Seat ${i + 1}`),
    note: () => 'Seat order is the order of play; who leads the first trick is drawn at random. Two games of 12 tricks.',
  },
};
