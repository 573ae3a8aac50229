import { ChannelType, PermissionFlagsBits, type PermissionsBitField, type BaseInteraction, type Client, type PermissionsString } from 'discord.js';
import { UserError } from '../services/errors.ts';
import type { ChannelAccess } from '../services/registry.ts';
import type { ChannelNeed, GameModule, GameModules } from './game-module.ts';

export type { ChannelNeed } from './game-module.ts';

/**
 * What Stonehall may do in a channel, and what it needs there (issue 22). Discord decides channel
 * by channel (roles, then the channel's overwrites); a server changes that at any time. Each game
 * declares what its messages need (`GameModule.channelPermissions`: Embed Links for a board drawn
 * as an embed, Attach Files for a board drawn as a picture); the platform adds what every game
 * channel needs (to see it and to post the board, the results and the game's news). Commands check
 * `interaction.appPermissions` (or, for a channel they name, the bot's permissions there from the
 * guild cache) before anything is written, and refuse naming what is missing.
 */


/** Discord's name of a permission, as a moderator finds it in the channel's settings. */
const LABEL: Partial<Record<PermissionsString, string>> = {
  ViewChannel: 'View Channel',
  SendMessages: 'Send Messages',
  EmbedLinks: 'Embed Links',
  AttachFiles: 'Attach Files',
  ReadMessageHistory: 'Read Message History',
  SendMessagesInThreads: 'Send Messages in Threads',
};
/** What the bot cannot do without it: "I can't attach files in #games". */
const CANT: Partial<Record<PermissionsString, string>> = {
  ViewChannel: 'see messages',
  SendMessages: 'post messages',
  EmbedLinks: 'embed links',
  AttachFiles: 'attach files',
  ReadMessageHistory: 'read the message history',
  SendMessagesInThreads: 'post in threads',
};

export const permissionLabel = (p: PermissionsString): string => LABEL[p] ?? p.replace(/([a-z])([A-Z])/g, '$1 $2');
const cant = (p: PermissionsString): string => CANT[p] ?? `use ${permissionLabel(p)}`;

/** What every channel Stonehall posts in needs, whatever the game. */
export const POSTING_NEEDS: readonly ChannelNeed[] = [
  { permission: 'ViewChannel', why: 'Stonehall must see a channel to post in it' },
  { permission: 'SendMessages', why: 'Stonehall posts there' },
];

/** What a game channel needs: to see it and post the board, results and news, then what the game's own messages need. */
export function gameNeeds(module: Pick<GameModule, 'channelPermissions'> | null): ChannelNeed[] {
  const game: ChannelNeed[] = [
    { permission: 'ViewChannel', why: 'Stonehall must see the channel to play in it' },
    { permission: 'SendMessages', why: 'the board and the results are posted there' },
  ];
  return union([game, module?.channelPermissions ?? []]);
}

/** What a channel where any game may be played needs (a game channel moderators list). */
export function allGamesNeeds(games: GameModules): ChannelNeed[] {
  return union([gameNeeds(null), ...games.all.map((g) => g.channelPermissions)]);
}

/** Needs merged, one per permission (the first reason kept, the others' reasons joined). */
function union(lists: ReadonlyArray<readonly ChannelNeed[]>): ChannelNeed[] {
  const out = new Map<PermissionsString, ChannelNeed>();
  for (const list of lists) {
    for (const n of list) {
      const seen = out.get(n.permission);
      if (!seen) out.set(n.permission, { ...n });
      else if (!seen.why.includes(n.why)) seen.why = `${seen.why}; ${n.why}`;
    }
  }
  return [...out.values()];
}

/** The needs that `perms` lacks. */
export function missingNeeds(perms: bigint | Readonly<PermissionsBitField>, needs: readonly ChannelNeed[]): ChannelNeed[] {
  const bits = typeof perms === 'bigint' ? perms : perms.bitfield;
  return needs.filter((n) => (bits & PermissionFlagsBits[n.permission]) === 0n);
}

/** "Attach Files" / "Send Messages and Attach Files", bold. */
export function labels(needs: readonly ChannelNeed[]): string {
  const l = needs.map((n) => `**${permissionLabel(n.permission)}**`);
  return l.length <= 1 ? l.join('') : `${l.slice(0, -1).join(', ')} and ${l.at(-1)}`;
}

/**
 * "I can't attach files in #games, and Crystallia's board is a picture: ask a moderator to allow
 * Attach Files for Stonehall there." Several: each one named with its reason.
 */
