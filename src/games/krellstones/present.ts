import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent, type APIComponentInMessageActionRow } from 'discord.js';
import { changedNotice, linkRow } from '../../bot/chrome.ts';
import { mention, outcomeText, plain, ts } from '../../bot/format.ts';
import type { BoardMeta, GamePresenter, MessagePayload, NotificationMeta } from '../../bot/game-module.ts';
import type { Notification } from '../../services/notifications.ts';
import { LIMITS, PACE_TABLE, STONE_KINDS, YELL, type Pace } from './data.ts';
import type { KrellstonesView, ViewSeat, ViewStone } from './engine/index.ts';
import { ids } from './ids.ts';
import { optionsSchema } from './engine/index.ts';
import { seatData } from './lobby.ts';

/**
 * How Krellstones looks in Discord: the board is one text message edited in place (every roll,
 * effect, choice and round), legible on a phone: one block per player in position order with
 * their six stones and current values, what was discarded and why (the rulebook's words), the
 * running sum and rounds won; then the phase and its deadline, this round's announcements and the
 * last round's result. Buttons: **Choose rerolls**, **Ready**, **Yell** (during a Pup window) and
 * **Sideboard swap**. Nothing secret is shown: a reroll selection appears only in its owner's
 * ephemeral panel; the board says only who is ready.
 */

type Row = APIActionRowComponent<APIComponentInMessageActionRow>;
type Names = Record<string, string>;

const row = (components: APIButtonComponent[]): Row => ({ type: ComponentType.ActionRow, components });
const button = (custom_id: string, label: string, style: ButtonStyle, extra: Partial<APIButtonComponent> = {}): APIButtonComponent =>
  ({ type: ComponentType.Button, style, custom_id, label, ...extra }) as APIButtonComponent;

/** A deadline as every reader sees it: "until 8:42 PM (in 8 hours)" (a relative time after "before" reads "before in 8 seconds"). */
export const until = (d: Date | string) => `until ${ts(d, 't')} (${ts(d, 'R')})`;

/** Windows shorter than this say their length in words; a relative time ("in a few seconds") would soon read as past. */
export const SHORT_WINDOW_MS = 5 * 60_000;

/** "45 s", "3 min", "1 h". */
export function lengthText(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}

/** The clock time to the second (Discord's long time): no "in …" that turns into "… ago". */
const clock = (d: Date | string) => `<t:${Math.floor(new Date(d).getTime() / 1000)}:T>`;

/**
 * A window and its end: "45 s to choose, until 2:56:10 PM" when it is short (its length in words
 * beside the time: a relative "in a few seconds" says nothing and soon reads as past), "until
 * 8:42 PM (in 23 hours)" when it is long (or of unknown length).
 */
export function windowText(deadline: Date | string, lengthMs: number | null, what: string): string {
  if (lengthMs !== null && lengthMs < SHORT_WINDOW_MS) return `${lengthText(lengthMs)} to ${what}, until ${clock(deadline)}`;
  return until(deadline);
}

/** The length of a choice at this pace (null: the server's turn limit, long). */
export const choiceMs = (pace: Pace): number | null => {
  const c = PACE_TABLE[pace].choice;
  return c === 'turn-limit' ? null : c.ms;
};

/** How many more choices in a row may run out before the seat is forfeited (after `expiries`). */
export const runOutsLeft = (expiries: number) => LIMITS.expiriesToForfeit - expiries;

/** The rule, in words: what running out costs. */
export const RUN_OUT_RULE = `${['', 'one', 'two', 'three', 'four'][LIMITS.expiriesToForfeit]} choices in a row left to run out forfeit your seat`;

/** A warning after a run-out: "⚠️ 1 choice ran out: 2 more in a row forfeit the seat". */
export function runOutWarning(expiries: number, you: boolean): string | null {
  if (expiries <= 0) return null;
  const left = runOutsLeft(expiries);
  const ran = expiries === 1 ? `${you ? 'your last choice' : '1 choice'} ran out` : `${expiries} ${you ? 'of your ' : ''}choices ran out in a row`;
  const next = left === 1 ? `the next one that runs out forfeits ${you ? 'your' : 'the'} seat` : `${left} more in a row forfeit ${you ? 'your' : 'the'} seat`;
  return `⚠️ ${ran}: ${next}`;
}

export const nameOf = (names: Names, id: string) => plain(names[id] ?? (id.startsWith('autopilot') ? 'Autopilot' : 'player'));

