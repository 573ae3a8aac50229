import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent } from 'discord.js';
import { changedNotice, deadlineLine, forfeitButton, linkRow } from '../../bot/chrome.ts';
import { mention, outcomeText, plain, ts } from '../../bot/format.ts';
import type { BoardMeta, GamePresenter, MessagePayload, NotificationMeta } from '../../bot/game-module.ts';
import type { Notification } from '../../services/notifications.ts';
import type { CrystalliaOptions, CrystalliaView, ScoreBreakdown } from './engine/index.ts';
import { ids } from './ids.ts';
import { pictureFor, renderPicture } from './render.ts';

/**
 * How Crystallia looks in Discord: the public board is one message whose picture (render.ts) is
 * re-drawn and replaced on every change, with a few lines of text beside it (whose turn and the
 * deadline, the scores, the last turn in one line, the fair shuffle), a "Take your turn" button
 * (the turn itself is chosen in an ephemeral panel: turn.ts) and Forfeit. Pure functions of views.
 *
 * Nothing here is secret but the face-down pyramid stones (never in a view) and, before the first
 * turn of Advanced Mode, the players' flips: DMs never print a flip, even the recipient's own (a
 * DM to closed DMs is posted in the game's channel instead); only the ephemeral flip panel does.
 */

type Names = Record<string, string>;
const nameOf = (names: Names, id: string) => plain(names[id] ?? (id.startsWith('autopilot') ? 'Autopilot' : 'player'));

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

/** "regular +18, over 9 −2, flipped +8, black −2, super +2 = 24" */
export function breakdownText(b: ScoreBreakdown): string {
  const regular = b.colours.filter((c) => !c.flipped).reduce((a, c) => a + c.points, 0);
  const flipped = b.colours.filter((c) => c.flipped);
  const penalty = b.colours.reduce((a, c) => a + c.penalty, 0);
  const colours = b.colours.map((c) => `${c.crystals} ${c.colour}${c.flipped ? ' (flipped)' : ''}`).join(', ');
  const parts = [`regular ${signed(regular)}`];
  if (penalty) parts.push(`over 9 ${signed(penalty)}`);
  if (flipped.length) parts.push(`flipped ${signed(flipped.reduce((a, c) => a + c.points, 0))}`);
  if (b.blacks) parts.push(`black ${signed(b.blackPoints)}`);
  if (b.supercrystals.length) parts.push(`super ${signed(b.supercrystalPoints)} (${b.supercrystals.join(', ')})`);
  return `${parts.join(', ')} = **${b.total}** (${colours})`;
}

/** The picture of the board at this version (drawn once per version and names). */
export function boardPicture(view: CrystalliaView, meta: { gameId: number; version: number; names: Names }): { name: string; data: Buffer; description: string } {
  const names = Object.fromEntries(view.players.map((p) => [p, meta.names[p] ?? (p.startsWith('autopilot') ? 'Autopilot' : 'player')]));
  const data = pictureFor(`board:${meta.gameId}:${meta.version}:${Object.values(names).join('|')}`, () => renderPicture(view, { names, title: `Crystallia #${meta.gameId}` }));
  return { name: `crystallia-${meta.gameId}-v${meta.version}.png`, data, description: `Crystallia #${meta.gameId}: the board, the pyramid and everyone's platforms` };
}

function scoresLine(view: CrystalliaView, names: Names): string {
  return view.seats
    .map((s) => `${nameOf(names, s.player)} ${s.score.total}${s.status === 'eliminated' ? ' (out)' : s.status === 'forfeited' ? ' (forfeited)' : ''}`)
    .join(' · ');
}

function resultLines(view: CrystalliaView, names: Names, timedOut: readonly string[] = []): string[] {
  const o = view.outcome!;
  const lines: string[] = [];
  const why = o.reason === 'thirteen' ? ' (the others went out with 13 crystals of a colour)' : '';
  lines.push(outcomeText(o, { scores: view.scores, timedOut, how: why }));
  const ranked = view.seats.slice().sort((a, b) => (o.places?.[a.player] ?? 9) - (o.places?.[b.player] ?? 9) || a.seat - b.seat);
  for (const s of ranked) {
    const place = o.places?.[s.player];
    const tag = s.status === 'forfeited' ? (timedOut.includes(s.player) ? ' · ran out of time' : ' · forfeited') : s.status === 'eliminated' ? ' · out with 13' : '';
    lines.push(`${place ? `${place}.` : '•'} ${nameOf(names, s.player)}${tag}: ${breakdownText(s.score)}`);
  }
  return lines;
}

function turnLines(view: CrystalliaView, meta: BoardMeta): string[] {
  if (view.phase === 'flip') {
    const waiting = view.flip?.waitingFor ?? [];
    const deadline = waiting.map((p) => meta.deadlines[p]).find((d) => d);
    return [
      `🔒 **Advanced Mode**: everyone chooses in secret which platforms to flip (**Choose my flips**). Waiting for ${waiting.map(mention).join(', ') || 'nobody'}.`,
      ...(deadline ? [deadlineLine(deadline, '; whoever has not chosen by then flips nothing.')] : []),
    ];
  }
  const t = view.turn!;
  const what = t.step === 'take' ? (t.mustDiscard ? 'no stone fits: one leaves the game' : `take a stone and place it${t.talismanAllowed ? ', or use a talisman' : ''}`) : 'finishing the turn';
  const lines = [`🎲 **Turn:** ${mention(t.player)}${t.second ? ' (**second turn**)' : ''}: ${what}.`];
  const deadline = meta.deadlines[t.player];
  if (deadline) lines.push(deadlineLine(deadline, view.players.length > 2 ? '; a player who has not moved by then hands their seat to the autopilot and ranks last.' : undefined));
  return lines;
}