export function missingText(channelId: string, missing: readonly ChannelNeed[], botName: string): string {
  const ch = `<#${channelId}>`;
  if (missing.length === 1) {
    const [n] = missing as [ChannelNeed];
    return `I can't ${cant(n.permission)} in ${ch}, and ${n.why}: ask a moderator to allow ${labels(missing)} for ${botName} there (channel settings → Permissions).`;
  }
  const cants = missing.map((n) => cant(n.permission));
  const whys = missing.map((n) => `${permissionLabel(n.permission)}: ${n.why}`);
  return `I can't ${cants.slice(0, -1).join(', ')} or ${cants.at(-1)} in ${ch} (${whys.join('; ')}): ask a moderator to allow ${labels(missing)} for ${botName} there (channel settings → Permissions).`;
}

const botNameOf = (client: Client): string => client.user?.username ?? 'Stonehall';

/**
 * Refuses, before anything is written, a command that will post into the interaction's channel
 * when Discord does not let the bot do there what `needs` says (`interaction.appPermissions`: the
 * bot's permissions in this channel, sent with every interaction).
 */
export function requireHere(interaction: BaseInteraction, needs: readonly ChannelNeed[], what = ''): void {
  if (!interaction.inGuild() || !interaction.channelId) return;
  const missing = missingNeeds(interaction.appPermissions, needs);
  if (missing.length === 0) return;
  throw new UserError('channel/permissions', `${what}${missingText(interaction.channelId, missing, botNameOf(interaction.client))}`.slice(0, 1900));
}

/** A game of `module` is about to be posted in this channel: refuses when the bot cannot. */
export function requireGameHere(interaction: BaseInteraction, module: Pick<GameModule, 'channelPermissions'>): void {
  requireHere(interaction, gameNeeds(module));
}

/**
 * The bot's permissions in another channel of the server, from the guild cache (the gateway keeps
 * roles and overwrites current): null when it cannot be known (no cache, as in a worker process),
 * 'gone' when the server has no such channel.
 */
export function botPermissionsIn(client: Client, guildId: string, channelId: string): bigint | null | 'gone' {
  const guild = client.guilds.cache.get(guildId);
  if (!guild) return null;
  const channel = guild.channels.cache.get(channelId);
  if (!channel) return guild.available ? 'gone' : null;
  const me = guild.members.me;
  if (!me) return null;
  if (channel.type === ChannelType.GuildCategory) return null;
  return channel.permissionsFor(me).bitfield;
}

/** Refuses a setting that names a channel where the bot cannot do what `needs` says. */
export function requireIn(interaction: BaseInteraction, channelId: string, needs: readonly ChannelNeed[], what: string): void {
  if (!interaction.inGuild()) return;
  const perms = botPermissionsIn(interaction.client, interaction.guildId, channelId);
  // Not in the cache (a thread, say): Discord resolved the option, so it exists; nothing to check here.
  if (perms === null || perms === 'gone') return;
  const missing = missingNeeds(perms, needs);
  if (missing.length) throw new UserError('channel/permissions', `${what}: ${missingText(channelId, missing, botNameOf(interaction.client))}`.slice(0, 1900));
}

/**
 * The services' view of what the bot may do (ServiceContext.channels), from the gateway's cache:
 * a Battle Phase picks the game channels where a game can be posted, and the outbox does not
 * knock on a channel the cache already says it cannot use.
 */
export function channelAccess(client: Client, games: GameModules): ChannelAccess {
  return {
    missing(guildId, channelId, kind) {
      const perms = botPermissionsIn(client, guildId, channelId);
      // Not in the cache: unknown here (a thread the cache does not hold); Discord's answer decides.
      if (perms === null || perms === 'gone') return null;
      const needs = kind === null ? POSTING_NEEDS : gameNeeds(games.get(kind) ?? null);
      return missingNeeds(perms, needs).map((n) => permissionLabel(n.permission));
    },
  };
}

/** Every permission Stonehall asks for when invited: what every game and every posting channel needs. */
export function invitePermissions(games: GameModules): bigint {
  const needs = union([POSTING_NEEDS, allGamesNeeds(games)]);
  return needs.reduce((bits, n) => bits | PermissionFlagsBits[n.permission], 0n);
}

/** The invite link a server owner opens to add Stonehall with exactly the permissions it needs. */
export function inviteUrl(applicationId: string, games: GameModules): string {
  const params = new URLSearchParams({ client_id: applicationId, scope: 'bot applications.commands', permissions: invitePermissions(games).toString() });
  return `https://discord.com/oauth2/authorize?${params.toString()}`;
}

/** Each permission of the invite, with why (docs/deploying.md lists the same). */
export function inviteNeeds(games: GameModules): ChannelNeed[] {
  return union([POSTING_NEEDS, allGamesNeeds(games)]);
}