/** "Krell" or "Krell “Lucky”". */
export function stoneName(st: { type: ViewStone['type']; alias: string | null; id?: string }): string {
  return `${STONE_KINDS[st.type].name}${st.alias ? ` “${plain(st.alias)}”` : ''}`;
}

/** One stone as the board shows it: its value now, struck through when out, with why. */
export function stoneText(st: ViewStone): string {
  const kind = STONE_KINDS[st.type].name;
  const v = st.value;
  const alias = st.alias ? ` “${plain(st.alias)}”` : '';
  switch (st.status) {
    case 'unrolled':
      return `${kind}${alias} ${st.ghost ? '👻' : '?'}`;
    case 'in':
      return `${kind}${alias} **${v}**${st.ghost ? ' 👻' : ''}${st.rerolled ? ' 🔁' : ''}`;
    case 'discarded':
      return `${kind}${alias} ~~${v}~~`;
    case 'buried':
      return `${kind}${alias} ⚰️~~${v}~~`;
    case 'benched':
      return `${kind}${alias} — benched`;
  }
}

const PHASE_TEXT = { rolling: 'rolling', rerolls: 'choosing rerolls', swaps: 'sideboard swaps', over: 'over' } as const;

function choiceMark(seat: ViewSeat): string {
  switch (seat.choice) {
    case 'ready':
      return ' ✅ ready';
    case 'pending':
      return ' ⏳ choosing';
    case 'expired':
      return ' ⌛ ran out';
    default:
      return '';
  }
}

/** A player's block: name, sum, rounds won, then their stones and the reasons for what is out. */
function seatBlock(view: KrellstonesView, seat: ViewSeat, names: Names, meta: { autopilot: readonly string[] }): string[] {
  const who = mention(seat.player);
  const bot = seat.out ? ' 🤖 (forfeited: the autopilot plays)' : meta.autopilot.includes(seat.player) && !seat.player.startsWith('autopilot') ? ' 🤖' : '';
  const bust = seat.wouldBust && seat.stones.some((s) => s.status !== 'unrolled' && s.status !== 'benched') ? ' 💥' : '';
  const host = view.host === seat.player ? ' 🎩' : '';
  // Before its roll a seat has no sum to speak of: "not rolled yet" and its stones' names.
  const rolled = seat.stones.some((s) => s.status !== 'unrolled' && s.status !== 'benched');
  const head = `**${seat.position + 1}.** ${who}${host}${bot} · ${rolled ? `sum **${seat.sum}**${bust}` : 'not rolled yet'} · 🏆 ${seat.roundsWon}${choiceMark(seat)}`;
  const stones = rolled ? seat.stones.map(stoneText).join(' · ') : `🎲 ${seat.stones.map((s) => (s.status === 'unrolled' ? `${stoneName(s)}${s.ghost ? ' 👻' : ''}` : stoneText(s))).join(' · ')}`;
  const out = [...new Set(seat.stones.filter((s) => s.why).map((s) => `${STONE_KINDS[s.type].name} ${s.value}: ${s.why}`))];
  const lines = [head, `> ${stones}`];
  const warn = seat.out ? null : runOutWarning(seat.expiries, false);
  if (warn) lines.push(`> ${warn}.`);
  if (out.length) lines.push(`> ✖ ${out.join(' · ')}`);
  if (seat.ghostNext) lines.push('> 👻 Their Dancer returns next round on its highest side.');
  if (view.sideboard !== null && seat.sideboard.length) lines.push(`> Sideboard: ${seat.sideboard.map((s) => `${stoneName(s)} (${s.sides.map((x) => x.value).join('/')})`).join(' · ')}`);
  void names;
  return lines;
}

/** The phase and what it waits for, with its deadline when known. */
function phaseLine(view: KrellstonesView, meta: Pick<BoardMeta, 'deadlines'> & { dueAt?: Date | null }): string {
  if (view.outcome) return '🏁 **Game over**';
  const due = (p: string) => meta.deadlines[p] ?? null;
  const firstDeadline = view.awaiting.filter((p) => !view.windows.includes(p)).map(due).find((d): d is Date => d instanceof Date) ?? null;
  const what = view.phase === 'swaps' ? 'swap' : 'choose';
  const window = firstDeadline ? windowText(firstDeadline, choiceMs(view.pace), what) : '';
  const untilText = window.startsWith('until') ? ` ${window}` : window ? `: ${window}` : '';
  if (view.phase === 'rolling') {
    const next = view.nextRoller ? `${mention(view.nextRoller)} rolls next` : 'everyone has rolled; effects resolve next';
    const gap = PACE_TABLE[view.pace].rollGapMs;
    // A roll seconds away is told by its gap and clock time: "in 2 seconds" would read "2 seconds ago" once it passed.
    const at = meta.dueAt ? (gap < SHORT_WINDOW_MS ? ` at ${clock(meta.dueAt)} (${lengthText(gap)} between rolls)` : ` ${ts(meta.dueAt, 'R')}`) : '';
    return `🎲 **Rolling**: ${next}${at}`;
  }
  if (view.phase === 'rerolls') {
    const ready = view.order.filter((p) => view.seats[p]!.choice === 'ready').length;
    const asked = view.order.filter((p) => view.seats[p]!.choice === 'pending' || view.seats[p]!.choice === 'ready').length;
    return `🔁 **Choosing rerolls** (secret; ${ready} of ${asked} ready)${untilText}`;
  }
  if (view.phase === 'swaps') return `🔄 **Sideboard swaps** before round ${view.round + 1}${untilText}`;
  return `Phase: ${PHASE_TEXT[view.phase]}`;
}

