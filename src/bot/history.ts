import { ButtonStyle, ComponentType, type APIEmbed } from 'discord.js';
import type { ServiceContext } from '../services/context.ts';
import { gameHistory, recentHistory, type HistoryStep } from '../services/history.ts';
import { customId } from './custom-id.ts';
import { plain } from './format.ts';
import type { GameModule, GameModules, MessagePayload, Wording } from './game-module.ts';

/**
 * "What just happened", for every game alike: the game's describeMove turns logged moves into
 * words (from spectator views only), and this file puts them on the board, in the turn DM and in
 * `/<game> history`.
 */

export function wording(names: Record<string, string>, viewer: string | null, lasting = false): Wording {
  const nameOf = (id: string) => {
    const bot = /^autopilot-(\d+)$/.exec(id);
    if (bot) return `Autopilot${bot[1] === '1' ? '' : ` ${bot[1]}`}`;
    return plain(names[id] ?? 'a player');
  };
  return {
    viewer,
    lasting,
    name: (id) => (id === viewer ? 'you' : nameOf(id)),
    possessive: (id) => (id === viewer ? 'your' : `${nameOf(id)}’s`),
  };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One log entry in words (a sentence without its final stop). */
export function describeStep(module: GameModule, step: HistoryStep, words: Wording, latest: unknown | null): string | null {
  const { entry } = step;
  if (entry.type === 'forfeit') {
    return capital(entry.reason === 'timeout' ? `${words.possessive(entry.player)} turn ran out` : `${words.name(entry.player)} forfeited`);
  }
  let text: string | null = null;
  if (module.describeMove && step.before !== null && step.after !== null && latest !== null) {
    text = module.describeMove({ actor: step.actor, move: entry.move, auto: entry.auto === true, before: step.before, after: step.after, latest }, words);
  } else {
    text = step.actor === 'system' ? 'the game moved on by itself' : `${words.name(step.actor)} moved`;
  }
  if (text === null) return null;
  // A seat the autopilot took over (a player who left) says so; a practice bot is named as such already.
  return capital(text.replace(/[.\s]+$/, '')) + (entry.auto && step.actor !== 'system' && !/^autopilot-\d+$/.test(step.actor) ? ' (autopilot)' : '');
}

export function describeSteps(
  module: GameModule,
  steps: HistoryStep[],
  latest: unknown | null,
  names: Record<string, string>,
  viewer: string | null,
  lasting = false,
): Array<{ seq: number; text: string }> {
  const words = wording(names, viewer, lasting);
  return steps.flatMap((s) => {
    const text = describeStep(module, s, words, latest);
    return text === null ? [] : [{ seq: s.seq, text }];
  });
}

/**
 * The recent moves in words: for the board (viewer null), the latest player's turn; for a player's
 * DM, what the others did since that player last moved. `version`: as of that version of the game
 * (the one the board or DM shows); the board and the turn DM drawn at one version share one read
 * of the log (src/services/history.ts).
 */
export async function recentLines(ctx: ServiceContext, games: GameModules, gameId: number, kind: string, names: Record<string, string>, viewer: string | null, version?: number): Promise<string[]> {
  const module = games.get(kind);
  if (!module?.describeMove || module.showsRecent?.[viewer === null ? 'board' : 'dm']) return [];
  // Entries, not lines: a turn of several steps (Crystallia's abilities) is told once, at its end.
  const recent = await recentHistory(ctx, gameId, { ...(viewer === null ? { max: 8 } : { since: viewer, max: 16 }), ...(version !== undefined ? { version } : {}) });
  if (!recent) return [];
  const { steps, latest } = recent;
  // A DM stays as it is while the game moves on; the board is edited with every move.
  return describeSteps(module, steps, latest, names, viewer, viewer !== null)
    .map((l) => l.text)
    .slice(-6);
}

/** The characters Discord counts toward a message's 6,000 of embed text. */
function embedSize(e: APIEmbed): number {
  return (e.title?.length ?? 0) + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0) + (e.author?.name.length ?? 0) + (e.fields ?? []).reduce((n, f) => n + f.name.length + f.value.length, 0);
}

function recentText(lines: string[], dm: boolean): string {
  if (lines.length === 1) return `**Last move:** ${lines[0]}.`;
  return `**${dm ? 'Since your last move' : 'Last moves'}:**\n${lines.map((l) => `• ${l}.`).join('\n')}`;
}

