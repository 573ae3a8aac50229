import { ChannelType, PermissionFlagsBits, type PermissionsBitField, type BaseInteraction, type Client, type PermissionsString } from 'discord.js';
import { UserError } from '../services/errors.ts';
import type { Guild } from '../generated/prisma/client.ts';
import type { ChannelAccess, ServiceContext } from '../services/registry.ts';
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
  const game: ChannelNeed[] = [POSTING_NEEDS[0]!, { permission: 'SendMessages', why: 'the board and the results are posted there' }];
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
export function missingText(channelId: string, missing: readonly ChannelNeed[], botName: string, to: 'player' | 'moderator' = 'player'): string {
  const ch = `<#${channelId}>`;
  const fix = to === 'player' ? `ask a moderator to allow ${labels(missing)} for ${botName} there` : `allow ${labels(missing)} for ${botName} there, then try again`;
  if (missing.length === 1) {
    const [n] = missing as [ChannelNeed];
    return `I can't ${cant(n.permission)} in ${ch}, and ${n.why}: ${fix} (channel settings → Permissions).`;
  }
  const cants = missing.map((n) => cant(n.permission));
  const whys = missing.map((n) => `${permissionLabel(n.permission)}: ${n.why}`);
  return `I can't ${cants.slice(0, -1).join(', ')} or ${cants.at(-1)} in ${ch} (${whys.join('; ')}): ${fix} (channel settings → Permissions).`;
}

const botNameOf = (client: Client): string => client.user?.username ?? 'Stonehall';

/**
 * Refuses, before anything is written, a command that will post into the interaction's channel
 * when Discord does not let the bot do there what `needs` says (`interaction.appPermissions`: the
 * bot's permissions in this channel, sent with every interaction).
 */
export function requireHere(interaction: BaseInteraction, needs: readonly ChannelNeed[], what = ''): void {
  // (Discord sends app_permissions with every interaction; an old payload without them is not refused.)
  if (!interaction.inGuild() || !interaction.channelId || !interaction.appPermissions) return;
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
  if (missing.length) throw new UserError('channel/permissions', `${what}: ${missingText(channelId, missing, botNameOf(interaction.client), 'moderator')}`.slice(0, 1900));
}

/**
 * The services' view of what the bot may do (ServiceContext.channels), from the gateway's cache:
 * a Battle Phase picks the game channels where a game can be posted, and the outbox does not
 * knock on a channel the cache already says it cannot use.
 */
export function channelAccess(client: Client, games: GameModules): ChannelAccess {
  return {
    missing(guildId, channelId, kind, opts = {}) {
      const perms = botPermissionsIn(client, guildId, channelId);
      // Not in the cache: unknown here (a thread the cache does not hold); Discord's answer decides.
      if (perms === null || perms === 'gone') return null;
      const needs = (kind === null ? POSTING_NEEDS : gameNeeds(games.get(kind) ?? null)).filter((n) => !opts.edit || n.permission !== 'SendMessages');
      return missingNeeds(perms, needs).map((n) => permissionLabel(n.permission));
    },
  };
}

/** Every permission Stonehall asks for when invited: what every game and every posting channel needs. */
export function invitePermissions(games: GameModules): bigint {
  return inviteNeeds(games).reduce((bits, n) => bits | PermissionFlagsBits[n.permission], 0n);
}

/** The invite link a server owner opens to add Stonehall with exactly the permissions it needs. */
export function inviteUrl(applicationId: string, games: GameModules): string {
  const params = new URLSearchParams({ client_id: applicationId, scope: 'bot applications.commands', permissions: invitePermissions(games).toString() });
  return `https://discord.com/oauth2/authorize?${params.toString()}`;
}

/** Each permission of the invite, with why (docs/deploying.md lists the same). */
export function inviteNeeds(games: GameModules): ChannelNeed[] {
  return allGamesNeeds(games);
}

/**
 * `/stonehall-config check`: every channel Stonehall is set to use (the game channels, the
 * cycle's channels, the announcement channel) and those where games are running, each with what
 * the bot may do there and what is missing, from the gateway's cache, in one message.
 */
export async function channelReport(interaction: BaseInteraction, deps: { ctx: ServiceContext; games: GameModules }, guild: Guild): Promise<string> {
  const botName = botNameOf(interaction.client);
  const discordGuild = interaction.guild;
  const byName = (name: string) => discordGuild?.channels.cache.find((c) => 'name' in c && c.name === name)?.id ?? null;
  const uses = new Map<string, { roles: string[]; needs: ChannelNeed[] }>();
  const use = (channelId: string | null, role: string, needs: readonly ChannelNeed[]) => {
    if (!channelId) return;
    const u = uses.get(channelId) ?? { roles: [], needs: [] };
    u.roles.push(role);
    u.needs = union([u.needs, needs]);
    uses.set(channelId, u);
  };
  const everyGame = allGamesNeeds(deps.games);
  for (const id of guild.gameChannelIds) use(id, 'games are started here', everyGame);
  const running = await deps.ctx.db.game.groupBy({ by: ['channelId', 'kind'], where: { guildId: guild.id, status: 'active' } });
  for (const r of running) use(r.channelId, `${deps.games.title(r.kind)} games running`, gameNeeds(deps.games.get(r.kind) ?? null));
  use(guild.commencementChannelId ?? byName('battle-commencement'), 'intents (commencement)', guild.gameChannelIds.length ? POSTING_NEEDS : everyGame);
  use(guild.announcementChannelId ?? byName('announcements'), 'announcements and notices to moderators', POSTING_NEEDS);
  use(guild.leaderboardChannelId ?? byName('leaderboard'), 'leaderboards', POSTING_NEEDS);
  const lines = [`**What ${botName} may do in the channels it uses**`];
  let problems = 0;
  for (const [channelId, u] of uses) {
    const perms = botPermissionsIn(interaction.client, guild.id, channelId);
    const head = `• <#${channelId}> (${u.roles.join('; ')})`;
    if (perms === 'gone') {
      problems++;
      lines.push(`${head}: ❌ no such channel any more (deleted?)`);
    } else if (perms === null) {
      lines.push(`${head}: ❔ unknown (not in my cache)`);
    } else {
      const missing = missingNeeds(perms, u.needs);
      if (missing.length) problems++;
      const has = u.needs.filter((n) => !missing.includes(n)).map((n) => permissionLabel(n.permission));
      lines.push(missing.length ? `${head}: ⚠️ missing ${missing.map((n) => `**${permissionLabel(n.permission)}** (${n.why})`).join(', ')}${has.length ? `; has ${has.join(', ')}` : ''}` : `${head}: ✅ ${has.join(', ')}`);
    }
  }
  if (guild.gameChannelIds.length === 0) lines.push('Games may be started in any channel: each start checks the channel it is in (`/stonehall-config allow-channel` limits them to listed channels).');
  const summary = problems
    ? `${problems} channel${problems === 1 ? '' : 's'} to fix: allow what is missing for ${botName} in each channel's settings (Permissions), or for its role in Server Settings → Roles.`
    : `Everything ${botName} needs is allowed.`;
  // One message: a long list keeps its head (and the summary) and says how many lines were left out.
  const whole = [...lines, summary].join('\n');
  if (whole.length <= 2000) return whole;
  const kept: string[] = [];
  for (const l of lines) {
    if ([...kept, l].join('\n').length > 2000 - summary.length - 40) break;
    kept.push(l);
  }
  return `${kept.join('\n')}\n…and ${lines.length - kept.length} more.\n${summary}`;
}
