/** Discord permission bits (the subset the emulator reasons about) and the permission algorithm. */
export const Permission = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  STREAM: 1n << 9n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  SEND_TTS_MESSAGES: 1n << 12n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  USE_EXTERNAL_EMOJIS: 1n << 18n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_ROLES: 1n << 28n,
  USE_APPLICATION_COMMANDS: 1n << 31n,
  CREATE_PUBLIC_THREADS: 1n << 35n,
  CREATE_PRIVATE_THREADS: 1n << 36n,
  USE_EXTERNAL_STICKERS: 1n << 37n,
  SEND_MESSAGES_IN_THREADS: 1n << 38n,
  USE_EMBEDDED_ACTIVITIES: 1n << 39n,
  SEND_VOICE_MESSAGES: 1n << 46n,
  SEND_POLLS: 1n << 49n,
  USE_EXTERNAL_APPS: 1n << 50n,
} as const;

/** Every permission bit Discord currently defines (ADMINISTRATOR grants all of them). */
export const ALL_PERMISSIONS = (1n << 52n) - 1n;

/** What @everyone gets in a freshly created Discord server (close to the real default). */
export const DEFAULT_EVERYONE_PERMISSIONS =
  Permission.CREATE_INSTANT_INVITE |
  Permission.ADD_REACTIONS |
  Permission.STREAM |
  Permission.VIEW_CHANNEL |
  Permission.SEND_MESSAGES |
  Permission.EMBED_LINKS |
  Permission.ATTACH_FILES |
  Permission.READ_MESSAGE_HISTORY |
  Permission.MENTION_EVERYONE |
  Permission.USE_EXTERNAL_EMOJIS |
  Permission.CONNECT |
  Permission.SPEAK |
  Permission.CHANGE_NICKNAME |
  Permission.USE_APPLICATION_COMMANDS |
  Permission.CREATE_PUBLIC_THREADS |
  Permission.CREATE_PRIVATE_THREADS |
  Permission.USE_EXTERNAL_STICKERS |
  Permission.SEND_MESSAGES_IN_THREADS |
  Permission.USE_EMBEDDED_ACTIVITIES |
  Permission.SEND_VOICE_MESSAGES |
  Permission.SEND_POLLS |
  Permission.USE_EXTERNAL_APPS;

/** What an app gets in a DM with its bot (Discord reports a fixed set there). */
export const DM_PERMISSIONS =
  Permission.ADD_REACTIONS |
  Permission.VIEW_CHANNEL |
  Permission.SEND_MESSAGES |
  Permission.EMBED_LINKS |
  Permission.ATTACH_FILES |
  Permission.READ_MESSAGE_HISTORY |
  Permission.MENTION_EVERYONE |
  Permission.USE_EXTERNAL_EMOJIS |
  Permission.USE_APPLICATION_COMMANDS |
  Permission.USE_EXTERNAL_STICKERS |
  Permission.SEND_VOICE_MESSAGES |
  Permission.SEND_POLLS |
  Permission.USE_EXTERNAL_APPS;

export interface PermissionOverwrite {
  id: string;
  /** 0 = role, 1 = member */
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface PermissionSubject {
  userId: string;
  roleIds: readonly string[];
}

export interface PermissionGuild {
  id: string;
  ownerId: string;
  rolePermissions(roleId: string): bigint | undefined;
}

/** Guild-level permissions: @everyone | each role; owner and ADMINISTRATOR get everything. */
export function basePermissions(guild: PermissionGuild, member: PermissionSubject): bigint {
  if (member.userId === guild.ownerId) return ALL_PERMISSIONS;
  let perms = guild.rolePermissions(guild.id) ?? 0n;
  for (const roleId of member.roleIds) perms |= guild.rolePermissions(roleId) ?? 0n;
  if (perms & Permission.ADMINISTRATOR) return ALL_PERMISSIONS;
  return perms;
}

/** Channel permissions: Discord's overwrite order (@everyone, then roles combined, then the member). */
export function channelPermissions(
  guild: PermissionGuild,
  member: PermissionSubject,
  overwrites: readonly PermissionOverwrite[],
): bigint {
  const base = basePermissions(guild, member);
  if (base & Permission.ADMINISTRATOR || base === ALL_PERMISSIONS) return ALL_PERMISSIONS;
  let perms = base;
  const everyone = overwrites.find((o) => o.type === 0 && o.id === guild.id);
  if (everyone) perms = (perms & ~everyone.deny) | everyone.allow;
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type === 0 && o.id !== guild.id && member.roleIds.includes(o.id)) {
      allow |= o.allow;
      deny |= o.deny;
    }
  }
  perms = (perms & ~deny) | allow;
  const own = overwrites.find((o) => o.type === 1 && o.id === member.userId);
  if (own) perms = (perms & ~own.deny) | own.allow;
  // The implicit rules (no View Channel, no Send Messages) are not applied here: these are the bits
  // Discord's documented algorithm gives, the ones discord.js's `permissionsFor` computes and
  // interactions carry. `implicitPermissions` applies them where an action is checked.
  return perms;
}

/**
 * Discord's implicit permissions (Permissions topic): without View Channel a member has nothing in
 * the channel; without Send Messages they cannot mention everyone, send TTS, embed links or attach
 * files either (Administrator and owners, who hold every bit, are unaffected).
 */
export function implicitPermissions(perms: bigint): bigint {
  if (!(perms & Permission.VIEW_CHANNEL)) return 0n;
  if (!(perms & Permission.SEND_MESSAGES)) {
    perms &= ~(Permission.MENTION_EVERYONE | Permission.SEND_TTS_MESSAGES | Permission.EMBED_LINKS | Permission.ATTACH_FILES);
  }
  return perms;
}

export function hasPermission(perms: bigint, required: bigint): boolean {
  return (perms & required) === required;
}
