/**
 * The emulator's in-memory model of one Discord application: its bot user, the demo guild, channels,
 * DM channels, messages, registered commands and recent payload rejections. Mutations go through the
 * methods here so every change is announced to listeners (the gateway dispatches it, the test API's
 * event stream forwards it to the web page).
 */
import type {
  APIActionRowComponent,
  APIApplicationCommandOption,
  APIAttachment,
  APIComponentInActionRow,
  APIEmbed,
  APIMessageReference,
  APIMessageTopLevelComponent,
} from 'discord-api-types/v10';
import type { EmulatorClock } from './clock.ts';
import type { ErrorTree } from './errors.ts';
import { channelPermissions, basePermissions, DM_PERMISSIONS, implicitPermissions, type PermissionGuild, type PermissionOverwrite } from './permissions.ts';
import { compareSnowflakes, SnowflakeGenerator } from './snowflake.ts';

export interface UserRecord {
  id: string;
  username: string;
  globalName: string | null;
  discriminator: string;
  bot: boolean;
  /** The demo alias (alice, bob, …), when the user has one. */
  alias: string | null;
  /** Whether the user accepts DMs from the bot (POST /_test/users/:user/dms toggles it). */
  dmsOpen: boolean;
}

export interface RoleRecord {
  id: string;
  name: string;
  color: number;
  hoist: boolean;
  position: number;
  permissions: bigint;
  managed: boolean;
  mentionable: boolean;
  botId: string | null;
}

export interface MemberRecord {
  userId: string;
  roles: string[];
  joinedAt: string;
  nick: string | null;
}

export interface GuildRecord {
  id: string;
  name: string;
  ownerId: string;
  preferredLocale: string;
  systemChannelId: string | null;
  roles: Map<string, RoleRecord>;
  members: Map<string, MemberRecord>;
}

export const ChannelKind = { GuildText: 0, DM: 1, PublicThread: 11, PrivateThread: 12 } as const;

export interface ChannelRecord {
  id: string;
  type: 0 | 1 | 11 | 12;
  guildId: string | null;
  name: string | null;
  position: number;
  topic: string | null;
  overwrites: PermissionOverwrite[];
  /** DM channels: the human on the other side (the bot is the implicit second recipient). */
  recipientId: string | null;
  lastMessageId: string | null;
  /** Threads: the channel it lives in, who started it, when, and for how long it stays active (minutes). */
  thread?: { parentId: string; ownerId: string; createdAt: string; autoArchiveMinutes: 60 | 1440 | 4320 | 10080; memberIds: string[] };
}

/** What an interaction-created message remembers about the interaction (Discord's interaction_metadata). */
export interface MessageInteractionInfo {
  id: string;
  type: number;
  userId: string;
  /** Slash command name as shown ("knucklebones join"), for application command interactions. */
  name: string | null;
  commandType: number | null;
  /** Component interactions: the message whose component was used. */
  interactedMessageId: string | null;
  /** Followups: the interaction's original response message. */
  originalResponseMessageId: string | null;
}

export interface ReactionRecord {
  emoji: { id: string | null; name: string; animated?: boolean };
  userIds: string[];
}

export interface MessageRecord {
  id: string;
  channelId: string;
  guildId: string | null;
  authorId: string;
  content: string;
  embeds: APIEmbed[];
  components: APIMessageTopLevelComponent[];
  attachments: APIAttachment[];
  flags: number;
  type: number;
  timestamp: string;
  editedTimestamp: string | null;
  tts: boolean;
  mentionUserIds: string[];
  mentionRoleIds: string[];
  mentionEveryone: boolean;
  nonce: string | number | null;
  webhookId: string | null;
  applicationId: string | null;
  interaction: MessageInteractionInfo | null;
  reference: APIMessageReference | null;
  /** Ephemeral messages: the only user who can see them. null = everyone in the channel. */
  visibleTo: string | null;
  reactions: ReactionRecord[];
  pinned: boolean;
}

/** The validated content of one command, before ids are assigned. */
export interface CommandInput {
  type: number;
  name: string;
  description: string;
  options: APIApplicationCommandOption[];
  defaultMemberPermissions: string | null;
  dmPermission: boolean;
  contexts: number[] | null;
  integrationTypes: number[];
  nsfw: boolean;
  nameLocalizations: Record<string, string> | null;
  descriptionLocalizations: Record<string, string> | null;
}

