/**
 * The demo server every emulator starts with. Ids are deterministic snowflakes (timestamps in
 * January 2024), so they are the same on every run and a person can bookmark them.
 */
import { DEFAULT_EVERYONE_PERMISSIONS, Permission } from './permissions.ts';
import { snowflakeFrom } from './snowflake.ts';
import { ChannelKind, isoTimestamp, type EmulatorState, type GuildRecord, type UserRecord } from './state.ts';

export const DEMO_USER_ALIASES = ['alice', 'bob', 'carol', 'dave', 'moderator'] as const;
export type DemoUserAlias = (typeof DEMO_USER_ALIASES)[number];
export const DEMO_CHANNELS = ['general', 'battle-commencement', 'knucklebones', 'announcements', 'leaderboard'] as const;
export type DemoChannelName = (typeof DEMO_CHANNELS)[number];

const SEED_BASE_MS = Date.UTC(2024, 0, 1, 12, 0, 0);
const seedId = (n: number) => snowflakeFrom(SEED_BASE_MS + n * 60_000, 0, 0, 0);

export const BOT_USERNAME = 'Stonehall';
export const GUILD_NAME = 'Stonehall Demo';

/** A token that looks like Discord's (base64 user id . timestamp part . hmac part). */
export function defaultBotToken(botUserId: string): string {
  const idPart = Buffer.from(botUserId).toString('base64').replace(/=+$/, '');
  return `${idPart}.GEmuLt.stonehall-emulator-local-token-0000000`;
}

export interface SeedResult {
  guildId: string;
  applicationId: string;
  botUserId: string;
  users: Record<DemoUserAlias, string>;
  channels: Record<DemoChannelName, string>;
  moderatorRoleId: string;
  ownerId: string;
}

export function seedDemo(state: EmulatorState): SeedResult {
  const botUserId = seedId(1);
  const addUser = (id: string, username: string, globalName: string | null, alias: string | null, bot = false): UserRecord => {
    const u: UserRecord = { id, username, globalName, discriminator: bot ? '4821' : '0', bot, alias, dmsOpen: !bot };
    state.users.set(id, u);
    return u;
  };
  addUser(botUserId, BOT_USERNAME, null, null, true);
  const owner = addUser(seedId(2), 'owner', 'Server Owner', 'owner');
  const alice = addUser(seedId(3), 'alice', 'Alice', 'alice');
  const bob = addUser(seedId(4), 'bob', 'Bob', 'bob');
  const carol = addUser(seedId(5), 'carol', 'Carol', 'carol');
  const dave = addUser(seedId(6), 'dave', 'Dave', 'dave');
  const mod = addUser(seedId(7), 'mod', 'Mod', 'moderator');

  state.application = {
    id: botUserId,
    name: BOT_USERNAME,
    description: 'Play-by-post tabletop games (local emulator)',
    botUserId,
    ownerId: owner.id,
    // GATEWAY_PRESENCE | GATEWAY_GUILD_MEMBERS | GATEWAY_MESSAGE_CONTENT | APPLICATION_COMMAND_BADGE
    flags: (1 << 12) | (1 << 14) | (1 << 18) | (1 << 23),
  };

  const guildId = seedId(10);
  const moderatorRoleId = seedId(16);
  const botRoleId = seedId(17);
  const guild: GuildRecord = {
    id: guildId,
    name: GUILD_NAME,
    ownerId: owner.id,
    preferredLocale: 'en-US',
    systemChannelId: null,
    roles: new Map(),
    members: new Map(),
  };
  // @everyone's id is the guild's id.
  guild.roles.set(guildId, {
    id: guildId,
    name: '@everyone',
    color: 0,
    hoist: false,
    position: 0,
    permissions: DEFAULT_EVERYONE_PERMISSIONS,
    managed: false,
    mentionable: false,
    botId: null,
  });
  guild.roles.set(moderatorRoleId, {
    id: moderatorRoleId,
    name: 'Moderator',
    color: 0x3498db,
    hoist: true,
    position: 1,
    permissions: Permission.MANAGE_GUILD,
    managed: false,
    mentionable: true,
    botId: null,
  });
  guild.roles.set(botRoleId, {
    id: botRoleId,
    name: BOT_USERNAME,
    color: 0,
    hoist: false,
    position: 2,
    permissions:
      Permission.VIEW_CHANNEL |
      Permission.SEND_MESSAGES |
      Permission.SEND_MESSAGES_IN_THREADS |
      Permission.EMBED_LINKS |
      Permission.ATTACH_FILES |
      Permission.READ_MESSAGE_HISTORY |
      Permission.ADD_REACTIONS |
      Permission.USE_EXTERNAL_EMOJIS |
      Permission.USE_APPLICATION_COMMANDS,
    managed: true,
    mentionable: false,
    botId: botUserId,
  });

  const joined = (n: number) => isoTimestamp(new Date(SEED_BASE_MS + n * 3_600_000));
  guild.members.set(owner.id, { userId: owner.id, roles: [], joinedAt: joined(1), nick: null });
  guild.members.set(botUserId, { userId: botUserId, roles: [botRoleId], joinedAt: joined(2), nick: null });
  for (const [i, u] of [alice, bob, carol, dave].entries()) {
    guild.members.set(u.id, { userId: u.id, roles: [], joinedAt: joined(3 + i), nick: null });
  }
  guild.members.set(mod.id, { userId: mod.id, roles: [moderatorRoleId], joinedAt: joined(7), nick: null });
  state.guilds.set(guildId, guild);

  const topics: Record<DemoChannelName, string> = {
    general: 'Chat about anything.',
    'battle-commencement': 'Challenges and new games are announced here.',
    knucklebones: 'Play Knucklebones here.',
    announcements: 'Server news.',
    leaderboard: 'Standings.',
  };
  const channels = {} as Record<DemoChannelName, string>;
  DEMO_CHANNELS.forEach((name, i) => {
    const id = seedId(11 + i);
    channels[name] = id;
    state.channels.set(id, {
      id,
      type: ChannelKind.GuildText,
      guildId,
      name,
      position: i,
      topic: topics[name],
      overwrites: [],
      recipientId: null,
      lastMessageId: null,
    });
    state.channelMessages.set(id, []);
  });
  guild.systemChannelId = channels.general;

  return {
    guildId,
    applicationId: botUserId,
    botUserId,
    users: { alice: alice.id, bob: bob.id, carol: carol.id, dave: dave.id, moderator: mod.id },
    channels,
    moderatorRoleId,
    ownerId: owner.id,
  };
}

/**
 * Adds a plain member to a guild (load tests and benchmarks need more players than the demo's
 * five). Returns the new user's id.
 */
export function addMember(state: EmulatorState, guildId: string, username: string): string {
  const guild = state.guilds.get(guildId);
  if (!guild) throw new Error(`no guild ${guildId}`);
  const id = snowflakeFrom(SEED_BASE_MS + 10_000_000 + state.users.size * 1000, state.users.size % 4096, 2, 0);
  state.users.set(id, { id, username, globalName: username, discriminator: '0', bot: false, alias: null, dmsOpen: true });
  guild.members.set(id, { userId: id, roles: [], joinedAt: isoTimestamp(state.now()), nick: null });
  return id;
}