/** The board with its last move: at the end of its first embed's description (or of its text). */
export function withRecentOnBoard(payload: MessagePayload, lines: string[]): MessagePayload {
  if (lines.length === 0) return payload;
  const text = recentText(lines, false);
  const [first, ...rest] = payload.embeds ?? [];
  if (first) {
    const description = [first.description, text].filter(Boolean).join('\n');
    // Within Discord's limits: 4,096 for a description, 6,000 for a message's embeds together.
    const total = (payload.embeds ?? []).reduce((n, e) => n + embedSize(e), 0) + description.length - (first.description?.length ?? 0);
    if (description.length > 4096 || total > 6000) return payload;
    return { ...payload, embeds: [{ ...first, description }, ...rest] };
  }
  // Above a closing footer (Discord's small `-# ` text, e.g. a game's fair-dice line), not under it.
  const lines0 = (payload.content ?? '').split('\n');
  const footer = lines0.length > 1 && lines0.at(-1)!.startsWith('-# ') ? [lines0.pop()!] : [];
  const content = [lines0.join('\n'), text, ...footer].filter(Boolean).join('\n');
  return content.length <= 2000 ? { ...payload, content } : payload;
}

/** A turn DM with what the others did: right under its first line. */
export function withRecentInDm(payload: MessagePayload, lines: string[]): MessagePayload {
  if (lines.length === 0 || payload.content === undefined) return payload;
  const [head, ...tail] = payload.content.split('\n');
  const content = [head, recentText(lines, true), ...tail].join('\n');
  return content.length <= 2000 ? { ...payload, content } : payload;
}

// ---------------------------------------------------------------------------------------------
// `/<game> history`: the whole log, numbered, in pages under Discord's 2,000 characters.

const PAGE_CHARS = 1_700;
/** Lines per page: a page reads at a glance on a phone. */
export const PAGE_LINES = 15;

/** The log's lines cut into pages (whole lines, at most PAGE_LINES and under PAGE_CHARS each). */
export function historyPages(lines: string[]): string[][] {
  const pages: string[][] = [];
  let page: string[] = [];
  let size = 0;
  for (const line of lines) {
    const l = line.length > 300 ? `${line.slice(0, 299)}…` : line;
    if (page.length && (size + l.length + 1 > PAGE_CHARS || page.length >= PAGE_LINES)) {
      pages.push(page);
      page = [];
      size = 0;
    }
    page.push(l);
    size += l.length + 1;
  }
  if (page.length || pages.length === 0) pages.push(page);
  return pages;
}

/**
 * A page of a game's history, as an ephemeral message: the latest page unless `page` is given,
 * with buttons to the earlier and later pages.
 */
export async function historyMessage(
  ctx: ServiceContext,
  games: GameModules,
  gameId: number,
  guildId: string,
  viewer: string,
  names: (ids: string[]) => Promise<Record<string, string>>,
  page?: number,
): Promise<MessagePayload> {
  const { game, steps, latest } = await gameHistory(ctx, gameId, guildId);
  const module = games.require(game.kind);
  const who = await names(game.seats.map((s) => s.playerId));
  const lines = describeSteps(module, steps, latest, who, viewer).map((l) => `\`${String(l.seq).padStart(3, ' ')}\` ${l.text}.`);
  const pages = historyPages(lines);
  const p = Math.min(Math.max(page ?? pages.length - 1, 0), pages.length - 1);
  const nameOf = (id: string) => (id === viewer ? 'you' : plain(who[id] ?? (game.seats.find((s) => s.playerId === id)?.autopilot ? 'Autopilot' : 'a player')));
  // The sides that play against each other: two teams (King's Circle), else every seat for itself.
  const sides = module.teams?.(game.seats.map((s) => s.playerId)) ?? game.seats.map((s) => [s.playerId]);
  const players = sides.map((t) => t.map(nameOf).join(' and '));
  const state = game.status === 'active' ? 'in progress' : 'over';
  const head = `📜 **${module.title} #${game.id}** (${players.join(' vs ')}, ${state}): ${steps.length} move${steps.length === 1 ? '' : 's'}${pages.length > 1 ? `, page ${p + 1} of ${pages.length}` : ''}.`;
  const body = lines.length ? pages[p]!.join('\n') : 'No move yet.';
  const components: MessagePayload['components'] =
    pages.length > 1
      ? [
          {
            type: ComponentType.ActionRow,
            components: [
              { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('g:history', game.id, Math.max(p - 1, 0)), label: '◀ Earlier', disabled: p === 0 },
              { type: ComponentType.Button, style: ButtonStyle.Secondary, custom_id: customId('g:history', game.id, Math.min(p + 1, pages.length - 1)), label: 'Later ▶', disabled: p === pages.length - 1 },
            ],
          },
        ]
      : [];
  return { content: `${head}\n${body}`.slice(0, 2000), components, allowed_mentions: { parse: [] } };
}