export interface CommandRecord extends CommandInput {
  id: string;
  applicationId: string;
  guildId: string | null;
  version: string;
}

export interface Rejection {
  at: string;
  method: string;
  path: string;
  status: number;
  code: number;
  message: string;
  errors?: ErrorTree;
  /** The failing fields as `path: CODE message` lines. */
  details: string[];
}

export interface StoredFile {
  bytes: Buffer;
  contentType: string;
  filename: string;
}

export type EmulatorEvent =
  | { type: 'message.create'; message: MessageRecord }
  | { type: 'message.update'; message: MessageRecord }
  | { type: 'message.delete'; id: string; channelId: string; guildId: string | null; visibleTo: string | null }
  | { type: 'interaction.create'; id: string; interactionType: number; userId: string; channelId: string; name: string | null }
  | { type: 'interaction.response'; id: string; responseType: number }
  | { type: 'rejection'; rejection: Rejection }
  | { type: 'commands.update'; guildId: string | null; count: number }
  | { type: 'dms.update'; userId: string; open: boolean }
  | { type: 'thread.create'; channel: ChannelRecord }
  /** A channel's settings changed (its permission overwrites). */
  | { type: 'channel.update'; channel: ChannelRecord }
  /** A channel (or a thread, with its parent) was deleted. */
  | { type: 'channel.delete'; channel: ChannelRecord }
  /** A role's permissions changed. */
  | { type: 'role.update'; guildId: string; role: RoleRecord }
  | { type: 'clock.advance'; now: string; offsetMs: number }
  | { type: 'gateway'; event: 'identify' | 'resume' | 'close'; sessionId: string; code?: number };

/** A change the emulator makes without announcing it (no gateway event), that a data folder must keep. */
export type StateChange =
  | EmulatorEvent
  | { type: 'dm.open'; channel: ChannelRecord }
  | { type: 'nonce'; key: string; value: { messageId: string; at: number } };

export type EmulatorEventListener = (event: EmulatorEvent) => void;

export interface ApplicationRecord {
  id: string;
  name: string;
  description: string;
  botUserId: string;
  ownerId: string;
  flags: number;
}

/** Discord formats timestamps as ISO 8601 with microseconds and an explicit +00:00 offset. */
export function isoTimestamp(date: Date): string {
  return date.toISOString().replace(/Z$/, '000+00:00');
}

export const MAX_REJECTIONS = 50;

export class EmulatorState {
  readonly ids: SnowflakeGenerator;
  readonly users = new Map<string, UserRecord>();
  readonly guilds = new Map<string, GuildRecord>();
  readonly channels = new Map<string, ChannelRecord>();
  readonly messages = new Map<string, MessageRecord>();
  readonly channelMessages = new Map<string, string[]>();
  readonly dmChannelByUser = new Map<string, string>();
  readonly commands = new Map<string, CommandRecord>();
  readonly files = new Map<string, StoredFile>();
  readonly rejections: Rejection[] = [];
  /** `${authorId}:${channelId}:${nonce}` -> message id and when (emulator ms) it was created. */
  readonly nonces = new Map<string, { messageId: string; at: number }>();
  /** Channels of the definition deleted at run time (a data folder keeps them deleted). */
  readonly deletedChannelIds = new Set<string>();
  /** Channels whose overwrites, and roles whose permissions, were changed at run time (a data folder keeps those). */
  readonly changedOverwrites = new Set<string>();
  readonly changedRoles = new Set<string>();
  private readonly listeners = new Set<EmulatorEventListener>();
  application!: ApplicationRecord;

  constructor(readonly clock: EmulatorClock) {
    this.ids = new SnowflakeGenerator(() => clock.now().getTime());
  }

  // ---- events -------------------------------------------------------------------------------

