import { ButtonStyle, ComponentType, type APIActionRowComponent, type APIButtonComponent, type APIComponentInMessageActionRow } from 'discord.js';
import type { Notification } from '../services/notifications.ts';
import { customId } from './custom-id.ts';
import { COLOURS, outcomeText, plain, ts } from './format.ts';
import type { BoardMeta, MessagePayload, NotificationMeta } from './game-module.ts';

/**
 * Board chrome: the parts of a board and of its notifications that are the platform's, the same
 * for every game, so a game's present.ts draws only its own position. Pure (views and metas in,
 * Discord payload parts out). The platform also adds, by itself, the Forfeit button to a running
 * game's board that lacks one and the Nudge button (src/bot/board.ts).
 */

export type Row = APIActionRowComponent<APIComponentInMessageActionRow>;

/** The link button to a game's board message ("Open the board"; Krellstones' DMs say "Board"). */
export const boardLinkButton = (url: string, label = 'Open the board'): APIButtonComponent => ({ type: ComponentType.Button, style: ButtonStyle.Link, url, label });

/** The "Open the board" row of a DM, or nothing while the board has no message yet. */
export function linkRow(url: string | null | undefined, label?: string): APIActionRowComponent<APIButtonComponent>[] {
  return url ? [{ type: ComponentType.ActionRow, components: [boardLinkButton(url, label)] }] : [];
}

/** The platform's Forfeit button (`g:resign`, which asks the clicker to confirm). */
export const forfeitButton = (meta: { gameId: number; version: number }): APIButtonComponent => ({
  type: ComponentType.Button,
  style: ButtonStyle.Secondary,
  custom_id: customId('g:resign', meta.gameId, meta.version),
  label: 'Forfeit…',
});

/** "**Deadline:** <date> (<in 3 hours>)" and what happens then (`then`: "; a player who has not moved by then loses the game."). */
export const deadlineLine = (deadline: Date | string, then = '; a player who has not moved by then loses the game.'): string =>
  `**Deadline:** ${ts(deadline, 'f')} (${ts(deadline, 'R')})${then}`;

/**
 * How a game ended, then its score with names (src/bot/format.ts's outcomeText): forfeited, turn
 * ran out (the forfeiter is among `timedOut`), or wins, and a draw.
 */
export function resultText(o: { winners: readonly string[]; forfeited?: string | undefined }, scores: Record<string, number> | undefined, timedOut: readonly string[] = []): string {
  return outcomeText(o, { scores, timedOut });
}

/** The embed colour of a board: running, a draw, a forfeit, a win. */
export function boardColour(outcome: { winners: readonly string[]; reason: string } | null): number {
  if (!outcome) return COLOURS.active;
  return outcome.winners.length === 0 ? COLOURS.draw : outcome.reason === 'forfeit' ? COLOURS.forfeit : COLOURS.won;
}

/**
 * The fair-dice field: the seed's commitment while the game runs, the seed itself once it is over
 * and how to check it. `check` names what the seed decided ("Check every roll").
 */
export function fairDiceField(meta: Pick<BoardMeta, 'gameId' | 'seed' | 'seedCommitment'>, check = 'Check every roll'): { name: string; value: string; inline: boolean } {
  return {
    name: 'Fair dice',
    value: meta.seed
      ? `Seed: \`${meta.seed}\`\nCommitment: \`${meta.seedCommitment}\`\n${check}: \`/stonehall verify game:${meta.gameId}\`.`
      : `Commitment (SHA-256 of the secret seed): \`${meta.seedCommitment}\`\nThe seed is revealed when the game ends.`,
    inline: false,
  };
}

/**
 * The DM of a change that concerns a player but needs nothing of them: "**Keystone #5** changed:
 * see the board." with the board link (`withUrl`: the link also as a line of text).
 */
