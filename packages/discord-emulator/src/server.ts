/**
 * The server (guilds, channels, roles, users) an emulator starts with, described as data by whoever
 * starts it: a bot's playground passes its own demo, tests pass a fixture, and `exampleServer` is
 * the default. Ids are deterministic snowflakes (timestamps in January 2024) given in the order of
 * the definition, so the same definition gives the same ids on every run and a person can
 * bookmark them.
 */
import { DEFAULT_EVERYONE_PERMISSIONS, Permission, type PermissionOverwrite } from './permissions.ts';
import { snowflakeFrom } from './snowflake.ts';
import { ChannelKind, isoTimestamp, type EmulatorState, type GuildRecord, type UserRecord } from './state.ts';

export interface UserDefinition {
  /** How tests and the web page name the user ("alice"); unique, lowercase. */
  readonly alias: string;
  readonly username: string;
  /** The display name (default: none, Discord shows the username). */
  readonly globalName?: string;
  /** Whether the user accepts DMs from the bot at start (default true). */
  readonly dmsOpen?: boolean;
}

export interface RoleDefinition {
  readonly name: string;
  readonly color?: number;
  /** Shown apart in the member list (default false). */
  readonly hoist?: boolean;
  readonly mentionable?: boolean;
  /** Permission bits (see `Permission`); default none beyond @everyone's. */
  readonly permissions?: bigint;
}

/** A permission by its name in `Permission` ("VIEW_CHANNEL", "SEND_MESSAGES", …). */
export type PermissionName = keyof typeof Permission;

/**
 * One permission overwrite of a channel: for a role (its name, '@everyone', or the bot's managed
 * role by the bot's name) or for a member (a user alias, or 'bot'), exactly one of the two.
 */
export interface OverwriteDefinition {
  readonly role?: string;
  readonly user?: string;
  readonly allow?: readonly PermissionName[];
  readonly deny?: readonly PermissionName[];
}

export interface ChannelDefinition {
  readonly name: string;
  readonly topic?: string;
  /** The channel's permission overwrites (default none: the roles' permissions apply). */
  readonly overwrites?: readonly OverwriteDefinition[];
}

export interface GuildDefinition {
  readonly name: string;
  /** The alias of the owner (owners have every permission). */
  readonly owner: string;
  /** Text channels, in order; the first is the system channel unless `systemChannel` names another. */
  readonly channels: readonly ChannelDefinition[];
  readonly roles?: readonly RoleDefinition[];
  /** Aliases of the members; default: every user. The bot is always a member, with a managed role of its name. */
  readonly members?: readonly string[];
  /** alias -> the names of its roles. */
  readonly memberRoles?: Readonly<Record<string, readonly string[]>>;
  readonly systemChannel?: string;
  /** The permissions of the bot's managed role (default `DEFAULT_BOT_PERMISSIONS`: view, send, embed, attach, history, react, commands). */
  readonly botPermissions?: readonly PermissionName[];
}

/** What the bot's managed role gets when the definition does not say (what an invite link would grant). */
export const DEFAULT_BOT_PERMISSIONS: readonly PermissionName[] = [
  'VIEW_CHANNEL',
  'SEND_MESSAGES',
  'SEND_MESSAGES_IN_THREADS',
  'EMBED_LINKS',
  'ATTACH_FILES',
  'READ_MESSAGE_HISTORY',
  'ADD_REACTIONS',
  'USE_EXTERNAL_EMOJIS',
  'USE_APPLICATION_COMMANDS',
];

/** The bits of a list of permission names; throws on an unknown name. */
export function permissionBits(names: readonly string[], where = 'permissions'): bigint {
  let bits = 0n;
  for (const name of names) {
    const bit = (Permission as Record<string, bigint>)[name];
    if (bit === undefined) throw new Error(`${where}: unknown permission "${name}"; known: ${Object.keys(Permission).join(', ')}`);
    bits |= bit;
  }
  return bits;
}

/** The names of the bits set in `bits` (those `Permission` lists), in `Permission`'s order. */
export function permissionNames(bits: bigint): PermissionName[] {
  return (Object.keys(Permission) as PermissionName[]).filter((n) => (bits & Permission[n]) !== 0n);
}