  on(listener: EmulatorEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Listeners told of any change, announced or not (an opened DM channel, a cleared list): what the
   * data folder saves. `change` says what changed when it is something the bot was told of (a
   * message, a channel, a nonce): the data folder journals those before the answer leaves.
   */
  private readonly changeListeners = new Set<(change?: StateChange) => void>();

  onChange(listener: (change?: StateChange) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  changed(change?: StateChange): void {
    for (const l of [...this.changeListeners]) l(change);
  }

  /** Remembers an enforced nonce (POST /channels/:id/messages with enforce_nonce). */
  rememberNonce(key: string, value: { messageId: string; at: number }): void {
    this.nonces.set(key, value);
    this.changed({ type: 'nonce', key, value });
  }

  emit(event: EmulatorEvent): void {
    this.changed(event);
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // A broken listener must not break the emulator.
      }
    }
  }

  now(): Date {
    return this.clock.now();
  }

  nowIso(): string {
    return isoTimestamp(this.clock.now());
  }

  // ---- lookups ------------------------------------------------------------------------------

  get botUser(): UserRecord {
    const u = this.users.get(this.application.botUserId);
    if (!u) throw new Error('bot user missing');
    return u;
  }

  /** The demo guild (the emulator hosts exactly one). */
  get guild(): GuildRecord {
    const g = this.guilds.values().next().value;
    if (!g) throw new Error('no guild');
    return g;
  }

  /** A user by id, alias ("alice"), username, or mention ("<@id>"). */
  resolveUser(ref: string): UserRecord | undefined {
    const r = ref.trim();
    const mention = /^<@!?(\d+)>$/.exec(r);
    if (mention?.[1]) return this.users.get(mention[1]);
    const byId = this.users.get(r);
    if (byId) return byId;
    const lower = r.replace(/^@/, '').toLowerCase();
    for (const u of this.users.values()) {
      if (u.alias === lower || u.username.toLowerCase() === lower || u.globalName?.toLowerCase() === lower) return u;
    }
    return undefined;
  }