export function changedNotice(title: string, boardUrl: string | null, opts: { label?: string; withUrl?: boolean } = {}): MessagePayload {
  const line = opts.withUrl && boardUrl ? `\nBoard: ${boardUrl}` : '';
  return { content: `${title} changed: see the board.${line}`, components: linkRow(boardUrl, opts.label), allowed_mentions: { parse: [] } };
}

/** What a game says in its turn DM and reminder; the platform words the rest. */
export interface TurnWords<View> {
  /** The opening's emoji of a turn DM ("🎲"). */
  emoji?: string;
  /** The opponent in "Your turn in … against Bob" (default: the other of `view.players`). */
  opponent?(view: View): string | undefined;
  /** The turn as it is now ("you rolled ⚃ **4**."), and what to do ("Place it"). */
  turn(view: View): { what: string; todo: string };
  /** The move buttons of the DM (offered only while the DM is live: `NotificationMeta.active`). */
  buttons?(view: View, meta: { gameId: number; version: number; cycle?: boolean | undefined }): Row[];
}

/**
 * A two-player game's DMs, worded by the game: the turn DM and its reminder ("🎲 Your turn in
 * **Nim #3** against Bob: <what>\n<todo> before <deadline>, or you lose the game." with the move
 * buttons and the board link), "changed: see the board", and "is over" with the result.
 */
export function turnNotifications<View>(name: string, words: TurnWords<View>): (n: Notification, meta: NotificationMeta) => MessagePayload {
  return (n, meta) => {
    const title = `**${name} #${n.gameId}**`;
    const link = linkRow(meta.boardUrl);
    const boardLine = meta.boardUrl ? `\nBoard: ${meta.boardUrl}` : '';
    if (n.type === 'turn' || n.type === 'reminder') {
      const view = n.view as View;
      const fallback = () => {
        const v = view as { players?: string[]; turn?: string | null };
        return v.players?.find((p) => p !== v.turn);
      };
      const opp = (words.opponent ?? fallback)(view) ?? '';
      const opening =
        n.type === 'turn'
          ? `${words.emoji ?? '🎲'} Your turn in ${title} against ${plain(meta.names[opp] ?? 'your opponent')}`
          : `⏰ Reminder: your turn in ${title} ends ${ts(n.deadlineAt, 'R')}`;
      const { what, todo } = words.turn(view);
      const content = `${opening}: ${what}\n${todo} before ${ts(n.deadlineAt, 'f')} (${ts(n.deadlineAt, 'R')}), or you lose the game.${boardLine}`;
      const rows = meta.active && words.buttons ? words.buttons(view, { gameId: n.gameId, version: meta.version, cycle: meta.cycle }) : [];
      return { content, components: [...rows, ...link], allowed_mentions: { parse: [] } };
    }
    if (n.type === 'update') return changedNotice(title, meta.boardUrl);
    const text = `${title} is over. ${resultText(n, n.scores ?? {}, n.timedOut ?? [])}`;
    return { content: `${text}${boardLine}`, components: link, allowed_mentions: { parse: [] } };
  };
}

/** Whether a payload already carries the platform's Forfeit button. */
export const hasForfeit = (payload: MessagePayload): boolean =>
  (payload.components ?? []).some((r) => r.components.some((c) => 'custom_id' in c && typeof c.custom_id === 'string' && c.custom_id.startsWith('g:resign:')));

/**
 * Adds the Forfeit button to a running game's board that lacks one: on a row of its own while the
 * board has room for rows, else at the end of the last row of buttons with room.
 */
export function withForfeit(payload: MessagePayload, meta: { gameId: number; version: number }): MessagePayload {
  if (hasForfeit(payload)) return payload;
  const rows = payload.components ?? [];
  const button = forfeitButton(meta);
  if (rows.length < 5) return { ...payload, components: [...rows, { type: ComponentType.ActionRow, components: [button] }] };
  const last = rows.at(-1);
  if (last && last.components.length < 5 && last.components.every((c) => c.type === ComponentType.Button)) {
    return { ...payload, components: [...rows.slice(0, -1), { ...last, components: [...last.components, button] }] };
  }
  return payload;
}