function announcementsLine(view: KrellstonesView): string | null {
  if (!view.announcements.length) return null;
  return `📣 ${view.announcements.map((a) => `**${a.text}**${a.player ? ` (${mention(a.player)})` : ''}`).join(' · ')}`;
}

/** The result of a finished round in one line. */
export function roundResult(view: Pick<KrellstonesView, 'history'>, index: number): string {
  const r = view.history[index]!;
  const sums = r.order.map((p) => `${mention(p)} ${r.sums[p]}${r.busted.includes(p) ? ' 💥' : ''}`).join(' · ');
  const who = r.winner ? `${mention(r.winner)} won${r.unchecked ? ' (everyone else busted)' : ''}` : 'nobody won (a tie or everyone busted)';
  return `Round ${r.round}${r.reversed ? ' (Pawn is Queen: lowest wins)' : ''}: ${who}. ${sums}`;
}

function buttons(view: KrellstonesView, meta: BoardMeta): Row[] {
  if (view.outcome) return [];
  const out: APIButtonComponent[] = [];
  if (view.windows.length) out.push(button(ids.make('yell', meta.gameId, meta.version), 'Yell!', ButtonStyle.Danger, { emoji: { name: '📢' } }));
  if (view.phase === 'rerolls') {
    out.push(button(ids.make('rr', meta.gameId, meta.version), 'Choose rerolls', ButtonStyle.Primary, { emoji: { name: '🎲' } }));
    out.push(button(ids.make('ready', meta.gameId, meta.version), 'Ready', ButtonStyle.Success, { emoji: { name: '✅' } }));
  }
  if (view.phase === 'swaps') {
    out.push(button(ids.make('sw', meta.gameId, meta.version), 'Sideboard swap', ButtonStyle.Primary, { emoji: { name: '🔄' } }));
    out.push(button(ids.make('ready', meta.gameId, meta.version), 'Ready', ButtonStyle.Success, { emoji: { name: '✅' } }));
  }
  return out.length ? [row(out)] : [];
}

/** When the running SYSTEM step (the next roll, the end of the rolling phase) falls due, if known. */
function systemDue(view: KrellstonesView, meta: BoardMeta): Date | null {
  if (view.phase !== 'rolling' || view.outcome) return null;
  const key = view.rolled < view.order.length ? `roll:r${view.round}:${view.rolled}` : `rolled:r${view.round}`;
  return meta.timers?.find((t) => t.key === key && t.player === undefined)?.dueAt ?? null;
}