export interface ServerDefinition {
  /** The application and its bot user (`bot: true`). */
  readonly bot: { readonly username: string; readonly description?: string };
  readonly users: readonly UserDefinition[];
  /** At least one. The first is the "home" guild: `emulator.guildId`, `emulator.channels`, the web page. */
  readonly guilds: readonly [GuildDefinition, ...GuildDefinition[]];
}

export type UserAlias<S extends ServerDefinition> = S['users'][number]['alias'];
export type ChannelName<G extends GuildDefinition> = G['channels'][number]['name'];
export type RoleName<G extends GuildDefinition> = NonNullable<G['roles']>[number]['name'];

/** What the emulator made of one guild of the definition: its ids by name. */
export interface GuildHandle<G extends GuildDefinition = GuildDefinition> {
  id: string;
  name: string;
  channels: Record<ChannelName<G>, string>;
  roles: Record<RoleName<G>, string>;
  /** The managed role of the bot in this guild. */
  botRoleId: string;
}

type MapGuilds<T extends readonly GuildDefinition[]> = { -readonly [K in keyof T]: T[K] extends GuildDefinition ? GuildHandle<T[K]> : never };
export type GuildHandles<S extends ServerDefinition> = MapGuilds<S['guilds']>;

/** The default server: one guild of six users (an owner, four players, a moderator), five channels. */
export const exampleServer = {
  bot: { username: 'EmulatorBot', description: 'A bot under test' },
  users: [
    { alias: 'owner', username: 'owner', globalName: 'Server Owner' },
    { alias: 'alice', username: 'alice', globalName: 'Alice' },
    { alias: 'bob', username: 'bob', globalName: 'Bob' },
    { alias: 'carol', username: 'carol', globalName: 'Carol' },
    { alias: 'dave', username: 'dave', globalName: 'Dave' },
    { alias: 'moderator', username: 'mod', globalName: 'Mod' },
  ],
  guilds: [
    {
      name: 'Emulator Test Server',
      owner: 'owner',
      channels: [
        { name: 'general', topic: 'Chat about anything.' },
        { name: 'challenges', topic: 'Challenges and new games.' },
        { name: 'games', topic: 'Play here.' },
        { name: 'announcements', topic: 'Server news.' },
        { name: 'leaderboard', topic: 'Standings.' },
      ],
      roles: [{ name: 'Moderator', color: 0x3498db, hoist: true, mentionable: true, permissions: Permission.MANAGE_GUILD }],
      memberRoles: { moderator: ['Moderator'] },
    },
  ],
} as const satisfies ServerDefinition;

const SEED_BASE_MS = Date.UTC(2024, 0, 1, 12, 0, 0);
const seedId = (n: number) => snowflakeFrom(SEED_BASE_MS + n * 60_000, 0, 0, 0);

/** A token that looks like Discord's (base64 user id . timestamp part . hmac part). */
export function defaultBotToken(botUserId: string): string {
  const idPart = Buffer.from(botUserId).toString('base64').replace(/=+$/, '');
  return `${idPart}.GEmuLt.discord-emulator-local-token-00000000`;
}

export interface SeedResult<S extends ServerDefinition> {
  applicationId: string;
  botUserId: string;
  users: Record<UserAlias<S>, string>;
  guilds: GuildHandles<S>;
}