function board(view: CrystalliaView, meta: BoardMeta): MessagePayload {
  const names = meta.names;
  const head = `**Crystallia #${meta.gameId}**${meta.practice ? ' (practice)' : ''}${view.advanced ? ' · Advanced Mode' : ''}: ${view.players.map(mention).join(', ')}`;
  const lines = [head];
  if (view.outcome) lines.push(...resultLines(view, names, meta.timedOut));
  else {
    lines.push(...turnLines(view, meta));
    lines.push(`**Scores:** ${scoresLine(view, names)}`);
  }
  if (view.lastTurn) lines.push(`**Last turn:** ${nameOf(names, view.lastTurn.player)} ${view.lastTurn.text}`);
  lines.push(
    meta.seed
      ? `🔓 Fair shuffle: seed \`${meta.seed}\` (commitment \`${meta.seedCommitment.slice(0, 16)}…\`); check the tiles, rotations, pyramid and every move with \`/stonehall verify game:${meta.gameId}\`.`
      : `🔐 Fair shuffle: tiles, rotations and pyramid come from a secret seed, committed as \`${meta.seedCommitment.slice(0, 16)}…\` (SHA-256); it is revealed when the game ends.`,
  );
  let content = lines.join('\n');
  if (content.length > 2000) content = `${content.slice(0, 1990)}…`;
  const components: APIActionRowComponent<APIButtonComponent>[] = [];
  if (!view.outcome) {
    const play: APIButtonComponent =
      view.phase === 'flip'
        ? { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: ids.make('flips', meta.gameId, meta.version), label: 'Choose my flips', emoji: { name: '🔒' } }
        : { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: ids.make('play', meta.gameId, meta.version), label: 'Take your turn', emoji: { name: '🎲' } };
    components.push({
      type: ComponentType.ActionRow,
      components: [play, forfeitButton(meta)],
    });
  }
  return { content, components, files: [boardPicture(view, meta)], allowed_mentions: { parse: [] } };
}

function notification(n: Notification, meta: NotificationMeta): MessagePayload {
  const title = `**Crystallia #${n.gameId}**`;
  const board = meta.boardUrl ? `\nBoard: ${meta.boardUrl}` : '';
  if (n.type === 'turn' || n.type === 'reminder') {
    const view = n.view as CrystalliaView;
    const deadline = `${ts(n.deadlineAt, 'f')} (${ts(n.deadlineAt, 'R')})`;
    const flip = view.phase === 'flip';
    const head =
      n.type === 'reminder'
        ? `⏰ Reminder: ${flip ? 'choose your flips' : 'your turn'} in ${title} ends ${ts(n.deadlineAt, 'R')}.`
        : flip
          ? `🔒 ${title} is in Advanced Mode: choose in secret which of your platforms to flip.`
          : `🎲 Your ${view.turn?.second ? '**second turn**' : 'turn'} in ${title}.`;
    // What the others did since this player's last turn is added by the platform (describeMove).
    const rule = flip ? `Choose before ${deadline}, or you flip nothing.` : `Play before ${deadline}, or ${view.players.length > 2 ? 'the autopilot takes your seat and you rank last' : 'you lose the game'}.`;
    const rows: APIActionRowComponent<APIButtonComponent>[] = [];
    if (meta.active) {
      rows.push({
        type: ComponentType.ActionRow,
        components: [
          flip
            ? { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: ids.make('flips', n.gameId, meta.version), label: 'Choose my flips', emoji: { name: '🔒' } }
            : { type: ComponentType.Button, style: ButtonStyle.Primary, custom_id: ids.make('play', n.gameId, meta.version), label: 'Take your turn', emoji: { name: '🎲' } },
        ],
      });
    }
    return { content: `${head}\n${rule}${board}`.slice(0, 2000), components: [...rows, ...linkRow(meta.boardUrl)], allowed_mentions: { parse: [] } };
  }
  if (n.type === 'update') return changedNotice(title, meta.boardUrl, { withUrl: true });
  const result = outcomeText(n, { scores: n.scores, timedOut: n.timedOut });
  return { content: `${title} is over. ${result} The board shows every score in detail.${board}`.slice(0, 2000), components: linkRow(meta.boardUrl), allowed_mentions: { parse: [] } };
}

function summary(view: CrystalliaView, viewer: string, meta: { gameId: number; names: Names }): string {
  const others = view.players.filter((p) => p !== viewer).map((p) => meta.names[p] ?? 'player');
  const whose =
    view.phase === 'over'
      ? 'over'
      : view.phase === 'flip'
        ? view.flip?.waitingFor.includes(viewer)
          ? 'choose your flips'
          : 'flips being chosen'
        : view.turn?.player === viewer
          ? 'your turn'
          : `${meta.names[view.turn!.player] ?? 'their'}'s turn`;
  const scores = view.players.map((p) => view.scores[p] ?? 0).join('–');
  return `#${meta.gameId} vs ${others.join(', ')}: ${whose}, ${scores}`;
}

export const present: GamePresenter<CrystalliaView> = {
  board,
  notification,
  summary,
  table: {
    title: (options) => `Crystallia${(options as Partial<CrystalliaOptions> | null)?.advanced ? ' (Advanced Mode)' : ''}`,
    seatLabels: (n) => Array.from({ length: n }, (_, i) => `Seat ${i + 1}`),
    note: () => 'The first player is drawn at random; turns then follow the seats.',
  },
};