  /** A guild channel by id, name ("knucklebones" or "#knucklebones") or mention ("<#id>"); a DM channel by id. */
  resolveChannel(ref: string): ChannelRecord | undefined {
    const r = ref.trim();
    const mention = /^<#(\d+)>$/.exec(r);
    if (mention?.[1]) return this.channels.get(mention[1]);
    const byId = this.channels.get(r);
    if (byId) return byId;
    const name = r.replace(/^#/, '').toLowerCase();
    for (const c of this.channels.values()) if (c.type === ChannelKind.GuildText && c.name === name) return c;
    return undefined;
  }

  resolveRole(guild: GuildRecord, ref: string): RoleRecord | undefined {
    const r = ref.trim();
    const mention = /^<@&(\d+)>$/.exec(r);
    const id = mention?.[1] ?? r;
    const byId = guild.roles.get(id);
    if (byId) return byId;
    const name = r.replace(/^@(?!everyone)/, '').toLowerCase();
    for (const role of guild.roles.values()) if (role.name.toLowerCase() === name) return role;
    return undefined;
  }

  member(guildId: string, userId: string): MemberRecord | undefined {
    return this.guilds.get(guildId)?.members.get(userId);
  }

  permissionGuild(guild: GuildRecord): PermissionGuild {
    return { id: guild.id, ownerId: guild.ownerId, rolePermissions: (roleId) => guild.roles.get(roleId)?.permissions };
  }

  /** Guild-wide permissions of a member (0 when not a member). */
  guildPermissions(guildId: string, userId: string): bigint {
    const guild = this.guilds.get(guildId);
    const member = guild?.members.get(userId);
    if (!guild || !member) return 0n;
    return basePermissions(this.permissionGuild(guild), { userId, roleIds: member.roles });
  }

  /**
   * What a user may do in a channel: overwrites applied, then Discord's implicit rules (nothing
   * without View Channel; no uploads, embeds or mass mentions without Send Messages). What every
   * route checks. DMs: the fixed DM set for its participants.
   */
  permissionsIn(channel: ChannelRecord, userId: string): bigint {
    return implicitPermissions(this.computedPermissionsIn(channel, userId));
  }

  /**
   * The permission bits Discord reports for a user in a channel (app_permissions, member.permissions
   * in interactions): roles and overwrites, as discord.js's `permissionsFor` computes them, without
   * the implicit rules.
   */
  computedPermissionsIn(channel: ChannelRecord, userId: string): bigint {
    if (channel.type === ChannelKind.DM) {
      return userId === channel.recipientId || userId === this.application.botUserId ? DM_PERMISSIONS : 0n;
    }
    if (channel.thread) {
      // A thread takes its channel's permissions; sending there needs SEND_MESSAGES_IN_THREADS, and a
      // private thread is seen only by its members (and those who may manage threads).
      const parent = this.channels.get(channel.thread.parentId);
      if (!parent) return 0n;
      let perms = this.computedPermissionsIn(parent, userId);
      if (channel.type === ChannelKind.PrivateThread && !channel.thread.memberIds.includes(userId) && (perms & (1n << 34n)) === 0n) return 0n;
      const SEND = 1n << 11n;
      perms = (perms & (1n << 38n)) !== 0n ? perms | SEND : perms & ~SEND;
      return perms;
    }
    const guild = channel.guildId ? this.guilds.get(channel.guildId) : undefined;
    const member = guild?.members.get(userId);
    if (!guild || !member) return 0n;
    return channelPermissions(this.permissionGuild(guild), { userId, roleIds: member.roles }, channel.overwrites);
  }

  /** The DM channel between the bot and a user, created on first use (as POST /users/@me/channels does). */
  openDm(userId: string): ChannelRecord {
    const existing = this.dmChannelByUser.get(userId);
    const found = existing ? this.channels.get(existing) : undefined;
    if (found) return found;
    const channel: ChannelRecord = {
      id: this.ids.next(),
      type: ChannelKind.DM,
      guildId: null,
      name: null,
      position: 0,
      topic: null,
      overwrites: [],
      recipientId: userId,
      lastMessageId: null,
    };
    this.channels.set(channel.id, channel);
    this.channelMessages.set(channel.id, []);
    this.dmChannelByUser.set(userId, channel.id);
    this.changed({ type: 'dm.open', channel });
    return channel;
  }

  dmChannelOf(userId: string): ChannelRecord | undefined {
    const id = this.dmChannelByUser.get(userId);
    return id ? this.channels.get(id) : undefined;
  }

  /** Whether a user can see a channel at all (guild members with VIEW_CHANNEL; DM participants). */
  canView(channel: ChannelRecord, userId: string): boolean {
    return (this.permissionsIn(channel, userId) & (1n << 10n)) !== 0n;
  }

  // ---- channel and role settings (what a server's moderators change) -------------------------

  /** Replaces (or adds) the overwrite of one role or member in a guild channel; allow and deny both 0 removes it. */
  setOverwrite(channel: ChannelRecord, target: { id: string; type: 0 | 1 }, allow: bigint, deny: bigint): void {
    if (channel.type !== ChannelKind.GuildText) throw new Error('only guild text channels have permission overwrites here');
    const rest = channel.overwrites.filter((o) => o.id !== target.id);
    channel.overwrites = allow === 0n && deny === 0n ? rest : [...rest, { id: target.id, type: target.type, allow, deny }];
    this.changedOverwrites.add(channel.id);
    this.emit({ type: 'channel.update', channel });
  }

  clearOverwrite(channel: ChannelRecord, targetId: string): boolean {
    const before = channel.overwrites.length;
    channel.overwrites = channel.overwrites.filter((o) => o.id !== targetId);
    if (channel.overwrites.length === before) return false;
    this.changedOverwrites.add(channel.id);
    this.emit({ type: 'channel.update', channel });
    return true;
  }

  setRolePermissions(guild: GuildRecord, role: RoleRecord, permissions: bigint): void {
    role.permissions = permissions;
    this.changedRoles.add(role.id);
    this.emit({ type: 'role.update', guildId: guild.id, role });
  }

  /** Deletes a guild channel, its threads and their messages (Discord's CHANNEL_DELETE / THREAD_DELETE). */
  deleteChannel(channel: ChannelRecord): void {
    if (channel.type === ChannelKind.DM) throw new Error('a DM channel cannot be deleted');
    const threads = [...this.channels.values()].filter((c) => c.thread?.parentId === channel.id);
    for (const c of [...threads, channel]) {
      for (const id of this.channelMessages.get(c.id) ?? []) this.messages.delete(id);
      this.channelMessages.delete(c.id);
      this.channels.delete(c.id);
    }
    if (!channel.thread) this.deletedChannelIds.add(channel.id);
    const guild = channel.guildId ? this.guilds.get(channel.guildId) : undefined;
    if (guild && guild.systemChannelId === channel.id) guild.systemChannelId = null;
    for (const c of threads) this.emit({ type: 'channel.delete', channel: c });
    this.emit({ type: 'channel.delete', channel });
  }

  // ---- messages -----------------------------------------------------------------------------

  messagesIn(channelId: string): MessageRecord[] {
    const ids = this.channelMessages.get(channelId) ?? [];
    const out: MessageRecord[] = [];
    for (const id of ids) {
      const m = this.messages.get(id);
      if (m) out.push(m);
    }
    return out;
  }

  isVisibleTo(message: MessageRecord, userId: string): boolean {
    return message.visibleTo === null || message.visibleTo === userId;
  }

  createMessage(input: Omit<MessageRecord, 'id' | 'timestamp' | 'editedTimestamp' | 'reactions' | 'pinned'> & { id?: string }): MessageRecord {
    const id = input.id ?? this.ids.next();
    const message: MessageRecord = { ...input, id, timestamp: this.nowIso(), editedTimestamp: null, reactions: [], pinned: false };
    this.messages.set(id, message);
    const list = this.channelMessages.get(message.channelId) ?? [];
    // Kept in id order: a new message's id is the newest but for one given by the caller (a restore).
    let at = list.length;
    while (at > 0 && compareSnowflakes(list[at - 1]!, id) > 0) at--;
    list.splice(at, 0, id);
    this.channelMessages.set(message.channelId, list);
    const channel = this.channels.get(message.channelId);
    if (channel && message.visibleTo === null) channel.lastMessageId = id;
    this.emit({ type: 'message.create', message });
    return message;
  }

  /** Applies a change and announces it; `edited` stamps edited_timestamp (content edits, not reactions). */
  updateMessage(message: MessageRecord, patch: Partial<MessageRecord>, edited = true): MessageRecord {
    Object.assign(message, patch);
    if (edited) message.editedTimestamp = this.nowIso();
    this.emit({ type: 'message.update', message });
    return message;
  }

  deleteMessage(message: MessageRecord): void {
    this.messages.delete(message.id);
    const list = this.channelMessages.get(message.channelId);
    if (list) {
      const i = list.indexOf(message.id);
      if (i >= 0) list.splice(i, 1);
    }
    const channel = this.channels.get(message.channelId);
    if (channel && channel.lastMessageId === message.id) {
      const publicIds = this.messagesIn(channel.id).filter((m) => m.visibleTo === null);
      channel.lastMessageId = publicIds.at(-1)?.id ?? null;
    }
    this.emit({ type: 'message.delete', id: message.id, channelId: message.channelId, guildId: message.guildId, visibleTo: message.visibleTo });
  }

  // ---- commands -----------------------------------------------------------------------------

  commandsFor(guildId: string | null): CommandRecord[] {
    return [...this.commands.values()].filter((c) => c.guildId === guildId).sort((a, b) => compareSnowflakes(a.id, b.id));
  }

  /** The command a user would pick by name in a guild (guild commands override global ones) or DM. */
  findCommand(name: string, guildId: string | null, type = 1): CommandRecord | undefined {
    const all = [...this.commands.values()].filter((c) => c.name === name && c.type === type);
    return (guildId ? all.find((c) => c.guildId === guildId) : undefined) ?? all.find((c) => c.guildId === null);
  }

  // ---- rejections ---------------------------------------------------------------------------

  recordRejection(r: Rejection): void {
    this.rejections.push(r);
    if (this.rejections.length > MAX_REJECTIONS) this.rejections.splice(0, this.rejections.length - MAX_REJECTIONS);
    this.emit({ type: 'rejection', rejection: r });
  }
}

/** Walks every component of a message (rows, containers, sections, accessories), depth first. */
export function* walkComponents(components: readonly unknown[]): Generator<Record<string, unknown>> {
  for (const c of components) {
    if (!c || typeof c !== 'object') continue;
    const comp = c as Record<string, unknown>;
    yield comp;
    if (Array.isArray(comp.components)) yield* walkComponents(comp.components);
    if (comp.accessory && typeof comp.accessory === 'object') yield* walkComponents([comp.accessory]);
    if (comp.component && typeof comp.component === 'object') yield* walkComponents([comp.component]);
  }
}

export type ActionRow = APIActionRowComponent<APIComponentInActionRow>;
