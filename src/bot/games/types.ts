import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed } from 'discord.js';
import type { Notification } from '../../services/notifications.ts';

/** A message payload in Discord's JSON shape (what renderers return; snapshot-testable). */
export interface MessagePayload {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
  allowed_mentions?: { parse?: Array<'users' | 'roles' | 'everyone'>; users?: string[] };
}

export interface BoardMeta {
  gameId: number;
  version: number;
  names: Record<string, string>;
  deadlines: Record<string, Date | null>;
  seedCommitment: string;
  /** Revealed only when the game is over. */
  seed: string | null;
  /** The game belongs to a cycle: dice items may be used (Knucklebones shows "Use a die…"). */
  cycle?: boolean;
}

export interface NotificationMeta {
  names: Record<string, string>;
  /** Link to the board message, when it exists. */
  boardUrl: string | null;
  /** The current game version, for buttons in the DM. */
  version: number;
  active: boolean;
  /** The game belongs to a cycle: the turn DM offers "Use a die…" as the board does. */
  cycle?: boolean;
}

/** How the bot shows one game: pure functions from an engine view to message payloads. */
export interface GamePresenter<View = unknown> {
  kind: string;
  board(view: View, meta: BoardMeta): MessagePayload;
  notification(n: Notification, meta: NotificationMeta): MessagePayload;
  /** One line for lists: "#12 vs Bob — your turn (die 4)". */
  summary(view: View, viewer: string, meta: { gameId: number; names: Record<string, string> }): string;
  /** Tables (src/bot/tables.ts): a title for the game with these options, and a label per seat. */
  table?: { title(options: unknown): string; seatLabels(seatCount: number): string[]; note?(options: unknown): string };
}