function board(view: KrellstonesView, boardMeta: BoardMeta): MessagePayload {
  const meta = { ...boardMeta, dueAt: systemDue(view, boardMeta) };
  const names = meta.names;
  const settings = [`${view.pace}`, view.rerolls ? 'rerolls on' : 'rerolls off', view.sideboard === null ? 'no sideboard' : `sideboard ${view.sideboard}`].join(' · ');
  const roundText = view.outcome ? `${view.rounds} rounds` : `round **${view.round}** of ${view.rounds}`;
  // A game started from a table says which: the table's message became this board.
  const from = meta.tableId !== undefined ? ` (was table #${meta.tableId})` : '';
  const lines = [`🎲 **Krellstones #${meta.gameId}**${from}${meta.practice ? ' (practice)' : ''} · ${roundText} · ${settings}`];
  if (!view.outcome) {
    lines.push(phaseLine(view, meta));
    if (view.reversed) lines.push('👑 **Pawn is Queen**: the lowest sum wins this round.');
    if (view.pawnsOut) lines.push('🪑 Every Pawn is benched this round (Pawn is Queen last round).');
    for (const p of view.windows) {
      const d = meta.deadlines[p];
      lines.push(`🐶 **PUP IN THE HANGAR**: ${mention(p)}, yell \`${YELL}\` now (the Yell! button or \`/krellstones yell\`)${d ? `: ${windowText(d, PACE_TABLE[view.pace].yellWindowMs, 'yell')}, or until the rolling ends` : ''}!`);
    }
  }
  lines.push('');
  for (const p of view.order) lines.push(...seatBlock(view, view.seats[p]!, names, { autopilot: meta.autopilot ?? [] }));
  const ann = view.outcome ? null : announcementsLine(view);
  if (ann) lines.push('', ann);
  if (view.lastRound) lines.push('', `📜 ${roundResult(view, view.history.length - 1)}`);
  if (view.outcome) {
    const o = view.outcome;
    const scores = o.scores ?? {};
    lines.push('');
    lines.push(outcomeText(o, { scores, timedOut: meta.timedOut, label: 'Rounds won' }));
  }
  lines.push(meta.seed ? `-# Fair dice: seed \`${meta.seed}\` (commitment \`${meta.seedCommitment.slice(0, 16)}…\`; check with \`/stonehall verify\`).` : `-# Fair dice: seed commitment \`${meta.seedCommitment.slice(0, 16)}…\`, revealed at the end.`);
  const pinged = view.outcome ? [] : view.windows.filter((p) => !p.startsWith('autopilot'));
  return { content: clipLines(lines, 2000), components: buttons(view, meta), allowed_mentions: pinged.length ? { users: pinged } : { parse: [] } };
}

/** Joins lines, dropping whole middle lines (not the head) to stay under `max` characters. */
function clipLines(lines: string[], max: number): string {
  let text = lines.join('\n');
  if (text.length <= max) return text;
  const kept = lines.slice();
  while (kept.join('\n').length > max - 2 && kept.length > 2) kept.splice(kept.length - 2, 1);
  text = kept.join('\n');
  return text.slice(0, max);
}

// ---------------------------------------------------------------------------------------------
// DMs

function notification(n: Notification, meta: NotificationMeta): MessagePayload {
  const title = `**Krellstones #${n.gameId}**`;
  const links = linkRow(meta.boardUrl, 'Board');
  if (n.type === 'turn' || n.type === 'reminder') {
    const view = n.view as KrellstonesView;
    // The recipient's own seat (a view written before views named their viewer: the old guess).
    const me = view.viewer ?? Object.values(view.seats).find((s) => s.selection !== null || view.awaiting.includes(s.player))?.player ?? null;
    const head = n.type === 'reminder' ? `⏰ Reminder: ${title} waits for you ${until(n.deadlineAt)}.` : null;
    const gameMeta = { gameId: n.gameId, version: meta.version, names: meta.names, deadlines: {}, seedCommitment: '', seed: null } as BoardMeta;
    if (me && view.windows.includes(me)) {
      const text = [head ?? `🐶 **PUP IN THE HANGAR** in ${title}! Your Master rolled its lowest side.`, `Yell \`${YELL}\` exactly, ${windowText(n.deadlineAt, PACE_TABLE[view.pace].yellWindowMs, 'yell')} or until the rolling ends (the Yell! button, or \`/krellstones yell text:${YELL}\`): Captain on Deck turns it to its highest side.`];
      const b = meta.active && !meta.public ? [row([button(ids.make('yell', n.gameId, meta.version), 'Yell!', ButtonStyle.Danger, { emoji: { name: '📢' } })])] : [];
      return { content: text.join('\n'), components: [...b, ...links], allowed_mentions: { parse: [] }, ...(b.length ? { urgent: true as const } : {}) };
    }
    if (view.phase === 'rerolls') {
      const mine = me ? view.seats[me] : null;
      const text = [head ?? `🔁 Round ${view.round} of ${title}: choose your rerolls (secret), ${windowText(n.deadlineAt, choiceMs(view.pace), 'choose')}. If time runs out you reroll nothing; ${RUN_OUT_RULE}.`];
      const warn = mine && runOutWarning(mine.expiries, true);
      if (warn) text.push(`${warn}.`);
      if (mine) text.push(`Your stones: ${mine.stones.map(stoneText).join(' · ')} (sum ${mine.sum})`);
      const b =
        meta.active && !meta.public
          ? [row([button(ids.make('rr', n.gameId, meta.version), 'Choose rerolls', ButtonStyle.Primary, { emoji: { name: '🎲' } }), button(ids.make('ready', n.gameId, meta.version), 'Ready', ButtonStyle.Success, { emoji: { name: '✅' } })])]
          : [];
      void gameMeta;
      return { content: text.join('\n'), components: [...b, ...links], allowed_mentions: { parse: [] } };
    }
    if (view.phase === 'swaps') {
      const mine = me ? view.seats[me] : null;
      const text = [head ?? `🔄 Round ${view.round} of ${title} is over: swap stones from your sideboard, then Ready: ${windowText(n.deadlineAt, choiceMs(view.pace), 'swap')}. If time runs out you swap nothing; ${RUN_OUT_RULE}.`];
      const warn = mine && runOutWarning(mine.expiries, true);
      if (warn) text.push(`${warn}.`);
      const b =
        meta.active && !meta.public
          ? [row([button(ids.make('sw', n.gameId, meta.version), 'Sideboard swap', ButtonStyle.Primary, { emoji: { name: '🔄' } }), button(ids.make('ready', n.gameId, meta.version), 'Ready', ButtonStyle.Success, { emoji: { name: '✅' } })])]
          : [];
      return { content: text.join('\n'), components: [...b, ...links], allowed_mentions: { parse: [] } };
    }
    return { content: `${title} waits for you: see the board.`, components: links, allowed_mentions: { parse: [] } };
  }
  if (n.type === 'update') return changedNotice(title, meta.boardUrl, { label: 'Board' });
  const scores = n.scores ?? {};
  const ranked = Object.entries(scores).sort(([a, x], [b, y]) => Number(n.winners.includes(b)) - Number(n.winners.includes(a)) || y - x);
  const list = ranked.length ? ` (rounds won: ${ranked.map(([p, s]) => `${mention(p)} ${s}`).join(' · ')})` : '';
  const text =
    n.winners.length === 0
      ? `🏁 ${title} is over: a draw${list}.`
      : `🏁 ${title} is over: 🏆 ${n.winners.map(mention).join(' and ')} win${n.winners.length === 1 ? 's' : ''}${list}.`;
  return { content: `${text}${meta.boardUrl ? `\nBoard: ${meta.boardUrl}` : ''}`, components: links, allowed_mentions: { parse: [] } };
}