/** Checks a definition and fills the state with it. Ids: the bot 1, users 2…, guild k from 10 + 100·k (channels, roles, the bot's role after it). */
export function seedServer<const S extends ServerDefinition>(state: EmulatorState, def: S): SeedResult<S> {
  const fail = (why: string): never => {
    throw new Error(`server definition: ${why}`);
  };
  if (def.guilds.length === 0) fail('at least one guild is needed');
  if (def.guilds.length > 90) fail('at most 90 guilds');
  const botUserId = seedId(1);
  const botUser: UserRecord = { id: botUserId, username: def.bot.username, globalName: null, discriminator: '4821', bot: true, alias: null, dmsOpen: false };
  state.users.set(botUserId, botUser);
  const users = {} as Record<string, string>;
  def.users.forEach((u, i) => {
    if (!/^[a-z0-9_.-]{1,32}$/.test(u.alias)) fail(`alias "${u.alias}" must be 1-32 lowercase letters, digits, _ . -`);
    if (users[u.alias]) fail(`alias "${u.alias}" is used twice`);
    const id = i < 8 ? seedId(2 + i) : seedId(10_000 + i); // 2..9 before the first guild, the rest after the last
    users[u.alias] = id;
    state.users.set(id, { id, username: u.username, globalName: u.globalName ?? null, discriminator: '0', bot: false, alias: u.alias, dmsOpen: u.dmsOpen ?? true });
  });
  const userId = (alias: string, where: string) => users[alias] ?? fail(`${where}: no user "${alias}"`);

  state.application = {
    id: botUserId,
    name: def.bot.username,
    description: def.bot.description ?? '',
    botUserId,
    ownerId: userId(def.guilds[0].owner, 'the first guild\'s owner'),
    // GATEWAY_PRESENCE | GATEWAY_GUILD_MEMBERS | GATEWAY_MESSAGE_CONTENT | APPLICATION_COMMAND_BADGE
    flags: (1 << 12) | (1 << 14) | (1 << 18) | (1 << 23),
  };

  const guilds = def.guilds.map((g, k) => {
    const base = 10 + 100 * k;
    // Guild k's id is k ms later than its slot: Discord routes a guild to shard
    // (id >> 22) % shard_count, and guilds a round number of minutes apart would all share shard 0.
    const guildId = snowflakeFrom(SEED_BASE_MS + base * 60_000 + k, 0, 0, 0);
    const guild: GuildRecord = {
      id: guildId,
      name: g.name,
      ownerId: userId(g.owner, `guild "${g.name}"`),
      preferredLocale: 'en-US',
      systemChannelId: null,
      roles: new Map(),
      members: new Map(),
    };
    // @everyone's id is the guild's id.
    guild.roles.set(guildId, { id: guildId, name: '@everyone', color: 0, hoist: false, position: 0, permissions: DEFAULT_EVERYONE_PERMISSIONS, managed: false, mentionable: false, botId: null });
    if (g.channels.length === 0) fail(`guild "${g.name}" needs a channel`);
    if (g.channels.length > 50) fail(`guild "${g.name}": at most 50 channels`);
    const roles = {} as Record<string, string>;
    const roleDefs = g.roles ?? [];
    if (roleDefs.length > 40) fail(`guild "${g.name}": at most 40 roles`);
    roleDefs.forEach((r, i) => {
      if (roles[r.name] || r.name === '@everyone') fail(`guild "${g.name}": role "${r.name}" is defined twice`);
      const id = seedId(base + 1 + g.channels.length + i);
      roles[r.name] = id;
      guild.roles.set(id, {
        id,
        name: r.name,
        color: r.color ?? 0,
        hoist: r.hoist ?? false,
        position: i + 1,
        permissions: r.permissions ?? 0n,
        managed: false,
        mentionable: r.mentionable ?? false,
        botId: null,
      });
    });
    const botRoleId = seedId(base + 1 + g.channels.length + roleDefs.length);
    guild.roles.set(botRoleId, {
      id: botRoleId,
      name: def.bot.username,
      color: 0,
      hoist: false,
      position: roleDefs.length + 1,
      permissions: permissionBits(g.botPermissions ?? DEFAULT_BOT_PERMISSIONS, `guild "${g.name}": botPermissions`),
      managed: true,
      mentionable: false,
      botId: botUserId,
    });

    // Members join in the order of the definition, an hour apart (the owner first, then the bot).
    const joined = (n: number) => isoTimestamp(new Date(SEED_BASE_MS + n * 3_600_000));
    const aliases = [...new Set([g.owner, ...(g.members ?? def.users.map((u) => u.alias))])];
    const memberRoles = g.memberRoles ?? {};
    for (const alias of Object.keys(memberRoles)) if (!aliases.includes(alias)) fail(`guild "${g.name}": "${alias}" has roles but is not a member`);
    let n = 1;
    const addMember = (alias: string) => {
      const id = userId(alias, `guild "${g.name}"`);
      const roleIds = (memberRoles[alias] ?? []).map((name) => roles[name] ?? fail(`guild "${g.name}": no role "${name}" for ${alias}`));
      guild.members.set(id, { userId: id, roles: roleIds, joinedAt: joined(n++), nick: null });
    };
    addMember(g.owner);
    guild.members.set(botUserId, { userId: botUserId, roles: [botRoleId], joinedAt: joined(n++), nick: null });
    for (const alias of aliases.slice(1)) addMember(alias);
    state.guilds.set(guildId, guild);

    const channels = {} as Record<string, string>;
    const overwritesOf = (c: ChannelDefinition): PermissionOverwrite[] => {
      const out: PermissionOverwrite[] = [];
      for (const o of c.overwrites ?? []) {
        const where = `guild "${g.name}", channel "${c.name}"`;
        if ((o.role === undefined) === (o.user === undefined)) fail(`${where}: an overwrite names either a role or a user`);
        const target = resolveOverwriteTarget(state, guild, o, def.bot.username) ?? fail(`${where}: no ${o.role !== undefined ? `role "${o.role}"` : `member "${o.user}"`}`);
        if (out.some((x) => x.id === target.id)) fail(`${where}: two overwrites for the same ${o.role !== undefined ? 'role' : 'member'}`);
        out.push({ ...target, allow: permissionBits(o.allow ?? [], where), deny: permissionBits(o.deny ?? [], where) });
      }
      return out;
    };
    g.channels.forEach((c, i) => {
      if (!/^[-_\p{Ll}\p{N}]{1,100}$/u.test(c.name)) fail(`guild "${g.name}": channel name "${c.name}" must be lowercase, without spaces`);
      if (channels[c.name]) fail(`guild "${g.name}": channel "${c.name}" is defined twice`);
      const id = seedId(base + 1 + i);
      channels[c.name] = id;
      state.channels.set(id, {
        id,
        type: ChannelKind.GuildText,
        guildId,
        name: c.name,
        position: i,
        topic: c.topic ?? null,
        overwrites: overwritesOf(c),
        recipientId: null,
        lastMessageId: null,
      });
      state.channelMessages.set(id, []);
    });
    guild.systemChannelId = g.systemChannel ? (channels[g.systemChannel] ?? fail(`guild "${g.name}": no system channel "${g.systemChannel}"`)) : (Object.values(channels)[0] ?? null);
    return { id: guildId, name: g.name, channels, roles, botRoleId };
  });

  return { applicationId: botUserId, botUserId, users: users as Record<UserAlias<S>, string>, guilds: guilds as unknown as GuildHandles<S> };
}