function summary(view: KrellstonesView, viewer: string, meta: { gameId: number; names: Names }): string {
  const others = view.players.filter((p) => p !== viewer).map((p) => nameOf(meta.names, p));
  const state = view.outcome ? 'over' : view.awaiting.includes(viewer) ? `your choice (${PHASE_TEXT[view.phase]})` : PHASE_TEXT[view.phase];
  const won = view.seats[viewer]?.roundsWon;
  return `#${meta.gameId} with ${others.join(', ')}: round ${view.round} of ${view.rounds}, ${state}${won !== undefined ? `, you won ${won}` : ''}`;
}

/** The public answer to a counted yell: everyone hears it, so it names who yelled (a modal's answer shows no "X used"). */
export const yellHeard = (player: string, gameId: number) => `📢 ${mention(player)} yells **${YELL}** CAPTAIN ON DECK: their Master turns to its highest side (game #${gameId}).`;

/** A mat's name as a noun: "Modern Krellstones mat" as it is, "Velvet" as "Velvet mat". */
export const matLabel = (name: string) => (/\bmat$/i.test(name.trim()) ? name.trim() : `${name.trim()} mat`);

/** The host's rules in one line: "5 rounds · rerolls on · sideboard 2 · SLOW". */
export function rulesText(options: unknown): string {
  const o = optionsSchema.parse(options ?? {});
  return [`${o.rounds} round${o.rounds === 1 ? '' : 's'}`, o.rerolls ? 'rerolls on' : 'rerolls off', o.sideboard === 'off' ? 'no sideboard' : `sideboard ${o.sideboard}`, `${o.pace} pace`].join(' · ');
}

export const present: GamePresenter<KrellstonesView> = {
  board: (view, meta) => board(view, meta),
  notification,
  summary,
  table: {
    title: () => 'Krellstones',
    seatLabels: (n) => Array.from({ length: n }, (_, i) => `${i + 1}.`),
    note: (options) => `Rules: ${rulesText(options)}. The host sets them with \`/krellstones rules\` before the start (the pace any time).`,
    // Public: how many stones are chosen, never which, and nothing of the sideboard (opponents see it only after the start).
    seatNote: (seat) => {
      const d = seatData(seat.data);
      return `${d.stones.length} of 6 stones chosen${seat.host && d.mat !== undefined ? ` · on ${d.matName ? `the ${plain(matLabel(d.matName))}` : 'a mat'} (#${d.mat})` : ''}`;
    },
  },
};