/**
 * The id and type of an overwrite's target: a role by name ('@everyone', the bot's managed role by
 * the bot's name) or id; a member by alias, id, or 'bot'. undefined when there is none.
 */
export function resolveOverwriteTarget(
  state: EmulatorState,
  guild: GuildRecord,
  o: { role?: string | undefined; user?: string | undefined },
  botName: string = state.application?.name ?? '',
): { id: string; type: 0 | 1 } | undefined {
  if (o.role !== undefined) {
    const name = o.role.trim();
    if (name === '@everyone') return { id: guild.id, type: 0 };
    const byId = guild.roles.get(name);
    if (byId) return { id: byId.id, type: 0 };
    const lower = name.replace(/^@/, '').toLowerCase();
    const roles = [...guild.roles.values()];
    // The bot's managed role is named after the bot (a defined role of the same name comes first).
    const role = roles.find((r) => !r.managed && r.name.toLowerCase() === lower) ?? roles.find((r) => r.managed && r.name.toLowerCase() === lower && lower === botName.toLowerCase());
    return role ? { id: role.id, type: 0 } : undefined;
  }
  if (o.user !== undefined) {
    const ref = o.user.trim();
    const id = ref === 'bot' ? state.application.botUserId : (state.users.get(ref)?.id ?? [...state.users.values()].find((u) => u.alias === ref.toLowerCase())?.id);
    return id && guild.members.has(id) ? { id, type: 1 } : undefined;
  }
  return undefined;
}

/**
 * Adds a plain member to a guild (load tests and benchmarks need more players than a demo's
 * handful). Returns the new user's id.
 */
export function addMember(state: EmulatorState, guildId: string, username: string): string {
  const guild = state.guilds.get(guildId);
  if (!guild) throw new Error(`no guild ${guildId}`);
  const id = snowflakeFrom(SEED_BASE_MS + 10_000_000 + state.users.size * 1000, state.users.size % 4096, 2, 0);
  state.users.set(id, { id, username, globalName: username, discriminator: '0', bot: false, alias: null, dmsOpen: true });
  guild.members.set(id, { userId: id, roles: [], joinedAt: isoTimestamp(state.now()), nick: null });
  return id;
}
